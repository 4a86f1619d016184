class Exporter:
    def export(self, rows):
        return [self.format_row(row) for row in rows]

    def format_row(self, row):
        return ",".join(map(str, row))


class TsvExporter(Exporter):
    def format_row(self, row):
        return "\t".join(map(str, row))


print(Exporter().export([(1, 2)]), TsvExporter().export([(3, 4)]))
