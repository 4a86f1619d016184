def setup():
    return "setup"


def build():
    return "build"


def teardown():
    return "teardown"


def run_last(steps):
    return steps[-1]()


print(run_last((setup, build, teardown)))
