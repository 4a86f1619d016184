def parse_json(text):
    return f"json {text}"


def parse_fast(text):
    return f"fast {text}"


def parse_yaml(text):
    return f"yaml {text}"


PARSERS = {"json": parse_json, "yaml": parse_yaml}
PARSERS["json"] = parse_fast

print(PARSERS["json"]("{}"))
