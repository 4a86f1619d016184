class Local:
    def run(self):
        return "local"


class Remote:
    def run(self):
        return "remote"


Base = Local


class Job(Base):  # the base is Local: rebinding Base below does not change Job
    def run(self):
        return "job+" + super().run()


Base = Remote


def start(runner: Remote):
    return runner.run()  # Job is no Remote: its run is not a candidate


print(Job().run())
print(start(Remote()))
