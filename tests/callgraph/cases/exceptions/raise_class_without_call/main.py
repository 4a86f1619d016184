from errors import NotFound, Plain


class Conflict(Exception):
    def __init__(self):
        super().__init__("conflict")


def fetch(key):
    if not key:
        raise NotFound
    if key == "plain":
        raise Plain from None
    raise Conflict


def retry(key):
    try:
        return fetch(key)
    except Conflict as error:
        raise error  # an instance: raised as is, nothing is constructed


def main():
    for key in ("", "plain", "a"):
        try:
            retry(key)
        except Exception as error:
            print(type(error).__name__)


main()
