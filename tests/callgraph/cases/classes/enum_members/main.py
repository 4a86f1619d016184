import enum


def shout(text):
    return str(text).upper()


class Status(enum.IntEnum):
    DRAFT = 1
    LIVE = 2
    loud = shout  # a function in an enum's body is a method, not a member

    def label(self):
        return self.name.title()

    @classmethod
    def default(cls):
        return cls.DRAFT


class Level(enum.Enum):
    LOW = "low"

    def rank(self):
        return 1


def report(live):
    status = Status.LIVE if live else Status.DRAFT
    return status.label(), Status.default().label(), Level.LOW.rank(), Status.DRAFT.loud()


print(report(True))
