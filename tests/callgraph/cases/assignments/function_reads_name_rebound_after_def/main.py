def serialize(value):
    return codec(value)  # looked up when called, after both bindings below


def json_codec(value):
    return f"json:{value}"


def msgpack_codec(value):
    return f"msgpack:{value}"


codec = json_codec
codec = msgpack_codec

print(serialize(1))
