from shop import Order
from sql import cast


def as_order(column):
    # not typing's cast: it builds an expression, whose compile() runs
    return cast(column, Order).compile()
