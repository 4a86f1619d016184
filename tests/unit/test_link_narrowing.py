"""``isinstance`` narrowing a name's values; properties (also ``property(...)``) winning over instance attributes."""

from __future__ import annotations

import pytest
from helpers.linking import derived_from, facts

from impactbot.link import incremental, link
from impactbot.model import LinkedGraph

CLASSES = """
class Base:
    def run(self):
        pass

class Sub(Base):
    def run(self):
        pass

class Other:
    def run(self):
        pass
"""


def called_by(graph: LinkedGraph, caller: str) -> set[str]:
    return {e.target.removeprefix("m.py::") for e in graph.edges if e.kind == "calls" and e.source == caller}


def use(body: str) -> set[str]:
    return called_by(link(facts({"m.py": CLASSES + body})), "m.py::use")


def test_a_name_of_unknown_value_becomes_an_instance_of_the_tested_class() -> None:
    assert use("def use(x):\n    if isinstance(x, Sub):\n        x.run()\n") == {"Sub::run"}


def test_known_values_of_the_tested_class_stay() -> None:
    body = "def use(x: Base):\n    if isinstance(x, Base):\n        x.run()\n"
    assert use(body) == {"Base::run", "Sub::run"}
    body = "def use():\n    x = Sub()\n    if isinstance(x, Base):\n        x.run()\n"
    assert use(body) == {"Sub", "Sub::run"}


def test_a_value_of_another_class_is_dropped() -> None:
    body = "def use(x: Other):\n    if isinstance(x, Sub):\n        x.run()\n    x.run()\n"
    assert use(body) == {"Sub::run", "Other::run"}


def test_a_dotted_name_is_narrowed_too() -> None:
    body = (
        "class Holder:\n    def __init__(self, x: Other):\n        self.x = x\n\n"
        "    def use(self):\n        if isinstance(self.x, Sub):\n            self.x.run()\n        self.x.run()\n"
    )
    graph = link(facts({"m.py": CLASSES + body}))
    assert called_by(graph, "m.py::Holder::use") == {"Sub::run", "Other::run"}
    lines = {e.target.removeprefix("m.py::"): e.lines for e in graph.edges if e.source == "m.py::Holder::use"}
    assert lines["Sub::run"] != lines["Other::run"]


def test_a_class_from_a_library_narrows_nothing() -> None:
    # a class of the repository may derive from it, or be registered as a virtual subclass
    body = "from collections.abc import Sized\n\ndef use(x: Other):\n    if isinstance(x, Sized):\n        x.run()\n"
    assert use(body) == {"Other::run"}


def test_a_builtin_class_keeps_only_the_classes_deriving_from_it() -> None:
    body = "def use(x: Other):\n    if isinstance(x, Exception):\n        x.run()\n"
    assert use(body) == set()  # an Other is no Exception: what runs there is not known
    failing = "class Failure(Other, ValueError):\n    def run(self):\n        pass\n\n"
    assert use(failing + body) == {"Other::run", "Failure::run"}  # x may be a Failure


def test_a_builtin_class_keeps_a_class_deriving_from_a_library_class() -> None:
    body = "from lib import Text\n\nclass Word(Text):\n    def run(self):\n        pass\n\n" \
           "def use(x: Word):\n    if isinstance(x, str):\n        x.run()\n"
    assert use(body) == {"Word::run"}  # Text may be a str


def test_or_ed_tests_of_one_name_narrow_to_either_class() -> None:
    body = "def text(x):\n    if x is None or isinstance(x, str):\n        return x\n    return str(x)\n\n" \
           "def feed(o: Other):\n    return text(o)\n\n" \
           "def use(s):\n    text(s).run()\n"
    assert use(body) == {"text"}  # text(o) gives o back only when o is None or a str
    either = "def use(x: Other):\n    if isinstance(x, Sub) or isinstance(x, Base):\n        x.run()\n"
    assert use(either) == {"Sub::run", "Base::run"}
    mixed = "def use(x: Other, y):\n    if isinstance(x, Sub) or isinstance(y, Sub):\n        x.run()\n"
    assert use(mixed) == {"Other::run"}  # a test of another name tells nothing of x


def test_assigning_a_dotted_name_ends_its_narrowing() -> None:
    body = (
        "class Holder:\n    def __init__(self, t):\n        self.t = t\n\n"
        "    def use(self):\n        if isinstance(self.t, str):\n            self.t = Other()\n"
        "            self.t.run()\n"
    )
    graph = link(facts({"m.py": CLASSES + body}))
    assert called_by(graph, "m.py::Holder::use") == {"Other", "Other::run"}


def test_an_assignment_after_the_test_ends_it() -> None:
    body = "def use(x):\n    if isinstance(x, Sub):\n        x = Other()\n        x.run()\n"
    assert use(body) == {"Other", "Other::run"}


def test_a_derived_graph_follows_a_changed_test() -> None:
    old = facts({"m.py": CLASSES + "def use(x):\n    if isinstance(x, Sub):\n        x.run()\n"})
    new = facts({"m.py": CLASSES + "def use(x):\n    if isinstance(x, Other):\n        x.run()\n"})
    _, derived = derived_from(old, new)
    assert derived == link(new)
    assert called_by(derived, "m.py::use") == {"Other::run"}


def test_a_property_of_a_base_wins_over_the_instance_attribute() -> None:
    graph = link(facts({"m.py": """
class Handle:
    @property
    def ptr(self):
        return self._ptr

    @ptr.setter
    def ptr(self, value):
        self._ptr = value

class Lazy:
    @functools.cached_property
    def size(self):
        return 1

class Geometry(Handle, Lazy):
    def __init__(self, value):
        self.ptr = value
        self.size = 2

    def use(self):
        return self.ptr, self.size
"""}))
    assert called_by(graph, "m.py::Geometry::use") == {"Handle::ptr"}



PERSON = """
class Person:
    def __init__(self, first):
        self.first = first

    def _get_name(self):
        return self.first.title()

    def _set_name(self, value):
        self.first = value

    name = property(_get_name, _set_name)
"""


def test_a_property_made_by_calling_property_runs_its_getter_and_setter(monkeypatch: pytest.MonkeyPatch) -> None:
    use = "from person import Person\n\ndef use(p: Person):\n    p.name = 'x'\n    return p.name\n"
    graph = link(facts({"person.py": PERSON, "use.py": use}))
    assert {e.target for e in graph.edges if e.source == "use.py::use"} == {
        "person.py::Person::_get_name", "person.py::Person::_set_name",
    }
    # made in another file's change: the unchanged reader's sites are resolved again
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    plain = PERSON.replace("    name = property(_get_name, _set_name)\n", "")
    other = {"other.py": "def unrelated():\n    return 1\n"}
    old = facts({"person.py": plain, "use.py": use, **other})
    new = facts({"person.py": PERSON, "use.py": use, **other})
    _, derived = derived_from(old, new)
    assert derived == link(new)
    _, back = derived_from(new, old)
    assert back == link(old)


def test_calling_a_property_s_value_passes_the_getter_no_arguments() -> None:
    source = PERSON + "    handler = property(_get_name)\n\ndef use(p: Person):\n    return p.handler(1, 2)\n"
    graph = link(facts({"person.py": source}))
    assert "person.py::Person::_get_name" in {e.target for e in graph.edges if e.source == "person.py::use"}
    # the arguments go to what the getter returns: a change of its signature breaks nothing
    assert not [c for c in graph.calls if c.target == "person.py::Person::_get_name"]


def test_a_method_returning_its_own_call_on_a_narrowed_attribute_is_linked() -> None:
    # each return asks for the returns of the method it is in: a cycle, ended like any other
    body = (
        "class Stream:\n    def receive(self):\n        return Other()\n\n"
        "class Buffered(Stream):\n    def __init__(self, inner: Stream):\n        self.inner = inner\n\n"
        "    def receive(self):\n        if isinstance(self.inner, Stream):\n            return self.inner.receive()\n"
        "        return Other()\n\n"
        "def use(s: Buffered):\n    s.receive().run()\n"
    )
    assert use(body) == {"Buffered::receive", "Other::run"}
