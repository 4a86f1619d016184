def helper():
    return "module helper"


def work():
    def helper():
        return "local helper"

    return helper()


def other():
    return helper()


print(work(), other())
