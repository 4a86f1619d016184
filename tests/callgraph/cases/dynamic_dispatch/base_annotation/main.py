class Shape:
    def area(self):
        raise NotImplementedError


class Circle(Shape):
    def __init__(self, radius):
        self.radius = radius

    def area(self):
        return 3.14159 * self.radius**2


class Square(Shape):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side**2


def describe(shape: Shape) -> str:
    return f"area {shape.area():.2f}"


print(describe(Circle(1)), describe(Square(2)))
