def repeat(times):
    def decorate(func):
        def wrapper(*args, **kwargs):
            return [func(*args, **kwargs) for _ in range(times)]

        return wrapper

    return decorate


@repeat(3)
def ping(host):
    return f"ping {host}"


print(ping("db"))
