def default_limit():
    return 10


def fetch(limit=default_limit()):
    return list(range(limit))


print(fetch())
