HANDLERS = {}
STARTUP = []


def handle(kind, payload):
    return HANDLERS[kind](payload)


def start():
    for step in STARTUP:
        step()
