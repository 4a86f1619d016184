"""Truths and orders of one pair, from reports and a trace built here, and one real impactbot run."""

from __future__ import annotations

from pathlib import Path

import pygit2
import pytest

from ranking_support.evaluate import Selection, evaluate_pair
from ranking_support.history import commit_release
from ranking_support.impact_runs import (
    ImpactedItem,
    PairReport,
    analyser_version,
    read_report,
    run_impactbot,
    snapshot_analyser,
)
from ranking_support.tables import final_line, selection_line, selection_table
from ranking_support.traces import Trace, TracedTest

CHANGED = "pkg/core.py::price"


def _report(order: list[str], tests: set[str]) -> PairReport:
    items = tuple(ImpactedItem(i, 1.0 - n / 100, 1, i in tests) for n, i in enumerate(order))
    return PairReport(changed=((CHANGED, "modified"), ("pkg/new.py::fresh", "added")), impacted=items, ranking="x")


def _trace() -> Trace:
    ran = frozenset({CHANGED, "pkg/core.py::total"})
    total, other = "tests/test_a.py::test_total", "tests/test_a.py::test_other"
    return Trace(
        tests=(
            TracedTest(total + "[1]", frozenset({total}), ran, "passed"),
            TracedTest(other, frozenset({other}), frozenset(), "failed"),
        ),
        callers={CHANGED: frozenset({"pkg/core.py::total", "tests/test_a.py::test_total"})},
    )


def test_each_truth_is_measured_on_its_own_part_of_the_list() -> None:
    total, other = "tests/test_a.py::test_total", "tests/test_a.py::test_other"
    tests = {total, other}
    structural = ["pkg/core.py::report", other, "pkg/core.py::total", total]
    semantic = [total, "pkg/core.py::total", "pkg/core.py::report", other]
    result = evaluate_pair("demo", "1", "2", {"structural": _report(structural, tests),
                                              "semantic": _report(semantic, tests)}, _trace())  # fmt: skip
    assert (result.changed, result.changed_ran, result.impacted, result.problems) == (1, 1, 4, ())
    whole = result.truths["tests"]
    assert whole is not None and (whole.listed, whole.relevant) == (4, 1)
    assert whole.orders["structural"].mrr == 0.25 and whole.orders["semantic"].mrr == 1.0
    assert whole.orders["random"].mrr == pytest.approx((1 + 1 / 2 + 1 / 3 + 1 / 4) / 4)
    assert whole.orders["shuffled ties"].mrr == 0.25  # every score differs: nothing to shuffle
    among_tests = result.truths["test-order"]
    assert among_tests is not None and among_tests.listed == 2 and among_tests.orders["structural"].mrr == 0.5
    callers = result.truths["callers"]
    assert callers is not None and (callers.listed, callers.relevant) == (2, 1)
    assert callers.orders["structural"].mrr == 0.5 and callers.orders["semantic"].mrr == 1.0
    either = result.truths["either"]
    assert either is not None and either.relevant == 2


def test_a_pair_whose_truth_is_not_listed_has_no_score_and_reordering_must_not_drop_items() -> None:
    result = evaluate_pair("demo", "1", "2", {"structural": _report(["pkg/core.py::report"], set()),
                                              "semantic": _report([], set())}, _trace())  # fmt: skip
    assert result.truths["tests"] is None
    assert result.problems == ("the two runs list different impacted sets (1 vs 0)",)
    assert final_line([result]) == "recall@10: structural=n/a semantic=n/a (n=0 pairs)"


def test_impactbot_runs_from_a_snapshot_and_reports_the_caller_of_a_changed_function(tmp_path: Path) -> None:
    source, version = snapshot_analyser(tmp_path / "work")
    assert version == analyser_version(source / "impactbot")
    assert (source / "templates").is_dir()
    repo = pygit2.init_repository(str(tmp_path / "repo"), initial_head="main")
    core = b"def price(x):\n    return x * %d\n"
    caller = b"from pkg.core import price\n\n\ndef total(xs):\n    return sum(price(x) for x in xs)\n"
    files = {"pkg/__init__.py": (b"", False), "pkg/core.py": (core % 2, False), "pkg/cart.py": (caller, False)}
    base = commit_release(repo, "1", files, [])
    repo.references.create("refs/tags/v1", base)
    head = commit_release(repo, "2", {**files, "pkg/core.py": (core % 3, False)}, [base])
    repo.references.create("refs/tags/v2", head)
    out = run_impactbot(tmp_path / "repo", "v1..v2", "structural", tmp_path / "report.json", source)
    report = read_report(out)
    assert report.changed == ((CHANGED, "modified"),)
    assert report.order == ("pkg/cart.py::total",)
    assert report.ranking == "structural"


def test_an_extractor_crash_is_a_problem_but_a_syntax_error_in_the_release_is_not() -> None:
    order = ["pkg/core.py::report"]
    crashed = PairReport((), (), "structural", (("pkg/a.py", "parse-error", "could not extract facts: NameError: x"),))
    broken = PairReport((), (), "structural", (("pkg/b.py", "parse-error", "syntax error at line 3"),))
    fine = _report(order, set())
    with_crash = evaluate_pair("demo", "1", "2", {"structural": fine, "semantic": _merge(fine, crashed)}, _trace())
    assert with_crash.problems == ("impactbot could not read 1 files (first: pkg/a.py)",)
    with_syntax = evaluate_pair("demo", "1", "2", {"structural": fine, "semantic": _merge(fine, broken)}, _trace())
    assert with_syntax.problems == ()


def _merge(report: PairReport, skipped: PairReport) -> PairReport:
    return PairReport(report.changed, report.impacted, report.ranking, skipped.skipped)


def test_the_test_list_is_measured_as_a_selection_of_the_traced_tests() -> None:
    total, other = "tests/test_a.py::test_total", "tests/test_a.py::test_other"
    report = _report([total], {total})
    listed = PairReport(report.changed, report.impacted, report.ranking, tests=(other,))
    result = evaluate_pair("demo", "1", "2", {"structural": listed, "semantic": listed}, _trace())
    # the one affected test (test_total, which ran the change) is not in the list; test_other is
    assert result.selection == Selection(traced=2, affected=1, selected=1, hits=0)
    assert selection_line([result]) == "selection: recall=0.000 precision=0.000 share=0.500 (n=1 pairs)"
    right = PairReport(report.changed, report.impacted, report.ranking, tests=(total,))
    result = evaluate_pair("demo", "1", "2", {"structural": right, "semantic": right}, _trace())
    assert result.selection is not None and result.selection.missed == 0
    assert selection_line([result]) == "selection: recall=1.000 precision=1.000 share=0.500 (n=1 pairs)"


def test_the_selection_table_names_each_pair_and_sums_the_projects() -> None:
    total = "tests/test_a.py::test_total"
    report = _report([total], {total})
    listed = PairReport(report.changed, report.impacted, report.ranking, tests=(total,))
    result = evaluate_pair("demo", "1", "2", {"structural": listed, "semantic": listed}, _trace())
    lines = selection_table([result], ["demo"]).splitlines()
    assert lines[2].split() == ["demo", "1..2", "2", "1", "1", "0", "1.000", "1.000"]
    assert lines[3].split() == ["demo", "2", "1", "1", "0", "1.000", "1.000"]
    assert lines[4].split() == ["overall", "2", "1", "1", "0", "1.000", "1.000"]
