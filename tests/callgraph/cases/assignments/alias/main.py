def send_email(to):
    return f"email to {to}"


notify = send_email


def alert(user):
    return notify(user)


print(alert("ann"))
