class Handle:
    @property
    def ptr(self):
        return self._ptr

    @ptr.setter
    def ptr(self, value):
        self._ptr = value


class Geometry(Handle):
    def __init__(self, value):
        self.ptr = value

    def describe(self):
        return self.ptr


class Cached:
    def __init__(self):
        self.size = 3

    def total(self):
        return self.size


class Sized(Cached):
    pass


print(Geometry(1).describe(), Sized().total())
