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


# tornado's gen_test: a decorator for test methods, whose closure calls the test
# inside a loop runner that the library's own code calls from everywhere
GEN_TEST = """
import functools

def run_sync(func):
    return func()

def gen_test(timeout=None):
    def wrap(f):
        @functools.wraps(f)
        def pre_coroutine(self, *args, **kwargs):
            return f(self, *args, **kwargs)

        @functools.wraps(pre_coroutine)
        def post_coroutine(self, *args, **kwargs):
            return run_sync(functools.partial(pre_coroutine, self, *args, **kwargs))
        return post_coroutine
    if callable(timeout):
        return wrap(timeout)
    return wrap
"""

LOOP_TESTS = """
import unittest
from testing import gen_test, run_sync

class LoopTest(unittest.TestCase):
    @gen_test
    def test_first(self):
        return 1

    @gen_test(timeout=5)
    def test_second(self):
        return 2

    def test_runs_a_callback(self):
        assert run_sync(lambda: 3) == 3
"""

FACTORY = """
def make_handler(callback):
    def handler(event):
        return callback(event)
    return handler

def on_save(event):
    return event

def process(event):
    return make_handler(on_save)(event)
"""

FACTORY_TESTS = """
from events import process

def test_process():
    assert process(1) == 1
"""


def test_a_decorated_test_reaches_no_test_through_the_decorators_closure(repo: RepoBuilder) -> None:
    repo.commit({"testing.py": GEN_TEST, "tests/test_loop.py": LOOP_TESTS}, "base")
    repo.start_branch("feature")
    repo.commit({"tests/test_loop.py": LOOP_TESTS.replace("return 1", "return 10")})
    report = diff(repo.path, "main..feature")
    found = impacted(report)
    # the closure runs the changed test; what calls the closure runs any decorated test
    assert "testing.py::gen_test::wrap::pre_coroutine" in found
    assert "testing.py::run_sync" not in found
    assert report["tests"] == ["tests/test_loop.py::LoopTest::test_first"]


def test_a_factorys_closure_still_reaches_who_runs_the_callback(repo: RepoBuilder) -> None:
    repo.commit({"events.py": FACTORY, "tests/test_events.py": FACTORY_TESTS}, "base")
    repo.start_branch("feature")
    repo.commit({"events.py": FACTORY.replace("    return event\n", "    return event + 0\n", 1)})
    report = diff(repo.path, "main..feature")
    assert {"events.py::make_handler::handler", "events.py::process"} <= impacted(report).keys()
    assert report["tests"] == ["tests/test_events.py::test_process"]
