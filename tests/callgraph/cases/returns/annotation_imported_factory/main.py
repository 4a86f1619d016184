from lib import connect, get_client


class Service:
    def __init__(self):
        self.db = connect()

    def rows(self):
        return self.db.query("select 1")


def notify():
    return get_client().send("done")


print(Service().rows(), notify())
