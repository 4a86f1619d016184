def read_lines(text):
    for line in text.splitlines():
        yield line.strip()


def parse(line):
    return line.split("=")


def load(text):
    return [parse(line) for line in read_lines(text) if line]


print(load("a=1\nb=2\n"))
