def open(name):
    return f"opened {name}"
