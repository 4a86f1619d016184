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


def moved(p: Point) -> int:
    return p._replace(x=p.x + 1).norm()


def grown(size: Size) -> int:
    bigger = size._replace(w=size.w * 2)
    return bigger.area()


print(moved(Point(1, 2)), grown(Size(2, 3)))
