class Json:
    def dump(self):
        return "json"


class Yaml:
    def dump(self):
        return "yaml"


def build():
    Format = Json

    class Writer(Format):  # Json: the function's own name, as bound at this line
        def dump(self):
            return "writer"

    Format = Yaml
    return Writer()


def export(fmt: Yaml):
    return fmt.dump()  # a Writer is no Yaml


print(build().dump())
print(export(Yaml()))
