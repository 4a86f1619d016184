from typing import Callable, Iterator


class Report:
    def render(self):
        return "report"


class Row:
    def cells(self):
        return [1]


def publish(make: Callable[[], Report]) -> str:
    return make().render()


def first_cells(rows: Iterator[Row]) -> list:
    return next(rows).cells()


print(publish(Report), first_cells(iter([Row()])))
