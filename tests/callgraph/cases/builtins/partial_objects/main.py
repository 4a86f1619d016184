import functools
from functools import partial


class Signer:
    def __init__(self, key, salt="s"):
        self.key = key
        self.salt = salt

    def sign(self, value):
        return f"{value}.{self.key}"


class Plain:
    def sign(self, value):
        return value


def compose(prefix, value):
    return Signer(prefix + value)


def factory():
    return partial(Signer, salt="x")


make = partial(Signer, key="k")
print(make().sign("a"))
build = functools.partial(compose, "p")
print(build("v").sign("b"))
print(factory()("key").sign("c"))
