def default_formatter(value):
    return str(value)


def loud_formatter(value):
    return str(value).upper() + "!"


def show(value, formatter=default_formatter):
    return formatter(value)


print(show(1), show("hi", loud_formatter))
