def prepare(job):
    return f"prepared {job}"


def execute(job):
    return f"executed {job}"


handler = prepare
print(handler("build"))
handler = execute
print(handler("build"))
