class Migrate:
    def apply(self):
        return "migrate"


class Seed:
    def apply(self):
        return "seed"


def notify(name):
    return f"done {name}"


def run_all(*steps, **hooks):
    for step in steps:
        step.apply()
    for hook in hooks.values():
        hook("all")


def main():
    steps = [Migrate()]
    steps.append(Seed())
    hooks = {}
    hooks["after"] = notify
    run_all(*steps, **hooks)


main()
