class Result:
    def rows(self):
        return []


class Startable:
    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        return False

    def start(self):
        raise NotImplementedError


class Connection(Startable):
    def start(self):
        return self

    def rows(self):
        return [1]


class Stream(Startable):
    def start(self):
        return Result()


def read():
    with Stream() as result:
        return result.rows()


read()
