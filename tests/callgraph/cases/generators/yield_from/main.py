def header():
    yield "id,name"


def rows(records):
    for number, name in records:
        yield f"{number},{name}"


def csv_lines(records):
    yield from header()
    yield from rows(records)


print(list(csv_lines([(1, "ann")])))
