import copy
import dataclasses
from copy import deepcopy


@dataclasses.dataclass
class Point:
    x: int

    def norm(self):
        return abs(self.x)


class Field:
    def clone(self):
        obj = copy.copy(self)
        obj.prepare()
        return obj

    def prepare(self):
        return "prepared"

    def describe(self):
        return "field"


class Other:
    def describe(self):
        return "other"


def shout():
    return "!"


print(Field().clone().describe())
moved = dataclasses.replace(Point(1), x=-2)
print(moved.norm())
print(deepcopy(Point(3)).norm())
print(copy.copy(shout)())
