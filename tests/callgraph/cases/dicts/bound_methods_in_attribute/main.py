class Router:
    def __init__(self):
        self.handlers = {"ping": self.ping, "echo": self.echo}

    def ping(self, _):
        return "pong"

    def echo(self, text):
        return text

    def handle(self, name, arg):
        return self.handlers[name](arg)


router = Router()
print(router.handle("ping", None), router.handle("echo", "hi"))
