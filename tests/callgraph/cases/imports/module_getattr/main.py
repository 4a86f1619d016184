import pkg


def use():
    registry = pkg.Registry()
    registry.add(1)
    return pkg.make_registry()


use()
