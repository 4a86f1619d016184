class Order:
    def __init__(self, lines):
        self.lines = lines

    @property
    def subtotal(self):
        return sum(qty * price for qty, price in self.lines)

    @property
    def total(self):
        return self.subtotal * 1.2


order = Order([(2, 5.0), (1, 3.0)])
print(order.total)
