class Step:
    def run(self, position):
        return position


class Check:
    def verify(self, label):
        return label


def normalise(text):
    return text.strip()


def shout(text):
    return text.upper()


STEPS = [Step(), Step()]


def run_all():
    for position, step in enumerate(STEPS, start=1):
        step.run(position)


def check_all(labels):
    for label, (check, transform) in zip(labels, [(Check(), normalise), (Check(), shout)], strict=True):
        check.verify(transform(label))


def numbered(steps: list[Step]):
    return [step.run(n) for n, step in enumerate(steps)]


def make_check(label):
    return Check()


def verify_each(labels):
    for check in map(make_check, labels):
        check.verify("x")


run_all()
check_all(["a", "b"])
numbered(STEPS)
verify_each(["c"])
