def run():
    return "b"


def start():
    return run()
