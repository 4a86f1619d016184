class Handler:
    def title(self):
        return "Handler"


HANDLERS = {"save": Handler(), "load": Handler()}


def describe():
    for name, handler in HANDLERS.items():
        print(name, handler.title())


def names():
    for name, handler in HANDLERS.items():
        print(name.title(), handler)


describe()
names()
