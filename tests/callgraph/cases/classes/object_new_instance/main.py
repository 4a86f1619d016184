class Environment:
    def __init__(self, name):
        self.name = name

    def overlay(self):
        made = object.__new__(self.__class__)
        made.__dict__.update(self.__dict__)
        return made

    def render(self):
        return f"env {self.name}"


class Sandboxed(Environment):
    def render(self):
        return f"sandboxed {self.name}"


class Marker:
    def describe(self):
        return "marker"


def main():
    print(Sandboxed("s").overlay().render())
    print(object.__new__(Marker).describe())


main()
