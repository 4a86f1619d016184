class Model:
    def __init__(self, **fields):
        self.fields = fields

    def field(self, name):
        return self.fields.get(name)


class User(Model):
    def display(self):
        return f"user {self.field('name')}"


user = User(name="ann")
print(user.display())
