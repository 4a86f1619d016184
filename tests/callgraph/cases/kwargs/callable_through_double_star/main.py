def on_success(value):
    return f"ok: {value}"


def call(fn, value):
    return fn(value)


ARGS = {"fn": on_success, "value": 3}
print(call(**ARGS))
