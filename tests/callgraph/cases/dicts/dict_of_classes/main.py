class Circle:
    def __init__(self, radius):
        self.radius = radius

    def area(self):
        return 3.14159 * self.radius**2


class Square:
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side**2


SHAPES = {"circle": Circle, "square": Square}


def make_shape(kind, size):
    return SHAPES[kind](size)


print(make_shape("circle", 1).area(), make_shape("square", 2).area())
