class Label:
    @property
    def text(self):
        return "label"


class Note:
    def __init__(self, text):
        self.text = text


note = Note("plain attribute")
print(note.text)
