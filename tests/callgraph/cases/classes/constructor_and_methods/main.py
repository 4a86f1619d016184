class Cart:
    def __init__(self, owner):
        self.owner = owner
        self.lines = []
        self.reset()

    def reset(self):
        self.lines = []

    def add(self, item, price):
        self.lines.append((item, price))
        return self

    def total(self):
        return sum(price for _, price in self.lines)


cart = Cart("ann")
cart.add("tea", 3)
print(cart.total())
