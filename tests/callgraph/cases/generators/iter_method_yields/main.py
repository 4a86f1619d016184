class Row:
    def __init__(self, n):
        self.n = n

    def save(self):
        return self.n


class Draft:
    def save(self):
        return "draft"


class Table:
    def __init__(self, size):
        self.size = size

    def __iter__(self):
        for n in range(self.size):
            yield Row(n)

    def total(self):
        return sum(row.save() for row in self)


def store(table):
    for row in table:
        row.save()
    return [row.save() for row in table]


print(store(Table(3)), Table(2).total(), Draft().save())
