import json


class JsonMixin:
    def to_json(self):
        return json.dumps(self.fields())


class Base:
    def fields(self):
        return {}


class User(JsonMixin, Base):
    def __init__(self, name):
        self.name = name

    def fields(self):
        return {"name": self.name}


class Anonymous(JsonMixin, Base):
    pass


print(User("ann").to_json(), Anonymous().to_json())
