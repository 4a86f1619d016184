class Account:
    def __init__(self, cents):
        self.cents = cents

    @property
    def balance(self):
        return self.cents / 100


def statement(account: Account) -> str:
    return f"balance: {account.balance:.2f}"


print(statement(Account(1234)))
