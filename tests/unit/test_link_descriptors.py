"""Descriptors other than properties: a class attribute holding an instance of a class with ``__get__``."""

from __future__ import annotations

import pytest
from helpers.linking import assert_derived_both_ways, facts

from impactbot.link import incremental, link
from impactbot.link.python import descriptors
from impactbot.model import LinkedGraph

DESCRIPTOR = """
class Field:
    def __get__(self, obj, owner=None):
        return make

class Plain:
    def load(self):
        return make

class Derived(Field):
    pass

def make():
    return 1
"""


def called_by(graph: LinkedGraph, caller: str) -> set[str]:
    return {e.target.removeprefix("m.py::") for e in graph.edges if e.kind == "calls" and e.source == caller}


def use(body: str) -> set[str]:
    return called_by(link(facts({"m.py": DESCRIPTOR + body})), "m.py::use")


def test_reading_a_descriptor_through_an_instance_runs_its_get() -> None:
    body = "class Model:\n    f = Field()\n\ndef use(m: Model):\n    return m.f\n"
    assert use(body) == {"Field::__get__"}


def test_reading_it_through_the_class_runs_it_too() -> None:
    body = "class Model:\n    f = Field()\n\ndef use():\n    return Model.f\n"
    assert use(body) == {"Field::__get__"}


def test_calling_it_calls_what_get_returns() -> None:
    body = "class Model:\n    f = Field()\n\ndef use(m: Model):\n    return m.f()\n"
    assert use(body) == {"Field::__get__", "make"}


def test_an_inherited_get_counts() -> None:
    body = "class Model:\n    f = Derived()\n\ndef use(m: Model):\n    return m.f\n"
    assert use(body) == {"Field::__get__"}


def test_an_instance_without_get_is_a_plain_attribute() -> None:
    body = "class Model:\n    f = Plain()\n\ndef use(m: Model):\n    return m.f.load()\n"
    assert use(body) == {"Plain::load"}


def test_an_instance_attribute_is_not_a_descriptor() -> None:
    # Python calls __get__ only for what the class holds, not what an instance stores
    body = (
        "class Model:\n    def __init__(self):\n        self.f = Field()\n\n"
        "def use(m: Model):\n    return m.f\n"
    )
    assert use(body) == set()


def test_a_class_of_the_same_name_elsewhere_does_not_make_one() -> None:
    files = {
        "m.py": DESCRIPTOR,
        "other.py": "class Field:\n    def load(self):\n        return 1\n\n\nclass Model:\n    f = Field()\n\n\n"
                    "def use(m: Model):\n    return m.f.load()\n",
    }
    graph = link(facts(files))
    assert {e.target for e in graph.edges if e.source == "other.py::use"} == {"other.py::Field::load"}


def test_descriptor_names_are_told_from_the_facts() -> None:
    files = facts({"m.py": DESCRIPTOR + "class Model:\n    f = Derived()\n    g = Plain()\n    h = make()\n"})
    classes, attrs = descriptors(files)
    assert classes == {"m.py::Field", "m.py::Derived"}
    assert attrs == {"f"}


SETTING = """
class Perm:
    def __init__(self, attr):
        self.attr = attr

    def __set__(self, obj, value):
        setattr(obj, self.attr, value)

class Mode(Perm):
    pass

class Perms:
    user = Perm("_user")
    group = Mode("_group")
    plain = Plain()
"""


def stores(body: str) -> set[str]:
    return called_by(link(facts({"m.py": DESCRIPTOR + SETTING + body})), "m.py::use")


def test_assigning_a_data_descriptor_through_an_instance_runs_its_set() -> None:
    assert stores("def use(p: Perms):\n    p.user = 'rwx'\n") == {"Perm::__set__"}


def test_an_inherited_set_counts_and_a_subclass_instance_too() -> None:
    body = "class Mine(Perms):\n    pass\n\ndef use():\n    p = Mine()\n    p.group = 'r'\n"
    assert stores(body) == {"Mine", "Perm::__set__"}


def test_assigning_through_the_class_replaces_the_descriptor() -> None:
    assert stores("def use():\n    Perms.user = 'rwx'\n") == set()


def test_an_instance_without_set_is_overwritten_not_called() -> None:
    assert stores("def use(p: Perms):\n    p.plain = 1\n") == set()


def test_a_derived_graph_follows_a_set_added_or_removed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    plain = "class Perm:\n    def __init__(self, attr):\n        self.attr = attr\n"
    setting = plain + "\n    def __set__(self, obj, value):\n        obj.seen = value\n"
    files = {
        "perms.py": "from perm import Perm\n\nclass Perms:\n    user = Perm('_user')\n",
        "use.py": "from perms import Perms\n\ndef use(p: Perms):\n    p.user = 'rwx'\n",
    }
    assert_derived_both_ways(files, "perm.py", plain, setting)


def test_a_derived_graph_follows_a_class_statement_moved_into_a_function(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    top = "class Local:\n    size = 1\n\ndef make():\n    return Local\n"
    inside = "def make():\n    class Local:\n        size = 1\n    return Local\n"
    assert_derived_both_ways({"use.py": "from m import make\n\nmake()\n"}, "m.py", top, inside)


# ----------------------------------------------------------------- __set_name__

NAMED = """
class Column:
    def __set_name__(self, owner, name):
        self.name = name

class Text(Column):
    pass

class Plain:
    pass

def column():
    return Text()
"""


def set_names(body: str, holder: str) -> set[tuple[str, tuple[int, ...]]]:
    """The ``__set_name__`` methods ``holder``'s body calls, with the lines."""
    graph = link(facts({"m.py": NAMED + body}))
    return {(e.target.removeprefix("m.py::"), e.lines) for e in graph.edges
            if e.kind == "calls" and e.source == holder and e.target.endswith("::__set_name__")}


def test_making_a_class_tells_each_descriptor_its_name() -> None:
    body = "class Row:\n    id = Column()\n    title = Text()\n    made = column()\n    other = Plain()\n"
    start = NAMED.count("\n") + 2
    assert set_names(body, "m.py::Row") == {("Column::__set_name__", (start, start + 1, start + 2))}


def test_a_method_under_a_descriptor_class_decorator_is_told_its_name() -> None:
    cached = (
        "class cached:\n    def __init__(self, func):\n        self.func = func\n"
        "    def __set_name__(self, owner, name):\n        self.name = name\n\n"
        "def plain(func):\n    return func\n\n"
    )
    body = cached + "class Row:\n    @cached\n    def total(self):\n        return 1\n" \
        "    @plain\n    def other(self):\n        return 2\n"
    line = (NAMED + cached).count("\n") + 2  # the decorator's line: where the object is made
    assert set_names(body, "m.py::Row") == {("cached::__set_name__", (line,))}


def test_an_object_not_bound_in_the_class_body_is_told_nothing() -> None:
    body = "class Row:\n    def __init__(self):\n        self.id = Column()\n\nlater = Column()\n"
    assert set_names(body, "m.py::Row") == set()
    assert set_names(body, "m.py::Row::__init__") == set()
    assert set_names(body, "m.py") == set()


def test_a_derived_graph_follows_a_set_name_added_or_removed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    plain = "class Column:\n    def __init__(self):\n        self.name = None\n"
    naming = plain + "\n    def __set_name__(self, owner, name):\n        self.name = name\n"
    files = {
        "table.py": "from column import Column\n\nclass Table:\n    id = Column()\n",
        "use.py": "from table import Table\n\ndef use():\n    return Table()\n",
    }
    assert_derived_both_ways(files, "column.py", plain, naming)
