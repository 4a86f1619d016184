from typing import Optional


class User:
    def __init__(self, name):
        self.name = name

    def greet(self):
        return f"hi {self.name}"


USERS = {"ann": User("ann")}


def find(name) -> Optional[User]:
    return USERS.get(name)


def welcome(name):
    user = find(name)
    if user is None:
        return "who?"
    return user.greet()


print(welcome("ann"), welcome("bob"))
