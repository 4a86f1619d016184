def draft(doc):
    return f"draft of {doc}"


def publish(doc):
    return f"published {doc}"


def release(doc):
    action = draft
    action = publish
    return action(doc)


print(release("notes"))
