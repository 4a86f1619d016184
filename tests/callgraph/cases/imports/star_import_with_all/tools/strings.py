__all__ = ["shout"]


def shout(text):
    return text.upper() + "!"


def helper(text):
    return text.strip()
