class CountCalls:
    def __init__(self, func):
        self.func = func
        self.calls = 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.func(*args, **kwargs)


class Register:
    def __init__(self, func):
        self.func = func


@CountCalls
def greet(name):
    return f"hello {name}"


@Register
def hook():
    return "hook"


print(greet("ada"), greet.calls)
