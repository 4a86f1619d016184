class ConfigError(Exception):
    def __init__(self, key):
        super().__init__(key)
        self.key = key

    def __str__(self):
        return f"missing setting {self.key!r}"

    def hint(self):
        return f"add {self.key} to settings.toml"
