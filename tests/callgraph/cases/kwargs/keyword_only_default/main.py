def log_failure(exc):
    print("failed:", exc)


def fetch():
    return "payload"


def retry(fn, *, attempts=3, on_fail=log_failure):
    for _ in range(attempts):
        try:
            return fn()
        except OSError as exc:
            on_fail(exc)
    return None


print(retry(fetch))
