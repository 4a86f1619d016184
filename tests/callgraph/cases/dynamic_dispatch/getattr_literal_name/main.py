import handlers


class Robot:
    def walk(self):
        return "walking"

    def talk(self):
        return "talking"


def act(robot):
    step = getattr(robot, "walk")  # noqa: B009
    step()
    return getattr(robot, "talk")()  # noqa: B009


def handle(event):
    return getattr(handlers, "on_" + event)()  # computed: unresolved, on_* guessed


run = getattr(handlers, "on_start")  # noqa: B009
act(Robot())
run()
handle("stop")
