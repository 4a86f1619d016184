class Base:
    def run(self):
        return "first"


class Child(Base):  # derives from the first Base
    pass


class Base:
    def stop(self):
        return "second"


print(Child().run())
print(Base().stop())
