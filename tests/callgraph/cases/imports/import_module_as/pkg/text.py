def slugify(title):
    return "-".join(title.lower().split())


def permalink(title):
    return "/" + slugify(title)
