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
}


def _validate(values: Mapping[str, object]) -> list[str]:
    problems = []
    for name, value in values.items():
        try:
            CLEANERS[name](value)
        except ValueError as exc:
            problems.append(f"{name.replace('_', '-')}: {exc}")
    return problems


def table_from_toml(text: str, source: str, *, pyproject: bool) -> dict[str, object]:
    """The impactbot table of a pyproject.toml or .impactbot.toml file."""
    # imported here: most repositories have no such file, and start-up is measured
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
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
    for name, section in PYTEST_CONFIGS:
        text = read(name)
        if text is None:
            continue
        found = _pyproject_python_files(text) if section is None else _ini_python_files(text, section)
        if found is not None:
            return found[0] or None
    return None


def _ini_python_files(text: str, section: str) -> tuple[tuple[str, ...]] | None:
    """((globs,),) when the file has the pytest section (globs empty: not set), else None."""
    import configparser

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    if not parser.has_section(section):
        return None
    return (tuple(parser.get(section, "python_files", fallback="").split()),)


def _pyproject_python_files(text: str) -> tuple[tuple[str, ...]] | None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        options = tomllib.loads(text).get("tool", {}).get("pytest", {}).get("ini_options")
    except tomllib.TOMLDecodeError:
        return None
    if not isinstance(options, dict):
        return None
    value = options.get("python_files", ())
    globs = value.split() if isinstance(value, str) else [g for g in value if isinstance(g, str)]
    return (tuple(globs),)
