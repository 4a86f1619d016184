"""Import cycles and self-references end in unresolved calls, never in a crash."""

from __future__ import annotations

import pytest
from helpers.linking import derived_from, facts

from impactbot.extract import extract
from impactbot.link import _Linker, link
from impactbot.link.python import MAX_DEPTH

CYCLES = {
    "star imports of each other": {"pkg/a.py": "from pkg.b import *\n\ndef f():\n    return g()\n",
                                   "pkg/b.py": "from pkg.a import *\n"},
    "names imported from each other": {"pkg/a.py": "from pkg.b import g\n\ndef f():\n    return g()\n",
                                       "pkg/b.py": "from pkg.a import g\n"},
    "a module importing from itself": {"pkg/a.py": "from pkg.a import g\n\ndef f():\n    return g()\n"},
}


@pytest.mark.parametrize("files", CYCLES.values(), ids=CYCLES.keys())
def test_import_cycles_leave_the_call_unresolved(files: dict[str, str]) -> None:
    facts = {p: extract(t.encode(), "python") for p, t in {"pkg/__init__.py": "", **files}.items()}
    graph = link(facts)
    assert [e for e in graph.edges if e.kind == "calls"] == []
    assert dict(graph.unresolved) == {"pkg/a.py::f": 1}


def test_deep_alias_chains_are_cut_not_crashing() -> None:
    chain = "def f0():\n    return 1\n\n" + "".join(f"f{i} = f{i - 1}\n" for i in range(1, 3000)) + "f2999()\n"
    graph = link({"m.py": extract(chain.encode(), "python")})
    assert graph.symbols  # linked; a chain deeper than the resolver follows is just unknown


def _lattice(levels: int) -> str:
    """Two functions per level, each passing its argument to both of the next level:
    2**levels paths lead to the last level's parameter."""
    parts = ["class Job:\n    def run(self):\n        pass\n\n"]
    for i in range(levels):
        body = "    x.run()\n" if i == levels - 1 else f"    a{i + 1}(x)\n    b{i + 1}(x)\n"
        parts += [f"def a{i}(x):\n{body}\n", f"def b{i}(x):\n{body}\n"]
    parts.append("a0(Job())\nb0(Job())\n")
    return "".join(parts)


def test_value_flows_deeper_than_the_resolver_follows_are_walked_once_per_site() -> None:
    levels = MAX_DEPTH + 10  # every chain from the last level to the top is cut short
    linker = _Linker(facts({"m.py": _lattice(levels)}))
    graph = linker.run()
    calls = {(e.source, e.target) for e in graph.edges if e.kind == "calls"}
    assert ("m.py::a0", "m.py::b1") in calls and ("m.py::b128", "m.py::a129") in calls
    # each cut-short answer is reused within the resolution that cut it: a few per
    # function, where walking every path again never finished
    assert linker.r.resolutions < 10 * 2 * levels


def test_a_cut_short_flow_still_gives_what_a_nearer_caller_passes() -> None:
    levels = MAX_DEPTH + 10
    entry = f"from m import a{levels - 8}\n\nclass Other:\n    def run(self):\n        pass\n\n" \
            f"def go():\n    a{levels - 8}(Other())\n"
    graph = link(facts({"m.py": _lattice(levels), "entry.py": entry}))
    targets = {e.target for e in graph.edges if e.source == f"m.py::a{levels - 1}"}
    assert "entry.py::Other::run" in targets


def _cut_chain() -> dict[str, str]:
    # `deep` (a.py, resolved first) asks for what c100's x holds 100 calls down a chain
    # longer than the resolver follows, and keeps the cut-short answer; `shallow` (c.py)
    # asks for it again, near the top of its own chain, where it reaches `c0(Job())`.
    length = MAX_DEPTH + 80
    chain = "from a import deep\nfrom c import shallow\n\nclass Job:\n    def run(self):\n        pass\n\n"
    chain += "".join(f"def c{i}(x):\n    c{i + 1}(x)\n" + ("    shallow(x)\n" if i == 100 else "") + "\n"
                     for i in range(length))
    chain += f"def c{length}(x):\n    deep(x)\n\nc0(Job())\n"
    return {"a.py": "def deep(x):\n    x.run()\n", "b.py": chain, "c.py": "def shallow(x):\n    x.run()\n"}


def test_an_answer_cut_short_is_computed_again_for_a_site_nearer_the_start() -> None:
    calls = {(e.source, e.target) for e in link(facts(_cut_chain())).edges if e.kind == "calls"}
    assert ("c.py::shallow", "b.py::Job::run") in calls
    assert ("a.py::deep", "b.py::Job::run") not in calls  # 300 calls down: still cut short


def test_a_derived_graph_keeps_an_answer_cut_short_by_an_earlier_site() -> None:
    files = _cut_chain()
    old_facts = facts(files)
    new_facts = facts({**files, "c.py": files["c.py"] + "\n\ndef other():\n    pass\n"})
    _graph, derived = derived_from(old_facts, new_facts)
    scratch = link(new_facts)
    assert sorted(map(repr, derived.edges)) == sorted(map(repr, scratch.edges))
    assert derived.unresolved == scratch.unresolved


GRAPH = """
class Node:
    def __init__(self, key):
        self.key = key
        self.children = set()
        self.parents = set()

    def add_child(self, child):
        self.children.add(child)

    def add_parent(self, parent):
        self.parents.add(parent)


class Graph:
    def __init__(self):
        self.node_map = {}

    def add_node(self, key):
        self.node_map[key] = Node(key)

    def add_dependency(self, child, parent):
        self.node_map[parent].add_child(self.node_map[child])

    def remove_replaced_nodes(self, replaced):
        for key in replaced:
            node = self.node_map.pop(key)
            for child in node.children:
                child.parents.remove(node)

    def remove_replacement_node(self, replacement, replaced):
        replacement_node = self.node_map.pop(replacement)
        for child in replacement_node.children:
            for key in replaced:
                replaced_node = self.node_map[key]
                replaced_node.add_child(child)
                child.add_parent(replaced_node)
"""


def test_an_answer_completed_by_a_value_flowing_around_a_cycle_is_not_kept_partial() -> None:
    # `child` is an element of `children`, which holds what add_child is given, which
    # is `child` again: asked for inside that cycle, the elements first read as partial
    graph = link(facts({"graph.py": GRAPH}))
    called = {e.target for e in graph.edges if e.source == "graph.py::Graph::remove_replacement_node"}
    assert called == {"graph.py::Node::add_child", "graph.py::Node::add_parent"}


def test_a_loop_rebinding_a_name_many_times_is_resolved_once_per_binding() -> None:
    # in a loop each `t = t.replace(...)` sees every other one (from the turn before):
    # walking every order of them again took minutes for ten (pyparsing's examples)
    rebinds = 8
    source = "class Text:\n    def replace(self, a, b):\n        return Text()\n\n" \
             "    def strip(self):\n        return self\n\n\nfor t in [Text()]:\n" \
             + "".join(f"    t = t.replace('{i}', '')\n" for i in range(rebinds)) + "    t.strip()\n"
    linker = _Linker(facts({"m.py": source}))
    graph = linker.run()
    assert {(e.source, e.target) for e in graph.edges if e.kind == "calls"} >= {
        ("m.py", "m.py::Text::replace"), ("m.py", "m.py::Text::strip")}
    assert linker.r.resolutions < 40 * rebinds


def test_a_global_statement_at_module_level_is_read_as_nothing() -> None:
    # allowed by Python, and a no-op: looking `r` up went from the module to the module
    source = "class Box:\n    def open(self):\n        return self\n\n\nglobal r\nr = Box()\nr.open()\n"
    graph = link(facts({"m.py": source}))
    assert ("m.py", "m.py::Box::open") in {(e.source, e.target) for e in graph.edges if e.kind == "calls"}
