"""What callers get from a call: return annotations, generator ``__iter__`` methods, ``@contextmanager``."""

from __future__ import annotations

import textwrap

import pytest
from helpers.linking import assert_derived_both_ways, derived_from, facts

from impactbot.extract import extract
from impactbot.link import incremental, link
from impactbot.model import Binding, LinkedGraph

KINDS = """
class A:
    def run(self):
        return 1


class B:
    def run(self):
        return 2


class Sub(A):
    def run(self):
        return 3
"""


def calls(source: str, caller: str = "m.py::use") -> set[str]:
    """Ids the caller's calls reach, the module's classes before the source."""
    graph = link(facts({"m.py": KINDS + textwrap.dedent(source)}))
    return {e.target.rsplit("::", 2)[-2] + "." + e.target.rsplit("::", 1)[-1]
            for e in graph.edges if e.kind == "calls" and e.source == caller and e.target.endswith("::run")}


def test_a_function_without_parameters_binds_its_return_annotation() -> None:
    found = extract(b"def make() -> A:\n    return build()\n", "python").bindings
    assert Binding("make", "<return>", "A()", 1, "annotation") in found


RETURNS = {
    "an outside call: the annotation": ("def make() -> A:\n    return build()\n", {"A.run", "Sub.run"}),
    "a stub: the annotation": ("def make() -> 'A': ...\n", {"A.run", "Sub.run"}),
    "a subclass returned: that class": ("def make() -> A:\n    return Sub()\n", {"Sub.run"}),
    "another class returned: that class": ("def make() -> B:\n    return A()\n", {"A.run"}),
    "one return not told: both": (
        "def make(flag) -> A:\n    if flag:\n        return B()\n    return build()\n",
        {"A.run", "B.run", "Sub.run"},
    ),
    "a parameter returned: both": ("def make(x=B()) -> A:\n    return x\n", {"A.run", "B.run", "Sub.run"}),
}


@pytest.mark.parametrize(("source", "expected"), RETURNS.values(), ids=RETURNS.keys())
def test_a_return_annotation_stands_in_for_what_the_body_does_not_tell(source: str, expected: set[str]) -> None:
    assert calls(source + "def use():\n    return make(True).run()\n") == expected


ITERATION = {
    "a generator __iter__": ("class T:\n    def __iter__(self):\n        yield A()\n", {"A.run"}),
    "__iter__ returning an iterator": (
        "class I:\n    def __next__(self):\n        return B()\n"
        "class T:\n    def __iter__(self):\n        return I()\n",
        {"B.run"},
    ),
    "an Iterator annotation": (
        "from typing import Iterator\nclass T:\n    def __iter__(self) -> Iterator[A]:\n        return iter([])\n",
        {"A.run", "Sub.run"},
    ),
    "a __getitem__ besides": (
        "class T:\n    def __iter__(self):\n        yield A()\n    def __getitem__(self, i):\n        return B()\n",
        {"A.run"},
    ),
}


@pytest.mark.parametrize(("source", "expected"), ITERATION.values(), ids=ITERATION.keys())
def test_a_loop_over_an_instance_gets_what_iterating_it_gives(source: str, expected: set[str]) -> None:
    assert calls(source + "def use():\n    for x in T():\n        x.run()\n") == expected


def test_a_subscript_does_not_get_what_iter_yields() -> None:
    source = "class T:\n    def __iter__(self):\n        yield A()\n    def __getitem__(self, i):\n        return i\n"
    assert calls(source + "def use():\n    return T()[0].run()\n") == set()


LOOKUP_TABLE = """
class Table:
    def __init__(self, mapping):
        self.mapping = mapping

    def __getitem__(self, key):
        return self.mapping[key]

KINDS_BY_NAME = {"a": A, "b": B}
"""


def test_a_subscript_of_a_lookup_table_gets_what_its_getitem_returns() -> None:
    source = LOOKUP_TABLE + "def use(name):\n    return Table(KINDS_BY_NAME)[name]().run()\n"
    assert calls(source) == {"A.run", "B.run"}


@pytest.mark.parametrize("base", ["dict", "collections.UserDict"])
def test_a_lookup_table_with_an_outside_getitem_gives_nothing(base: str) -> None:
    source = f"import collections\nclass Table({base}):\n    pass\n"
    assert calls(source + "def use(name):\n    return Table()[name]().run()\n") == set()


def test_a_lookup_table_derives_as_it_links() -> None:
    table = textwrap.dedent(LOOKUP_TABLE)
    use = "from kinds import Table, KINDS_BY_NAME\n\ndef use(name):\n    return Table(KINDS_BY_NAME)[name]().run()\n"
    padding = {f"pad{i}.py": f"def f{i}():\n    return {i}\n" for i in range(12)}
    files = {"use.py": use, **padding}
    assert_derived_both_ways(files, "kinds.py", KINDS + table,
                             KINDS + table.replace("return self.mapping[key]", "return B"))


@pytest.mark.parametrize("decorator", ["contextmanager", "contextlib.contextmanager"])
def test_with_binds_what_a_contextmanager_yields(decorator: str) -> None:
    source = f"import contextlib\nfrom contextlib import contextmanager\n@{decorator}\ndef opened():\n    yield B()\n"
    assert calls(source + "def use():\n    with opened() as x:\n        x.run()\n") == {"B.run"}


def test_async_with_binds_what_an_asynccontextmanager_yields_and_with_does_not() -> None:
    source = "from contextlib import asynccontextmanager\n@asynccontextmanager\nasync def opened():\n    yield B()\n"
    assert calls(source + "async def use():\n    async with opened() as x:\n        x.run()\n") == {"B.run"}
    assert calls(source + "def use():\n    with opened() as x:\n        x.run()\n") == set()


# ----------------------------------------------------------------- incremental

SHARED = {
    "pkg/__init__.py": "",
    "pkg/kinds.py": KINDS,
    "pkg/use.py": (
        "from pkg.model import make, Table, opened\n\n\n"
        "def by_call():\n    make().run()\n\n\n"
        "def by_loop():\n    for row in Table():\n        row.run()\n\n\n"
        "def by_unpacking():\n    first, second = Table()\n    first.run()\n\n\n"
        "def by_with():\n    with opened() as x:\n        x.run()\n"
    ),
}
HEAD = "from contextlib import contextmanager\n\nfrom pkg.kinds import A, B, Sub\n\n\n"
TABLE = "class Table:\n    def __iter__(self):\n        yield A()\n"
OPENED = "@contextmanager\ndef opened():\n    yield A()\n"
MAKE = "def make() -> A:\n    return build()\n"
MODELS = {
    "return annotation": (MAKE, MAKE.replace("-> A", "-> B")),
    "annotation told by the body": (MAKE, MAKE.replace("build()", "Sub()")),
    "yield in __iter__": (TABLE, TABLE.replace("A()", "B()")),
    "a __getitem__ added": (TABLE, TABLE + "    def __getitem__(self, i):\n        return i\n"),
    "contextmanager decorator": (OPENED, OPENED.replace("@contextmanager\n", "")),
}


@pytest.mark.parametrize(("before", "after"), MODELS.values(), ids=MODELS.keys())
def test_a_derived_graph_follows_what_a_call_or_loop_gets(
    before: str, after: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    rest = [MAKE, TABLE, OPENED]
    for old, new in ((before, after), (after, before)):
        old_body = "\n\n".join(old if part == before else part for part in rest)
        new_body = "\n\n".join(new if part == before else part for part in rest)
        old_facts = facts({**SHARED, "pkg/model.py": HEAD + old_body})
        new_facts = facts({**SHARED, "pkg/model.py": HEAD + new_body})
        graph, derived = derived_from(old_facts, new_facts)
        assert derived == link(new_facts)
        assert _reached(derived) != _reached(graph)  # the change is one the graph shows


def _reached(graph: LinkedGraph) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in graph.edges if e.source.startswith("pkg/use.py::")}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # tornado's generator-based coroutines: the runner sends back what the yielded
        # call returns, `raise gen.Return(x)` returning x
        ("from tornado import gen\n\n@gen.coroutine\ndef make():\n    yield gen.sleep(0)\n"
         "    raise gen.Return(B())\n\n@gen.coroutine\ndef use():\n    b = yield make()\n    b.run()\n",
         {"B.run"}),
        ("def make():\n    yield 1\n    return Sub()\n\ndef use():\n    s = yield from make()\n    s.run()\n",
         {"Sub.run"}),
        # not the generator a generator function gives, nor its yields
        ("def make():\n    yield A()\n    return B()\n\ndef use():\n    b = yield make()\n    b.run()\n",
         {"B.run"}),
    ],
)
def test_what_a_coroutine_is_sent_for_a_yielded_call(source: str, expected: set[str]) -> None:
    assert calls(source) == expected


def test_what_an_outside_future_resolves_to_is_not_known() -> None:
    source = """
        import asyncio

        class Conn:
            def read_frame(self):
                return 1

        def use(loop):
            conn = yield asyncio.ensure_future(loop)
            conn.read_frame()
    """
    graph = link(facts({"m.py": source}))
    edges = {(e.target, e.confidence) for e in graph.edges if e.source == "m.py::use"}
    # unknown, not outside code: the method's unique name still says where it goes
    assert edges == {("m.py::Conn::read_frame", "name_match")}


@pytest.mark.parametrize("updated", ["functools.update_wrapper(wrapper, func)", "update_wrapper(wrapper, func)"])
def test_update_wrapper_returns_the_wrapper_it_was_given(updated: str) -> None:
    source = (
        "import functools\nfrom functools import update_wrapper\n\n"
        "class Store:\n    def __getitem__(self, key):\n        return 1\n\n"
        "def cached(cache):\n    def decorator(func):\n        def wrapper(*args):\n"
        "            return cache[args]\n"
        f"        return {updated}\n    return decorator\n\n"
        "def use():\n    f = cached(Store())(len)\n    return f(1)\n"
    )
    graph = link(facts({"m.py": source}))
    assert {e.target for e in graph.edges if e.source == "m.py::use"} >= {"m.py::cached::decorator::wrapper"}


def test_a_pickle_round_trip_is_a_copy_of_the_object() -> None:
    source = (
        "import json\nimport pickle\n\nclass Store:\n    def __setitem__(self, key, value):\n        pass\n\n"
        "def use():\n    source = Store()\n    cache = pickle.loads(pickle.dumps(source, 2))\n    cache[1] = 2\n\n"
        "def other():\n    data = json.loads(json.dumps(Store()))\n    data[1] = 2\n"
    )
    graph = link(facts({"m.py": source}))
    called = {(e.source, e.target) for e in graph.edges if e.kind == "calls"}
    assert ("m.py::use", "m.py::Store::__setitem__") in called
    assert ("m.py::other", "m.py::Store::__setitem__") not in called  # JSON gives back dicts
