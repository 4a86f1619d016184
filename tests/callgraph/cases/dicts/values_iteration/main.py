def check_database():
    return True


def check_cache():
    return True


HEALTH_CHECKS = {"database": check_database, "cache": check_cache}


def healthy():
    return all(check() for check in HEALTH_CHECKS.values())


print(healthy())
