import typing as t
from typing import Generic, Protocol, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Store(Generic[K, V]):
    def __init__(self):
        self.data = {}

    def to_dict(self):
        return dict(self.data)


class ReadOnly(t.Generic[K]):
    def freeze(self):
        return self


class Sized(Protocol):
    def size(self) -> int: ...


class Frozen(ReadOnly[K], Store[K, V]):
    def size(self):
        return len(self.to_dict())


def use():
    f = Frozen()
    f.freeze()
    return f.size()


use()
