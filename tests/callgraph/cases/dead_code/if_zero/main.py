def legacy_path(value):
    return value * 2


def new_path(value):
    return value << 1


def compute(value):
    if 0:
        return legacy_path(value)
    return new_path(value)


print(compute(4))
