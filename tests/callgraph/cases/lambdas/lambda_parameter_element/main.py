class Job:
    def __init__(self, cost):
        self.cost = cost

    def weight(self):
        return self.cost * 2

    def describe(self):
        return f"job {self.cost}"


def plan(jobs: list[Job]):
    ordered = sorted(jobs, key=lambda job: job.weight())
    return list(map(lambda job: job.describe(), ordered))


print(plan([Job(1), Job(3)]))
