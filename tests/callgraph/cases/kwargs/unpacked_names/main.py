def on_save():
    return "saved"


def on_load():
    return "loaded"


def on_error():
    return "error"


def run(handler, fallback=None):
    return handler()


def pair(first, second):
    return second()


def forward(*args, **kwargs):
    return run(*args, **kwargs)


def forward_tail(head, *rest):
    return pair(head, *rest)


class Base:
    def __init__(self, **options):
        self.callback = options.get("callback")

    def fire(self):
        return self.callback()


class Child(Base):
    def __init__(self, **options):
        super().__init__(**options)


OPTIONS = {"handler": on_save}
print(run(**OPTIONS))
HANDLERS = (on_error, on_load)
print(pair(*HANDLERS))
print(forward(on_save))
print(forward_tail(on_error, on_load))
print(Child(callback=on_error).fire())
