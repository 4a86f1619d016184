"""Which of a module's two forms to import: the compiled one, or its source.

``build_native.py`` compiles the modules listed in ``COMPILED`` with mypyc and
writes a manifest of the sources it compiled. Python's importer prefers an
extension module to a source file of the same name, so a compiled module built
from an older source would silently run the older code. The guard checks, once,
that the manifest lists every compiled module with the hash of its source now
on disk; when it does not (no manifest, a source changed, ``IMPACTBOT_NATIVE=0``),
every compiled module is imported from its source. It is all or none: compiled
modules call each other's compiled code directly.

The guard is installed as the package is imported, before ``python -m
impactbot`` has taken the analysed repository's directory off ``sys.path``: so
this module imports nothing at its top (a ``json.py`` there would be imported),
installing the guard reads no file, and the manifest is plain text.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

# the modules a link spends its time in, from the package's directory
COMPILED = ("link/python.py", "link/linker.py", "link/callbacks.py", "link/inits.py")
MANIFEST = "native.txt"  # in the package's directory: "module sha256" per line


def module_name(source: str) -> str:
    """``link/python.py`` -> ``impactbot.link.python``."""
    return "impactbot." + source.removesuffix(".py").replace("/", ".")


class NativeGuard:
    """A finder placed before Python's own: steps aside for fresh compiled modules,
    and hands out the sources of the others."""

    def __init__(self, package_dir: str, enabled: bool = True) -> None:
        self.package_dir = package_dir
        self.enabled = enabled
        self.sources = {module_name(s): os.path.join(package_dir, s) for s in COMPILED}
        self._fresh: bool | None = None

    def fresh(self) -> bool:
        """Whether the compiled modules were built from the sources now on disk."""
        if self._fresh is None:
            built = read_manifest(os.path.join(self.package_dir, MANIFEST))
            self._fresh = self.enabled and all(
                built.get(name) == source_hash(path) for name, path in self.sources.items()
            )
        return self._fresh

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        source = self.sources.get(fullname)
        if source is None or self.fresh():
            return None  # Python's finders take it: an extension module comes first
        import importlib.util

        return importlib.util.spec_from_file_location(fullname, source)


def read_manifest(path: str) -> dict[str, str]:
    """Module name -> hash of the source it was compiled from; empty when unreadable."""
    try:
        with open(path, encoding="utf-8") as lines:
            return dict(line.split() for line in lines if line.strip())
    except (OSError, ValueError):
        return {}


def source_hash(path: str) -> str | None:
    import hashlib

    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def install_guard(package_dir: str) -> None:
    """Put the guard first on ``sys.meta_path`` (once)."""
    import sys

    if not any(isinstance(f, NativeGuard) for f in sys.meta_path):
        sys.meta_path.insert(0, NativeGuard(package_dir, enabled=os.environ.get("IMPACTBOT_NATIVE", "1") != "0"))
