import report
from helpers import open


def start():
    return open("session")


print(start())
print(report.read_text(__file__)[:20])
