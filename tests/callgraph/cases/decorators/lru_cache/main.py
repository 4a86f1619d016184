from functools import cache, lru_cache


@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@cache
def settings():
    return {"debug": False}


print(fib(20), settings()["debug"])
