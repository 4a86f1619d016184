import json


class Settings:
    def __init__(self, data):
        self.data = data

    def flag(self, name):
        return bool(self.data.get(name))


def parse(text):
    return Settings(json.loads(text))


def debug_enabled(text):
    settings: Settings = parse(text)
    return settings.flag("debug")


print(debug_enabled('{"debug": true}'))
