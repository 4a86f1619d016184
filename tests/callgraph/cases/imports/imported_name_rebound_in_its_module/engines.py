def reference(data):
    return sorted(data)


def optimised(data):
    return sorted(data, reverse=True)[::-1]


engine = reference
engine = optimised  # what importers get: the module has finished when they read it
