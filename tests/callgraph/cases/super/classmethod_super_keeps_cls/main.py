class Record:
    def __init__(self):
        self.saved = False

    @classmethod
    def build(cls):
        return cls()


class Audited(Record):
    @classmethod
    def build(cls):
        record = super().build()
        record.saved = True
        return record


class Invoice(Audited):
    def __init__(self):
        super().__init__()
        self.total = 0


print(Invoice.build().saved)
