def operation_id(resource, method):
    return method + "_" + resource


def key(item):
    return item
