def render(rows):
    def cell(value):
        return f"[{value}]"

    def line(row):
        return " ".join(cell(v) for v in row)

    return "\n".join(line(r) for r in rows)


print(render([[1, 2], [3, 4]]))
