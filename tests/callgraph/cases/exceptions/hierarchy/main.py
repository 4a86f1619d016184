class AppError(Exception):
    code = 500

    def report(self):
        return f"{self.code}: {self.args}"


class NotFound(AppError):
    code = 404


def lookup(key, table):
    if key not in table:
        raise NotFound(key)
    return table[key]


def handle(key):
    try:
        return lookup(key, {"a": 1})
    except AppError as err:
        return err.report()


print(handle("a"), handle("b"))
