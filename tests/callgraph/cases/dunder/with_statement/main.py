class Transaction:
    def __init__(self, name):
        self.name = name
        self.ops = []

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.commit()
        return False

    def add(self, op):
        self.ops.append(op)

    def commit(self):
        print("commit", self.name, self.ops)


with Transaction("main") as tx:
    tx.add("insert")
