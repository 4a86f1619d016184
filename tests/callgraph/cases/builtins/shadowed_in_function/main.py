def report(rows):
    def format(row):
        return " | ".join(str(c) for c in row)

    return [format(r) for r in rows]


print(report([[1, 2]]), format(3.14159, ".2f"))
