class Cart:
    def __init__(self):
        self.items = []

    def add(self, price):
        self.items.append(price)

    def total(self):
        return sum(self.items)


def fill(cart: Cart, prices: list[float]) -> None:
    for price in prices:
        cart.add(price)


def checkout(cart: Cart) -> str:
    return f"pay {cart.total()}"


cart = Cart()
fill(cart, [5.0, 2.5])
print(checkout(cart))
