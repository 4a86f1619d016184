"""A module's names as the code reading them sees them: module code at its line, a function
or another module once the module has run (with the calls the module body makes to its own
functions), conditional bindings never hiding anything."""

from __future__ import annotations

import textwrap

import pytest
from helpers.linking import derived_from, facts

from impactbot.link import _Linker, incremental, link
from impactbot.link.python import Resolver, Scope, Values

FUNCS = """
def a():
    return 1


def b():
    return 2
"""


def called(files: dict[str, str], caller: str) -> set[str]:
    """Names of what ``caller`` calls (``m.py`` for the module body of m.py)."""
    graph = link(facts(files))
    return {e.target.rsplit("::", 1)[-1] for e in graph.edges if e.kind == "calls" and e.source == caller}


def module_calls(source: str) -> set[str]:
    return called({"m.py": FUNCS + textwrap.dedent(source)}, "m.py")


def function_calls(source: str, function: str = "run") -> set[str]:
    return called({"m.py": FUNCS + textwrap.dedent(source)}, f"m.py::{function}")


MODULE_CASES = {
    "rebound": ("f = a\nf = b\nf()\n", {"b"}),
    "rebound to a value not followed": ("f = a\nf = 1\nf()\n", set()),
    "called between two bindings": ("f = a\nf()\nf = b\n", {"a"}),
    "swapped": ("f, g = a, b\nf, g = g, f\nf()\n", {"b"}),
    "rebound in an if": ("f = a\nif flag:\n    f = b\nf()\n", {"a", "b"}),
    "rebound in a loop after the call": ("f = a\nfor _ in range(2):\n    f()\n    f = b\n", {"a", "b"}),
    "rebound in a while loop after the call": (
        "f = a\nwhile flag:\n    f()\n    if flag:\n        f = b\n", {"a", "b"}
    ),
    # a branch after the call, in no loop around it, runs after the call whatever it does
    "rebound in an if after the call": ("f = a\nf()\nif flag:\n    f = b\n", {"a"}),
    "rebound in a loop after the call's": ("f = a\nf()\nfor _ in range(2):\n    f = b\n", {"a"}),
    "a def hides an earlier binding": ("f = a\ndef f():\n    pass\nf()\n", {"f"}),
    "a def in a branch hides nothing": ("f = a\nif flag:\n    def f():\n        pass\nf()\n", {"a", "f"}),
    "an assignment hides a def": ("def f():\n    pass\nf = b\nf()\n", {"b"}),
    "a value read at its own line": ("f = a\ng = f\nf = b\ng()\n", {"a"}),
    "a wrapper of the earlier value keeps it": ("import functools\nf = a\nf = functools.partial(f)\nf()\n", {"a"}),
    "a class body sees the name its class rebinds": ("f = a\nclass f:\n    g = f\nf.g()\n", {"a"}),
    # the lambda runs when called, after the rebinding: its line says nothing of the order
    "a call in a lambda": ("f = a\nhandler = lambda: f()\nf = b\nhandler()\n", {"a", "b"}),
}


@pytest.mark.parametrize(("source", "expected"), MODULE_CASES.values(), ids=MODULE_CASES.keys())
def test_module_code_sees_the_bindings_before_its_line(source: str, expected: set[str]) -> None:
    assert module_calls(source) == expected


FUNCTION_CASES = {
    "rebound before the def": ("f = a\nf = b\ndef run():\n    f()\n", {"b"}),
    "rebound after the def": ("def run():\n    f()\nf = a\nf = b\n", {"b"}),
    "rebound in an if": ("f = a\nif flag:\n    f = b\ndef run():\n    f()\n", {"a", "b"}),
    "called by the module between two bindings": ("f = a\ndef run():\n    f()\nrun()\nf = b\n", {"a", "b"}),
    "called by the module after both": ("f = a\ndef run():\n    f()\nf = b\nrun()\n", {"b"}),
    "rebound from another function": (
        "f = a\ndef swap():\n    global f\n    f = b\nf = a\ndef run():\n    f()\n", {"a", "b"}
    ),
}


@pytest.mark.parametrize(("source", "expected"), FUNCTION_CASES.values(), ids=FUNCTION_CASES.keys())
def test_a_function_sees_what_the_module_bound_last(source: str, expected: set[str]) -> None:
    assert function_calls(source) == expected


LOCAL_CASES = {
    "rebound": ("def run():\n    f = a\n    f = b\n    f()\n", {"b"}),
    "called between two bindings": ("def run():\n    f = a\n    f()\n    f = b\n", {"a"}),
    # a branch after the call reaches it only when a loop holds both
    "called between, rebound in an if after": (
        "def run(flag):\n    f = a\n    f()\n    if flag:\n        f = b\n", {"a"}
    ),
    "rebound in a loop after the call": (
        "def run():\n    f = a\n    for _ in range(2):\n        f()\n        f = b\n", {"a", "b"}
    ),
    "rebound in a nested loop after the call": (
        "def run(xs):\n    f = a\n    while xs:\n        f()\n        for x in xs:\n            f = b\n", {"a", "b"}
    ),
    "rebound in a later loop": (
        "def run(xs):\n    f = a\n    for x in xs:\n        f()\n    for x in xs:\n        f = b\n", {"a"}
    ),
    "rebound in a loop of a nested function": (
        "def run(xs):\n    f = a\n    def g():\n        for x in xs:\n            f()\n    f()\n"
        "    if xs:\n        f = b\n", {"a"}
    ),
    "a value read at its own line": ("def run():\n    f = a\n    f = f.__call__\n    f()\n", set()),
    # a lambda runs when called: after the rebinding, whatever its line
    "a call in a lambda": ("def run():\n    f = a\n    h = lambda: f()\n    f = b\n    h()\n", {"a", "b"}),
    "a call in a lambda spanning lines": (
        "def run():\n    f = a\n    h = lambda: (\n        f())\n    f = b\n    h()\n", {"a", "b"}
    ),
}


@pytest.mark.parametrize(("source", "expected"), LOCAL_CASES.values(), ids=LOCAL_CASES.keys())
def test_a_function_body_sees_its_own_assignments_before_the_line(source: str, expected: set[str]) -> None:
    assert function_calls(source) == expected


def test_a_name_rebound_thousands_of_times_is_resolved_once_per_use() -> None:
    body = "".join("    r = a\n    r()\n" for _ in range(3000))
    linker = _Linker(facts({"m.py": FUNCS + "def run():\n" + body}))
    seen = _count_sources(linker.r)
    graph = linker.run()
    assert {e.target for e in graph.edges if e.source == "m.py::run"} == {"m.py::a"}
    # each use reads the one assignment before it, not every one after it as well
    assert seen[0] < 4 * 3000


def _count_sources(r: Resolver) -> list[int]:
    """Count the sources the resolver resolves (it asks ``_resolve_sources`` for them)."""
    seen = [0]
    resolve_sources = r._resolve_sources

    def counting(sources: list[object], scope: Scope) -> Values:
        seen[0] += len(sources)
        return resolve_sources(sources, scope)

    r._resolve_sources = counting  # type: ignore[method-assign]
    return seen


def test_a_nested_function_called_by_the_module_sees_the_bindings_at_the_call() -> None:
    source = "f = a\ndef run():\n    def inner():\n        f()\n    inner()\nrun()\nf = b\n"
    assert function_calls(source, "run::inner") == {"a", "b"}


def test_an_importer_sees_what_the_module_bound_last() -> None:
    files = {
        "m.py": FUNCS + "f = a\nf = b\n",
        "use.py": "import m\nfrom m import f\nf()\nm.f()\n",
    }
    assert called(files, "use.py") == {"b"}


def test_an_import_fallback_keeps_both() -> None:
    files = {
        "fast.py": "def parse():\n    pass\n",
        "m.py": "try:\n    from fast import parse\nexcept ImportError:\n    def parse():\n        pass\nparse()\n",
    }
    assert {e.target for e in link(facts(files)).edges if e.source == "m.py"} == {"fast.py::parse", "m.py::parse"}


def test_a_def_hides_an_earlier_import() -> None:
    files = {"lib.py": "def f():\n    pass\n", "m.py": "from lib import f\ndef f():\n    pass\nf()\n"}
    assert {e.target for e in link(facts(files)).edges if e.source == "m.py"} == {"m.py::f"}


# ----------------------------------------------------------------- incremental

USE = "from pkg.model import impl, alias, run\n\n\ndef go():\n    impl()\n    alias()\n    return run()()\n"
SHARED = {"pkg/__init__.py": "", "pkg/use.py": USE, "pkg/other.py": "def unrelated():\n    return 0\n"}
HEAD = FUNCS + "\n\n"
# each pair binds the same names the same way: only where the statements stand differs
MODELS = {
    "a def moved past a rebinding": (
        "impl = a\n\n\ndef impl():\n    pass\n", "def impl():\n    pass\n\n\nimpl = a\n"
    ),
    "a def moved into a branch": (
        "impl = a\n\n\ndef impl():\n    pass\n", "impl = a\nif flag:\n\n    def impl():\n        pass\n"
    ),
    "an assignment moved past a rebinding of its value": (
        "impl = a\nalias = impl\nimpl = b\n", "impl = a\nimpl = b\nalias = impl\n"
    ),
    "a call of the module's own function moved past a rebinding": (
        "action = a\n\n\ndef run():\n    return action\n\n\nrun()\naction = b\n",
        "action = a\n\n\ndef run():\n    return action\n\n\naction = b\nrun()\n",
    ),
}


@pytest.mark.parametrize(("before", "after"), MODELS.values(), ids=MODELS.keys())
def test_a_derived_graph_follows_statements_moved_in_another_file(
    before: str, after: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    for old, new in ((before, after), (after, before)):
        old_facts = facts({**SHARED, "pkg/model.py": HEAD + old})
        new_facts = facts({**SHARED, "pkg/model.py": HEAD + new})
        assert link(old_facts) != link(new_facts)  # the move matters
        _graph, derived = derived_from(old_facts, new_facts)
        assert derived == link(new_facts)
