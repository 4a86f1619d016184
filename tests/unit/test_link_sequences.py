"""Sequences made of another's elements: slices, ``list(xs)``, ``sorted(xs)``,
``iter(xs)`` and ``next(it)`` give what iterating ``xs`` gives."""

from __future__ import annotations

import textwrap

import pytest
from helpers.linking import assert_derived_both_ways, facts

from impactbot.link import incremental, link

HEAD = """
def f(): pass
def g(): pass
def gen():
    yield f
class Box:
    def __iter__(self):
        yield g
class Bag(list):
    def __add__(self, other):
        return Bag(list(self) + list(other))
FS = [f, g]
"""

CASES = {
    "a slice": ("for h in FS[1:]:\n    h()", {"f", "g"}),
    "a slice read by a constant index": ("FS[1:][0]()", {"f", "g"}),
    "list() of a display": ("for h in list(FS):\n    h()", {"f", "g"}),
    "sorted() with a key": ("for h in sorted(FS, key=id):\n    h()", {"f", "g"}),
    "reversed() of a generator": ("for h in reversed(list(gen())):\n    h()", {"f"}),
    "tuple() of an instance iterates its class": ("for h in tuple(Box()):\n    h()", {"g"}),
    "iter() of a display": ("for h in iter(FS):\n    h()", {"f", "g"}),
    "next() of a generator": ("next(gen())()", {"f"}),
    "next(iter()) of a display": ("next(iter(FS))()", {"f", "g"}),
}


def called(body: str) -> set[str]:
    source = HEAD + "\ndef main():\n" + textwrap.indent(body, "    ") + "\n"
    graph = link(facts({"main.py": source}))
    return {e.target.removeprefix("main.py::") for e in graph.edges
            if e.source == "main.py::main" and e.kind == "calls" and e.target.removeprefix("main.py::") in ("f", "g")}


@pytest.mark.parametrize(("body", "expected"), CASES.values(), ids=CASES.keys())
def test_a_sequence_made_of_another_gives_its_elements(body: str, expected: set[str]) -> None:
    assert called(body) == expected


def test_list_of_an_instance_is_a_list_not_an_instance_of_its_class() -> None:
    # `list(self) + list(other)` adds two lists: Bag.__add__ does not call itself
    graph = link(facts({"main.py": HEAD}))
    assert not [e for e in graph.edges if e.source == "main.py::Bag::__add__" and e.target == "main.py::Bag::__add__"]


def test_an_instance_handing_its_iteration_to_a_container_gives_the_containers_elements() -> None:
    source = HEAD + """
class Registry:
    def __init__(self):
        self._handlers = [f]
        self._named = {"g": g}

    def __iter__(self):
        return iter(self._handlers)

class Named(Registry):
    def __iter__(self):
        return iter(self._named.values())

def main():
    for h in Registry():
        h()

def other():
    for h in Named():
        h()
"""
    graph = link(facts({"main.py": source}))
    called = {(e.source, e.target) for e in graph.edges
              if e.kind == "calls" and e.target in ("main.py::f", "main.py::g")}
    assert called == {("main.py::main", "main.py::f"), ("main.py::other", "main.py::g")}


@pytest.mark.parametrize("body", ["next(iter(jobs)).run()", "for job in iter(jobs):\n        job.run()"])
def test_iter_of_a_container_declared_by_its_element_type_gives_its_elements(body: str) -> None:
    source = HEAD + f"""
class Job:
    def run(self): pass
def main(jobs: list[Job]):
    {body}
"""
    graph = link(facts({"main.py": source}))
    assert {e.target for e in graph.edges if e.source == "main.py::main" and e.kind == "calls"} == {"main.py::Job::run"}


SLICED = {
    "a bounded slice, from the start": ("rest = FS3[1:3]\nrest[0]()", {"g"}),
    "a bounded slice, from the end": ("rest = FS3[1:3]\nrest[-1]()", {"h"}),
    "an open slice, from the start": ("rest = FS3[1:]\nrest[0]()", {"g"}),
    "an open slice, from the end": ("rest = FS3[1:]\nrest[-1]()", {"h"}),
    "a slice from a bound not known": ("rest = FS3[n:]\nrest[0]()", {"f", "g", "h"}),
    "a slice with a step": ("rest = FS3[::2]\nrest[1]()", {"f", "g", "h"}),
}


@pytest.mark.parametrize(("body", "expected"), SLICED.values(), ids=SLICED.keys())
def test_a_slice_bound_to_a_name_keeps_its_elements_places(body: str, expected: set[str]) -> None:
    source = "def f(): pass\ndef g(): pass\ndef h(): pass\nFS3 = [f, g, h]\ndef main(n):\n" + \
        textwrap.indent(body, "    ") + "\n"
    graph = link(facts({"main.py": source}))
    assert {e.target.removeprefix("main.py::") for e in graph.edges
            if e.source == "main.py::main" and e.kind == "calls"} == expected


def test_a_derived_graph_follows_an_iteration_handed_to_another_container(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    registry = """
def f(): pass
def g(): pass

class Registry:
    def __init__(self):
        self._first = [f]
        self._second = [g]

    def __iter__(self):
        return iter(self._first)
"""
    uses = "from reg import Registry\n\ndef main():\n    for h in Registry():\n        h()\n"
    other = registry.replace("iter(self._first)", "iter(self._second)")
    assert_derived_both_ways({"use.py": uses}, "reg.py", registry, other)
    called = {e.target for e in link(facts({"use.py": uses, "reg.py": other})).edges if e.source == "use.py::main"}
    assert "reg.py::g" in called and "reg.py::f" not in called


ITEMS = {
    "a dict's item": "for kv in jobs.items():\n    kv[1].run()",
    "an item sorted by a key": "sorted(jobs.items(), key=lambda kv: kv[1].run())",
    "an enumerated item": "for p in enumerate(jobs.values()):\n    p[1].run()",
    "a zipped item": "for pair in zip(jobs.values(), NAMES):\n    pair[0].run()",
}


@pytest.mark.parametrize("body", ITEMS.values(), ids=ITEMS.keys())
def test_an_item_read_by_its_place_is_what_unpacking_it_gives(body: str) -> None:
    source = "class Job:\n    def run(self): pass\nNAMES = ['a']\ndef main(jobs: dict[str, Job]):\n" + \
        textwrap.indent(body, "    ") + "\n"
    graph = link(facts({"main.py": source}))
    assert {e.target for e in graph.edges if e.source == "main.py::main" and e.kind == "calls"} == {"main.py::Job::run"}
