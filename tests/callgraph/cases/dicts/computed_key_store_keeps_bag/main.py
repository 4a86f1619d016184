def on_save():
    return "saved"


def on_load():
    return "loaded"


def on_save_logged():
    return "saved and logged"


HANDLERS = {"save": on_save, "load": on_load}


def replace(name, handler):
    HANDLERS[name] = handler


def save():
    return HANDLERS["save"]()


print(save())
replace("save", on_load)
print(save())
replace("save", on_save_logged)
print(save())
