def on_click():
    return "click"


def on_change():
    return "change"


def on_default():
    return "default"


class Button:
    def press(self):
        return self.handler()


class Field:
    def edit(self):
        return self.callback()


class Label:
    def __init__(self):
        self.callback = on_default

    def show(self):
        return self.callback()


button = Button()
button.handler = on_click
print(button.handler(), button.press())


def wire(field: Field):
    field.callback = on_change
    print(field.callback())
    return field.edit()


print(wire(Field()), Label().show())
