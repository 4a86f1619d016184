"""Score impactbot's Python call resolution against the hand-written cases.

A case is a directory ``cases/<category>/<case>/`` holding a small program and an
``expected.json`` with its exact call edges::

    {"description": "one line: what the case checks",
     "edges": [["main.py", "main.py::func"], ["main.py::func", "pkg/mod.py::Cls::meth"]],
     "unresolved": {"main.py::dispatch": 1}}

Each case is committed into a fresh git repository and linked by
``graph_json`` below (the pipeline of ``impactbot graph``). Only ``calls`` edges count; an edge is a
prediction when its confidence is ``resolved`` or ``inferred``. ``name_match``
edges are reported apart, never counted as predictions. ``unresolved`` is checked
for the symbols the case lists (from the nodes' optional ``"unresolved": N``, or
the document's ``"unresolved": [{"id": ..., "calls": N}]``).

``benchmarks/callgraph.py`` (``make callgraph``) prints the table; with
``--verbose`` it also lists the wrong and missing edges of every case.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from helpers.gitrepo import RepoBuilder

from impactbot.errors import AnalysisError, UsageError

CASES_DIR = Path(__file__).resolve().parent / "cases"
EXPECTED_FILE = "expected.json"
PREDICTED_CONFIDENCES = frozenset({"resolved", "inferred"})

Edge = tuple[str, str]
GraphBuilder = Callable[[Path, str], Mapping[str, Any]]


class CaseFormatError(UsageError):
    """A case directory or its ``expected.json`` is malformed."""


# ------------------------------------------------------------------------ cases


@dataclass(frozen=True)
class Case:
    """One benchmark program and the call edges Python semantics give it."""

    category: str
    name: str
    path: Path
    description: str
    files: Mapping[str, str]
    edges: frozenset[Edge]
    unresolved: Mapping[str, int]

    @property
    def label(self) -> str:
        return f"{self.category}/{self.name}"


def discover_cases(root: Path = CASES_DIR) -> list[Path]:
    """Every case directory under ``root`` (those holding an ``expected.json``), sorted."""
    return sorted(p.parent for p in root.glob(f"*/*/{EXPECTED_FILE}"))


def load_case(case_dir: Path) -> Case:
    """Read a case: its source files and its ``expected.json``."""
    expected_path = case_dir / EXPECTED_FILE
    try:
        raw = json.loads(expected_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CaseFormatError(f"{case_dir} has no {EXPECTED_FILE}.") from None
    except json.JSONDecodeError as exc:
        raise CaseFormatError(f"{expected_path} is not valid JSON: {exc}.") from None
    if not isinstance(raw, dict):
        raise CaseFormatError(f"{expected_path} must hold a JSON object.")
    return Case(
        category=case_dir.parent.name,
        name=case_dir.name,
        path=case_dir,
        description=_description(raw, expected_path),
        files=_source_files(case_dir),
        edges=_edges(raw, expected_path),
        unresolved=_unresolved(raw, expected_path),
    )


def _description(raw: Mapping[str, Any], where: Path) -> str:
    text = raw.get("description")
    if not isinstance(text, str) or not text.strip() or "\n" in text:
        raise CaseFormatError(f"{where}: 'description' must be one non-empty line.")
    return text


def _edges(raw: Mapping[str, Any], where: Path) -> frozenset[Edge]:
    edges = raw.get("edges")
    if not isinstance(edges, list):
        raise CaseFormatError(f"{where}: 'edges' must be a list of [source, target] pairs.")
    pairs: set[Edge] = set()
    for item in edges:
        if not (isinstance(item, list) and len(item) == 2 and all(isinstance(s, str) for s in item)):
            raise CaseFormatError(f"{where}: edge {item!r} is not a [source, target] pair.")
        pairs.add((item[0], item[1]))
    if len(pairs) != len(edges):
        raise CaseFormatError(f"{where}: 'edges' lists the same edge twice.")
    return frozenset(pairs)


def _unresolved(raw: Mapping[str, Any], where: Path) -> dict[str, int]:
    counts = raw.get("unresolved", {})
    if not isinstance(counts, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and v > 0 for k, v in counts.items()
    ):
        raise CaseFormatError(f"{where}: 'unresolved' must map symbol ids to positive counts.")
    return dict(counts)


def _source_files(case_dir: Path) -> dict[str, str]:
    files = {
        p.relative_to(case_dir).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(case_dir.rglob("*.py"))
        if "__pycache__" not in p.parts
    }
    if not files:
        raise CaseFormatError(f"{case_dir} holds no Python source file.")
    return files


# ------------------------------------------------------------------- comparison


@dataclass(frozen=True)
class CaseResult:
    """What the linker produced for one case, next to what the case expects."""

    case: Case
    predicted: frozenset[Edge]
    name_match: frozenset[Edge] = frozenset()
    unresolved: Mapping[str, int] = field(default_factory=dict)  # symbol id -> count in graph
    error: str | None = None  # the graph could not be built

    @property
    def true_positives(self) -> frozenset[Edge]:
        return self.predicted & self.case.edges

    @property
    def false_positives(self) -> frozenset[Edge]:
        return self.predicted - self.case.edges

    @property
    def false_negatives(self) -> frozenset[Edge]:
        return self.case.edges - self.predicted

    @property
    def unresolved_mismatches(self) -> dict[str, tuple[int, int]]:
        """Listed symbols whose count differs: id -> (expected, found)."""
        return {
            sid: (want, self.unresolved.get(sid, 0))
            for sid, want in self.case.unresolved.items()
            if self.unresolved.get(sid, 0) != want
        }


def compare(case: Case, graph: Mapping[str, Any]) -> CaseResult:
    """Compare an ``impactbot/graph@1`` document with the case's expected edges."""
    best: dict[Edge, str] = {}
    for edge in graph.get("edges", ()):
        if edge.get("kind") != "calls":
            continue
        pair = (edge["source"], edge["target"])
        confidence = edge.get("confidence", "name_match")
        if pair not in best or confidence in PREDICTED_CONFIDENCES:
            best[pair] = confidence
    return CaseResult(
        case=case,
        predicted=frozenset(p for p, c in best.items() if c in PREDICTED_CONFIDENCES),
        name_match=frozenset(p for p, c in best.items() if c not in PREDICTED_CONFIDENCES),
        unresolved=_unresolved_counts(graph),
    )


def _unresolved_counts(graph: Mapping[str, Any]) -> dict[str, int]:
    # Two shapes are read: the node field ``"unresolved": N`` and a top-level list
    # ``"unresolved": [{"id": ..., "calls": N}]``.
    counts = {node["id"]: int(node["unresolved"]) for node in graph.get("nodes", ()) if node.get("unresolved")}
    for entry in graph.get("unresolved", ()):
        if entry.get("calls"):
            counts[entry["id"]] = int(entry["calls"])
    return counts


# ---------------------------------------------------------------------- running


def build_repo(files: Mapping[str, str], root: Path) -> str:
    """Commit ``files`` into a new git repository at ``root``; returns the commit sha."""
    return RepoBuilder.init(root).commit(dict(files), "callgraph case")


def graph_json(root: Path, rev: str = "HEAD") -> dict[str, Any]:
    """The ``impactbot/graph@1`` document of a revision, as ``impactbot graph`` builds it."""
    from impactbot.cache import Cache
    from impactbot.config import Settings
    from impactbot.git import GitRepository
    from impactbot.pipeline import build_graph
    from impactbot.report import graph_to_json

    repo = GitRepository.discover(root)
    revision = repo.revision(rev)
    graph = build_graph(revision, Settings(), repo=repo, cache=Cache.open(None))
    return graph_to_json(graph, revision.commit)


def pipeline_graph_builder() -> GraphBuilder:
    """The graph builder of the real pipeline."""
    return graph_json


def run_case(case_dir: Path, workdir: Path | None = None, build_graph: GraphBuilder | None = None) -> CaseResult:
    """Commit the case into a fresh repository, link it, and compare the graph."""
    case = load_case(case_dir)
    builder = build_graph or pipeline_graph_builder()
    if workdir is not None:
        return _run_in(case, workdir / f"{case.category}-{case.name}", builder)
    with tempfile.TemporaryDirectory(prefix="callgraph-") as tmp:
        return _run_in(case, Path(tmp) / "repo", builder)


def _run_in(case: Case, root: Path, build_graph: GraphBuilder) -> CaseResult:
    build_repo(case.files, root)
    try:
        graph = build_graph(root, "HEAD")
    except Exception as exc:  # a crash on one case is a result to report, not the end of the run
        message = str(exc).splitlines()[0] if str(exc) else ""
        return CaseResult(case=case, predicted=frozenset(), error=f"{type(exc).__name__}: {message}")
    return compare(case, graph)


def run_cases(case_dirs: Iterable[Path], build_graph: GraphBuilder | None = None) -> list[CaseResult]:
    """Run every case in its own temporary repository."""
    builder = build_graph or pipeline_graph_builder()
    with tempfile.TemporaryDirectory(prefix="callgraph-") as tmp:
        return [run_case(d, Path(tmp), builder) for d in case_dirs]


# ---------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class ScoreRow:
    """Counts for one category (or ``overall``)."""

    category: str
    cases: int
    expected: int
    tp: int
    fp: int
    fn: int
    name_match: int
    unresolved_ok: int
    unresolved_listed: int
    errors: int

    @property
    def precision(self) -> float | None:
        predicted = self.tp + self.fp
        return self.tp / predicted if predicted else None

    @property
    def recall(self) -> float | None:
        return self.tp / self.expected if self.expected else None


@dataclass(frozen=True)
class ScoreTable:
    rows: tuple[ScoreRow, ...]
    overall: ScoreRow


def score(results: Sequence[CaseResult]) -> ScoreTable:
    """Precision and recall per category and overall."""
    by_category: dict[str, list[CaseResult]] = {}
    for result in results:
        by_category.setdefault(result.case.category, []).append(result)
    rows = tuple(_row(name, group) for name, group in sorted(by_category.items()))
    return ScoreTable(rows=rows, overall=_row("overall", results))


def _row(category: str, results: Sequence[CaseResult]) -> ScoreRow:
    return ScoreRow(
        category=category,
        cases=len(results),
        expected=sum(len(r.case.edges) for r in results),
        tp=sum(len(r.true_positives) for r in results),
        fp=sum(len(r.false_positives) for r in results),
        fn=sum(len(r.false_negatives) for r in results),
        name_match=sum(len(r.name_match) for r in results),
        unresolved_ok=sum(len(r.case.unresolved) - len(r.unresolved_mismatches) for r in results),
        unresolved_listed=sum(len(r.case.unresolved) for r in results),
        errors=sum(r.error is not None for r in results),
    )


_COLUMNS = (
    ("category", 18), ("cases", 5), ("edges", 5), ("TP", 5), ("FP", 4), ("FN", 4),
    ("precision", 9), ("recall", 6), ("name_match", 10), ("unresolved", 10), ("errors", 6),
)  # fmt: skip


def format_table(table: ScoreTable) -> str:
    """A fixed-width text table: one line per category, then the overall line."""
    header = _line([name for name, _ in _COLUMNS])
    rule = "-" * len(header)
    body = [_line(_cells(row)) for row in table.rows]
    return "\n".join([header, rule, *body, rule, _line(_cells(table.overall))])


def _cells(row: ScoreRow) -> list[str]:
    return [
        row.category, str(row.cases), str(row.expected), str(row.tp), str(row.fp), str(row.fn),
        _ratio(row.precision), _ratio(row.recall), str(row.name_match),
        f"{row.unresolved_ok}/{row.unresolved_listed}", str(row.errors),
    ]  # fmt: skip


def _line(cells: Sequence[str]) -> str:
    widths = [width for _, width in _COLUMNS]
    numbers = (cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
    return " ".join([cells[0].ljust(widths[0]), *numbers])


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def format_details(results: Sequence[CaseResult]) -> str:
    """Per case with a difference: its wrong, missing and name-matched edges."""
    blocks = [_details(r) for r in results]
    return "\n".join(b for b in blocks if b)


def _details(result: CaseResult) -> str:
    lines = []
    if result.error:
        lines.append(f"  error: {result.error}")
    lines += [f"  FP {s} -> {t}" for s, t in sorted(result.false_positives)]
    lines += [f"  FN {s} -> {t}" for s, t in sorted(result.false_negatives)]
    lines += [f"  name_match {s} -> {t}" for s, t in sorted(result.name_match)]
    lines += [
        f"  unresolved {sid}: expected {want}, found {got}"
        for sid, (want, got) in sorted(result.unresolved_mismatches.items())
    ]
    if not lines:
        return ""
    return "\n".join([f"{result.case.label}: {result.case.description}", *lines])


# -------------------------------------------------------------------------- cli


def main(argv: Sequence[str] | None = None) -> int:
    """Print the score table (and, with ``--verbose``, the differing edges per case)."""
    parser = argparse.ArgumentParser(description="Score impactbot's Python call graph.")
    parser.add_argument("--verbose", action="store_true", help="list FP/FN edges per case")
    parser.add_argument("--category", action="append", help="only these categories")
    args = parser.parse_args(argv)
    case_dirs = [d for d in discover_cases() if not args.category or d.parent.name in args.category]
    if not case_dirs:
        print("error: no callgraph case matches.", file=sys.stderr)
        return 2
    try:
        results = run_cases(case_dirs)
    except (UsageError, AnalysisError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    if args.verbose:
        details = format_details(results)
        print(details + "\n" if details else "No differences.\n")
    print(format_table(score(results)))
    return 0
