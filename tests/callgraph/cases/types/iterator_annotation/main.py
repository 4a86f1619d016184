from collections.abc import Generator, Iterator


class Item:
    def __init__(self, name):
        self.name = name

    def label(self):
        return self.name.upper()


class Basket:
    def __init__(self, *names):
        self.items = [Item(n) for n in names]

    def __iter__(self) -> Iterator[Item]:
        return iter(self.items)


class Shelf:
    def __init__(self, basket):
        self.basket = basket

    def __iter__(self) -> Generator[Item, None, None]:
        for item in self.basket:
            yield item


def labels(shelf: Shelf):
    return [item.label() for item in shelf]


print([item.label() for item in Basket("a", "b")], labels(Shelf(Basket("c"))))
