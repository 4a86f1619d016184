def double(x):
    return x * 2


def square(x):
    return x * x


def apply(fn, value):
    return fn(value)


print(apply(double, 3), apply(square, 4))
