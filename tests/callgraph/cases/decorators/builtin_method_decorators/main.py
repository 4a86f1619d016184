class Circle:
    def __init__(self, radius):
        self.radius = radius

    @property
    def diameter(self):
        return self.radius * 2

    @staticmethod
    def unit():
        return Circle(1)

    @classmethod
    def from_diameter(cls, d):
        return cls(d / 2)


c = Circle.from_diameter(10)
print(c.diameter, Circle.unit().diameter)
