from collections import OrderedDict
from typing import Dict, Optional


class Field:
    def serialize(self, value):
        return str(value)


class Registry:
    def __init__(self):
        self.fields = {}  # type: Dict[str, Field]
        self.fallback = None  # type: Optional[Field]

    def load(self, names):
        found = OrderedDict()
        for name in names:
            found[name] = make_field()
        self.fields = found

    def dump(self, value):
        out = [field.serialize(value) for field in self.fields.values()]
        if self.fallback is not None:
            out.append(self.fallback.serialize(value))
        return out


def make_field():
    # type: () -> Field
    return Field()


def render(field, value):
    # type: (Field, int) -> str
    return field.serialize(value)


registry = Registry()
registry.load(["a"])
print(registry.dump(1), render(make_field(), 2))
