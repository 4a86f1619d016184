def start():
    return "start"


def stop():
    return "stop"


ACTIONS = dict(start=start, stop=stop)


def run():
    return ACTIONS["stop"]()


print(run(), dict(go=start)["go"]())
