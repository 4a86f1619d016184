def lint():
    return "lint"


def test():
    return "test"


def publish():
    return "publish"


def first_two(steps):
    return [steps[0](), steps[1]()]


print(first_two([lint, test, publish]))
