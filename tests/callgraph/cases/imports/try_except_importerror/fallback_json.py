import json


def dumps(data):
    return json.dumps(data, separators=(",", ":"))
