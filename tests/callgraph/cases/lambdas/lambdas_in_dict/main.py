def add(a, b):
    return a + b


def negate(a):
    return -a


OPS = {"inc": lambda x: add(x, 1), "neg": lambda x: negate(x)}


def apply(op, value):
    return OPS[op](value)


print(apply("inc", 1), apply("neg", 2))
