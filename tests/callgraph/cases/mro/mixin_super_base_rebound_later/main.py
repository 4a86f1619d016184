class Store:
    def save(self):
        return "store"


class Archive:
    def save(self):
        return "archive"


class Audited:
    def save(self):
        return "audited+" + super().save()


Base = Store


class Record(Audited, Base):  # MRO: Record, Audited, Store
    pass


Base = Archive

print(Record().save())
print(Archive().save())
