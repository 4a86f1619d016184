class User:
    def __init__(self, name):
        self.name = name

    def display_name(self):
        return self.name.title()
