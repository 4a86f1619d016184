def open_file():
    return "open"


def close_file():
    return "close"


def beep():
    return "beep"


MENU = {"file": {"open": open_file, "close": close_file}, "sound": beep}


def close():
    return MENU["file"]["close"]()


print(close(), {"hooks": {"on": beep}}["hooks"]["on"]())
