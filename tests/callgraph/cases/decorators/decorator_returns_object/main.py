class Command:
    def __init__(self, callback):
        self.callback = callback

    def main(self):
        return self.callback()


def command(f):
    return Command(f)


@command
def greet():
    return "hello"


greet.main()
