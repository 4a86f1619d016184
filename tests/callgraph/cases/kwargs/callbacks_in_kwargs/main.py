def before():
    print("before")


def after():
    print("after")


def job():
    return "job result"


def run(task, **hooks):
    hooks["before"]()
    result = task()
    hooks["after"]()
    return result


print(run(job, before=before, after=after))
