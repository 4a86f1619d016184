def load():
    print("load")


def check():
    print("check")


def publish():
    print("publish")


PIPELINE = [load, check, publish]


def run_copy():
    for stage in PIPELINE[:]:
        stage()


def in_order():
    for stage in sorted(PIPELINE, key=lambda s: s.__name__):
        stage()


def each_stage():
    stages = iter(list(PIPELINE))
    for stage in stages:
        stage()


run_copy()
in_order()
each_stage()
