"""Which sections of a changed project configuration file can affect the tests.

``pyproject.toml``, ``setup.cfg`` and ``tox.ini`` hold what every test depends on
(dependencies, pytest's options, the package's own settings) next to settings no
test reads (a linter's line length, a formatter's excludes). A change to such a
file asks for the whole test suite unless every section it changed is one of the
latter: a pull request that tunes ruff does not need every test run.
"""

from __future__ import annotations

import configparser
import sys
from collections.abc import Mapping
from fnmatch import fnmatch

# Sections read by linters, formatters, type checkers and release tools only. A
# section missing here counts as one the tests may read.
QUIET_TOML = (
    "tool.ruff", "tool.black", "tool.isort", "tool.mypy", "tool.pyright", "tool.basedpyright",
    "tool.pylint", "tool.flake8", "tool.codespell", "tool.typos", "tool.docformatter",
    "tool.pydocstyle", "tool.interrogate", "tool.vulture", "tool.autoflake", "tool.yapf",
    "tool.bandit", "tool.commitizen", "tool.towncrier", "tool.bumpversion", "tool.pyproject-fmt",
    "tool.check-manifest", "tool.check-wheel-contents", "tool.refurb", "tool.pylsp-mypy",
    "tool.cibuildwheel", "tool.distutils", "tool.tbump", "tool.semantic_release",
    # what coverage measures and reports: no test runs otherwise for it
    "tool.coverage", "tool.pycln", "tool.autopep8", "tool.mdformat", "tool.deptry",
    "project.urls", "project.description", "project.readme", "project.keywords",
    "project.classifiers", "project.authors", "project.maintainers",
)
QUIET_INI = (
    "flake8", "pycodestyle", "pydocstyle", "pep8", "isort", "mypy", "mypy-*", "pylint", "pylint.*",
    "codespell", "bumpversion", "bumpversion:*", "check-manifest", "darglint", "yapf",
    "coverage:*",
    # what builds and uploads distributions reads, not what the tests run against
    "bdist_wheel", "bdist_rpm", "sdist", "egg_info", "wheel", "upload", "upload_docs", "build_sphinx",
    "zest.releaser",
)
_TOML_NAMES = ("pyproject.toml",)
_INI_NAMES = ("setup.cfg", "tox.ini")


def sectioned(name: str) -> bool:
    """Whether a file of this name is compared section by section."""
    return name in _TOML_NAMES or name in _INI_NAMES


def loud_sections(name: str, old: bytes, new: bytes) -> list[str] | None:
    """The changed sections of two versions of a configuration file that tests may
    read, in order; None when either version cannot be read (then any may)."""
    quiet: tuple[str, ...]
    if name in _TOML_NAMES:
        before, after = _toml_sections(old), _toml_sections(new)
        quiet = QUIET_TOML
    else:
        before, after = _ini_sections(old), _ini_sections(new)
        quiet = QUIET_INI
    if before is None or after is None:
        return None
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    return [k for k in changed if not any(k == q or k.startswith(q + ".") or fnmatch(k, q) for q in quiet)]


def _toml_sections(data: bytes) -> dict[str, object] | None:
    """``project.dependencies``, ``tool.ruff``, ... -> value: tables under ``project`` and
    ``tool`` one level down (a tool's settings change together), the rest at the top."""
    if sys.version_info >= (3, 11):  # as impactbot.config reads its own table
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    out: dict[str, object] = {}
    for key, value in doc.items():
        if key in ("project", "tool") and isinstance(value, Mapping):
            out.update({f"{key}.{sub}": v for sub, v in value.items()})
        else:
            out[key] = value
    return out


def _ini_sections(data: bytes) -> dict[str, object] | None:
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    try:
        parser.read_string(data.decode("utf-8"))
    except (UnicodeDecodeError, configparser.Error):
        return None
    return {name: dict(parser.items(name)) for name in parser.sections()}
