def connect(host, port, user):
    return f"{user}@{host}:{port}"


SETTINGS = {"host": "db", "port": 5432, "user": "app"}


def open_connection():
    return connect(**SETTINGS)


print(open_connection())
