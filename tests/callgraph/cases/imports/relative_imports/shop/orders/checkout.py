from ..pricing import apply_discount
from . import receipts


def checkout(amount):
    total = apply_discount(amount, 10)
    return receipts.render(total)
