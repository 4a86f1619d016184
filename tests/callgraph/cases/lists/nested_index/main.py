def north():
    return "N"


def south():
    return "S"


def east():
    return "E"


GRID = [[north, south], [east]]


def corner():
    return GRID[1][0]()


print(corner(), [[north], [south]][1][0]())
