"""Builtins that run protocol methods of their arguments: ``print`` formats each
value, ``zip``/``map``/``enumerate``/``min``/``sum``... iterate theirs, ``divmod``,
``hex``... call the one method each names, with the defaults Python
falls back on (``str(x)`` of a class with only ``__repr__`` runs it). A name the
module binds itself is not the builtin."""

from __future__ import annotations

import pytest
from helpers.linking import facts

from impactbot.link import link

CLASSES = """
class Steps:
    def __next__(self):
        raise StopIteration


class Basket:
    def __iter__(self):
        return Steps()

    def __len__(self):
        return 0

    def __repr__(self):
        return "Basket()"

    def __divmod__(self, other):
        return 0, 0

    def __index__(self):
        return 0


class Label:
    def __str__(self):
        return "label"

    def __bool__(self):
        return True


class Name(str):
    def __repr__(self):
        return "Name()"


class Failure(Exception):
    def __repr__(self):
        return "Failure()"

"""


def runs(body: str) -> set[str]:
    """What ``use`` calls, as ``Class.method``."""
    graph = link(facts({"shop.py": CLASSES + body}))
    return {e.target.split("::", 1)[1].replace("::", ".") for e in graph.edges
            if e.kind == "calls" and e.source == "shop.py::use"}


CASES = {
    "print formats every value": ('def use(b: Basket, l: Label):\n    print("in", b, l, sep="")\n',
                                  {"Basket.__repr__", "Label.__str__"}),
    "str falls back on __repr__": ("def use(b: Basket):\n    return str(b)\n", {"Basket.__repr__"}),
    "an f-string falls back twice": ('def use(b: Basket):\n    return f"{b}"\n', {"Basket.__repr__"}),
    "format() falls back too": ("def use(b: Basket):\n    return format(b)\n", {"Basket.__repr__"}),
    "a str subclass formats as str": ('def use(n: Name):\n    return str(n), f"{n}", print(n)\n', set()),
    "an exception's str is BaseException's": ("def use(e: Failure):\n    return str(e)\n", set()),
    "truth is not followed": ("def use(l: Label, b: Basket):\n    return bool(l), bool(b)\n", set()),
    "min of one iterable consumes it": ("def use(b: Basket):\n    return min(b)\n",
                                        {"Basket.__iter__", "Steps.__next__"}),
    "min of two values compares them": ("def use(b: Basket, c: Basket):\n    return min(b, c)\n", set()),
    "sum and any consume": ("def use(b: Basket):\n    return sum(b), any(b)\n",
                            {"Basket.__iter__", "Steps.__next__"}),
    "enumerate iterates lazily": ("def use(b: Basket):\n    return enumerate(b)\n", {"Basket.__iter__"}),
    "zip iterates each": ("def use(b: Basket, l: Label):\n    return zip(l, b)\n", {"Basket.__iter__"}),
    "map iterates what follows the function": ("def use(b: Basket):\n    return map(len, b)\n",
                                               {"Basket.__iter__"}),
    "map does not iterate the function": ("def use(b: Basket):\n    return map(b, [])\n", set()),
    "divmod and hex": ("def use(b: Basket):\n    return divmod(b, 2), hex(b)\n",
                       {"Basket.__divmod__", "Basket.__index__"}),
    "a splat is iterated": ("def use(b: Basket):\n    print(*b)\n", {"Basket.__iter__", "Steps.__next__"}),
}


@pytest.mark.parametrize(("body", "expected"), CASES.values(), ids=CASES.keys())
def test_a_builtin_runs_what_python_runs(body: str, expected: set[str]) -> None:
    assert runs(body) == expected


def test_a_function_of_the_module_named_like_a_builtin_is_not_it() -> None:
    body = "def len(x):\n    return 0\n\ndef print(*values):\n    pass\n\n" \
           "def use(b: Basket):\n    print(b)\n    return len(b)\n"
    graph = link(facts({"shop.py": CLASSES + body}))
    called = {e.target for e in graph.edges if e.kind == "calls" and e.source == "shop.py::use"}
    assert called == {"shop.py::len", "shop.py::print"}


def test_an_imported_print_is_not_the_builtin() -> None:
    body = "from rich import print\n\ndef use(l: Label):\n    print(l)\n"
    assert runs(body) == set()


MISSING = """
class Registry(dict):
    def __missing__(self, key):
        value = self[key] = build(key)
        return value


def build(key):
    return key


def use(r: Registry, other: dict):
    r["a"]
    r["b"] = 1
    other["c"]
    return r.get("d")
"""


def test_reading_a_key_of_a_dict_subclass_runs_its_missing_hook() -> None:
    graph = link(facts({"reg.py": MISSING}))
    calls = {(e.target, e.lines) for e in graph.edges if e.kind == "calls" and e.source == "reg.py::use"}
    assert calls == {("reg.py::Registry::__missing__", (13,))}  # a read: not a store, nor get()
