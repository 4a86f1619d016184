def prepare():
    return "prepare"


def build():
    return "build"


STEPS = [prepare, build]


def second_step():
    return STEPS[1]()


print(second_step())
STEPS.insert(0, STEPS[1])
print(second_step())
