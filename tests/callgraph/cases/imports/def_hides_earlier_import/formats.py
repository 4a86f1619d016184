def render(value):
    return str(value)
