"""The tracer plugin, run by a real pytest child on a small project written here."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from ranking_support.projects import Project
from ranking_support.tracer_plugin import code_symbol, node_function_id
from ranking_support.traces import Trace, load_trace, source_root, trace_tests

CORE = """
def helper(x):
    return x + 1


def outer(x):
    double = lambda y: helper(y) * 2  # noqa: E731
    return [double(v) for v in range(x)]


def sibling():
    return 7


def factory():
    def inner():
        return helper(1)
    return inner


class Cart:
    def total(self, prices):
        return sum(helper(p) for p in prices)
"""

TESTS = """
import unittest

import pytest
from pkg.core import Cart, factory, outer, sibling


def test_outer():
    assert outer(2) == [2, 4]
    assert sibling() == 7


@pytest.mark.parametrize("n", [1, 2])
def test_factory(n):
    assert factory()() == 2


class TestCart:
    def test_total(self):
        assert Cart().total([1, 2]) == 5


def test_fails():
    assert sibling() == 8


class Base(unittest.TestCase):
    def test_inherited(self):
        self.assertEqual(sibling(), 7)


class CartChecks(Base):
    pass
"""


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Trace:
    tree = tmp_path_factory.mktemp("release")
    for path, text in {"src/pkg/__init__.py": "", "src/pkg/core.py": CORE, "tests/test_core.py": TESTS}.items():
        (tree / path).parent.mkdir(parents=True, exist_ok=True)
        (tree / path).write_text(textwrap.dedent(text))
    out = tree.parent / "trace.json"
    trace_tests(Project("pkg", ("1",), ("tests",)), Path(sys.executable), tree, out)
    return load_trace(out)


def _test(trace: Trace, nodeid: str) -> frozenset[str]:
    (found,) = [t for t in trace.tests if t.nodeid == nodeid]
    return found.executed


def test_each_test_records_the_functions_it_ran_named_like_impactbot(trace: Trace) -> None:
    ran = _test(trace, "tests/test_core.py::test_outer")
    # The lambda and the comprehension belong to outer, as in impactbot's ids.
    assert ran == {
        "tests/test_core.py::test_outer",
        "src/pkg/core.py::outer",
        "src/pkg/core.py::helper",
        "src/pkg/core.py::sibling",
    }
    assert _test(trace, "tests/test_core.py::TestCart::test_total") == {
        "tests/test_core.py::TestCart::test_total",
        "src/pkg/core.py::Cart::total",
        "src/pkg/core.py::helper",
    }
    assert "src/pkg/core.py::factory::inner" in _test(trace, "tests/test_core.py::test_factory[1]")


def test_failed_tests_are_recorded_too(trace: Trace) -> None:
    assert "src/pkg/core.py::sibling" in _test(trace, "tests/test_core.py::test_fails")
    assert trace.outcomes() == {"passed": 6, "failed": 1}


def test_parametrised_and_inherited_tests_answer_to_impactbot_ids(trace: Trace) -> None:
    affected = trace.affected_tests(["src/pkg/core.py::sibling"])
    assert affected == {
        "tests/test_core.py::test_outer",
        "tests/test_core.py::test_fails",
        "tests/test_core.py::Base::test_inherited",
        "tests/test_core.py::CartChecks::test_inherited",
    }
    assert "tests/test_core.py::test_factory" in trace.affected_tests(["src/pkg/core.py::factory::inner"])


def test_callers_are_what_was_on_the_stack_not_what_ran_nearby(trace: Trace) -> None:
    callers = trace.reaching_callers(["src/pkg/core.py::helper"])
    assert {"src/pkg/core.py::outer", "src/pkg/core.py::Cart::total", "src/pkg/core.py::factory::inner"} <= callers
    # sibling ran in the same test as helper, but never above it.
    assert "src/pkg/core.py::sibling" not in callers
    assert "src/pkg/core.py::factory" not in callers  # it returned inner before inner ran
    assert trace.reaching_callers(["src/pkg/core.py::sibling"]) >= {"tests/test_core.py::test_outer"}


def test_code_outside_the_tree_has_no_symbol() -> None:
    assert code_symbol("/elsewhere/mod.py", "f", "/tree") is None
    assert code_symbol("/tree/pkg/m.py", "<module>", "/tree") == "pkg/m.py"
    assert code_symbol("/tree/pkg/m.py", "A.f.<locals>.g.<locals>.<genexpr>", "/tree") == "pkg/m.py::A::f::g"


def test_node_ids_lose_only_their_parameters() -> None:
    assert node_function_id("t/test_a.py::test_x[a::b-1]") == "t/test_a.py::test_x"
    assert node_function_id("t/test_a.py::TestA::test_y") == "t/test_a.py::TestA::test_y"


def test_a_src_layout_is_imported_from_src(tmp_path: Path) -> None:
    assert source_root(tmp_path) == tmp_path
    (tmp_path / "src").mkdir()
    assert source_root(tmp_path) == tmp_path / "src"


def test_a_test_that_outruns_the_budget_is_marked_and_keeps_what_it_ran(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "core.py").write_text(textwrap.dedent(CORE))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_loop.py").write_text(
        "from pkg.core import helper, sibling\n\n\n"
        "def test_loop():\n    for _ in range(200_000):\n        helper(1)\n    sibling()\n\n\n"
        "def test_short():\n    sibling()\n"
    )
    out = tmp_path / "trace.json"
    trace = load_trace(trace_tests(Project("pkg", ("1",), ("tests",)), Path(sys.executable), tmp_path, out, budget=0.0))
    loop = next(t for t in trace.tests if t.nodeid.endswith("test_loop"))
    short = next(t for t in trace.tests if t.nodeid.endswith("test_short"))
    assert loop.truncated and "pkg/core.py::helper" in loop.executed
    assert "pkg/core.py::sibling" not in loop.executed  # ran after recording stopped
    assert not short.truncated and "pkg/core.py::sibling" in short.executed  # the next test is recorded again
    assert trace.unknown_tests(["pkg/core.py::sibling"]) == {"tests/test_loop.py::test_loop"}
    assert trace.unknown_tests(["pkg/core.py::helper"]) == frozenset()
