def fast():
    return "fast"


def safe():
    return "safe"


MODES = {"current": fast, "fallback": safe}


def degrade(table):
    table["current"] = table["fallback"]


def run():
    return MODES["current"]()


print(run())
degrade(MODES)
print(run())
