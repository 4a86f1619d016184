class Order:
    def total(self):
        return 10
