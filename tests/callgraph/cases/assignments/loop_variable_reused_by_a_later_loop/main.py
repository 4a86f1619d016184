def on_start(app):
    return app


def on_stop(app, reason):
    return reason


def fallback(app):
    return app


class App:
    def __init__(self):
        self.starting = [on_start]
        self.stopping = [on_stop]

    def run(self):
        hook = fallback
        for hook in self.starting:
            hook(self)
        for hook in self.stopping:
            hook(self, "done")
        return hook


App().run()
