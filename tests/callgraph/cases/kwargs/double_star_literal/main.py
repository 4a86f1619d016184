def on_done():
    return "done"


def on_error():
    return "error"


def run(callback, label="run"):
    return f"{label}: {callback()}"


def report(success, failure):
    return [success(), failure()]


print(run(**{"callback": on_done}))
print(run(**dict(callback=on_error, label="retry")))
print(report(on_done, **{"failure": on_error}))
