class AppError(Exception):
    def show(self):
        return f"error: {self.args[0]}"


class UsageError(AppError):
    def show(self):
        return f"usage: {self.args[0]}"


def parse(argv):
    if not argv:
        raise UsageError("no arguments")
    return argv


def main(argv):
    try:
        return parse(argv)
    except AppError as exc:
        return exc.show()


main([])
main(["run"])
