from pkg.ids import key, operation_id


class Api:
    def __init__(self, operation_id=operation_id):
        self.operation_id = operation_id

    def spec(self, name):
        return self.operation_id(name, "get")


def ordered(items, key=key):
    return sorted(items, key=key)


def loud(items, key=key):
    return [key(i) for i in items]


print(Api().spec("users"), ordered([2, 1]), loud([1]))
