class PluginMeta(type):
    def load(cls):
        return cls.__name__


class Plugin(metaclass=PluginMeta):
    pass
