class Memory:
    def get(self, key):
        return "memory"


class Disk:
    def get(self, key):
        return "disk"


Backend = Memory


def make_cache():
    class Cache(Backend):  # Backend is read when make_cache runs: any of its module values
        pass

    return Cache()


print(make_cache().get("a"))
Backend = Disk
print(make_cache().get("b"))
