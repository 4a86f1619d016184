try:
    from fastsplit import split
except ImportError:  # the extension fastsplit wraps is not built here

    def split(text):
        return text.split(",")


print(split("a,b"))


def fields(line):
    return split(line)


print(fields("c,d"))
