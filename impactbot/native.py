"""Which of a module's two forms to import: the compiled one, or its source.

``build_native.py`` compiles the linker's resolution modules with mypyc and
writes a manifest of the sources it compiled. Python's importer prefers an
extension module to a source file of the same name, so a compiled module built
from an older source would silently run the older code. The guard checks, once,
that every source named in the manifest is unchanged; when one is not (or when
``IMPACTBOT_NATIVE=0``), every listed module is imported from its source. It is
all or none: compiled modules call each other's compiled code directly.

The guard is installed as the package is imported, before ``python -m
impactbot`` has taken the analysed repository's directory off ``sys.path``: so
this module imports nothing at its top (a ``json.py`` there would be imported),
and the manifest is plain text.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

MANIFEST = "native.txt"  # beside this module: "module source-path sha256" per line


class NativeGuard:
    """A finder placed before Python's own: steps aside for fresh compiled modules,
    and hands out the sources of stale ones."""

    def __init__(self, manifest: str, enabled: bool = True) -> None:
        self.manifest = manifest
        self.enabled = enabled
        self._sources: dict[str, tuple[str, str]] | None = None
        self._fresh: bool | None = None

    def sources(self) -> dict[str, tuple[str, str]]:
        """Module name -> (source path, hash of the source compiled)."""
        if self._sources is None:
            root = os.path.dirname(os.path.dirname(self.manifest))
            self._sources = {}
            try:
                with open(self.manifest, encoding="utf-8") as lines:
                    for line in lines:
                        name, source, digest = line.split()
                        self._sources[name] = (os.path.join(root, source), digest)
            except (OSError, ValueError):
                self._sources = {}  # unreadable: nothing is known to be compiled from what is here
        return self._sources

    def fresh(self) -> bool:
        """Whether the compiled modules were built from the sources now on disk."""
        if self._fresh is None:
            self._fresh = self.enabled and all(
                source_hash(path) == digest for path, digest in self.sources().values()
            )
        return self._fresh

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.sources() or self.fresh():
            return None  # Python's finders take it: the extension module comes first
        import importlib.util

        source = self.sources()[fullname][0]
        if not os.path.exists(source):
            return None
        package = [os.path.dirname(source)] if os.path.basename(source) == "__init__.py" else None
        return importlib.util.spec_from_file_location(fullname, source, submodule_search_locations=package)


def source_hash(path: str) -> str | None:
    import hashlib

    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def install_guard(package_dir: str) -> None:
    """Put the guard first on ``sys.meta_path`` when compiled modules were built."""
    import sys

    manifest = os.path.join(package_dir, MANIFEST)
    if os.path.exists(manifest) and not any(isinstance(f, NativeGuard) for f in sys.meta_path):
        sys.meta_path.insert(0, NativeGuard(manifest, enabled=os.environ.get("IMPACTBOT_NATIVE", "1") != "0"))
