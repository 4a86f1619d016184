def v1():
    return 1


def v2():
    return 2


API = {"current": v1}


def call_current():
    return API["current"]()


print(call_current())
API = {"current": v2}
print(call_current())
