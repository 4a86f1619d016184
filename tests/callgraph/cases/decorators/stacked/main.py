import functools

HANDLERS = []


def register(func):
    HANDLERS.append(func)
    return func


def logged(func):
    @functools.wraps(func)
    def wrapper(*args):
        print("->", func.__name__)
        return func(*args)

    return wrapper


@logged
@register
def on_save(doc):
    return f"saved {doc}"


print(on_save("a"), len(HANDLERS))
