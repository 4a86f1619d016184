from typing import TYPE_CHECKING


def configure_for_checker():
    return "static"


def configure_runtime():
    return "runtime"


if TYPE_CHECKING:
    MODE = configure_for_checker()
else:
    MODE = configure_runtime()

print(MODE)
