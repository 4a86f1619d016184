def warn():
    return "warn"


def fail():
    return "fail"


CHECKS = [warn]


def latest():
    return CHECKS[-1]()


print(latest())
CHECKS += [fail]
print(latest())
