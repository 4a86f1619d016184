def on_start():
    return "start"


def on_stop():
    return "stop"
