registry = {}


class Registered(type):
    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        registry[name] = cls


class Plugin(metaclass=Registered):
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)

    @classmethod
    def derive(cls, name):
        return type(name, (cls,), {"label": name})


class Plain:
    pass


def make_plugin():
    return type("Dynamic", (Plugin,), {})


def make_plain():
    return type("Other", (Plain,), {})


make_plugin()
make_plain()
Plugin.derive("More")
print(sorted(registry))
