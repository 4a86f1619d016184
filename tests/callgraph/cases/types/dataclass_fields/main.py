from dataclasses import dataclass


class Customer:
    def __init__(self, email):
        self.email = email

    def notify(self, text):
        return f"to {self.email}: {text}"


@dataclass
class Order:
    customer: Customer
    amount: float

    def confirm(self):
        return self.customer.notify(f"order of {self.amount} confirmed")


def ship(order: Order):
    return order.customer.notify("shipped")


order = Order(Customer("a@example.com"), 10.0)
print(order.confirm(), ship(order))
