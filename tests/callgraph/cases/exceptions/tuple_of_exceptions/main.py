class TimeoutFailure(Exception):
    def retry_after(self):
        return 5


class RateLimited(Exception):
    def retry_after(self):
        return 60


def call_api(attempt):
    if attempt == 1:
        raise TimeoutFailure()
    if attempt == 2:
        raise RateLimited()
    return "ok"


def with_backoff(attempt):
    try:
        return call_api(attempt)
    except (TimeoutFailure, RateLimited) as exc:
        return exc.retry_after()


print(with_backoff(1), with_backoff(2), with_backoff(3))
