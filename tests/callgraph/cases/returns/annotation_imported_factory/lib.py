import copy


class Client:
    def send(self, message):
        return f"sent {message}"


class DB:
    def query(self, sql):
        return [sql]


_CLIENTS = [Client()]
_DATABASES = [DB()]


def get_client() -> Client:
    return copy.copy(_CLIENTS[0])


def connect() -> "DB":
    return copy.copy(_DATABASES[-1])
