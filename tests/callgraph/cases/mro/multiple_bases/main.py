class Timestamped:
    def __init__(self):
        self.created = "2024-01-01"

    def age(self):
        return f"since {self.created}"


class Named:
    name = "untitled"

    def label(self):
        return self.name.upper()


class Document(Timestamped, Named):
    pass


doc = Document()
print(doc.age(), doc.label())
