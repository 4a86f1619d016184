def draft(doc):
    return f"draft {doc}"


def publish(doc):
    return f"published {doc}"


action = draft


def run(doc):
    return action(doc)


print(run("notes"))  # the module is still running: action is draft here
action = publish
print(run("notes"))
