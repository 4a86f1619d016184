class Shape:
    def area(self):
        return 0


class Square(Shape):
    def area(self):
        return 4


class Circle(Shape):
    def area(self):
        return 3

    def radius(self):
        return 1


class Label:
    def render(self):
        return "label"


def describe(item):
    if isinstance(item, Circle):
        return item.radius()
    if isinstance(item, (Square, Label)) and item is not None:
        return item
    return None


def measure(shape: Shape):
    if isinstance(shape, Circle):
        return shape.area()
    return 0


def strict(item):
    if not isinstance(item, Label):
        raise TypeError(item)
    return item.render()


def checked(item):
    assert isinstance(item, Square)
    return item.area()


def fallback(value):
    if isinstance(value, str):
        return value.upper()
    return value


print(describe(Circle()), measure(Circle()), strict(Label()), checked(Square()), fallback("x"))
