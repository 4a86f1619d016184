class Record:
    def __init__(self, key):
        self.key = key

    def describe(self):
        return f"record {self.key}"


class Cursor:
    def __init__(self, keys):
        self.keys = list(keys)

    def __iter__(self):
        return self

    def __next__(self) -> Record:
        if not self.keys:
            raise StopIteration
        return Record(self.keys.pop(0))


def report(keys):
    return [record.describe() for record in Cursor(keys)]


print(report("ab"))
