def on_created(event):
    return f"created {event['id']}"


def on_deleted(event):
    return f"deleted {event['id']}"


listeners = {}
listeners["created"] = on_created
listeners["deleted"] = on_deleted


def fire(kind, event):
    listener = listeners[kind]
    return listener(event)


print(fire("created", {"id": 1}))
