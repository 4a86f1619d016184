def plain_format(record):
    return str(record)


def json_format(record):
    return f'{{"record": "{record}"}}'


def to_stderr(text):
    return f"stderr: {text}"


CONFIG = {"console": {"format": plain_format, "write": to_stderr}}
CONFIG["console"]["format"] = json_format

print(CONFIG["console"]["write"](CONFIG["console"]["format"]("ready")))
