class ConsoleSink:
    def write_line(self, text):
        print(text)


def emit(sink, text):
    sink.write_line(text)


ConsoleSink().write_line("ready")
