class Engine:
    def start(self):
        return "vroom"


class Car:
    def __init__(self, parts):
        setattr(self, "engine", Engine())  # noqa: B010
        for name, value in parts.items():
            setattr(self, name, value)  # computed: stores nothing known

    def drive(self):
        return self.engine.start()


print(Car({"colour": "red"}).drive())
