import enum
from typing import Generic, TypeVar

T = TypeVar("T")


class Box(Generic[T]):
    def __init__(self, item: T) -> None:
        self.item = item

    def get(self) -> T:
        return self.item

    @classmethod
    def of(cls, item: T) -> "Box[T]":
        return cls(item)


class Color(enum.Enum):
    RED = 1

    def describe(self) -> str:
        return self.name.lower()


IntBox = Box[int]


def main() -> None:
    print(Box[str]("a").get())
    print(IntBox(3).get())
    print(Box[float].of(1.5).get())
    print(Color["RED"].describe())


main()
