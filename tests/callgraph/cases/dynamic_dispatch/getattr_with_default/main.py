class Plugin:
    def start(self):
        return "plugin start"


def fallback():
    return "fallback"


def missing():
    return "missing"


def run(hook):
    return hook()


def boot(plugin):
    handler = getattr(plugin, "start", fallback)
    return handler()


print(getattr(Plugin(), "start", fallback)())
print(getattr(Plugin(), "stop", missing)())
print(boot(Plugin()))
print(run(getattr(Plugin(), "stop", missing)))
