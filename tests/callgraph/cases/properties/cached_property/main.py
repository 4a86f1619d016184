from functools import cached_property


class Report:
    def __init__(self, rows):
        self.rows = rows

    @cached_property
    def summary(self):
        return self.compute()

    def compute(self):
        return len(self.rows)


report = Report([1, 2, 3])
print(report.summary, report.summary)
