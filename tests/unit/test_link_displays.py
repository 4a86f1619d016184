"""Lists, tuples and sets handed to a function: the callee reads their elements."""

from __future__ import annotations

from helpers.linking import derived_from, facts

from impactbot.extract import extract
from impactbot.link import link

RUNNER = """
def compile_assets():
    pass

def package_wheel():
    pass

def run_all(tasks):
    for task in tasks:
        task()
"""


def _calls(files: dict[str, str]) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in link(facts(files)).edges if e.kind == "calls"}


def test_a_display_argument_is_bound_to_its_elements() -> None:
    found = extract(b"def f(x):\n    pass\n\nf([g, h.k], key=(m,))\nf([1, 'two'])\n", "python")
    first, constants = [c for c in found.calls if c.callee == "f"]
    assert first.args == ("<arg@4:2>",) and first.kwargs == (("key", "<arg@4:16>"),)
    bound = {(b.target, b.value) for b in found.bindings if b.target.startswith("<arg@")}
    assert bound == {("<arg@4:2>", None), ("<arg@4:2>[]", "g"), ("<arg@4:2>[]", "h.k"),
                     ("<arg@4:2>[0]", "g"), ("<arg@4:2>[1]", "h.k"), ("<arg@4:2>[-2]", "g"), ("<arg@4:2>[-1]", "h.k"),
                     ("<arg@4:16>", None), ("<arg@4:16>[]", "m"), ("<arg@4:16>[0]", "m"), ("<arg@4:16>[-1]", "m")}
    assert constants.args == (None,)  # nothing in it to resolve: no name for it


def test_a_dict_display_argument_is_bound_under_its_constant_keys() -> None:
    found = extract(b"f({'a': g, 'b': 2}, {k: h}, {**d, 'c': m})\n", "python")
    (call,) = found.calls
    assert call.args == ("<arg@1:2>", "<arg@1:20>", "<arg@1:28>")
    bound = {(b.target, b.value) for b in found.bindings if b.target.startswith("<arg@")}
    # a computed key or a splat leaves only the bag: any key may hold any value
    assert bound == {("<arg@1:2>", None), ("<arg@1:2>[]", "g"), ("<arg@1:2>[]", None), ('<arg@1:2>["a"]', "g"),
                     ("<arg@1:20>", None), ("<arg@1:20>[]", "h"),
                     ("<arg@1:28>", None), ("<arg@1:28>[]", "d[]"), ("<arg@1:28>[]", "m")}


def test_a_list_display_passed_to_a_function_that_calls_its_elements() -> None:
    calls = _calls({"m.py": RUNNER + "\nrun_all([compile_assets, package_wheel])\n"})
    assert {("m.py::run_all", "m.py::compile_assets"), ("m.py::run_all", "m.py::package_wheel")} <= calls


def test_a_named_list_from_another_module_and_one_filled_by_append() -> None:
    caller = """
from m import compile_assets, package_wheel, run_all

def release():
    steps = (compile_assets,)
    run_all(steps)

def nightly():
    steps = []
    steps.append(package_wheel)
    run_all(tasks=steps)
"""
    calls = _calls({"m.py": RUNNER, "ci.py": caller})
    assert {("m.py::run_all", "m.py::compile_assets"), ("m.py::run_all", "m.py::package_wheel")} <= calls


def test_an_element_of_star_args_is_still_one_argument() -> None:
    source = RUNNER + "\ndef run_each(*tasks):\n    for task in tasks:\n        task()\n\nrun_each([compile_assets])\n"
    calls = _calls({"m.py": source})
    # `tasks` holds the list itself: calling it calls no function of the repository
    assert ("m.py::run_each", "m.py::compile_assets") not in calls


def test_a_derived_graph_follows_a_changed_display() -> None:
    old_facts = facts({"m.py": RUNNER, "ci.py": "from m import *\n\nrun_all([compile_assets])\n"})
    new_facts = facts({"m.py": RUNNER, "ci.py": "from m import *\n\nrun_all([package_wheel])\n"})
    _graph, derived = derived_from(old_facts, new_facts)
    scratch = link(new_facts)
    assert sorted(map(repr, derived.edges)) == sorted(map(repr, scratch.edges))
    assert ("m.py::run_all", "m.py::package_wheel") in {(e.source, e.target) for e in derived.edges}


def test_a_constant_index_reads_that_position_of_the_display_passed() -> None:
    source = RUNNER + "\ndef run_first(tasks):\n    tasks[1]()\n\nrun_first((compile_assets, package_wheel))\n"
    calls = _calls({"m.py": source})
    assert ("m.py::run_first", "m.py::package_wheel") in calls
    assert ("m.py::run_first", "m.py::compile_assets") not in calls


def test_a_display_with_a_splat_has_no_positions() -> None:
    found = extract(b"f([g, *rest, h])\n", "python")
    targets = {b.target for b in found.bindings}
    assert "<arg@1:2>[]" in targets and not any(t.startswith("<arg@1:2>[0") for t in targets)


def test_an_empty_display_s_methods_are_the_builtin_type_s() -> None:
    # `classes = []` then `classes.append("x")`: no element a linker could read, but a
    # list all the same: not a call of the repository's own `append` left unresolved
    source = """
class Queue:
    def append(self, item):
        pass

    def get(self):
        pass

def label(flag):
    classes = []
    if flag:
        classes.append("checkbox")
    seen = {}
    seen.get("a")
    return classes
"""
    graph = link(facts({"m.py": source}))
    assert dict(graph.unresolved).get("m.py::label", 0) == 0
    assert not [e for e in graph.edges if e.source == "m.py::label"]
    bound = {(b.target, b.value) for b in extract(source.encode(), "python").bindings if b.scope == "label"}
    assert {("classes", None), ("classes[]", None), ("seen", None), ("seen[]", None)} <= bound
