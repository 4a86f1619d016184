def on_save():
    return "saved"


def on_load():
    return "loaded"


def on_missing():
    return "missing"


HANDLERS = {"save": on_save, "load": on_load, "label": "Handlers"}


def save():
    return HANDLERS["save"]()


def load():
    return HANDLERS.get("load")()


def quit_():
    return HANDLERS.get("quit", on_missing)()


print(save(), load(), quit_(), HANDLERS["label"].upper())
