def encode(text):
    return text.encode("utf-8")


def decode(data):
    return data.decode("utf-8")


forward, backward = encode, decode
forward, backward = backward, forward

print(forward(b"swapped"))


def undo(text):
    return backward(text)


print(undo("swapped"))
