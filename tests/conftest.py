"""Guards that keep the developer's machine out of every test, and shared fixtures."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pygit2
import pytest
from helpers.gitrepo import RepoBuilder
from pygit2.enums import ConfigLevel

# libgit2 ignores GIT_CONFIG_GLOBAL/SYSTEM and reads $HOME/.gitconfig, so its
# search path is pointed at a place without any config as well.
_CONFIG_LEVELS = (ConfigLevel.GLOBAL, ConfigLevel.XDG, ConfigLevel.SYSTEM)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*.md from the current renderer (review the diff before committing)",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """Whether golden files are rewritten instead of compared."""
    return bool(request.config.getoption("--update-golden", default=False))


@pytest.fixture(autouse=True)
def isolated_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No user or system git config, a fixed time zone and locale."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_SYSTEM", os.devnull)
    monkeypatch.setenv("TZ", "UTC")
    monkeypatch.setenv("LC_ALL", "C")
    search_path = pygit2.settings.search_path
    saved = {level: search_path[level] for level in _CONFIG_LEVELS}
    for level in _CONFIG_LEVELS:
        search_path[level] = os.devnull
    yield
    for level, value in saved.items():
        search_path[level] = value


@pytest.fixture
def repo(tmp_path: Path) -> RepoBuilder:
    """An empty repository on branch ``main``."""
    return RepoBuilder.init(tmp_path / "repo")
