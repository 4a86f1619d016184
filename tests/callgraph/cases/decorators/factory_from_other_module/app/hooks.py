def retry(times):
    def decorate(func):
        def wrapper(*args, **kwargs):
            for attempt in range(times):
                try:
                    return func(*args, **kwargs)
                except ConnectionError:
                    print("attempt", attempt, "failed")
            return None

        return wrapper

    return decorate
