"""The Python call-graph benchmark.

Precision is the promise (a wrong edge looks exactly like a right one), so every
case fails on any false-positive edge; missing edges are measured in aggregate.
The case data is checked too: expected ids exist, and every call that running a
case really makes is among its expected edges.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import oracle
import pygit2
import pytest
import scorer
from scorer import Case, CaseFormatError, CaseResult, compare, format_details, format_table, load_case, score

CASE_DIRS = scorer.discover_cases()
CATEGORIES = (
    "arguments", "assignments", "builtins", "classes", "dead_code", "decorators", "dicts", "direct_calls",
    "dunder", "dynamic_dispatch", "exceptions", "functions_returned", "generators", "imports", "kwargs",
    "lambdas", "lists", "mro", "properties", "returns", "super", "types",
)  # fmt: skip
MIN_PRECISION = 0.98
MIN_RECALL = 0.94
TABLE_PROPERTY = "callgraph_table"  # read back by conftest.py


def _label(case_dir: Path) -> str:
    return f"{case_dir.parent.name}/{case_dir.name}"


class LinkedCases:
    """Each case linked once per session, shared by the per-case and aggregate tests."""

    def __init__(self, workdir: Path) -> None:
        self._workdir = workdir
        self._results: dict[Path, CaseResult] = {}

    def get(self, case_dir: Path) -> CaseResult:
        if case_dir not in self._results:
            self._results[case_dir] = scorer.run_case(case_dir, self._workdir)
        return self._results[case_dir]


@pytest.fixture(scope="session")
def linked(tmp_path_factory: pytest.TempPathFactory) -> LinkedCases:
    return LinkedCases(tmp_path_factory.mktemp("callgraph"))


# ------------------------------------------------------------------ benchmark


@pytest.mark.parametrize("case_dir", CASE_DIRS, ids=_label)
def test_case_has_no_false_positive_edges(case_dir: Path, linked: LinkedCases) -> None:
    result = linked.get(case_dir)
    if result.error is not None:
        pytest.fail(f"{_label(case_dir)}: the graph could not be built: {result.error}", pytrace=False)
    if result.false_positives:
        wrong = "\n".join(f"  {s} -> {t}" for s, t in sorted(result.false_positives))
        pytest.fail(f"{_label(case_dir)}: {result.case.description}\nwrong edges:\n{wrong}", pytrace=False)


def test_overall_precision_and_recall(
    linked: LinkedCases, capsys: pytest.CaptureFixture[str], record_property: Callable[[str, object], None]
) -> None:
    results = [linked.get(d) for d in CASE_DIRS]
    table = score(results)
    text = format_table(table)
    # Under pytest-xdist a worker's output is dropped: conftest.py prints the
    # recorded table in the terminal summary instead.
    record_property(TABLE_PROPERTY, text)
    if "PYTEST_XDIST_WORKER" not in os.environ:
        with capsys.disabled():
            print(f"\n\nPython call-graph benchmark\n{text}")
    overall = table.overall
    assert [f"{r.case.label}: {r.error}" for r in results if r.error][:3] == []
    assert overall.precision is not None and overall.precision >= MIN_PRECISION
    assert overall.recall is not None and overall.recall >= MIN_RECALL


# ------------------------------------------------------------------ case data


def test_every_category_has_cases() -> None:
    counts = {c: sum(d.parent.name == c for d in CASE_DIRS) for c in CATEGORIES}
    assert {c: n for c, n in counts.items() if n < 4} == {}
    assert {d.parent.name for d in CASE_DIRS} == set(CATEGORIES)
    assert len(CASE_DIRS) >= 120


@pytest.mark.parametrize("case_dir", CASE_DIRS, ids=_label)
def test_case_names_only_defined_symbols(case_dir: Path) -> None:
    case = load_case(case_dir)
    defined = oracle.defined_ids(case.files)
    named = {sid for edge in case.edges for sid in edge} | set(case.unresolved)
    assert named - defined == set()
    assert "main.py" in case.files
    # A file pytest would collect (or a conftest) would change the graph's test nodes.
    assert not [p for p in case.files if Path(p).name.startswith(("test_", "conftest"))]


@pytest.mark.parametrize("case_dir", CASE_DIRS, ids=_label)
def test_expected_edges_include_every_runtime_call(case_dir: Path, tmp_path: Path) -> None:
    case = load_case(case_dir)
    runtime = oracle.runtime_edges(case.files, tmp_path)
    assert runtime, "running main.py made no in-repo call"
    assert oracle.unexplained_runtime_edges(runtime, case.edges, case.unresolved) == set()


def test_runtime_exemptions() -> None:
    runtime = {("main.py", "main.py::A::__bool__"), ("main.py::dispatch", "main.py::f"), ("main.py", "main.py::g")}
    unexplained = oracle.unexplained_runtime_edges(runtime, frozenset(), {"main.py::dispatch": 1})
    assert unexplained == {("main.py", "main.py::g")}


def test_runtime_edges_attribute_lambdas_and_skip_class_bodies(tmp_path: Path) -> None:
    files = {
        "main.py": "def f():\n    return 1\n\n\ndef g():\n    return (lambda: f())()\n\n\n"
        "class C:\n    def m(self):\n        return g()\n\n\nC().m()\n"
    }
    assert oracle.runtime_edges(files, tmp_path) == {
        ("main.py", "main.py::C::m"),
        ("main.py::C::m", "main.py::g"),
        ("main.py::g", "main.py::f"),
    }


# --------------------------------------------------------------------- scorer


def write_case(root: Path, edges: list[list[str]], unresolved: Mapping[str, int] | None = None) -> Path:
    case_dir = root / "sample" / "one"
    case_dir.mkdir(parents=True)
    (case_dir / "main.py").write_text("def f():\n    return g()\n\n\ndef g():\n    return 1\n\n\nf()\n")
    expected: dict[str, Any] = {"description": "f calls g", "edges": edges}
    if unresolved is not None:
        expected["unresolved"] = dict(unresolved)
    (case_dir / "expected.json").write_text(json.dumps(expected))
    return case_dir


def graph(*edges: tuple[str, str, str, str], nodes: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "schema": "impactbot/graph@1",
        "nodes": nodes or [],
        "edges": [{"source": s, "target": t, "kind": k, "confidence": c} for s, t, k, c in edges],
    }


@pytest.fixture
def sample(tmp_path: Path) -> Case:
    edges = [["main.py", "main.py::f"], ["main.py::f", "main.py::g"]]
    return load_case(write_case(tmp_path, edges, {"main.py::f": 1}))


def test_compare_splits_true_false_and_missing_edges(sample: Case) -> None:
    result = compare(
        sample,
        graph(
            ("main.py", "main.py::f", "calls", "resolved"),
            ("main.py::f", "main.py::f", "calls", "inferred"),
        ),
    )
    assert result.true_positives == {("main.py", "main.py::f")}
    assert result.false_positives == {("main.py::f", "main.py::f")}
    assert result.false_negatives == {("main.py::f", "main.py::g")}


def test_compare_reports_name_matches_apart_and_ignores_other_kinds(sample: Case) -> None:
    result = compare(
        sample,
        graph(
            ("main.py", "main.py::f", "calls", "name_match"),
            ("main.py::f", "main.py::g", "inherits", "resolved"),
            ("main.py::f", "main.py::g", "calls", "name_match"),
            ("main.py::f", "main.py::g", "calls", "inferred"),
        ),
    )
    assert result.predicted == {("main.py::f", "main.py::g")}
    assert result.name_match == {("main.py", "main.py::f")}


def test_compare_checks_unresolved_counts_of_listed_symbols(sample: Case) -> None:
    nodes = [{"id": "main.py::f", "unresolved": 2}, {"id": "main.py::g", "unresolved": 1}, {"id": "main.py"}]
    result = compare(sample, graph(nodes=nodes))
    assert result.unresolved == {"main.py::f": 2, "main.py::g": 1}
    assert result.unresolved_mismatches == {"main.py::f": (1, 2)}
    assert compare(sample, graph(nodes=[{"id": "main.py::f", "unresolved": 1}])).unresolved_mismatches == {}


def test_compare_reads_the_top_level_unresolved_list(sample: Case) -> None:
    document = graph() | {"unresolved": [{"id": "main.py::f", "calls": 1}, {"id": "main.py", "calls": 3}]}
    result = compare(sample, document)
    assert result.unresolved == {"main.py::f": 1, "main.py": 3}
    assert result.unresolved_mismatches == {}


def test_score_counts_per_category_and_overall(tmp_path: Path, sample: Case) -> None:
    other = Case(
        category="other",
        name="two",
        path=tmp_path,
        description="x",
        files={},
        edges=frozenset({("a.py", "a.py::x")}),
        unresolved={},
    )
    results = [
        compare(
            sample,
            graph(("main.py", "main.py::f", "calls", "resolved"), ("main.py", "main.py::g", "calls", "resolved")),
        ),
        compare(other, graph()),
    ]
    table = score(results)
    assert [row.category for row in table.rows] == ["other", "sample"]
    sample_row = table.rows[1]
    assert (sample_row.expected, sample_row.tp, sample_row.fp, sample_row.fn) == (2, 1, 1, 1)
    assert sample_row.precision == 0.5 and sample_row.recall == 0.5
    assert (sample_row.unresolved_ok, sample_row.unresolved_listed) == (0, 1)
    assert table.rows[0].precision is None and table.rows[0].recall == 0.0
    overall = table.overall
    assert (overall.cases, overall.expected, overall.tp, overall.fp, overall.fn) == (2, 3, 1, 1, 2)
    assert overall.recall == pytest.approx(1 / 3)


def test_format_table_and_details(sample: Case) -> None:
    result = compare(sample, graph(("main.py", "main.py::g", "calls", "resolved")))
    lines = format_table(score([result])).splitlines()
    assert lines[0].split() == [
        "category", "cases", "edges", "TP", "FP", "FN", "precision", "recall", "name_match", "unresolved", "errors",
    ]  # fmt: skip
    assert lines[2].split() == ["sample", "1", "2", "0", "1", "2", "0.000", "0.000", "0", "0/1", "0"]
    assert lines[-1].split()[0] == "overall"
    details = format_details([result])
    assert "FP main.py -> main.py::g" in details
    assert "FN main.py::f -> main.py::g" in details
    assert "unresolved main.py::f: expected 1, found 0" in details
    perfect = compare(
        sample,
        graph(("main.py", "main.py::f", "calls", "resolved"), ("main.py::f", "main.py::g", "calls", "resolved"),
              nodes=[{"id": "main.py::f", "unresolved": 1}]),
    )  # fmt: skip
    assert format_details([perfect]) == ""


@pytest.mark.parametrize(
    ("expected", "message"),
    [
        ("{not json", "is not valid JSON"),
        ('{"edges": []}', "'description' must be one non-empty line"),
        ('{"description": "d", "edges": [["a"]]}', "is not a [source, target] pair"),
        ('{"description": "d", "edges": [["a", "b"], ["a", "b"]]}', "lists the same edge twice"),
        ('{"description": "d", "edges": [], "unresolved": {"a": 0}}', "'unresolved' must map symbol ids"),
    ],
)
def test_load_case_rejects_malformed_expectations(tmp_path: Path, expected: str, message: str) -> None:
    case_dir = write_case(tmp_path, [])
    (case_dir / "expected.json").write_text(expected)
    with pytest.raises(CaseFormatError, match=re.escape(message)) as caught:
        load_case(case_dir)
    assert "\n" not in str(caught.value)


def test_load_case_without_expectations(tmp_path: Path) -> None:
    with pytest.raises(CaseFormatError, match=re.escape("has no expected.json")):
        load_case(tmp_path)


def test_build_repo_commits_the_sources(tmp_path: Path) -> None:
    files = {"main.py": "import pkg.mod\n", "pkg/__init__.py": "", "pkg/mod.py": "X = 1\n"}
    sha = scorer.build_repo(files, tmp_path / "repo")
    commit = pygit2.Repository(str(tmp_path / "repo")).revparse_single("HEAD")
    assert str(commit.id) == sha
    tree = commit.peel(pygit2.Tree)
    assert sorted(e.name for e in tree) == ["main.py", "pkg"]
    assert (tree / "pkg" / "mod.py").data == b"X = 1\n"


def test_run_case_links_the_committed_revision(tmp_path: Path) -> None:
    case_dir = write_case(tmp_path / "cases", [["main.py", "main.py::f"], ["main.py::f", "main.py::g"]])

    def committed_calls(root: Path, rev: str) -> dict[str, Any]:
        # A stand-in linker that reads the committed main.py: it sees the module-level f().
        source = pygit2.Repository(str(root)).revparse_single(rev).peel(pygit2.Tree) / "main.py"
        text = source.data.decode()
        found = [("main.py", "main.py::f")] if "\nf()" in text else []
        return graph(*[(s, t, "calls", "resolved") for s, t in found])

    result = scorer.run_case(case_dir, tmp_path / "work", committed_calls)
    assert result.error is None
    assert result.true_positives == {("main.py", "main.py::f")}
    assert result.false_negatives == {("main.py::f", "main.py::g")}


def test_run_case_reports_a_linker_crash_as_a_result(tmp_path: Path) -> None:
    case_dir = write_case(tmp_path / "cases", [["main.py", "main.py::f"]])

    def broken(root: Path, rev: str) -> dict[str, Any]:
        raise ValueError("cannot link\nsecond line")

    result = scorer.run_case(case_dir, None, broken)
    assert result.error == "ValueError: cannot link"
    assert result.false_negatives == {("main.py", "main.py::f")}


def test_main_rejects_an_unknown_category(capsys: pytest.CaptureFixture[str]) -> None:
    assert scorer.main(["--category", "no-such-category"]) == 2
    assert capsys.readouterr().err == "error: no callgraph case matches.\n"
