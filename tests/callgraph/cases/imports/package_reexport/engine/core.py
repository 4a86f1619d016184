class Engine:
    def __init__(self, name):
        self.name = name

    def start(self):
        return f"{self.name} started"
