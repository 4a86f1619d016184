def trim(text):
    return text.strip()


def lowercase(text):
    return text.lower()


def collapse_spaces(text):
    return " ".join(text.split())


PIPELINE = [trim, lowercase, collapse_spaces]


def clean(text):
    for step in PIPELINE:
        text = step(text)
    return text


print(clean("  Hello   World "))
