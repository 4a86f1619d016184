class Base:
    def save(self):
        return "base save"


class Left(Base):
    pass


class Right(Base):
    def save(self):
        return "right save"


class Child(Left, Right):
    pass


print(Child().save())
