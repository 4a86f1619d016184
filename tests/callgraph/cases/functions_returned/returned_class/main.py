class MemoryStore:
    def __init__(self):
        self.data = {}

    def put(self, key, value):
        self.data[key] = value


class NullStore:
    def put(self, key, value):
        return None


def store_class(persistent):
    return MemoryStore if persistent else NullStore


def save(key, value, persistent):
    store = store_class(persistent)()
    store.put(key, value)
    return store


print(save("a", 1, persistent=True).data)
