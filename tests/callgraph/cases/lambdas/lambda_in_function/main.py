def score(item):
    return item["votes"] * 2


def rank(items):
    return sorted(items, key=lambda item: score(item), reverse=True)


print(rank([{"votes": 1}, {"votes": 3}]))
