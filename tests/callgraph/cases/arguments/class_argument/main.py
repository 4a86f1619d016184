class Job:
    def __init__(self, name):
        self.name = name

    def run(self):
        return f"running {self.name}"


def build(factory, name):
    return factory(name)


print(build(Job, "nightly").run())
