def traced(func):
    def wrapper(*args, **kwargs):
        print("calling", func.__name__)
        return func(*args, **kwargs)

    return wrapper


@traced
def greet(name):
    return f"hello {name}"


print(greet("ann"))
