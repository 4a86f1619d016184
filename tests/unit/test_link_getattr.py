"""``__getattr__``: what runs when an instance's class lacks an attribute."""

from __future__ import annotations

from helpers.linking import facts

from impactbot.link import link

PROXY = """
class Target:
    def unique_operation(self):
        pass

class Proxy:
    def __init__(self, target):
        self._target = target

    def __getattr__(self, name):
        return getattr(self._target, name)

    def own(self):
        pass

class Plain:
    def own(self):
        pass

class Sub(Proxy):
    pass
"""


def edges(body: str, caller: str = "m.py::use") -> set[tuple[str, str]]:
    graph = link(facts({"m.py": PROXY + body}))
    return {(e.target.removeprefix("m.py::"), e.confidence) for e in graph.edges if e.source == caller}


def test_a_missing_method_runs_getattr_and_keeps_the_name_guess() -> None:
    got = edges("def use(p: Proxy):\n    p.unique_operation()\n")
    assert got == {("Proxy::__getattr__", "inferred"), ("Target::unique_operation", "name_match")}


def test_a_method_the_class_has_does_not_run_getattr() -> None:
    assert edges("def use(p: Proxy):\n    p.own()\n") == {("Proxy::own", "inferred")}


def test_a_subclass_inherits_getattr() -> None:
    got = edges("def use(s: Sub):\n    s.anything_at_all()\n")
    assert ("Proxy::__getattr__", "inferred") in got


def test_a_class_without_getattr_gets_no_edge() -> None:
    assert edges("def use(p: Plain):\n    p.anything_at_all()\n") == set()


def test_a_guess_among_classes_none_of_which_has_it_runs_nothing() -> None:
    # either object may be the receiver: a missing attribute says more about the guess
    body = "def use(flag):\n    p = Proxy(None) if flag else Plain()\n    p.anything_at_all()\n"
    assert ("Proxy::__getattr__", "inferred") not in edges(body)


def test_dunder_lookups_skip_getattr() -> None:
    # Python looks special methods up on the type: __getattr__ never supplies them
    assert edges("def use(p: Proxy):\n    return len(p)\n") == set()


def test_calling_what_getattr_returns() -> None:
    body = "class Table:\n    def __getattr__(self, name):\n        return handler\n\ndef handler():\n    pass\n\n" \
           "def use():\n    Table().on_click()\n"
    assert edges(body) == {("Table", "resolved"), ("Table::__getattr__", "inferred"), ("handler", "inferred")}
