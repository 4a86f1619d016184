class Invoice:
    def __init__(self, total):
        self.total = total

    def render(self):
        return f"invoice {self.total}"


class Customer:
    def latest_invoice(self) -> Invoice:
        return Invoice(99)


class Store:
    def customer(self, name) -> Customer:
        return Customer()


def open_store() -> Store:
    return Store()


print(open_store().customer("ann").latest_invoice().render())
