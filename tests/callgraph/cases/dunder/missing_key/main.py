class Cache(dict):
    def __missing__(self, key):
        value = self[key] = compute(key)
        return value


def compute(key):
    return key * 2


cache = Cache()
first = cache[3]
again = cache[3]
cache.get(4)
