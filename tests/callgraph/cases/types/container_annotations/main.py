class Item:
    def __init__(self, cents):
        self.cents = cents

    def price(self):
        return self.cents / 100


def total(items: list[Item]) -> float:
    return sum(item.price() for item in items)


def most_expensive(catalog: dict[str, Item]) -> str:
    return max(catalog, key=lambda name: catalog[name].price())


print(total([Item(150), Item(250)]), most_expensive({"a": Item(1), "b": Item(2)}))
