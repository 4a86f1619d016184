class PaymentError(Exception):
    def describe(self):
        return f"payment failed: {self.args[0]}"


def charge(amount):
    if amount > 100:
        raise PaymentError("limit exceeded")
    return amount


def checkout(amount):
    try:
        return charge(amount)
    except PaymentError as exc:
        return exc.describe()


print(checkout(50), checkout(500))
