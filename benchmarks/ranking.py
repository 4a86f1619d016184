"""Does semantic ranking put the really affected symbols nearer the top? See benchmarks/README.md.

Real history: consecutive PyPI releases of a few pure-Python projects, one git
commit each. For every consecutive pair, impactbot reports the impacted symbols
twice (structural order, semantic order); the head release's own tests, run
under a tracer, say which of them really executed the changed code. The run
prints per-pair and per-project tables, how well the report's test list
selects the tests that ran the change (``selection: recall=... precision=...``),
and ends with ``recall@10: structural=X semantic=Y (n=N pairs)``.

Exit codes: 0 measured, 1 some project or pair could not be measured or
looked wrong (the tables still show the rest; ``problem:`` lines say what),
2 bad options or an unusable work directory, 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ranking_support import history, tables, traces
from ranking_support.evaluate import TRUTHS, PairResult, evaluate_pair
from ranking_support.impact_runs import ORDERS, ImpactRunError, Order, read_report, run_impactbot, snapshot_analyser
from ranking_support.projects import PROJECTS, Project

DEFAULT_WORK = Path("/tmp/impactbot-ranking")
T = TypeVar("T")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="ranking.py",
        description="Measure impactbot's structural and semantic orders against traced tests of real releases.",
    )
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK, help="downloads, repositories, traces, reports")
    parser.add_argument(
        "--project", dest="projects", action="append", choices=sorted(PROJECTS),
        help="measure only this project (repeatable; default: all)",
    )  # fmt: skip
    parser.add_argument("--jobs", type=_positive, default=2, help="child processes at once (default 2)")
    return parser.parse_args(argv)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


@dataclass(frozen=True, slots=True)
class Prepared:
    """A project ready to measure: its history repository and test environment."""

    project: Project
    repo: Path
    python: Path


class Workspace:
    """Where the benchmark keeps what it downloads, builds, traces and reports."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.source, self.analyser = snapshot_analyser(root)
        self.tracer = traces.tracer_version()

    def prepare(self, project: Project) -> Prepared:
        started = time.monotonic()
        repo = history.build_history(project, self.root / "downloads", self.root / "repos")
        python = traces.ensure_test_environment(project, self.root / "venvs")
        log(f"[{project.name}] {len(project.versions)} releases ready ({time.monotonic() - started:.0f} s)")
        return Prepared(project, Path(repo.workdir), python)

    def trace(self, prepared: Prepared, version: str) -> traces.Trace:
        name = prepared.project.name
        out = self.root / "traces" / f"{name}-{version}-{self.tracer}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        if not out.exists():
            repo = history.open_repository(prepared.repo)
            tree = history.export_tree(repo, version, self.root / "trees" / name / version)
            traces.trace_tests(prepared.project, prepared.python, tree, out)
            log(f"[{name}] traced the tests of {version} ({time.monotonic() - started:.0f} s)")
        trace = traces.load_trace(out)
        if not trace.outcomes().get("passed"):
            raise traces.TraceError(f"no test of {name} {version} passed here: {trace.outcomes() or 'none ran'}")
        return trace

    def report(self, prepared: Prepared, base: str, head: str, order: Order) -> Path:
        name = prepared.project.name
        out = self.root / "reports" / self.analyser / f"{name}-{base}-{head}-{order}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        if not out.exists():
            started = time.monotonic()
            run_impactbot(prepared.repo, f"{history.tag(base)}..{history.tag(head)}", order, out, self.source)
            log(f"[{name}] impactbot {base}..{head} {order} ({time.monotonic() - started:.0f} s)")
        return out


def _outcome(future: Future[T], what: str, problems: list[str]) -> T | None:
    try:
        return future.result()
    except (history.HistoryError, traces.TraceError, ImpactRunError) as exc:
        reason = str(exc)
    except Exception as exc:  # one pair failing must not hide the others' numbers
        reason = f"{type(exc).__name__}: {exc}"
    problems.append(f"{what}: {reason}")
    log(f"{what}: {reason}")
    return None


def measure(workspace: Workspace, projects: Sequence[Project], jobs: int, problems: list[str]) -> list[PairResult]:
    """Run everything the pairs need, ``jobs`` children at a time, and evaluate each pair."""
    with ThreadPoolExecutor(jobs) as pool:
        ready = [(p, pool.submit(workspace.prepare, p)) for p in projects]
        prepared = [x for p, f in ready if (x := _outcome(f, p.name, problems)) is not None]
        trace_jobs = {
            (x.project.name, head): pool.submit(workspace.trace, x, head)
            for x in prepared
            for _, head in x.project.pairs
        }
        report_jobs = {
            (x.project.name, base, head, order): pool.submit(workspace.report, x, base, head, order)
            for x in prepared
            for base, head in x.project.pairs
            for order in ORDERS
        }
        results = []
        for x in prepared:
            for base, head in x.project.pairs:
                what = f"{x.project.name} {base}..{head}"
                trace = _outcome(trace_jobs[(x.project.name, head)], what, problems)
                paths = {o: _outcome(report_jobs[(x.project.name, base, head, o)], what, problems) for o in ORDERS}
                if trace is None or any(p is None for p in paths.values()):
                    continue
                reports = {o: read_report(p) for o, p in paths.items() if p is not None}
                result = evaluate_pair(x.project.name, base, head, reports, trace)
                problems.extend(f"{what}: {p}" for p in result.problems)
                results.append(result)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_args(argv)
    projects = [PROJECTS[n] for n in (options.projects or PROJECTS)]
    problems: list[str] = []
    started = time.monotonic()
    try:
        options.work.mkdir(parents=True, exist_ok=True)
        workspace = Workspace(options.work)
    except OSError as exc:
        print(f"ranking.py: cannot use the work directory {options.work}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        results = measure(workspace, projects, options.jobs, problems)
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    for truth in TRUTHS:
        print(tables.pair_table(results, truth) + "\n")
    for truth in TRUTHS:
        print(tables.summary_table(results, [p.name for p in projects], truth) + "\n")
    print(tables.selection_table(results, [p.name for p in projects]) + "\n")
    for problem in problems:
        print(f"problem: {problem}")
    print(f"impactbot source {workspace.analyser}, tracer {workspace.tracer}, {time.monotonic() - started:.0f} s")
    print(tables.selection_line(results))
    print(tables.final_line(results))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
