def sum(values):
    total = 0
    for v in values:
        total = total + v
    return total


def average(values):
    return sum(values) / max(len(values), 1)


print(average([1, 2, 3]))
