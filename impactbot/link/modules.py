"""Where each Python file lives in the import namespace of a revision.

A file is importable under the dotted name relative to the top of its package
chain (``src/pkg/mod.py`` with ``src/`` not a package is ``pkg.mod``), and, as a
namespace package, under its full path from the repository root. Both names are
registered; a name claimed by several files stays ambiguous rather than being
given to the first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from posixpath import dirname


def _dotted(parts: list[str]) -> str:
    return ".".join(parts)


def _named_depth(directory: str, packages: set[str]) -> int:
    """How many directories of a file's path its module's dotted name takes: up to the
    topmost package above it, through any directory between without ``__init__.py``."""
    depth = levels = 0
    d = directory
    while d:
        levels += 1
        if d in packages:
            depth = levels
        d = dirname(d)
    return depth


def _module_parts(path: str) -> list[str]:
    stem = path[: -len(".pyi")] if path.endswith(".pyi") else path[: -len(".py")]
    parts = stem.split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return parts


@dataclass
class ModuleIndex:
    """Dotted module names <-> repository paths for one revision."""

    by_name: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    name_of: dict[str, str] = field(default_factory=dict)  # path -> canonical name
    package_of: dict[str, str] = field(default_factory=dict)  # path -> package for relative imports

    @classmethod
    def build(cls, paths: Iterable[str]) -> ModuleIndex:
        paths = sorted(paths)
        packages = {dirname(p) for p in paths if p.rsplit("/", 1)[-1] in ("__init__.py", "__init__.pyi")}
        index = cls()
        for path in paths:
            index._register(path, packages)
        return index

    def _register(self, path: str, packages: set[str]) -> None:
        parts = _module_parts(path)
        directory = dirname(path)
        depth = 0  # how many trailing directories are packages
        d = directory
        while d and d in packages:
            depth += 1
            d = dirname(d)
        is_init = path.rsplit("/", 1)[-1].startswith("__init__.")
        own = 0 if is_init else 1
        names = {_dotted(parts[len(parts) - depth - own :]) if depth + own else _dotted(parts), _dotted(parts)}
        # a directory without __init__.py inside a package is a namespace portion of it
        # (flask/sansio/app.py is flask.sansio.app): the name runs up to the topmost package
        keep = _named_depth(directory, packages) + own
        canonical = _dotted(parts[len(parts) - keep :]) if keep else _dotted(parts)
        if not canonical:
            return
        names.add(canonical)
        for name in names:
            if path not in self.by_name[name]:
                self.by_name[name].append(path)
        self.name_of[path] = canonical
        if is_init:
            self.package_of[path] = canonical
        else:
            self.package_of[path] = canonical.rpartition(".")[0]

    def ending(self, suffix: str) -> list[str]:
        """The files whose path is ``suffix`` or ends with ``/suffix`` (``python main.py``
        run from a directory of the repository), sorted."""
        return sorted(p for p in self.name_of if p == suffix or p.endswith("/" + suffix))

    def paths(self, name: str, near: str | None = None) -> list[str]:
        """Files for a dotted name; with several, those sharing the importer's root first.

        Only the ones sharing the importer's top directory are returned when such
        exist, because two top-level ``utils.py`` in unrelated roots are not
        alternatives for one import.
        """
        found = self.by_name.get(name, [])
        if len(found) <= 1 or near is None:
            return list(found)
        # the importer's own directory comes first on sys.path (a script, a test module
        # under pytest's rootdir insertion): a module of that name there is the one found
        here = dirname(near)
        same_dir = [p for p in found if dirname(p) == here or (dirname(dirname(p)) == here and p.endswith(
            ("/__init__.py", "/__init__.pyi")))]
        if len(same_dir) == 1:
            return same_dir
        top = near.split("/", 1)[0] if "/" in near else ""
        same_root = [p for p in found if (p.split("/", 1)[0] if "/" in p else "") == top]
        return same_root or list(found)

    def is_module(self, name: str) -> bool:
        return name in self.by_name

    def absolute(self, path: str, module: str, level: int) -> str | None:
        """Resolve a relative import of ``module`` at ``level`` from ``path``."""
        if level == 0:
            return module
        package = self.package_of.get(path, "")
        parts = package.split(".") if package else []
        if level - 1 > len(parts):
            return None
        base = parts[: len(parts) - (level - 1)]
        if module:
            base = [*base, *module.split(".")]
        return ".".join(base)
