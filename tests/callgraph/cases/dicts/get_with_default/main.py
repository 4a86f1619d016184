def cmd_start():
    return "starting"


def cmd_stop():
    return "stopping"


def cmd_unknown():
    return "unknown command"


COMMANDS = {"start": cmd_start, "stop": cmd_stop}


def handle(name):
    return COMMANDS.get(name, cmd_unknown)()


print(handle("start"), handle("jump"))
