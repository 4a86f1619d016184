import random
import typing
from typing import Generic, TypeVar


class Shape:
    def area(self):
        return 0


class Square(Shape):
    def area(self):
        return 4


class Label:
    def area(self):
        return 1


S = TypeVar("S", bound=Shape)
L = typing.TypeVar("L", bound="Label")
Either = TypeVar("Either", Label, Square)
Anything = TypeVar("Anything")


def biggest(first: S, second: S) -> S:
    return first if first.area() >= second.area() else second


def label_area(label: L) -> int:
    return label.area()


def either_area(item: Either) -> int:
    return item.area()


def opaque(item: Anything) -> Anything:
    item.area()
    return item


class Frame(Generic[S]):
    def __init__(self, shape: S):
        self.shape = shape

    def area(self):
        return self.shape.area()


# random.choice hides the arguments from the call graph: only the annotations tell
biggest(random.choice([Shape()]), random.choice([Square()]))
label_area(random.choice([Label()]))
either_area(random.choice([Label()]))
either_area(random.choice([Square()]))
opaque(random.choice([Label()]))
Frame(random.choice([Shape()])).area()
Frame(random.choice([Square()])).area()
