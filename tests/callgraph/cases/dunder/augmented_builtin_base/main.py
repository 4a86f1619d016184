class Bag(list):
    def __add__(self, other):
        return Bag(list(self) + list(other))


class Money:
    def __init__(self, cents):
        self.cents = cents

    def __add__(self, other):
        return Money(self.cents + other.cents)


bag = Bag([1])
bag += [2]  # list.__iadd__: Bag.__add__ is not called
total = Money(1)
total += Money(2)  # no __iadd__: Money.__add__
