class Base:
    def run(self):
        return "base"


class Mid(Base):
    def run(self):
        return "mid"


class Leaf(Mid):
    pass


def start(job: Mid):
    return job.run()


def start_any(job: Base):
    return job.run()


print(start(Leaf()), start_any(Base()))
