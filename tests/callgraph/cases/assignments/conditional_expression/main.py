import os


def json_output(data):
    return repr(data)


def text_output(data):
    return ", ".join(f"{k}={v}" for k, v in data.items())


def emit(data, fmt):
    writer = json_output if fmt == "json" else text_output
    return writer(data)


print(emit({"a": 1}, os.environ.get("OUTPUT_FORMAT", "text")))
