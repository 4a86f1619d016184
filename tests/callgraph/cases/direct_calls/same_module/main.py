def parse(text):
    return text.split(",")


def normalise(items):
    return [item.strip().lower() for item in items]


def load(text):
    return normalise(parse(text))


print(load("A, b ,C"))
