from functools import singledispatch, singledispatchmethod


@singledispatch
def describe(value):
    return "something"


@describe.register
def _(value: int):
    return "a number " + sign(value)


@describe.register(list)
def _describe_list(value):
    return "a list"


def _describe_dict(value):
    return "a dict"


describe.register(dict, _describe_dict)


def sign(value):
    return "+" if value >= 0 else "-"


class Printer:
    @singledispatchmethod
    def show(self, value):
        return str(value)

    @show.register
    def _(self, value: bool):
        return "yes" if value else "no"


print(describe(1), describe([]), describe({}))
print(Printer().show(True))
