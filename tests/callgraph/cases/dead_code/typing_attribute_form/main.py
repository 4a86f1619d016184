import typing


def expensive_validation(rows):
    return all(rows)


def load(rows):
    if typing.TYPE_CHECKING:
        expensive_validation(rows)
    return list(rows)


print(load([1, 2]))
