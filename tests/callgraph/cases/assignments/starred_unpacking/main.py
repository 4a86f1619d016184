def head():
    return "head"


def middle():
    return "middle"


def tail():
    return "tail"


def end():
    return "end"


first, *rest = head, middle, tail
*init, last = head, middle, end
print(rest[0](), last(), [step() for step in rest])
