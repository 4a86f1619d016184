"""A function returning a parameter gives each call the argument that call passed."""

from __future__ import annotations

from helpers.linking import derived_from, facts

from impactbot.link import link

HELPERS = """
def ident(f):
    return f

def load(spec, default=None) -> object:
    if callable(spec):
        return spec
    return default

def first():
    pass

def second():
    pass
"""


def _targets(files: dict[str, str], caller: str) -> set[str]:
    graph = link(facts(files))
    return {e.target for e in graph.edges if e.source == caller and e.kind == "calls"}


def test_each_call_gets_its_own_argument_back() -> None:
    caller = """
from h import ident, load, first, second

def one():
    g = ident(first)
    g()

def two():
    g = ident(f=second)
    g()
    c = (load(first)
         if g else None)
    c()
"""
    files = {"h.py": HELPERS, "c.py": caller}
    assert _targets(files, "c.py::one") == {"h.py::ident", "h.py::first"}
    assert _targets(files, "c.py::two") == {"h.py::ident", "h.py::load", "h.py::first", "h.py::second"}


def test_an_attribute_stored_from_a_pass_through_call() -> None:
    caller = """
from h import load, first, second

class Runner:
    def __init__(self):
        self.job = load(first)

    def run(self):
        self.job()

def elsewhere():
    return load(second)
"""
    assert _targets({"h.py": HELPERS, "c.py": caller}, "c.py::Runner::run") == {"h.py::first"}


def test_other_returns_and_defaults_keep_what_they_give() -> None:
    helpers = HELPERS + "\ndef pick(f=first):\n    if f:\n        return f\n    return second\n"
    caller = "from h import pick, first\n\ndef use():\n    g = pick()\n    g()\n"
    # no argument: the parameter holds its default, and the other return its value
    assert {"h.py::first", "h.py::second"} <= _targets({"h.py": helpers, "c.py": caller}, "c.py::use")


def test_a_derived_graph_follows_a_changed_argument_and_a_reordered_signature() -> None:
    caller = "from h import ident, first, second\n\nchosen = ident(first)\n"
    reader = "from c import chosen\n\ndef run():\n    chosen()\n"
    old_facts = facts({"h.py": HELPERS, "c.py": caller, "r.py": reader})
    for change in ({"c.py": caller.replace("ident(first)", "ident(second)")},
                   {"h.py": HELPERS.replace("def load(spec, default=None)", "def load(default, spec=None)")},
                   {"h.py": HELPERS.replace("def ident(f):\n    return f", "def ident(g, f=None):\n    return f")}):
        new_facts = facts({"h.py": HELPERS, "c.py": caller, "r.py": reader, **change})
        _graph, derived = derived_from(old_facts, new_facts)
        assert sorted(map(repr, derived.edges)) == sorted(map(repr, link(new_facts).edges))


def test_pass_through_functions_returning_each_others_calls() -> None:
    source = HELPERS + """
def f(x):
    if x:
        return x
    return g(x)

def g(y):
    if y:
        return y
    return f(y)

def use():
    h = f(first)
    h()
"""
    assert "h.py::first" in _targets({"h.py": source}, "h.py::use")


def test_methods_returning_an_argument() -> None:
    source = HELPERS + """
class Registry:
    def add(self, func):
        return func

    @classmethod
    def coerce(cls, value, strict=False):
        return value

    @staticmethod
    def same(value):
        return value

    def chain(self):
        return self

registry = Registry()

def use():
    a = registry.add(first)
    a()
    b = Registry.coerce(second)
    b()
    c = Registry.same(first)
    c()
    d = Registry.add(registry, second)
    d()
"""
    targets = _targets({"h.py": source}, "h.py::use")
    assert targets >= {"h.py::first", "h.py::second"}
    other = source.replace("    a = registry.add(first)\n    a()\n", "")
    other = other.replace("    c = Registry.same(first)\n    c()\n", "")
    # only second is passed now: a method returning its argument gives no other
    assert "h.py::first" not in _targets({"h.py": other + "\nregistry.add(first)\n"}, "h.py::use")


ADDERS = """
def add_repr(cls, attrs=None):
    cls.__repr__ = None
    return cls

def add_eq(cls, attrs=None):
    cls.__eq__ = None
    return cls

class Attribute:
    def __init__(self, name):
        self.name = name

class Factory:
    def __init__(self, make):
        self.make = make

Factory = add_eq(add_repr(Factory))
Attribute = add_eq(
    add_repr(Attribute, attrs=[]),
    attrs=[],
)

class Counting:
    attrs = (Attribute("a"),)

def field():
    return Attribute("b")
"""


def test_nested_pass_through_calls_give_the_innermost_argument() -> None:
    # a class decorated by calls that each return it, rebound to its own name (attrs'
    # `Attribute = _add_hash(_add_eq(_add_repr(Attribute)))`): the name is still that class
    files = {"m.py": ADDERS}
    assert _targets(files, "m.py::field") == {"m.py::Attribute", "m.py::Attribute::__init__"}
    assert _targets(files, "m.py::Counting") == {"m.py::Attribute", "m.py::Attribute::__init__"}
