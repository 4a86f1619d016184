"""Metaclasses of the repository: class statements, calls of a class, and reads and syntax on a class."""

from __future__ import annotations

import pytest
from helpers.linking import assert_derived_both_ways, facts

from impactbot.extract import extract
from impactbot.link import incremental, link
from impactbot.model import LinkedGraph

META = """
class Meta(type):
    def __new__(mcs, name, bases, ns):
        return super().__new__(mcs, name, bases, ns)

    def __call__(cls, *args):
        return super().__call__(*args)

    def registry(cls):
        return []

    def __iter__(cls):
        return iter(())

class Model(metaclass=Meta):
    def __init__(self, pk=None):
        self.pk = pk

    def save(self):
        pass

class Plain:
    def __init__(self):
        pass
"""


def called_by(graph: LinkedGraph, caller: str) -> set[str]:
    return {
        e.target.removeprefix("m.py::") for e in graph.edges
        if e.kind == "calls" and e.source == caller and e.confidence != "name_match"
    }


def use(body: str) -> set[str]:
    return called_by(link(facts({"m.py": META + body})), "m.py::use")


def test_the_metaclass_keyword_is_extracted() -> None:
    found = extract(b"class A(Base, metaclass=abc.ABCMeta, x=1):\n    pass\nclass B(Base):\n    pass\n", "python")
    metas = {d.qualname: d.metaclass for d in found.definitions if d.kind == "class"}
    assert metas == {"A": "abc.ABCMeta", "B": None}


def test_calling_the_class_runs_the_metaclass_call_then_init() -> None:
    assert use("def use():\n    return Model(1)\n") == {"Model", "Meta::__call__", "Model::__init__"}


def test_a_subclass_inherits_the_metaclass() -> None:
    body = "class Sub(Model):\n    pass\n\ndef use():\n    return Sub()\n"
    assert use(body) == {"Sub", "Meta::__call__", "Model::__init__"}


def test_a_class_reads_the_metaclass_methods_it_does_not_define() -> None:
    assert use("def use():\n    return Model.registry()\n") == {"Meta::registry"}


def test_an_instance_does_not_see_the_metaclass() -> None:
    # attribute lookup on an instance never reaches type(type(obj)) (a name-only guess may)
    assert use("def use(m: Model):\n    m.save()\n    return m.registry()\n") == {"Model::save"}


def test_iterating_a_class_runs_the_metaclass_iter() -> None:
    assert use("def use():\n    for x in Model:\n        pass\n") == {"Meta::__iter__"}


def test_a_class_without_a_repository_metaclass_gets_nothing_more() -> None:
    body = (
        "import abc\n\nclass Abstract(metaclass=abc.ABCMeta):\n    pass\n\n"
        "def use():\n    return Plain(), Abstract()\n"
    )
    assert use(body) == {"Plain", "Plain::__init__", "Abstract"}


def test_the_class_statement_runs_the_metaclass_new() -> None:
    graph = link(facts({"m.py": META, "n.py": "from m import Model\n\n\nclass Order(Model):\n    pass\n"}))
    assert "m.py::Meta::__new__" in {e.target for e in graph.edges if e.source == "n.py"}
    # the statement defining Meta itself is not one of its instances
    assert called_by(graph, "m.py") == {"Meta::__new__"}


def test_a_metaclass_imported_from_another_module() -> None:
    files = {
        "meta.py": "class Registry(type):\n    def all(cls):\n        return []\n",
        "m.py": "import meta\n\n\nclass Item(metaclass=meta.Registry):\n    pass\n\n\n"
                "def use():\n    return Item.all()\n",
    }
    assert called_by(link(facts(files)), "m.py::use") == {"meta.py::Registry::all"}


CREATED = """
class Meta(type):
    def __new__(mcs, name, bases, ns):
        return super().__new__(mcs, name, bases, ns)

    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)


class Model(metaclass=Meta):
    def __init_subclass__(cls, **kwargs):
        pass

    @classmethod
    def derive(cls, name):
        return type(name, (cls,), {})


def make():
    bases = (Model,)
    return type("Made", bases, {"table": "made"})


def plain():
    return type("Plain", (object,), {})


def describe(x):
    return type(x)


def derived():
    return Model.derive("Derived")
"""


def test_type_with_three_arguments_runs_what_a_class_statement_runs() -> None:
    edges = {(e.source, e.target) for e in link(facts({"m.py": CREATED})).edges if e.kind == "calls"}
    hooks = {"m.py::Meta::__new__", "m.py::Meta::__init__", "m.py::Model::__init_subclass__"}
    assert {t for s, t in edges if s == "m.py::make"} == hooks  # bases named by a tuple's name
    assert {t for s, t in edges if s == "m.py::Model::derive"} == hooks  # `cls` of a classmethod
    assert not {t for s, t in edges if s in ("m.py::plain", "m.py::describe")}  # no repository base; type(x)


FROM_DICT = """
class Schema:
    def __init__(self):
        self.fields = self._init_fields()

    def _init_fields(self):
        return {}

    def dump(self, obj):
        return obj

    @classmethod
    def from_dict(cls, fields, name="Generated"):
        attrs = dict(fields)
        return type(name, (cls,), attrs)


class Ordered(Schema):
    def dump(self, obj):
        return sorted(obj)


def use():
    generated = Ordered.from_dict({"a": 1})
    return generated().dump({})


def mixed(a, b):
    return type("Mixed", (a, b), {})().dump({})
"""


def test_a_class_type_makes_from_one_base_is_read_as_that_base() -> None:
    assert extract(b"C = type('C', (Base,), {})\n", "python").bindings[0].value == "Base"
    edges = {(e.source, e.target) for e in link(facts({"m.py": FROM_DICT})).edges if e.kind == "calls"}
    assert {t for s, t in edges if s == "m.py::use"} >= {"m.py::Schema::from_dict", "m.py::Schema::__init__",
                                                          "m.py::Ordered::dump"}
    assert "m.py::Schema::dump" not in {t for s, t in edges if s == "m.py::use"}  # Ordered's own dump
    assert not {t for s, t in edges if s == "m.py::mixed" and t.endswith("dump")}  # two bases: not followed


MAKING = """
class Options:
    def __init__(self, meta):
        self.meta = meta


class SchemaMeta(type):
    def __new__(mcs, name, bases, attrs):
        klass = super().__new__(mcs, name, bases, attrs)
        klass.opts = klass.OPTIONS_CLASS(attrs.get("Meta"))
        return klass

    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        cls.resolve_hooks()


class Schema(metaclass=SchemaMeta):
    OPTIONS_CLASS = Options

    @classmethod
    def resolve_hooks(cls):
        return []


class ChildSchema(Schema):
    @classmethod
    def resolve_hooks(cls):
        return ["child"]


class Plain(type):
    def __init__(cls, name, bases, attrs):
        cls.resolve_hooks()
"""


def test_a_metaclass_method_works_on_the_classes_it_makes() -> None:
    edges = {(e.source, e.target) for e in link(facts({"m.py": MAKING})).edges if e.kind == "calls"}
    # `cls` of a metaclass's __init__ is Schema or a subclass; so is what type's __new__ made
    assert {t for s, t in edges if s == "m.py::SchemaMeta::__init__"} == {
        "m.py::Schema::resolve_hooks", "m.py::ChildSchema::resolve_hooks"}
    assert {t for s, t in edges if s == "m.py::SchemaMeta::__new__"} == {"m.py::Options", "m.py::Options::__init__"}
    assert not {t for s, t in edges if s == "m.py::Plain::__init__"}  # a metaclass no class uses makes nothing


def test_a_derived_graph_follows_a_class_taking_a_metaclass_in_another_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    before = "from m import Plain\n\n\nclass Loose:\n    pass\n"
    after = ("from m import Plain\n\n\nclass Loose(metaclass=Plain):\n    @classmethod\n"
             "    def resolve_hooks(cls):\n        return []\n")
    assert_derived_both_ways({"m.py": MAKING}, "other.py", before, after)
    edges = {(e.source, e.target) for e in link(facts({"m.py": MAKING, "other.py": after})).edges}
    assert ("m.py::Plain::__init__", "other.py::Loose::resolve_hooks") in edges


def test_what_every_class_has_from_object_is_not_looked_up_on_the_metaclass() -> None:
    source = MAKING + '''

class Model(Schema):
    @classmethod
    def construct(cls):
        return cls.__new__(cls)

    def copy(self):
        return self
'''
    edges = {(e.source, e.target) for e in link(facts({"m.py": source})).edges if e.kind == "calls"}
    # `cls.__new__` is object's: what it makes is an instance, not a class the metaclass made
    assert not {t for s, t in edges if s == "m.py::Model::construct"}
