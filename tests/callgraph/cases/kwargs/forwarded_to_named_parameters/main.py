def on_success(result):
    return f"ok {result}"


def on_failure(error):
    return f"failed {error}"


def report(value, success, failure=None):
    if value:
        return success(value)
    return failure(value)


def report_later(*args, **kwargs):
    return report(*args, **kwargs)


def audit(label):
    return f"audit {label}"


def log_with(*args):
    first, hook = args[0], args[1]
    return hook(first)


report_later(1, on_success, failure=on_failure)
log_with("x", audit)
