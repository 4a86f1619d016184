def load():
    return "load"


def save():
    return "save"


def first(step):
    return step()


def both(before, after):
    return [before(), after()]


print(first(*[load]))
print(first(*(save,)))
print(both(*[load], *(save,)))
