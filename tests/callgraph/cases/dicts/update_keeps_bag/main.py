def plain(text):
    return text


def shout(text):
    return text.upper()


STYLES = {"default": plain, "loud": shout}


def render(text):
    return STYLES["default"](text)


print(render("a"))
STYLES.update({"default": STYLES["loud"]})
print(render("b"))
