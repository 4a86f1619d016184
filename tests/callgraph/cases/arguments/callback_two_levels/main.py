def log_line(message):
    print(message)


def notify(handler, text):
    handler(text.upper())


def process(items, on_item):
    for item in items:
        notify(on_item, item)


process(["a", "b"], log_line)
