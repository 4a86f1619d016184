class Session:
    def query(self):
        return "rows"


class Service:
    def __init__(self):
        self.connect = lambda: Session()

    def fetch(self):
        return self.connect().query()


def with_session(make):
    return make().query()


def main():
    print(Service().fetch())
    print(with_session(lambda: Session()))


main()
