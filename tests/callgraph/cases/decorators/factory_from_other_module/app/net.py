from .hooks import retry


@retry(times=3)
def fetch(url):
    return f"GET {url}"
