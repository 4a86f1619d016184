class Greeting:
    def __init__(self, name):
        self.name = name

    def __call__(self, punctuation="!"):
        return f"Hello {self.name}{punctuation}"

    def __str__(self):
        return self()

    def __repr__(self):
        return f"Greeting({self.name!r})"

    def __bool__(self):
        return bool(self.name)


greeting = Greeting("ann")
if greeting:
    print(str(greeting), repr(greeting), greeting("?"))
