def english():
    return "hello"


def french():
    return "bonjour"


GREETINGS = {"en": english, "fr": french}
active = GREETINGS


def greet():
    return GREETINGS["en"]()


print(greet())
active["en"] = active["fr"]
print(greet())
