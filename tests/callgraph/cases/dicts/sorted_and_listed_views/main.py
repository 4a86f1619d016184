def on_start():
    return "start"


def on_stop():
    return "stop"


def audit():
    return "audit"


HANDLERS = {"start": on_start, "stop": on_stop}
AUDITORS = {"main": audit}


def fire_all():
    for _name, handler in sorted(HANDLERS.items()):
        handler()


def audit_all():
    return [check() for check in list(AUDITORS.values())]


fire_all()
audit_all()
