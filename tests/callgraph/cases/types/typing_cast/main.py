import typing
from typing import cast

from query import as_order
from shop import Order


class RushOrder(Order):
    def total(self):
        return super().total() * 2


def summarise(row, other):
    order = cast(Order, row)
    pending = typing.cast("Order", other)
    return order.total() + pending.total() + cast(dict, vars(row)).get("n", 0)


print(summarise(Order(), RushOrder()), as_order("price"))
