class Version:
    def __init__(self, text):
        self.parts = tuple(int(p) for p in text.split("."))

    def __eq__(self, other):
        return self.parts == other.parts

    def __lt__(self, other):
        return self.parts < other.parts


def is_upgrade(current: Version, candidate: Version) -> bool:
    if current == candidate:
        return False
    return current < candidate


print(is_upgrade(Version("1.2"), Version("1.10")))
