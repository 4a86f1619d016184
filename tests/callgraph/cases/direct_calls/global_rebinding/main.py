def slow_path(x):
    return x * 2


def fast_path(x):
    return x << 1


handler = slow_path


def configure(fast):
    global handler
    if fast:
        handler = fast_path


def run(x):
    return handler(x)


configure(True)
print(run(3))
