def migrate():
    return "migrated"


def seed(rows):
    return rows


def report(text):
    return text


def sandboxed():
    return "never reached from the string below"


def run_plan():
    exec("migrate()\nseed([1, 2])")
    return eval("report('done')", globals())


def run_isolated():
    # its names are looked up in the dict given, not in this module
    return eval("sandboxed()", {"sandboxed": print})


def run_formatted(name):
    # the text of the code is not known until the call
    return eval(f"{name}()")


run_plan()
run_isolated()
run_formatted("print")
