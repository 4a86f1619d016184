PLUGINS = {}


def register(cls):
    PLUGINS[cls.__name__.lower()] = cls
    return cls


@register
class Exporter:
    def run(self):
        return "exported"


@register
class Importer:
    def run(self):
        return "imported"


print(Exporter().run(), sorted(PLUGINS))
