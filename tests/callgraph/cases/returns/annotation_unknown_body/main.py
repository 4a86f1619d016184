import random


class Client:
    def send(self, message):
        return f"sent {message}"


PROTOTYPE = Client()


def get_client() -> Client:
    return random.choice([PROTOTYPE])


def get_quoted() -> "Client":
    return random.choice((PROTOTYPE,))


def make_stub() -> Client: ...


def make_pass() -> Client:
    pass


def never_run():
    make_stub().send("a")
    make_pass().send("b")


print(get_client().send("hello"))
print(get_quoted().send("again"))
