from collections import namedtuple
from typing import NamedTuple


class Point(NamedTuple):
    x: int
    y: int

    def norm(self):
        return abs(self.x) + abs(self.y)


class Size(namedtuple("Size", "w h")):
    def area(self):
        return self.w * self.h


def from_row(row) -> int:
    return Point._make(row).norm()


def from_pair(pair):
    size = Size._make(pair)
    return size.area()


print(from_row([1, 2]), from_pair((2, 3)))
