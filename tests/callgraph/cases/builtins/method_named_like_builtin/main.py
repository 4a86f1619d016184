class Ledger:
    def __init__(self):
        self.entries = []

    def add(self, amount):
        self.entries.append(amount)

    def sorted(self):
        return sorted(self.entries)

    def max(self):
        return max(self.entries, default=0)


ledger = Ledger()
ledger.add(3)
ledger.add(1)
print(ledger.sorted(), ledger.max(), sorted([2, 1]), max(4, 5))
