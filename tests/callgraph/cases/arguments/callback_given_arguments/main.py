class Response:
    def __init__(self, body):
        self.body = body

    def render(self):
        return f"<p>{self.body}</p>"


def show(response):
    return response.render()


def call_with(func, arg):
    return func(arg)


def handle(handler):
    return call_with(handler, Response("hi"))


class Greeter:
    def hello(self, name):
        return "hello " + name

    def shout(self, fn, name):
        return fn(name).upper()

    def run(self, use, fn):
        return use(fn, "bob")


print(handle(show))
greeter = Greeter()
print(greeter.run(greeter.shout, greeter.hello))
