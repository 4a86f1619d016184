class Settings:
    def __init__(self):
        self.debug = False

    def configure(self):
        self.debug = True


def loader():
    return Settings()


class LazySettings:
    def __init__(self):
        self._wrapped = None

    def __getattr__(self, name):
        if self._wrapped is None:
            self._wrapped = loader()
        return getattr(self._wrapped, name)

    def reset(self):
        self._wrapped = None


class Handlers:
    def __getattr__(self, name):
        return fallback


def fallback(*args):
    return args


settings = LazySettings()


def setup():
    settings.reset()
    settings.configure()
    return Handlers().on_event(1)


setup()
