def load_plugins(names):
    return [n.upper() for n in names]
