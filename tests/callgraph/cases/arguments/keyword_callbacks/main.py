def on_done(result):
    print("done", result)


def on_error(exc):
    print("failed", exc)


def compute():
    return 42


def run_task(task, *, success, failure):
    try:
        success(task())
    except ValueError as exc:
        failure(exc)


run_task(compute, success=on_done, failure=on_error)
