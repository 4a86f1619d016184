class Button:
    def __init__(self, label):
        self.label = label

    def click(self):
        return f"clicked {self.label}"
