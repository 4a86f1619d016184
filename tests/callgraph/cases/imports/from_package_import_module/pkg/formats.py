import json


def to_json(data):
    return json.dumps(data, sort_keys=True)


def to_lines(data):
    return "\n".join(f"{k}={v}" for k, v in sorted(data.items()))
