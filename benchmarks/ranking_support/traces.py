"""Ground truth: run a release's own tests under the tracer and read what each test ran.

Each project gets its own virtual environment under ``<work>/venvs`` with its
test requirements from PyPI (never the project itself: the release's source
tree comes first on ``PYTHONPATH``). A trace is written once per release and
tracer version and reused on later runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .projects import Project

BENCHMARKS_DIR = Path(__file__).resolve().parents[1]
PLUGIN_FILE = Path(__file__).resolve().with_name("tracer_plugin.py")
INSTALL_TIMEOUT_SECONDS = 600
TEST_TIMEOUT_SECONDS = 900
TEST_BUDGET_SECONDS = 20.0  # per test, under the profiler; see tracer_plugin


class TraceError(Exception):
    """The tests of a release could not be run or traced."""


@dataclass(frozen=True, slots=True)
class TracedTest:
    nodeid: str
    aliases: frozenset[str]  # the ids impactbot may list this test under
    executed: frozenset[str]
    outcome: str
    truncated: bool = False  # outran the tracing budget: ``executed`` is a lower bound


@dataclass(frozen=True, slots=True)
class Trace:
    """What the tests of one release executed."""

    tests: tuple[TracedTest, ...]
    callers: Mapping[str, frozenset[str]]  # symbol -> symbols that were on the stack when it ran

    @property
    def test_ids(self) -> frozenset[str]:
        return frozenset(a for t in self.tests for a in t.aliases)

    def outcomes(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for test in self.tests:
            counts[test.outcome] = counts.get(test.outcome, 0) + 1
        return counts

    def affected_tests(self, changed: Iterable[str]) -> frozenset[str]:
        """Ids of the tests that executed any of ``changed``."""
        targets = frozenset(changed)
        return frozenset(a for t in self.tests if t.executed & targets for a in t.aliases)

    def unknown_tests(self, changed: Iterable[str]) -> frozenset[str]:
        """Ids of truncated tests not known to be affected: their truth is unknown."""
        cut = frozenset(a for t in self.tests if t.truncated for a in t.aliases)
        return cut - self.affected_tests(changed)

    def reaching_callers(self, changed: Iterable[str]) -> frozenset[str]:
        """Symbols that were on the call stack while one of ``changed`` ran."""
        found: set[str] = set()
        for symbol in changed:
            found |= self.callers.get(symbol, frozenset())
        return frozenset(found)


def load_trace(path: Path) -> Trace:
    """Read a trace written by the tracer plugin."""
    data = json.loads(path.read_text())
    symbols: list[str] = data["symbols"]
    tests = tuple(
        TracedTest(
            nodeid=t["nodeid"],
            aliases=frozenset(t["aliases"]),
            executed=frozenset(symbols[i] for i in t["executed"]),
            outcome=t["outcome"],
            truncated=t.get("truncated", False),
        )
        for t in data["tests"]
    )
    callers: dict[str, set[str]] = {}
    for caller, callee in data["reaches"]:
        callers.setdefault(symbols[callee], set()).add(symbols[caller])
    return Trace(tests, {k: frozenset(v) for k, v in callers.items()})


def tracer_version() -> str:
    """Changes whenever the plugin does, so stale traces are not reused."""
    return hashlib.sha256(PLUGIN_FILE.read_bytes()).hexdigest()[:12]


def ensure_test_environment(project: Project, venvs: Path) -> Path:
    """The python of a virtual environment with ``project``'s test requirements."""
    directory = venvs / project.name
    python = directory / "bin" / "python"
    ready = directory / "ready.txt"
    wanted = "\n".join(project.test_requirements) + "\n"
    if ready.exists() and ready.read_text() == wanted and python.exists():
        return python
    _run([sys.executable, "-m", "venv", "--clear", str(directory)], f"creating the test environment of {project.name}")
    _run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *project.test_requirements],
        f"installing {', '.join(project.test_requirements)} for {project.name}",
    )
    ready.write_text(wanted)
    return python


def _run(argv: list[str], what: str) -> None:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_SECONDS, check=False)
    except subprocess.TimeoutExpired as exc:
        raise TraceError(f"{what} timed out") from exc
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        raise TraceError(f"{what} failed: {last}")


def source_root(tree: Path) -> Path:
    """Where the package is imported from: ``src/`` for a src layout, else the tree."""
    return tree / "src" if (tree / "src").is_dir() else tree


def trace_tests(
    project: Project, python: Path, tree: Path, out: Path, budget: float = TEST_BUDGET_SECONDS
) -> Path:
    """Run the tests of ``tree`` under the tracer once; return the trace file."""
    if out.exists():
        return out
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    # The release's own source comes first; the plugin's package directory last,
    # so it can shadow nothing the tests import.
    env["PYTHONPATH"] = os.pathsep.join([str(source_root(tree)), str(BENCHMARKS_DIR)])
    env["RANKING_TRACE_ROOT"] = str(tree)
    env["RANKING_TRACE_OUT"] = str(out)
    env["RANKING_TRACE_BUDGET"] = str(budget)
    argv = [
        str(python), "-m", "pytest", "-q", "-p", "ranking_support.tracer_plugin",
        "-p", "no:cacheprovider", "-p", "no:warnings", "-o", "addopts=",
        "--rootdir", str(tree), "--continue-on-collection-errors", *project.tests,
    ]  # fmt: skip
    try:
        done = subprocess.run(
            argv, cwd=tree, env=env, capture_output=True, text=True, timeout=TEST_TIMEOUT_SECONDS, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise TraceError(f"the tests of {tree.name} ran longer than {TEST_TIMEOUT_SECONDS} s") from exc
    if not out.exists():
        last = (done.stdout.strip().splitlines() or done.stderr.strip().splitlines() or ["no output"])[-1]
        raise TraceError(f"the tests of {project.name} {tree.name} wrote no trace (exit {done.returncode}: {last})")
    return out
