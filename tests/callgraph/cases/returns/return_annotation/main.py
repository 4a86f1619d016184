class Config:
    def __init__(self, values):
        self.values = values

    def get(self, key, default=None):
        return self.values.get(key, default)


def load_config() -> Config:
    return Config({"debug": True})


print(load_config().get("debug"))
