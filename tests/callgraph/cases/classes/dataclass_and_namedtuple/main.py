from dataclasses import dataclass
from typing import NamedTuple


@dataclass
class Point:
    x: float
    y: float

    def norm(self):
        return (self.x**2 + self.y**2) ** 0.5


class Pair(NamedTuple):
    left: str
    right: str

    def joined(self):
        return self.left + self.right


print(Point(3, 4).norm(), Pair("a", "b").joined())
