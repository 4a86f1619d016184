class Money:
    def __init__(self, cents):
        self.cents = cents

    def __add__(self, other):
        return Money(self.cents + other.cents)


class Counter:
    def __init__(self):
        self.value = 0

    def __iadd__(self, amount):
        self.value += amount
        return self


total = Money(0)
for price in (Money(150), Money(250)):
    total += price
hits = Counter()
hits += 3
print(total.cents, hits.value)
