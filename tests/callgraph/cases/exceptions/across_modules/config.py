from errors import ConfigError


def require(settings, key):
    if key not in settings:
        raise ConfigError(key)
    return settings[key]
