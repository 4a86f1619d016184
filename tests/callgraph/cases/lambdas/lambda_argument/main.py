def greet(name):
    return f"hi {name}"


def later(callback):
    return callback()


print(later(lambda: greet("ann")))
