import functools
import time


def timed(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            print(f"{func.__name__} took {time.perf_counter() - start:.3f}s")

    return wrapper


@timed
def build_index(words):
    return {w: i for i, w in enumerate(words)}


print(build_index(["a", "b"]))
