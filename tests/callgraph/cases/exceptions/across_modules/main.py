from config import require
from errors import ConfigError


def explain(error: ConfigError) -> str:
    return f"{str(error)} ({error.hint()})"


try:
    require({}, "token")
except ConfigError as err:
    print(explain(err))
