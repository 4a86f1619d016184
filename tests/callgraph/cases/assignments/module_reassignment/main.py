def to_csv(rows):
    return ",".join(rows)


def to_tsv(rows):
    return "\t".join(rows)


export = to_csv
export = to_tsv  # hides the first binding: module code below sees this one only

print(export(["a", "b"]))
