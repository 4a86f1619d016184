from shapes import Shape


class Square(Shape):  # the imported Shape: the class below is not defined yet
    pass


class Shape:  # shadows the import from here on
    def area(self):
        return 1


print(Square().area())
