class Row:
    def __init__(self, n):
        self.n = n

    def upper(self):
        return self.n


class Grid:
    def __init__(self, names):
        self.names = list(names)

    def __iter__(self):
        for n in range(len(self.names)):
            yield Row(n)

    def __getitem__(self, i):
        return self.names[i]


def first(grid):
    return grid[0].upper()


print(first(Grid("ab")), [row.upper() for row in Grid("c")])
