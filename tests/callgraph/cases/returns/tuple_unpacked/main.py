def parse(text):
    return text.split()


def render(parts):
    return " ".join(parts)


def validate(parts):
    return bool(parts)


def pipeline(strict):
    if strict:
        return parse, validate
    return parse, render


reader, writer = pipeline(False)
print(writer(reader("a b")))
