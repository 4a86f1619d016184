class Base:
    def __new__(cls, value):
        return object.__new__(cls)

    def describe(self):
        return "base"


class Other:
    def describe(self):
        return "other"


class MyInt(int):
    def __new__(cls, value):
        return super().__new__(cls, value)  # int.__new__, before Base in any subclass


class Mixin:
    def describe(self):
        return "mixin+" + super().describe()


class Hex(MyInt, Base):
    pass


class Both(Mixin, Base):
    pass


h = Hex(5)
print(Both(1).describe())
for Kind in (Other, Base):
    class Made(Mixin, Kind):  # a different base each time round
        pass
