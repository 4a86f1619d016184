"""Settings: defaults < ``[tool.impactbot]`` / ``.impactbot.toml`` < IMPACTBOT_* env < flags.

Every problem names its key, and all problems are reported together.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from impactbot.errors import ConfigError

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


@dataclass(frozen=True, kw_only=True)
class Settings:
    depth: int = 3
    hub_cap: int = 25
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    # off by default: on real release history the structural order ranked the
    # tests that run the change higher (README, Ranking)
    semantic: bool = False
    model: str = DEFAULT_MODEL
    top: int = 15
    max_impacted: int = 500
    time_budget: float | None = None
    # derive a commit's graph from a cached nearby one (impactbot.link.incremental):
    # exact, faster for the next commit of a branch, slower for a cold run
    incremental_graphs: bool = False
    # pytest's python_files: which files hold tests (None: what the repository's pytest
    # configuration says, else pytest's defaults, test_*.py and *_test.py)
    test_files: tuple[str, ...] | None = None
    # modules pytest loads as plugins by configuration: the repository's own pytest11
    # entry points, and `-p module` in addopts (their fixtures are visible to every test)
    test_plugins: tuple[str, ...] = ()

    def with_overrides(self, **values: Any) -> Settings:
        """Apply values that were actually given (None means "not given")."""
        given = {k: v for k, v in values.items() if v is not None and v != ()}
        problems = _validate(given)
        if problems:
            raise ConfigError("; ".join(problems))
        return replace(self, **given)


# Key in the TOML table / env suffix -> field name.
KEYS = {
    "depth": "depth",
    "hub-cap": "hub_cap",
    "include": "include",
    "exclude": "exclude",
    "semantic": "semantic",
    "model": "model",
    "top": "top",
    "max-impacted": "max_impacted",
    "time-budget": "time_budget",
    "incremental-graphs": "incremental_graphs",
    "test-files": "test_files",
    "test-plugins": "test_plugins",
}


def _positive_int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError("must be a positive integer")
    return value


def _globs(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ValueError("must be a glob or a list of globs")


def _modules(value: object) -> tuple[str, ...]:
    names = (value,) if isinstance(value, str) else value
    if isinstance(names, (list, tuple)) and all(
        isinstance(v, str) and v and all(p.isidentifier() for p in v.split(".")) for v in names
    ):
        return tuple(names)
    raise ValueError("must be a module name or a list of module names")


def _bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise ValueError("must be true or false")


def _text(value: object) -> str:
    if isinstance(value, str) and value:
        return value
    raise ValueError("must be a non-empty string")


def _seconds(value: object) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return float(value)
    raise ValueError("must be a positive number of seconds")


CLEANERS: dict[str, Callable[[object], object]] = {
    "depth": _positive_int,
    "hub_cap": _positive_int,
    "include": _globs,
    "exclude": _globs,
    "semantic": _bool,
    "model": _text,
    "top": _positive_int,
    "max_impacted": _positive_int,
    "time_budget": _seconds,
    "incremental_graphs": _bool,
    "test_files": _globs,
    "test_plugins": _modules,
}


def _validate(values: Mapping[str, object]) -> list[str]:
    problems = []
    for name, value in values.items():
        try:
            CLEANERS[name](value)
        except ValueError as exc:
            problems.append(f"{name.replace('_', '-')}: {exc}")
    return problems


def _parse_toml(text: str) -> dict[str, Any]:
    """The document; raises ValueError (tomllib's TOMLDecodeError) when it is not TOML."""
    # imported here: most repositories have no such file, and start-up is measured
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    return tomllib.loads(text)


def table_from_toml(text: str, source: str, *, pyproject: bool) -> dict[str, object]:
    """The impactbot table of a pyproject.toml or .impactbot.toml file."""
    try:
        data = _parse_toml(text)
    except ValueError as exc:
        raise ConfigError(f"{source}: not valid TOML ({exc})") from exc
    # .impactbot.toml may hold the keys at the top level or under [tool.impactbot]
    table = data.get("tool", {}).get("impactbot", {} if pyproject else data)
    if not isinstance(table, dict):
        raise ConfigError(f"{source}: [tool.impactbot] must be a table")
    return table


def settings_from_table(table: Mapping[str, object], source: str, base: Settings | None = None) -> Settings:
    """Clean every key of a configuration table; unknown keys are errors (typos)."""
    values: dict[str, object] = {}
    problems = []
    for key, raw in table.items():
        name = KEYS.get(key) or KEYS.get(key.replace("_", "-"))
        if name is None:
            problems.append(f"{source}: unknown key '{key}' (known: {', '.join(sorted(KEYS))})")
            continue
        try:
            values[name] = CLEANERS[name](raw)
        except ValueError as exc:
            problems.append(f"{source}: {key} {exc}")
    if problems:
        raise ConfigError("; ".join(problems))
    return replace(base or Settings(), **values)  # type: ignore[arg-type]  # each value was cleaned for its field


def settings_from_environ(environ: Mapping[str, str], base: Settings) -> Settings:
    """IMPACTBOT_DEPTH=4, IMPACTBOT_HUB_CAP=10, IMPACTBOT_SEMANTIC=false, ..."""
    table: dict[str, object] = {}
    for key, name in KEYS.items():
        raw = environ.get("IMPACTBOT_" + name.upper())
        if raw is None or raw == "":
            continue
        table[key] = _parse_env(raw, name)
    return settings_from_table(table, "environment", base)


def _parse_env(raw: str, name: str) -> object:
    kind = {f.name: f.type for f in fields(Settings)}[name]
    if "int" in str(kind) and raw.strip().lstrip("-").isdigit():
        return int(raw)
    if "float" in str(kind):
        try:
            return float(raw)
        except ValueError:
            return raw
    if "bool" in str(kind):
        return {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}.get(
            raw.strip().lower(), raw
        )
    if "tuple" in str(kind):
        return [g for g in raw.split(",") if g]
    return raw


# Where pytest reads its configuration, in the order it looks (the first that has a
# pytest section wins), and the section there.
PYTEST_CONFIGS = (("pytest.ini", "pytest"), (".pytest.ini", "pytest"), ("pyproject.toml", None),
                  ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"))


def pytest_test_files(read: Callable[[str], str | None]) -> tuple[str, ...] | None:
    """pytest's ``python_files`` as the repository configures it (``read(name)`` gives a
    root file's text, or None), or None: pytest's defaults. A file that cannot be parsed
    counts as not configuring it (pytest would refuse to run; that is not ours to say)."""
    value = _pytest_option(read, "python_files")
    if isinstance(value, list):
        return tuple(g for g in value if isinstance(g, str)) or None
    return tuple(value.split()) or None if isinstance(value, str) else None


def _pytest_option(read: Callable[[str], str | None], option: str) -> object:
    """An option of the pytest configuration in effect (the first file, in the order
    pytest looks, with a pytest section): "" when that file does not set it, None when
    no file has a pytest section."""
    for name, section in PYTEST_CONFIGS:
        text = read(name)
        if text is None:
            continue
        value = _pyproject_option(text, option) if section is None else _ini_option(text, section, option)
        if value is not None:
            return value
    return None


def pytest_plugin_modules(read: Callable[[str], str | None]) -> tuple[str, ...]:
    """Modules pytest loads as plugins because the repository says so: its own
    ``pytest11`` entry points (pyproject.toml, setup.cfg, setup.py) and ``-p module``
    in the ``addopts`` of its pytest configuration. Unparsable files say nothing."""
    found: list[str] = []
    pyproject = read("pyproject.toml")
    if pyproject is not None:
        found += _pyproject_entry_points(pyproject)
    setup_cfg = read("setup.cfg")
    if setup_cfg is not None:
        found += _setup_cfg_entry_points(setup_cfg)
    setup_py = read("setup.py")
    if setup_py is not None:
        found += _setup_py_entry_points(setup_py)
    found += _addopts_plugins(read)
    return tuple(dict.fromkeys(found))


def _module_of(entry: str) -> str | None:
    """``pkg.plugin`` of an entry point's ``name = pkg.plugin[:attr]`` (or of its value)."""
    value = entry.partition("=")[2] if "=" in entry else entry
    module = value.split(":", 1)[0].split("[", 1)[0].strip()
    return module if module and all(part.isidentifier() for part in module.split(".")) else None


def _pyproject_entry_points(text: str) -> list[str]:
    try:
        project = _parse_toml(text).get("project", {})
    except ValueError:
        return []
    points = project.get("entry-points", {}) if isinstance(project, dict) else {}
    group = points.get("pytest11", {}) if isinstance(points, dict) else {}
    if not isinstance(group, dict):
        return []
    return [m for v in group.values() if isinstance(v, str) and (m := _module_of(v)) is not None]


def _setup_cfg_entry_points(text: str) -> list[str]:
    import configparser

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return []
    lines = parser.get("options.entry_points", "pytest11", fallback="").splitlines()
    return [m for line in lines if line.strip() and (m := _module_of(line)) is not None]


def _setup_py_entry_points(text: str) -> list[str]:
    """``"pytest11": ["name = pkg.plugin"]`` in a setup.py (the literal, as written)."""
    import re

    found = re.search(r"""["']pytest11["']\s*:\s*\[([^\]]*)\]""", text)
    if found is None:
        return []
    entries = re.findall(r"""["']([^"']+)["']""", found.group(1))
    return [m for entry in entries if (m := _module_of(entry)) is not None]


def _addopts_plugins(read: Callable[[str], str | None]) -> list[str]:
    """``-p module`` / ``-pmodule`` in the addopts of the pytest configuration in effect
    (not ``-p no:name``, which disables one)."""
    import shlex

    addopts = _pytest_option(read, "addopts")
    if addopts is None:
        return []
    try:
        words = [str(w) for w in addopts] if isinstance(addopts, list) else shlex.split(str(addopts))
    except ValueError:
        return []
    out = []
    for i, word in enumerate(words):
        value = words[i + 1] if word == "-p" and i + 1 < len(words) else word[2:] if word.startswith("-p") else None
        if value and not value.startswith("no:") and (module := _module_of(value)) is not None:
            out.append(module)
    return out


def _ini_option(text: str, section: str, option: str) -> str | None:
    """An option of an ini file's pytest section ("" when the section lacks it); None
    without the section."""
    import configparser

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    if not parser.has_section(section):
        return None
    return parser.get(section, option, fallback="")


def _pyproject_option(text: str, option: str) -> object:
    """An option of pyproject.toml's ``[tool.pytest.ini_options]`` ("" when unset); None
    without that table."""
    try:
        options = _parse_toml(text).get("tool", {}).get("pytest", {}).get("ini_options")
    except ValueError:
        return None
    if not isinstance(options, dict):
        return None
    return options.get(option, "")
