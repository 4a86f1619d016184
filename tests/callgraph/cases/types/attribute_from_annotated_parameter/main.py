class Clock:
    def now(self):
        return "12:00"


class Scheduler:
    def __init__(self, clock: Clock):
        self.clock = clock

    def next_run(self):
        return f"next run after {self.clock.now()}"


print(Scheduler(Clock()).next_run())
