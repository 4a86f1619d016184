"""A decorator's wrapper calls whichever function it decorated: a change to one of
them reaches the wrapper, not the callers of every other function it decorates."""

from __future__ import annotations

import pytest
from helpers.gitrepo import RepoBuilder
from test_pipeline import diff, impacted

LOGGED = """
import functools

def note(name):
    return name

def logged(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        note(func.__name__)
        return func(*args, **kwargs)
    return wrapper

@logged
def fetch():
    return 1

@logged
def store():
    return 2
"""

TESTS = """
from app import fetch, store

def test_fetch():
    assert fetch() == 1

def test_store():
    assert store() == 2
"""


@pytest.fixture
def app(repo: RepoBuilder) -> RepoBuilder:
    repo.commit({"app.py": LOGGED, "tests/test_app.py": TESTS}, "base")
    repo.start_branch("feature")
    return repo


def test_a_decorated_function_reaches_its_own_callers_only(app: RepoBuilder) -> None:
    app.commit({"app.py": LOGGED.replace("return 2", "return 3")})
    report = diff(app.path, "main..feature")
    found = impacted(report)
    assert "app.py::logged::wrapper" in found  # it runs the changed function
    assert "tests/test_app.py::test_store" in found
    assert "tests/test_app.py::test_fetch" not in found
    assert report["tests"] == ["tests/test_app.py::test_store"]


def test_a_change_in_the_wrapper_reaches_every_decorated_call(app: RepoBuilder) -> None:
    app.commit({"app.py": LOGGED.replace("return name", "return name.upper()")})
    report = diff(app.path, "main..feature")
    assert report["tests"] == ["tests/test_app.py::test_fetch", "tests/test_app.py::test_store"]
    assert {"app.py::logged::wrapper", "tests/test_app.py::test_fetch"} <= impacted(report).keys()
