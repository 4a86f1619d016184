class Order:
    def __init__(self, number):
        self.number = number

    def total(self):
        return self.number * 10


def open_orders():
    for n in range(3):
        yield Order(n)


def revenue():
    return sum(order.total() for order in open_orders())


print(revenue())
