class Engine:
    def start(self):
        return "vroom"


def build_engine():
    engine = Engine()
    return engine


e = build_engine()
print(e.start())
