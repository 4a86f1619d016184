class Shape:
    def area(self):
        return 0


class Square(Shape):
    def area(self):
        return 4


class Circle(Shape):
    def area(self):
        return 3


class Settings:
    def read(self):
        return "settings"


class Defaults:
    def read(self):
        return "defaults"


def make_shape() -> Shape:
    return Square()


def load() -> Settings:
    return Defaults()  # wrong annotation: callers get what runs


class Workshop:
    def build(self) -> Shape:
        return Circle()


print(make_shape().area(), load().read(), Workshop().build().area())
