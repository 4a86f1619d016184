class Base:
    def greet(self):
        return "base"


class Left(Base):
    def greet(self):
        return "left"


class Right(Base):
    def greet(self):
        return "right"


class Child(Left, Right):
    pass


print(Child().greet())
