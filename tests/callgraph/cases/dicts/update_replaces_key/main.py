def read_json(path):
    return path


def read_yaml(path):
    return path


def read_toml(path):
    return path


def read_ini(path):
    return path


READERS = {"json": read_json, "config": read_ini}
READERS.update({"config": read_toml})
READERS["config"]("pyproject.toml")
READERS["json"]("data.json")

WRITERS = {"json": read_json, "config": read_ini}
WRITERS.update(config=read_yaml)
WRITERS["config"]("settings.yaml")
