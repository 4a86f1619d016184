class PlainParser:
    def parse(self, text):
        return text.split(",")


try:
    from speedups import Parser
except ImportError:
    Parser = PlainParser


class CsvParser(Parser):  # the fast Parser when it imports, the plain one otherwise
    pass


print(CsvParser().parse("a,b"))
