import json

import registry


def parse_json(payload):
    return json.loads(payload)


def install():
    registry.HANDLERS["json"] = parse_json
