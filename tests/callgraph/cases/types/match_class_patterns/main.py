import random


class Circle:
    def __init__(self, radius):
        self.radius = radius

    def area(self):
        return 3 * self.radius * self.radius


class Square:
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side * self.side


class Triangle:
    def area(self):
        return 1


class Drawing:
    def __init__(self, shape):
        self.shape = shape


def describe(shape):
    match shape:
        case Circle(radius=0):
            return "a point"
        case Circle() | Square():
            return f"area {shape.area()}"
        case Triangle() as triangle:
            return f"triangle {triangle.area()}"
        case [first, *_]:
            return f"many, the first {first.area()}"
    return "unknown"


def describe_drawing(drawing):
    match drawing.shape:
        case Square(side=side) if side > 1:
            return drawing.shape.area()
    return 0


# random.choice hides the arguments from the call graph: only the patterns tell
for item in (Circle(1), Square(2), Triangle(), [Circle(2)]):
    print(describe(random.choice([item])))
print(describe_drawing(Drawing(random.choice([Square(3)]))))
