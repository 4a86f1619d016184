def greet_en(name):
    return f"Hello {name}"


def greet_fr(name):
    return f"Bonjour {name}"


def greet_all(first, second):
    greet = greet_en

    def switch():
        nonlocal greet
        greet = greet_fr

    def say(name):
        return greet(name)

    before = say(first)
    switch()
    return [before, say(second)]


print(greet_all("Ann", "Bob"))
