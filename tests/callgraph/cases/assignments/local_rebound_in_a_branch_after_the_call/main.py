def parse_json(text):
    return {"json": text}


def parse_yaml(text):
    return {"yaml": text}


def first_line(line):
    return line.upper()


def other_line(line):
    return line.lower()


def load(text, strict):
    parse = parse_json
    data = parse(text)  # the branch below runs after this call: parse_json only
    if not strict:
        parse = parse_yaml
    return data, parse


def convert(lines):
    handle = first_line
    out = []
    for line in lines:
        out.append(handle(line))  # the next round sees the rebinding below
        if line:
            handle = other_line
    return out


print(load("a: 1", strict=False), convert(["A", "B"]))
