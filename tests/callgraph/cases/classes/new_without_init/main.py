class Registry:
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance.entries = {}
        return cls._instance

    def register(self, key, value):
        self.entries[key] = value


Registry().register("a", 1)
print(Registry() is Registry())
