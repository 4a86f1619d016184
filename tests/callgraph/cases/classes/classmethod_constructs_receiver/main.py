class Base:
    def __init__(self):
        self.kind = "base"

    @classmethod
    def make(cls):
        return cls()

    @classmethod
    def pair(cls):
        return cls.make(), cls.make()

    def describe(self):
        return "base"


class Sub(Base):
    def __init__(self):
        self.kind = "sub"

    def describe(self):
        return "sub"


sub = Sub()
print(Sub.make().describe())
print(sub.make().kind)
print([item.describe() for item in Sub.pair()])
