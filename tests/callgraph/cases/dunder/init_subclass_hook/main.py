from typing import ClassVar


class Plugin:
    registry: ClassVar[dict[str, type]] = {}

    def __init_subclass__(cls, name="", **kwargs):
        super().__init_subclass__(**kwargs)
        cls.registry[name or cls.__name__] = cls
        cls.validate()

    @classmethod
    def validate(cls):
        return True


class CsvPlugin(Plugin, name="csv"):
    @classmethod
    def validate(cls):
        return super().validate()


class JsonPlugin(Plugin):
    pass


print(sorted(Plugin.registry))
