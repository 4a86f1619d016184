def audited(method):
    def wrapper(self, *args):
        self.log.append(method.__name__)
        return method(self, *args)

    return wrapper


class Account:
    def __init__(self):
        self.log = []
        self.balance = 0

    @audited
    def deposit(self, amount):
        self.balance += amount
        return self.balance


account = Account()
print(account.deposit(5), account.log)
