"""Builtins whose value is what a protocol method of their argument returns."""

from __future__ import annotations

from helpers.linking import facts

from impactbot.link import link


def _calls(files: dict[str, str]) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in link(facts(files)).edges if e.kind == "calls"}


def test_iter_and_next_give_what_the_protocol_methods_return() -> None:
    source = """
class Countdown:
    def __iter__(self):
        return self

    def __next__(self):
        return Step()

class Step:
    def run(self):
        pass

it = iter(Countdown())
step = next(it)
step.run()
next(iter(Countdown())).run()
"""
    calls = _calls({"m.py": source})
    assert {("m.py", "m.py::Countdown::__iter__"), ("m.py", "m.py::Countdown::__next__"),
            ("m.py", "m.py::Step::run")} <= calls


def test_a_function_held_by_staticmethod_in_a_class_body_is_called_unchecked() -> None:
    source = """
def shout(text):
    return text.upper()

class Greeter:
    style = staticmethod(shout)

    def greet(self, name):
        return self.style(name)
"""
    graph = link(facts({"m.py": source}))
    assert ("m.py::Greeter::greet", "m.py::shout") in {(e.source, e.target) for e in graph.edges}
    # whether it gets the receiver is the wrapper's rule: the call's arguments are not checked
    assert not [c for c in graph.calls if c.target == "m.py::shout"]


def test_a_class_body_rebinding_a_module_name_reads_the_module_s() -> None:
    # `invoke = staticmethod(invoke)`: the class has no `invoke` yet where the line reads it
    source = """
def invoke(args):
    return args

class Base:
    invoke = staticmethod(invoke)

class Case(Base):
    def test_run(self):
        self.invoke([1])
"""
    graph = link(facts({"m.py": source}))
    found = {(e.source, e.target): e.confidence for e in graph.edges if e.kind == "calls"}
    assert found[("m.py::Case::test_run", "m.py::invoke")] != "name_match"
    assert dict(graph.unresolved).get("m.py::Case::test_run", 0) == 0


def test_what_builtins_give_is_outside_code_not_an_unresolved_call() -> None:
    # each receiver here is a builtin's (a literal, a display kept on an attribute, a
    # builtin base's method, object's past the last class); a class of the repository
    # defining methods of those names must neither be called nor make them look unknown
    source = """
class Buffer:
    def join(self, parts):
        pass

    def append(self, item):
        pass

    def pop(self, key, default=None):
        pass

class Headers(dict):
    def pop(self, key):
        return super().pop(key, None)

    def take(self, key):
        return self.popitem()

class Trace:
    def __init__(self):
        self.steps = []
        super().__init__()

    def add(self, step):
        self.steps.append(step)
        return ", ".join(self.steps)

def unknown(thing):
    return thing.append(1)
"""
    graph = link(facts({"m.py": source}))
    assert dict(graph.unresolved) == {"m.py::unknown": 1}  # its receiver could be a Buffer
    called = {(e.source, e.target) for e in graph.edges if e.kind == "calls" and e.confidence != "name_match"}
    assert not {target for _, target in called if target.startswith("m.py::Buffer")}


def test_star_parameters_are_a_tuple_and_a_dict() -> None:
    source = """
class Options:
    def get(self, key):
        pass

    def index(self, item):
        pass

def configure(*args, **kwargs):
    return kwargs.get("debug"), args.index(1)
"""
    graph = link(facts({"m.py": source}))
    assert dict(graph.unresolved) == {}
    assert not {e for e in graph.edges if e.source == "m.py::configure"}


def test_a_literal_is_the_builtin_types_even_where_a_module_binds_that_name() -> None:
    # a CLI module may define a `list` command; `[1, 2].index(1)` is still list's
    source = """
class Thing:
    def index(self, x):
        pass

def list():
    return Thing()

def use():
    return [1, 2].index(1)
"""
    graph = link(facts({"m.py": source}))
    assert not {e for e in graph.edges if e.source == "m.py::use"}
    assert dict(graph.unresolved) == {}


def test_a_cached_function_s_cache_methods_are_functools_own() -> None:
    source = """
import functools

@functools.lru_cache(maxsize=None)
def settings():
    return {}

@functools.cache
def hashers():
    return []

class Registry:
    def cache_clear(self):
        pass

def reset():
    settings.cache_clear()
    hashers.cache_info()
"""
    graph = link(facts({"m.py": source}))
    # outside calls: neither unresolved nor a guess at the one method of that name
    assert not [e for e in graph.edges if e.source == "m.py::reset"]
    assert not [k for k, n in graph.unresolved if k == "m.py::reset" and n]


def test_what_python_gives_every_object_is_outside_code() -> None:
    source = """
class Model:
    def update(self, **values):
        self.__dict__.update(values)

    def label(self):
        return type(self).__name__.lower()

def describe(func):
    return func.__qualname__.upper()
"""
    graph = link(facts({"m.py": source}))
    linked = {(e.source, e.target) for e in graph.edges if e.kind == "calls"}
    # `self.__dict__.update(...)` is dict's, not a guess at Model.update
    assert ("m.py::Model::update", "m.py::Model::update") not in linked
    unresolved = {k for k, n in graph.unresolved if n}
    assert not unresolved & {"m.py::Model::update", "m.py::Model::label", "m.py::describe"}


def test_a_defaultdict_s_elements_are_what_its_factory_makes() -> None:
    source = """
import collections
from collections import defaultdict

class Node:
    def insert(self, word):
        return word

class Trie:
    def __init__(self):
        self.children = collections.defaultdict(Node)

    def add(self, char, word):
        return self.children[char].insert(word)

def count(words):
    seen = defaultdict(lambda: Node())
    for word in words:
        seen[word].insert(word)
"""
    graph = link(facts({"m.py": source}))
    found = {(e.source, e.target) for e in graph.edges if e.kind == "calls"}
    assert ("m.py::Trie::add", "m.py::Node::insert") in found
    assert ("m.py::count", "m.py::Node::insert") in found


def test_a_field_declared_with_a_default_factory_holds_what_it_makes() -> None:
    source = """
import attr
from dataclasses import dataclass, field

class Pool:
    def acquire(self):
        return 1

@dataclass
class Settings:
    pool: object = field(default_factory=Pool)
    backup: object = field(default_factory=lambda: Pool())

@attr.s
class Legacy:
    pool = attr.ib(factory=Pool)

def use(settings: Settings, legacy: Legacy):
    settings.pool.acquire()
    settings.backup.acquire()
    legacy.pool.acquire()
"""
    graph = link(facts({"m.py": source}))
    calls = [e.target for e in graph.edges if e.kind == "calls" and e.source == "m.py::use"]
    assert calls.count("m.py::Pool::acquire") == 1 and dict(graph.unresolved).get("m.py::use", 0) == 0


def test_a_module_level_lambda_s_body_reads_names_as_bound_when_it_is_called() -> None:
    # the body runs when the lambda is called: a name bound below it is already there
    source = """
class Pool:
    def acquire(self):
        return 1

class Stub:
    def acquire(self):
        return 0

Factory = Stub
make = lambda: Factory()
Factory = Pool

def use():
    return make().acquire()
"""
    graph = link(facts({"m.py": source}))
    assert ("m.py::use", "m.py::Pool::acquire") in {(e.source, e.target) for e in graph.edges}


def test_a_dict_made_of_zipped_keys_and_values_holds_the_values() -> None:
    source = """
def save():
    return 1

def load():
    return 2

HANDLERS = [save, load]

class Router:
    def __init__(self):
        self.table = dict(zip(["save", "load"], HANDLERS))

    def route(self, name):
        return self.table[name]()

def dispatch(name):
    table = dict(zip(["save"], [save]))
    return table[name]()
"""
    graph = link(facts({"m.py": source}))
    found = {(e.source, e.target) for e in graph.edges if e.kind == "calls"}
    assert {("m.py::Router::route", "m.py::save"), ("m.py::Router::route", "m.py::load")} <= found
    assert ("m.py::dispatch", "m.py::save") in found


def test_what_an_exit_stack_enters_is_what_the_context_manager_gives() -> None:
    source = """
import contextlib

class Conn:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def query(self):
        return 1

def use():
    with contextlib.ExitStack() as stack:
        conn = stack.enter_context(Conn())
        return conn.query()
"""
    graph = link(facts({"m.py": source}))
    assert ("m.py::use", "m.py::Conn::query") in {(e.source, e.target) for e in graph.edges}
