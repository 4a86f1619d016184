def add(a, b):
    return a + b


def sub(a, b):
    return a - b


OPERATIONS = {"+": add, "-": sub}


def calculate(op, a, b):
    return OPERATIONS[op](a, b)


print(calculate("+", 2, 3))
