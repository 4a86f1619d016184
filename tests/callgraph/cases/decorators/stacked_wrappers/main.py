import functools


def timed(func):
    @functools.wraps(func)
    def clock(*args):
        return func(*args)

    return clock


def retried(func):
    @functools.wraps(func)
    def again(*args):
        try:
            return func(*args)
        except ValueError:
            return func(*args)

    return again


@timed
@retried
def fetch(url):
    return url.upper()


@retried
def ping(host):
    return host


print(fetch("a"), ping("b"))
