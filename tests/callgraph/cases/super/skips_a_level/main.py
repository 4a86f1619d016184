class Widget:
    def render(self):
        return "<widget>"


class Panel(Widget):
    def title(self):
        return "panel"


class Dialog(Panel):
    def render(self):
        return "<dialog>" + super().render()


print(Dialog().render())
