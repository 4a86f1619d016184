"""What ``cls``, ``type(self)`` and attributes stored on instances from outside their class are.

The call-graph suite covers the patterns themselves (classes/classmethod_*,
types/type_of_self, assignments/attribute_set_on_*); these tests pin the cases it
cannot run (a store on an object of several classes, ``obj.__class__ = cls``), the
``bound`` flags breaking checks rely on, and derived graphs equal to full links.
"""

from __future__ import annotations

import pytest
from helpers.linking import assert_derived_both_ways, derived_from, facts

from impactbot.extract import extract
from impactbot.link import incremental, link
from impactbot.model import LinkedGraph


def qualname(symbol: str) -> str:
    return symbol.partition("::")[2]  # "" for the module


def calls(graph: LinkedGraph) -> set[tuple[str, str]]:
    return {(qualname(e.source), qualname(e.target)) for e in graph.edges if e.kind == "calls"}


def bound(graph: LinkedGraph) -> dict[tuple[str, str], bool]:
    return {(qualname(c.caller), qualname(c.target)): c.bound for c in graph.calls}


def test_type_of_one_object_reads_as_its_class_attribute() -> None:
    found = extract(b"def f(obj):\n    kind = type(obj)\n    type(obj).make()\n    type('T', (), {})()\n", "python")
    assert [b.value for b in found.bindings if b.target == "kind"] == ["obj.__class__"]
    assert {c.callee for c in found.calls} >= {"obj.__class__.make", "type()"}


def test_a_store_on_an_object_of_one_of_several_classes_gives_neither_the_attribute() -> None:
    source = """
        def beep():
            pass

        class Phone:
            def ring(self):
                return self.tone()

        class Bell:
            def ring(self):
                return self.tone()

        def pick(flag):
            return Phone() if flag else Bell()

        device = pick(True)
        device.tone = beep
        """
    assert not {e for e in calls(link(facts({"m.py": source}))) if e[1] == "beep"}


def test_assigning___class___changes_the_type_and_makes_no_attribute() -> None:
    source = """
        class Node:
            def __init__(self):
                pass

            @classmethod
            def create(cls):
                obj = Node()
                obj.__class__ = cls
                return obj

            def copy(self):
                return self.__class__()

        class Q(Node):
            pass

        class Other(Node):
            pass

        Q.create()
        """
    # self.__class__ is the class of self, not what some create() assigned to another object
    assert {e for e in calls(link(facts({"m.py": source}))) if e[0] == "Node::copy"} == {
        ("Node::copy", "Node"), ("Node::copy", "Node::__init__"), ("Node::copy", "Q"), ("Node::copy", "Other")
    }


def test_a_stored_property_read_runs_no_getter_where_the_attribute_is_read() -> None:
    source = """
        class Source:
            @property
            def conn(self):
                return Conn()

        class Conn:
            def cursor(self):
                pass

        class Client:
            def __init__(self, source: Source):
                self.conn = source.conn

            def run(self):
                return self.conn.cursor()

            def peek(self):
                return self.conn
        """
    found = calls(link(facts({"m.py": source})))
    assert ("Client::__init__", "Source::conn") in found
    assert ("Client::run", "Conn::cursor") in found
    assert not {e for e in found if e[0] in ("Client::run", "Client::peek") and e[1] == "Source::conn"}


def test_a_store_from_outside_adds_to_what_the_class_gives() -> None:
    source = """
        import functools

        def load():
            return {}

        class Handler:
            @functools.cached_property
            def settings(self):
                return load()

            def create(self):
                return self.settings

        handler = Handler()
        handler.settings = {}
        """
    assert ("Handler::create", "Handler::settings") in calls(link(facts({"m.py": source})))


def test_cls_without_a_visible_receiver_may_be_any_subclass() -> None:
    source = """
        class Base:
            @classmethod
            def make(cls):
                return cls()

        class Sub(Base):
            def __init__(self):
                pass

        make = Sub.make
        make()
        """
    made = {e[1] for e in calls(link(facts({"m.py": source}))) if e[0] == "Base::make"}
    assert made == {"Base", "Sub", "Sub::__init__"}


def test_cls_reached_through_more_classes_than_a_value_lists_is_any_subclass() -> None:
    # one subclass per test, as a model base's classmethod is used: what it makes is
    # still an instance whose methods a call reaches
    subclasses = "".join(f"class M{i}(Base):\n    pass\n\ndef test_{i}():\n    M{i}.build().dump()\n\n"
                         for i in range(20))
    source = """
class Base:
    @classmethod
    def build(cls):
        made = cls.__new__(cls)
        return made

    def dump(self):
        pass

""" + subclasses
    graph = calls(link(facts({"m.py": source})))
    assert {caller for caller, target in graph if target == "Base::dump"} == {f"test_{i}" for i in range(20)}


def test_receivers_are_bound_as_python_binds_them() -> None:
    source = """
        def handler(event):
            return event

        class Widget:
            def __init__(self, size):
                self.size = size

            @classmethod
            def default(cls):
                return cls(1)

            def grow(self):
                return type(self)(self.size + 1)

            def fire(self):
                return self.on_event(1)

        widget = Widget.default()
        widget.on_event = handler
        widget.on_event(2)
        """
    flags = bound(link(facts({"m.py": source})))
    assert flags[("", "Widget::default")] is True  # the class is passed implicitly
    assert flags[("Widget::default", "Widget")] is False
    assert flags[("Widget::default", "Widget::__init__")] is True
    # `type(self)` may be any subclass: which constructor runs is a guess, not checked
    assert ("Widget::grow", "Widget::__init__") not in flags
    assert flags[("", "handler")] is False  # a function stored on an instance does not bind
    assert flags[("Widget::fire", "handler")] is False


# ----------------------------------------------------------------- incremental

BASE = """\
class Base:
    def __init__(self):
        pass

    @classmethod
    def make(cls):
        return cls()

    def clone(self):
        return type(self)()

    def fire(self):
        return self.handler()


class Sub(Base):
    def __init__(self):
        pass
"""
HANDLERS = "def first():\n    return 1\n\n\ndef second():\n    return 2\n"
USE = "from pkg.base import Base, Sub\nfrom pkg.handlers import first, second\n\n\n"
EDITS = {
    "a store appears": (USE + "obj = Sub()\n", USE + "obj = Sub()\nobj.handler = first\n"),
    "a store moves to another class": (
        USE + "obj = Sub()\nobj.handler = first\n", USE + "obj = Base()\nobj.handler = first\n"
    ),
    "a stored value changes": (
        USE + "obj = Base()\nobj.handler = first\n", USE + "obj = Base()\nobj.handler = second\n"
    ),
    "a store moves down": (
        USE + "obj = Base()\nobj.handler = first\n", USE + "obj = Base()\n\n\nobj.handler = first\n"
    ),
    "a classmethod's receiver changes": (USE + "Sub.make()\n", USE + "Base.make()\n"),
    "a classmethod gets a receiver": (USE + "make = Sub.make\nmake()\n", USE + "Sub.make()\n"),
    "a subclass appears": (USE, USE + "class Leaf(Base):\n    def __init__(self):\n        pass\n"),
}


@pytest.mark.parametrize(("before", "after"), EDITS.values(), ids=EDITS.keys())
def test_a_derived_graph_equals_a_full_link(before: str, after: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    shared = {"pkg/__init__.py": "", "pkg/base.py": BASE, "pkg/handlers.py": HANDLERS, "pkg/other.py": "x = 1\n"}
    for old, new in ((before, after), (after, before)):
        old_facts = facts({**shared, "pkg/use.py": old})
        new_facts = facts({**shared, "pkg/use.py": new})
        graph, derived = derived_from(old_facts, new_facts)
        assert derived == link(new_facts)
        assert derived != graph


def test_a_derived_graph_keeps_the_receivers_of_unchanged_files(monkeypatch: pytest.MonkeyPatch) -> None:
    # the call `Sub.make()` passes no argument: its receiver alone flows into Base.make
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    shared = {"pkg/__init__.py": "", "pkg/handlers.py": HANDLERS, "pkg/use.py": USE + "Sub.make()\n"}
    old_facts = facts({**shared, "pkg/base.py": BASE})
    new_facts = facts({**shared, "pkg/base.py": BASE + "\n\ndef unused():\n    return Base.make()\n"})
    _graph, derived = derived_from(old_facts, new_facts)
    assert derived == link(new_facts)


def test_a_class_statement_calls_the_init_subclass_of_its_bases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    base = (
        "class Plugin:\n    def __init_subclass__(cls, **kw):\n        cls.setup()\n\n"
        "    @classmethod\n    def setup(cls):\n        pass\n"
    )
    sub = "from a import Plugin\n\nclass Csv(Plugin):\n    @classmethod\n    def setup(cls):\n        pass\n"
    other = "def unrelated():\n    return 1\n"
    graph = link(facts({"a.py": base, "b.py": sub, "c.py": other}))
    calls = {(e.source, e.target) for e in graph.edges if e.kind == "calls"}
    assert ("b.py", "a.py::Plugin::__init_subclass__") in calls
    # cls there is a subclass being defined: its own setup may run
    assert ("a.py::Plugin::__init_subclass__", "b.py::Csv::setup") in calls
    old = facts({"a.py": "class Plugin:\n    pass\n", "b.py": sub, "c.py": other})
    _, derived = derived_from(old, facts({"a.py": base, "b.py": sub, "c.py": other}))
    assert derived == graph
    _, back = derived_from(facts({"a.py": base, "b.py": sub, "c.py": other}), old)
    assert back == link(old)


DEFAULTS_AND_NEW = """
class Conn:
    def send(self):
        pass


class Client:
    conn = None
    retries = 3

    def __init__(self):
        self.conn = Conn()

    def go(self):
        self.conn.send()


class Singleton:
    _instance = None

    def __new__(cls, *args, **kwargs):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance.setup()
        return cls._instance

    def setup(self):
        pass


class Record:
    @classmethod
    def construct(cls, **values):
        record = cls.__new__(cls)
        record.fill(values)
        return record

    def fill(self, values):
        pass


def use():
    Record.construct(a=1).fill({})
"""


def test_a_class_default_and_what_the_class_stores_on_its_instances_are_both_the_attribute() -> None:
    found = calls(link(facts({"m.py": DEFAULTS_AND_NEW})))
    assert ("Client::go", "Conn::send") in found  # `conn = None` no longer hides `self.conn = Conn()`


def test_new_makes_an_instance_of_the_class_it_gets() -> None:
    found = calls(link(facts({"m.py": DEFAULTS_AND_NEW})))
    assert ("Singleton::__new__", "Singleton::setup") in found  # super().__new__(cls), stored on cls
    assert ("Record::construct", "Record::fill") in found  # cls.__new__(cls): object's, an instance
    assert ("use", "Record::fill") in found



def test_object_new_makes_an_instance_of_the_class_it_is_given() -> None:
    source = """
class Env:
    def overlay(self):
        made = object.__new__(self.__class__)
        made.__dict__.update(self.__dict__)
        return made

    def render(self):
        return 1

class Leaf:
    def prefix(self):
        return ""

def use():
    Env().overlay().render()
    object.__new__(Leaf).prefix()
"""
    found = calls(link(facts({"m.py": source})))
    assert {("use", "Env::render"), ("use", "Leaf::prefix")} <= found
    found_facts = extract(b"made = object.__new__(self.__class__)\nobject.__new__(cls, 1).go()\n", "python")
    assert [b.value for b in found_facts.bindings] == ["<new:self/__class__>"]
    assert "<new:cls>.go" in {c.callee for c in found_facts.calls}


PROTOCOL = """
from typing import Protocol


class Runner(Protocol):
    def run(self) -> None: ...

    def stop(self) -> None: ...


def drive(runner: Runner) -> None:
    runner.run()
"""


def test_a_call_through_a_protocol_reaches_the_classes_that_fit_it() -> None:
    impls = (
        "class Fast:\n    def run(self):\n        pass\n\n    def stop(self):\n        pass\n\n\n"
        "class Half:\n    def run(self):\n        pass\n"  # no stop(): does not fit
    )
    graph = link(facts({"proto.py": PROTOCOL, "impls.py": impls}))
    called = {e.target for e in graph.edges if e.source == "proto.py::drive"}
    assert called == {"proto.py::Runner::run", "impls.py::Fast::run"}


def test_a_derived_graph_sees_a_class_come_to_fit_a_protocol() -> None:
    # a second user, which finds the first one's answer cached
    user = "from proto import Runner\n\n\ndef pause(runner: Runner) -> None:\n    runner.run()\n"
    files = {"proto.py": PROTOCOL, "user.py": user, **{f"lib{i}.py": f"def f{i}():\n    pass\n" for i in range(5)}}
    before = "class Slow:\n    def run(self):\n        pass\n"
    assert_derived_both_ways(files, "impls.py", before, before + "\n    def stop(self):\n        pass\n")


def test_a_class_statement_in_a_function_runs_the_class_body_at_each_call() -> None:
    source = (
        "def make():\n    class Local:\n        class Inner:\n            pass\n    return Local\n\n"
        "class Top:\n    class Nested:\n        pass\n"
    )
    edges = {(e.source, e.target, e.kind) for e in link(facts({"a.py": source})).edges}
    assert ("a.py::make", "a.py::make::Local", "defines") in edges
    assert ("a.py::make::Local", "a.py::make::Local::Inner", "defines") in edges
    # made, not called: a call graph keeps no such call
    assert ("a.py::make", "a.py::make::Local", "calls") not in edges
    # made once, when the module is imported: no caller runs it again
    assert not {(s, t) for s, t, _ in edges if t in ("a.py::Top", "a.py::Top::Nested")}


def test_a_decorator_named_like_a_property_makes_one() -> None:
    source = """
        from functools import partial

        def instanceproperty(fget=None, classval=None):
            if fget is None:
                return partial(instanceproperty, classval=classval)
            return property(fget)

        class cachedproperty:
            def __init__(self, func):
                self.func = func

            def __get__(self, obj, objtype=None):
                return self.func(obj)

        class Conn:
            def send(self):
                pass

        class Wrapper:
            @instanceproperty(classval="doc")
            def __doc__(self):
                return "instance doc"

            @cachedproperty
            def conn(self):
                return Conn()

            def describe(self):
                return self.__doc__

            def ping(self):
                return self.conn.send()
        """
    edges = calls(link(facts({"m.py": source})))
    assert ("Wrapper::describe", "Wrapper::__doc__") in edges
    assert ("Wrapper::ping", "Wrapper::conn") in edges
    assert ("Wrapper::ping", "Conn::send") in edges
