import sys


def plain(message):
    return message


def coloured(message):
    return f"\033[1m{message}\033[0m"


style = plain
if sys.stdout.isatty():
    style = coloured  # may not run: both bindings reach the calls below

print(style("ready"))


def announce(message):
    return style(message)


print(announce("done"))
