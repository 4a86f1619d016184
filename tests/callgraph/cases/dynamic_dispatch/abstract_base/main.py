from abc import ABC, abstractmethod


class Storage(ABC):
    @abstractmethod
    def save(self, key, data): ...

    def save_all(self, items):
        for key, data in items.items():
            self.save(key, data)


class DiskStorage(Storage):
    def save(self, key, data):
        return f"disk:{key}"


class MemoryStorage(Storage):
    def __init__(self):
        self.items = {}

    def save(self, key, data):
        self.items[key] = data


def persist(store: Storage, key, data):
    return store.save(key, data)


print(persist(DiskStorage(), "a", 1))
MemoryStorage().save_all({"b": 2})
