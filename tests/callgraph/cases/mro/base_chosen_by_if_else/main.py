import sys


class Fast:
    def run(self):
        return "fast"


class Slow:
    def run(self):
        return "slow"


if sys.maxsize > 2**40:
    WORD_BITS = 64
    Base = Fast
else:
    WORD_BITS = 32
    Base = Slow


class Engine(Base):  # either, depending on the platform
    pass


print(Engine().run())
