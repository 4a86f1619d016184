def handle_create(payload):
    return f"created {payload}"


def handle_delete(payload):
    return f"deleted {payload}"


def dispatch(kind, payload):
    handler = globals()[f"handle_{kind}"]
    return handler(payload)


print(dispatch("create", {}))
