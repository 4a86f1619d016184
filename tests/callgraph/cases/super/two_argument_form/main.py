class Parser:
    def parse(self, text):
        return text.split()


class StrictParser(Parser):
    def parse(self, text):
        tokens = super(StrictParser, self).parse(text)
        return [t for t in tokens if t.isalpha()]


print(StrictParser().parse("a 1 b"))
