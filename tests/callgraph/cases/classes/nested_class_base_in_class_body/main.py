class Plain:
    def render(self):
        return "plain"


class Fancy:
    def render(self):
        return "fancy"


class Widget:
    Look = Plain

    class Part(Look):  # the class body runs in order: Look is Plain here
        def render(self):
            return "part"

    Look = Fancy


def show(item: Fancy):
    return item.render()  # Widget.Part is no Fancy


print(Widget.Part().render())
print(show(Fancy()))
