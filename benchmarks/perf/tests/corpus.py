"""Small corpora for the benchmark's own tests: generated, and a slice of the stdlib."""

from __future__ import annotations

import sysconfig
from pathlib import Path


def _module(index: int) -> str:
    lines = [f'"""Module {index}."""', ""]
    if index:
        lines += [f"from pkg.mod{index - 1} import helper{index - 1}", ""]
    lines += [
        f"def helper{index}(value):",
        "    doubled = value * 2",
        "    shifted = doubled + 1",
        "    return shifted",
        "",
        "",
        f"def work{index}(items, scale):",
        '    """Sum the helped items."""',
        "    total = 0",
        "    for item in items:",
        f"        total += {'helper' + str(index - 1) if index else 'abs'}(item) * scale",
        "    return total",
        "",
        "",
        f"class Tool{index}:",
        "    def run(self, items):",
        "        count = len(items)",
        f"        result = work{index}(items, 3)",
        "        return result / count",
        "",
    ]
    return "\n".join(lines)


def generated(modules: int = 8) -> dict[str, bytes]:
    """``pkg/mod<i>.py``: each module's ``work`` calls the previous module's ``helper``."""
    files = {"pkg/__init__.py": b""}
    files.update({f"pkg/mod{i}.py": _module(i).encode() for i in range(modules)})
    return files


def stdlib_slice(*packages: str) -> dict[str, bytes]:
    """The ``.py`` files of some standard-library packages, keyed like the stdlib corpus."""
    root = Path(sysconfig.get_paths()["stdlib"])
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
    }
