def low():
    return 1


def high():
    return 2


def levels():
    return [low, high]


found = levels()
print(found[0]())
found.reverse()
print(found[0]())
