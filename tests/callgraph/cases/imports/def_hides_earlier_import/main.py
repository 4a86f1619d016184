from formats import render


# hides the import from here on
def render(value):  # noqa: F811
    return f"<{value}>"


print(render("page"))


def page():
    return render("body")


print(page())
