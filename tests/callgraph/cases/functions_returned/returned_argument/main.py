def load(target):
    if callable(target):
        return target
    raise TypeError(target)


def build_index():
    return "index"


def build_search():
    return "search"


def index_page():
    builder = load(build_index)
    return builder()


def search_page():
    builder = load(build_search)
    return builder()


print(index_page(), search_page())
