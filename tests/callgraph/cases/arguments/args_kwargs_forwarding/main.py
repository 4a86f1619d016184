def connect(host, port=5432, timeout=3):
    return f"{host}:{port} ({timeout}s)"


def connect_with_retry(*args, **kwargs):
    for _ in range(3):
        result = connect(*args, **kwargs)
        if result:
            return result
    return None


print(connect_with_retry("db", timeout=5))
