def deploy():
    return "deployed"


def eval(expression):
    # this module's own eval: it never runs the text it is given
    return len(expression)


def check():
    return eval("deploy()")


check()
