REGISTRY = {}


def register(cls):
    cls.configure()
    REGISTRY[cls.__name__] = cls
    return cls


@register
class Alpha:
    @classmethod
    def configure(cls):
        cls.ready = True

    def run(self):
        return "alpha"


def build(name):
    return REGISTRY[name]().run()


print(build("Alpha"))
