class Invoice:
    def __init__(self, amount):
        self.amount = amount

    def with_tax(self):
        return self.amount * 1.2


first = Invoice(10)
print(Invoice.with_tax(first))
