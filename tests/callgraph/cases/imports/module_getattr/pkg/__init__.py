import warnings

from .impl import _Registry, make_registry


def __getattr__(name):
    if name == "Registry":
        warnings.warn("Registry is deprecated", DeprecationWarning, stacklevel=2)
        return _Registry
    raise AttributeError(name)


__all__ = ["make_registry"]
