def check_disk():
    return "disk ok"


def check_network():
    return "network ok"


def audit(*checks):
    return [check() for check in checks]


print(audit(check_disk, check_network))
