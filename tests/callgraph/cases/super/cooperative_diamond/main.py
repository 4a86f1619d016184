class Base:
    def setup(self, log):
        log.append("Base")


class Cache(Base):
    def setup(self, log):
        log.append("Cache")
        super().setup(log)


class Metrics(Base):
    def setup(self, log):
        log.append("Metrics")
        super().setup(log)


class App(Cache, Metrics):
    def setup(self, log):
        log.append("App")
        super().setup(log)


for component in (App(), Cache()):
    steps = []
    component.setup(steps)
    print(steps)
