class Robot:
    def do_walk(self):
        return "walking"

    def do_talk(self):
        return "talking"

    def perform(self, action):
        return getattr(self, "do_" + action)()


print(Robot().perform("walk"))
