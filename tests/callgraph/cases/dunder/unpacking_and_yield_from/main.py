class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __iter__(self):
        yield self.x
        yield self.y


class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n


def coordinates():
    x, y = Point(1, 2)
    first, *rest = Point(3, 4)
    a, b = x, y
    return a + b + first + len(rest)


def ticks():
    yield from Countdown(2)


print(coordinates(), list(ticks()))
