class Button:
    def draw(self):
        return "[button]"


class Label:
    def draw(self):
        return "label"


def render(widget):
    return widget.draw()


print(Button().draw(), Label().draw())
