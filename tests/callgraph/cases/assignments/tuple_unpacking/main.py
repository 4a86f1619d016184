def pack(text):
    return text.encode("utf-8")


def unpack(data):
    return data.decode("utf-8")


write, read = pack, unpack


def roundtrip(text):
    return read(write(text))


print(roundtrip("hé"))
