class Basket:
    def __init__(self, *items):
        self.items = list(items)

    def __len__(self):
        return len(self.items)

    def __str__(self):
        return ", ".join(self.items)

    def __repr__(self):
        return f"Basket({len(self)} items)"


basket = Basket("apple", "pear")
print(len(basket), str(basket), repr(basket))
