from .core import Engine
from .plugins import load_plugins as load

__all__ = ["Engine", "load"]
