from registry import HANDLERS, STARTUP


def parse_csv(payload):
    return payload.split(",")


def warm_up():
    print("csv ready")


HANDLERS["csv"] = parse_csv
STARTUP.append(warm_up)
