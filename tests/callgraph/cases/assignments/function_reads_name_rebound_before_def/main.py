def json_codec(value):
    return f"json:{value}"


def msgpack_codec(value):
    return f"msgpack:{value}"


codec = json_codec
codec = msgpack_codec


def serialize(value):
    return codec(value)  # runs once the module has finished: the last binding


print(serialize(1))
