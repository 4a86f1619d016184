class Shape:
    def __init__(self):
        self.sides = 0

    @classmethod
    def blank(cls):
        return cls()

    def fresh(self):
        return self.blank()


class Square(Shape):
    def __init__(self):
        super().__init__()
        self.sides = 4


class Circle(Shape):
    pass


for shape in (Shape(), Square(), Circle()):
    print(shape.fresh().sides)
