def shout(text):
    return text.upper() + "!"


def log_event(handler, event):
    return f"{type(handler).__name__} got {event}"


class Greeter:
    style = staticmethod(shout)

    def greet(self, name):
        return self.style(f"hello {name}")


class Handler:
    on_event = log_event


print(Greeter().greet("ann"), Handler().on_event("click"))
