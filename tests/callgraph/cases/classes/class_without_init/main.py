class Formatter:
    prefix = ">> "

    def format(self, text):
        return self.prefix + text


class Plain:
    pass


print(Formatter().format("hi"), Plain())
