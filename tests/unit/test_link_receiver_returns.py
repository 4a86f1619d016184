"""Methods that give back their receiver: ``return self`` (a builder's chained calls) and
a classmethod's ``return cls(...)`` (a factory).

Called on a subclass, such a method gives the subclass, not any instance of the class
that defines it: a method then called on the result is the subclass's override alone.
"""

from __future__ import annotations

import textwrap

import pytest
from helpers.linking import assert_derived_both_ways, facts

from impactbot.link import link

CLASSES = """
class Query:
    def filter(self, **kw):
        self.kw = kw
        return self

    def ordered(self):
        if self.kw:
            return self
        return self

    @classmethod
    def create(cls, *args):
        return cls(*args)

    @classmethod
    def make(cls):
        return Query()

    def copy(self):
        return Query()

    def run(self):
        return []


class Users(Query):
    def run(self):
        return ["alice"]


class Posts(Query):
    def run(self):
        return ["hello"]
"""


def run_calls(source: str, caller: str = "m.py::use") -> set[str]:
    """The ``run`` methods the caller's calls reach, as ``Class.run``."""
    graph = link(facts({"m.py": CLASSES + textwrap.dedent(source)}))
    return {e.target.split("::", 1)[1].replace("::", ".") for e in graph.edges
            if e.kind == "calls" and e.source == caller and e.target.endswith("::run")}


GIVES_RECEIVER = {
    "a chained call on a subclass instance": ("def use():\n    Users().filter(a=1).run()\n", {"Users.run"}),
    "two chained calls": ("def use():\n    Posts().filter().ordered().run()\n", {"Posts.run"}),
    "through a name": ("def use():\n    q = Users().filter()\n    q.run()\n", {"Users.run"}),
    "a classmethod factory on a subclass": ("def use():\n    Posts.create().run()\n", {"Posts.run"}),
    "a classmethod factory on the base class": ("def use():\n    Query.create().run()\n", {"Query.run"}),
    "a classmethod read through an instance": ("def use():\n    Users().create().run()\n", {"Users.run"}),
    # `self` is any instance of the caller's class: the overrides below it, not beside it
    "a chained call on self": (
        "class Report(Query):\n    def use(self):\n        self.filter().run()\n"
        "class Weekly(Report):\n    def run(self):\n        return []\n",
        {"Query.run", "Weekly.run"},
    ),
    "each receiver its own": (
        "def use(flag):\n    q = Users() if flag else Posts()\n    q.filter().run()\n", {"Users.run", "Posts.run"}
    ),
}

OTHER_VALUES = {
    # what the method builds is the class it names, whatever it was called on
    "a method returning a new instance": ("def use():\n    Users().copy().run()\n", {"Query.run"}),
    "a classmethod returning the class it names": ("def use():\n    Users.make().run()\n", {"Query.run"}),
}


@pytest.mark.parametrize(("source", "expected"), GIVES_RECEIVER.values(), ids=GIVES_RECEIVER.keys())
def test_a_method_giving_back_its_receiver_gives_what_it_was_called_on(source: str, expected: set[str]) -> None:
    caller = "m.py::Report::use" if "class Report" in source else "m.py::use"
    assert run_calls(source, caller) == expected


@pytest.mark.parametrize(("source", "expected"), OTHER_VALUES.values(), ids=OTHER_VALUES.keys())
def test_other_returns_keep_their_own_values(source: str, expected: set[str]) -> None:
    assert run_calls(source) == expected


def test_a_method_that_stops_returning_self_is_derived_like_a_full_link() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/use.py": "from pkg.query import Users\n\n\ndef use():\n    Users().filter().run()\n",
        "pkg/other.py": "def unrelated():\n    return 0\n",
    }
    before = CLASSES
    after = CLASSES.replace("        self.kw = kw\n        return self\n", "        return Query()\n")
    assert before != after
    assert_derived_both_ways(files, "pkg/query.py", before, after)


COPIES = """
import copy


class Style:
    def __init__(self, bold=False):
        self.bold = bold

    def copy(self):
        return copy.copy(self)

    def replace(self, **changes):
        return type(self)(**changes)

    def renew(self):
        return self.__class__()

    def _clone(self):
        return self.copy()

    def with_bold(self):
        clone = self._clone()
        clone.bold = True
        return clone

    def elsewhere(self):
        return self.other()

    def other(self):
        return Style()

    def looping(self):
        return self.looping()

    def render(self):
        return "plain"


class Heading(Style):
    def render(self):
        return "heading"


class Caption(Style):
    def render(self):
        return "caption"

    def other(self):
        return self
"""


def render_calls(source: str) -> set[str]:
    """The ``render`` methods ``use`` reaches, as ``Class.render``."""
    graph = link(facts({"m.py": COPIES + textwrap.dedent(source)}))
    return {e.target.split("::", 1)[1].replace("::", ".") for e in graph.edges
            if e.kind == "calls" and e.source == "m.py::use" and e.target.endswith("::render")}


EVERY_RENDER = {"Style.render", "Heading.render", "Caption.render"}
COPIED = {
    "copy.copy(self)": ("def use():\n    Heading().copy().render()\n", {"Heading.render"}),
    "type(self)(...)": ("def use():\n    Heading().replace(bold=True).render()\n", {"Heading.render"}),
    "self.__class__()": ("def use():\n    Caption().renew().render()\n", {"Caption.render"}),
    "a delegation to a copy": ("def use():\n    Heading()._clone().render()\n", {"Heading.render"}),
    "a local name bound to a delegation": ("def use():\n    Heading().with_bold().render()\n", {"Heading.render"}),
    # Heading's other() makes a Style: elsewhere() hands the call on to it, so gives a Style
    "a delegation that makes another object": ("def use():\n    Heading().elsewhere().render()\n", {"Style.render"}),
    # on any Style, other() may be Caption's (giving the Caption back) or Style's own (a new
    # Style): a Heading's render never runs
    "a delegation on an instance of any subclass": (
        "def use(s: Style):\n    s.elsewhere().render()\n", {"Style.render", "Caption.render"}),
    "a delegation the receiver overrides": ("def use():\n    Caption().elsewhere().render()\n", {"Caption.render"}),
    "a method delegating to itself": ("def use():\n    Heading().looping().render()\n", set()),
}


@pytest.mark.parametrize(("source", "expected"), COPIED.values(), ids=COPIED.keys())
def test_a_copy_of_the_receiver_is_of_its_class(source: str, expected: set[str]) -> None:
    assert render_calls(source) == expected


HANDED_ON = """
class Result:
    def scalars(self):
        return []


class Startable:
    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        return False

    def start(self):
        raise NotImplementedError


class Connection(Startable):
    def start(self):
        return self

    def scalars(self, statement):
        return []


class Streamed(Startable):
    def start(self):
        return Result()


def use():
    with Streamed() as result:
        return result.scalars()
"""


def test_a_method_handing_the_call_on_gives_what_the_receivers_own_method_gives() -> None:
    # __enter__ is Startable's, but `self.start()` in it is Streamed's start when entered on a
    # Streamed: the result is a Result, never the Connection another override gives back
    graph = link(facts({"m.py": HANDED_ON}))
    assert {e.target for e in graph.edges if e.kind == "calls" and e.source == "m.py::use"} == {
        "m.py::Streamed", "m.py::Startable::__enter__", "m.py::Startable::__exit__", "m.py::Result::scalars"}
