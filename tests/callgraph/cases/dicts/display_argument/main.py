def on_create():
    return "created"


def on_delete():
    return "deleted"


def on_update():
    return "updated"


def on_error():
    return "error"


def fallback():
    return "fallback"


def dispatch(handlers, event, *, errors):
    if event == "create":
        return handlers["create"]()
    if event == "delete":
        return handlers.get("delete", fallback)()
    return errors["error"]()


print(dispatch({"create": on_create, "delete": on_delete, "update": on_update}, "create", errors={"error": on_error}))
