"""Protocols a repository names like Python's own (``__rich_console__``, ``__html__``):
an object of unknown class is called for having the method, so every method of that
name is a guess (name_match), and the call stays unresolved."""

from __future__ import annotations

from helpers.linking import facts

from impactbot.link import link
from impactbot.model import LinkedGraph

RENDERABLES = """
class Table:
    def __render__(self, console):
        return ["table"]

    def __len__(self):
        return 1

class Panel:
    def __render__(self, console):
        return ["panel"]

    def __len__(self):
        return 2

def to_renderable(obj):
    return obj

class Console:
    def render(self, renderable):
        renderable = to_renderable(renderable)
        if hasattr(renderable, "__render__"):
            return renderable.__render__(self)
        return [str(renderable)]

    def measure(self, renderable):
        return renderable.__len__()
"""


def _calls(graph: LinkedGraph, caller: str) -> dict[str, str]:
    return {e.target: e.confidence for e in graph.edges if e.kind == "calls" and e.source == caller}


def test_every_method_of_an_own_protocol_is_a_guess() -> None:
    graph = link(facts({"console.py": RENDERABLES}))
    render = _calls(graph, "console.py::Console::render")
    assert {t: c for t, c in render.items() if "__render__" in t} == {
        "console.py::Table::__render__": "name_match", "console.py::Panel::__render__": "name_match"}
    assert dict(graph.unresolved)["console.py::Console::render"] == 1


def test_python_s_own_special_methods_are_not_guessed() -> None:
    # `__len__` is every sized object's: a call on an unknown one says nothing of these
    graph = link(facts({"console.py": RENDERABLES}))
    assert _calls(graph, "console.py::Console::measure") == {}


def test_a_resolved_receiver_calls_its_own_method_only() -> None:
    source = RENDERABLES + "\ndef show():\n    return Table().__render__(None)\n"
    graph = link(facts({"console.py": source}))
    assert _calls(graph, "console.py::show") == {
        "console.py::Table": "resolved", "console.py::Table::__render__": "resolved"}
