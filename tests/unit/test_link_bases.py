"""Class bases resolve as of the class statement: the bindings of the base name that it can see."""

from __future__ import annotations

import textwrap

import pytest
from helpers.linking import derived_from, facts

from impactbot.link import incremental, link
from impactbot.link.python import Resolver

KINDS = """
class A:
    def run(self):
        return 1


class B:
    def run(self):
        return 2
"""


def bases(source: str, class_id: str = "m.py::X") -> set[str]:
    """Ids of the in-repository classes the class's bases may be."""
    r = Resolver(facts({"m.py": KINDS + textwrap.dedent(source)}))
    return {v[1].rsplit("::", 1)[-1] for v in r.class_bases(class_id) if v[0] == "S"}


CASES = {
    "rebound after the class": ("Base = A\nclass X(Base): pass\nBase = B\n", {"A"}),
    "rebound twice before it": ("Base = A\nBase = B\nclass X(Base): pass\n", {"B"}),
    "if and else": ("if flag:\n    Base = A\nelse:\n    Base = B\nclass X(Base): pass\n", {"A", "B"}),
    "assigned in a branch after a straight one": (
        "Base = A\nif flag:\n    Base = B\nclass X(Base): pass\n", {"A", "B"}
    ),
    "a loop may bring a later assignment around": (
        "Base = A\nfor _ in range(2):\n    class X(Base): pass\n    Base = B\n", {"A", "B"}
    ),
    "a definition hides what came before it": ("Base = A\nclass Base: pass\nclass X(Base): pass\n", {"Base"}),
    "a definition in a branch hides nothing": (
        "Base = A\nif flag:\n    class Base: pass\nclass X(Base): pass\n", {"A", "Base"}
    ),
    "an import hides what came before it": ("Base = B\nfrom m import A as Base\nclass X(Base): pass\n", {"A"}),
    "an assignment hides a definition": ("class Base: pass\nBase = B\nclass X(Base): pass\n", {"B"}),
    "nothing before the class: every binding": ("class X(Base): pass\nBase = A\nBase = B\n", {"A", "B"}),
    "a global rebinding from a function": (
        "Base = A\ndef swap():\n    global Base\n    Base = B\nclass X(Base): pass\nBase = A\n", {"A", "B"}
    ),
    "the only name seen": ("Base = A\nclass X(Base): pass\n", {"A"}),
}


@pytest.mark.parametrize(("source", "expected"), CASES.values(), ids=CASES.keys())
def test_module_level_bases_are_the_bindings_the_class_statement_sees(source: str, expected: set[str]) -> None:
    assert bases(source) == expected


def test_a_class_body_runs_in_order() -> None:
    source = "class Outer:\n    Base = A\n    class X(Base): pass\n    Base = B\n"
    assert bases(source, "m.py::Outer::X") == {"A"}


def test_a_nested_class_sees_the_module_names_bound_before_its_outer_class() -> None:
    source = "Base = A\nclass Outer:\n    class X(Base): pass\nBase = B\n"
    assert bases(source, "m.py::Outer::X") == {"A"}


def test_a_class_in_a_function_sees_the_function_names_in_order_and_the_module_names_bound_last() -> None:
    source = """
        Outer = A

        def make():
            Local = A
            class X(Local): pass
            class Y(Outer): pass
            Local = B

        Outer = B
        """
    assert bases(source, "m.py::make::X") == {"A"}
    assert bases(source, "m.py::make::Y") == {"B"}  # the function runs once the module has


def test_an_attribute_base_reads_the_module_attribute_whenever_set() -> None:
    files = {"kinds.py": KINDS + "Base = A\n", "m.py": "import kinds\nclass X(kinds.Base): pass\n"}
    r = Resolver(facts(files))
    assert [v[1] for v in r.class_bases("m.py::X")] == ["kinds.py::A"]


def test_either_base_gives_its_own_mro_and_methods() -> None:
    source = KINDS + "if flag:\n    Base = A\nelse:\n    Base = B\nclass X(Base):\n    pass\nX().run()\n"
    graph = link(facts({"m.py": source}))
    calls = {(e.source, e.target) for e in graph.edges if e.kind == "calls"}
    assert {("m.py", "m.py::A::run"), ("m.py", "m.py::B::run")} <= calls
    r = Resolver(facts({"m.py": source}))
    assert set(r.mro_alternatives("m.py::X")) == {("m.py::X", "m.py::A"), ("m.py::X", "m.py::B")}


def test_an_import_and_a_definition_of_one_name_stay_one_merged_choice() -> None:
    # a redefinition or an if/else: the facts do not tell, so the MRO stays the merged one
    source = KINDS + "from kinds import Base\nclass Base(A):\n    pass\nclass X(Base):\n    pass\n"
    r = Resolver(facts({"m.py": source, "kinds.py": KINDS + "class Base(B):\n    pass\n"}))
    assert r.mro_alternatives("m.py::X") == (r.mro("m.py::X"),)
    assert r.mro("m.py::X")[:2] == ("m.py::X", "m.py::Base")


def test_a_method_overrides_what_either_base_gives() -> None:
    source = KINDS + "try:\n    Base = A\nexcept ImportError:\n    Base = B\nclass X(Base):\n    def run(self): ...\n"
    graph = link(facts({"m.py": source}))
    overrides = {e.target for e in graph.edges if e.kind == "overrides"}
    assert overrides == {"m.py::A::run", "m.py::B::run"}


# ----------------------------------------------------------------- incremental

SHARED = {
    "pkg/__init__.py": "",
    "pkg/kinds.py": KINDS,
    "pkg/sub.py": "from pkg.model import X\n\n\nclass Y(X):\n    pass\n",
    "pkg/use.py": "from pkg.sub import Y\n\n\ndef go():\n    return Y().run()\n",
    "pkg/other.py": "def unrelated():\n    return 0\n",
}
MODELS = {
    "bases text": ("class X(A):\n    pass\n", "class X(B):\n    pass\n"),
    # the same bindings of Base either way: only where the class statement stands differs
    "class statement moved": (
        "Base = A\nBase = B\n\n\nclass X(Base):\n    pass\n",
        "Base = A\n\n\nclass X(Base):\n    pass\n\n\nBase = B\n",
    ),
}


@pytest.mark.parametrize(("before", "after"), MODELS.values(), ids=MODELS.keys())
def test_a_derived_graph_follows_a_base_change_through_a_subclass_in_another_file(
    before: str, after: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    head = "from pkg.kinds import A, B\n\n\n"
    for old, new in ((before, after), (after, before)):
        old_facts = facts({**SHARED, "pkg/model.py": head + old})
        new_facts = facts({**SHARED, "pkg/model.py": head + new})
        _graph, derived = derived_from(old_facts, new_facts)
        assert derived == link(new_facts)


GENERIC = """
import typing as t
from typing import Generic, Protocol, TypeVar

T = TypeVar("T")

class Store(Generic[T]):
    def load(self):
        pass

class Named(Protocol):
    def name(self) -> str: ...

class Cached(t.Generic[T]):
    def hit(self):
        pass

class Repo(Cached[T], Named, Store[T]):
    pass

def use(r: Repo):
    r.hit()
    r.load()
"""


def test_a_subscripted_base_is_inherited_from() -> None:
    graph = link(facts({"m.py": GENERIC}))
    inherits = {e.target.removeprefix("m.py::") for e in graph.edges
                if e.source == "m.py::Repo" and e.kind == "inherits"}
    assert inherits == {"Cached", "Named", "Store"}


def test_generic_and_protocol_do_not_hide_later_bases() -> None:
    graph = link(facts({"m.py": GENERIC}))
    calls = {e.target.removeprefix("m.py::") for e in graph.edges if e.source == "m.py::use" and e.kind == "calls"}
    assert calls == {"Cached::hit", "Store::load"}


def test_a_module_getattr_gives_the_names_a_module_does_not_bind() -> None:
    files = {
        "pkg/__init__.py": "from pkg.impl import New\n\n\ndef __getattr__(name):\n    if name == 'Old':\n"
                           "        return New\n    raise AttributeError(name)\n",
        "pkg/impl.py": "class New:\n    def run(self):\n        pass\n",
        "use.py": "import pkg\nfrom pkg import Old\n\n\ndef attr():\n    pkg.Old().run()\n\n\n"
                  "def imported():\n    Old().run()\n\n\ndef bound():\n    return pkg.New\n",
    }
    graph = link(facts(files))
    by = {s: {e.target for e in graph.edges if e.source == s and e.kind == "calls"}
          for s in ("use.py::attr", "use.py::imported")}
    # reading pkg.Old runs __getattr__; `from pkg import Old` ran it at the import
    assert by["use.py::attr"] == {"pkg/__init__.py::__getattr__", "pkg/impl.py::New", "pkg/impl.py::New::run"}
    assert by["use.py::imported"] == {"pkg/impl.py::New", "pkg/impl.py::New::run"}


def test_a_base_read_through_self_is_one_class_of_each_subclass() -> None:
    source = (
        "class Store:\n    def __getitem__(self, key):\n        return 1\n\n"
        "class Other:\n    def __getitem__(self, key):\n        return 2\n\n"
        "class Mixin:\n    Cache = None\n\n    def test_missing(self):\n"
        "        class Default(self.Cache):\n            pass\n        return Default()[1]\n\n"
        "class StoreTest(Mixin):\n    Cache = Store\n\nclass OtherTest(Mixin):\n    Cache = Other\n"
    )
    graph = link(facts({"m.py": source}))
    called = {e.target for e in graph.edges if e.source == "m.py::Mixin::test_missing" and e.kind == "calls"}
    # each MRO finds its own __getitem__, not only the one merged first
    assert {"m.py::Store::__getitem__", "m.py::Other::__getitem__"} <= called


def test_a_base_read_through_dispatch_is_settled_after_the_subclass_table() -> None:
    # the subclass table is built from every class's MRO; Default's base needs that table
    # (self.Cache of each subclass), so its MRO is found again once the table is there
    files = {
        "cache.py": "class Cache:\n    def __init__(self, maxsize):\n        self.maxsize = maxsize\n\n"
                    "    def __getitem__(self, key):\n        return 0\n\n"
                    "class LRU(Cache):\n    def __getitem__(self, key):\n        return 1\n",
        "tests/__init__.py": "class Mixin:\n    Cache = None\n\n    def test_missing(self):\n"
                             "        class Default(self.Cache):\n            pass\n"
                             "        cache = Default(maxsize=2)\n        return cache[1]\n",
        "tests/test_lru.py": "from cache import LRU\nfrom . import Mixin\n\nclass LRUTest(Mixin):\n    Cache = LRU\n",
        "tests/test_cache.py": "from cache import Cache\nfrom . import Mixin\n\n"
                               "class CacheTest(Mixin):\n    Cache = Cache\n",
    }
    graph = link(facts(files))
    test = "tests/__init__.py::Mixin::test_missing"
    called = {e.target for e in graph.edges if e.source == test and e.kind == "calls"}
    assert {"cache.py::Cache::__init__", "cache.py::Cache::__getitem__", "cache.py::LRU::__getitem__"} <= called
    default = "tests/__init__.py::Mixin::test_missing::Default"
    assert (default, "cache.py::LRU", "inherits") in {(e.source, e.target, e.kind) for e in graph.edges}
    # and the subclass table, built before Default's base could be read, holds it
    table = Resolver(facts(files)).subclasses()
    assert default in table["cache.py::LRU"] and default in table["cache.py::Cache"]
