"""impactbot's call edges against the calls real projects make when their tests run.

Downloads each project's source distribution (its library and its tests), runs its
test suite under ``sys.setprofile`` and records every call from one of the
project's functions to another (``src/click/core.py::Context::invoke ->
tests/test_basic.py::test_basic_group::cli``), then links the same files with
impactbot and counts how many of those calls the graph has: as a ``resolved`` or
``inferred`` edge, or through dispatch (the callee overrides a method the graph
has the caller call: the impact walk follows ``overrides`` edges there). Calls a
test run does not make are not known, so only recall is measured, not precision.

How a call is attributed, as the call-graph suite's conventions have it: a
lambda's or comprehension's calls are the enclosing function's; a call from
outside the project (pytest calling a test, ``map`` calling a callback) is
skipped, so a function handed to a library function is not counted as called by
the code handing it; class bodies running (a class statement) are not calls.
What stays unavoidably apart: a generator's body runs when it is iterated, so
the runtime caller is whoever iterates it, where the graph names whoever called
the generator function.

    python benchmarks/runtime_calls.py [--work DIR] [--missed] [PROJECT ...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from impactbot.extract import extract  # noqa: E402
from impactbot.link import link  # noqa: E402
from impactbot.model import LinkedGraph  # noqa: E402

# project -> (version, test directory, source directories put on sys.path); each
# runs its tests with what impactbot's own environment has installed
PROJECTS = {
    "click": ("8.1.7", "tests", ("src",)),
    "jinja2": ("3.1.0", "tests", ("src",)),
}
Edge = tuple[str, str]

# A pytest plugin recording (caller, callee) symbol ids of calls between the
# project's own functions, written next to the unpacked project.
TRACER = '''
import json, os, sys, threading

ROOT = os.environ["IMPACTBOT_TRACE_ROOT"].rstrip("/") + "/"
OUT = os.environ["IMPACTBOT_TRACE_OUT"]
_edges = set()
_ids = {}


def _ident(code):
    found = _ids.get(code)
    if found is None:
        path = code.co_filename
        if not path.startswith(ROOT):
            found = ""
        elif code.co_name == "<module>":
            found = path[len(ROOT):]
        else:
            parts = [p for p in code.co_qualname.split(".") if p != "<locals>"]
            anonymous = any(p.startswith("<") for p in parts)
            found = "<anon>" if anonymous else path[len(ROOT):] + "::" + "::".join(parts)
        _ids[code] = found
    return found


def _caller(frame):
    while frame is not None:
        found = _ident(frame.f_code)
        if found != "<anon>":
            return found or None
        frame = frame.f_back
    return None


def _profile(frame, event, arg):
    if event != "call":
        return
    callee = _ident(frame.f_code)
    if callee and callee != "<anon>" and frame.f_back is not None:
        caller = _caller(frame.f_back)
        if caller:
            _edges.add((caller, callee))


def pytest_configure(config):
    sys.setprofile(_profile)
    threading.setprofile(_profile)


def pytest_unconfigure(config):
    sys.setprofile(None)
    with open(OUT, "w") as out:
        json.dump(sorted(_edges), out)
'''


@dataclass(frozen=True)
class Outcome:
    project: str
    runtime: int
    found: int
    through_overrides: int
    missed: tuple[Edge, ...]

    @property
    def recall(self) -> float:
        return (self.found + self.through_overrides) / self.runtime if self.runtime else 1.0


def unpacked(project: str, work: Path) -> Path:
    """The project's sdist, downloaded and unpacked once under ``work``."""
    version = PROJECTS[project][0]
    downloads = work / "sdist" / f"{project}-{version}"
    if not downloads.exists() or not any(downloads.iterdir()):
        downloads.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-q",
             "-d", str(downloads), f"{project}=={version}"],
            check=True,
        )  # fmt: skip
    archive = next(downloads.iterdir())
    with tarfile.open(archive) as tar:
        top = tar.getnames()[0].split("/", 1)[0]
        target = work / top
        if not target.exists():
            tar.extractall(work, filter="data")
    return target


def runtime_calls(project: str, root: Path, work: Path) -> set[Edge]:
    """Run the project's tests under the tracer; the calls between its functions."""
    _version, tests, sources = PROJECTS[project]
    plugin_dir = work / "tracer"
    plugin_dir.mkdir(exist_ok=True)
    (plugin_dir / "impactbot_tracer.py").write_text(TRACER)
    out = work / f"{project}-calls.json"
    path = os.pathsep.join([*(str(root / s) for s in sources), str(plugin_dir)])
    env = {**os.environ, "PYTHONPATH": path, "IMPACTBOT_TRACE_ROOT": str(root), "IMPACTBOT_TRACE_OUT": str(out)}
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "impactbot_tracer", "-p", "no:cacheprovider",
         "-W", "ignore", tests],
        cwd=root, env=env, check=False, capture_output=True,
    )  # fmt: skip
    if not out.exists():
        raise RuntimeError(f"{project}: the test run wrote no calls")
    return {(a, b) for a, b in json.loads(out.read_text())}


def measure(project: str, work: Path) -> Outcome:
    root = unpacked(project, work)
    calls = runtime_calls(project, root, work)
    files = {
        str(path.relative_to(root)): extract(path.read_bytes(), "python")
        for path in sorted(root.rglob("*.py"))
    }
    graph = link(files)
    # a class as callee is its body running (the tracer sees a frame): a class statement, no call
    symbols = {s.id for s in graph.symbols if s.kind != "class"}
    linked = {(e.source, e.target) for e in graph.edges
              if e.kind == "calls" and e.confidence in ("resolved", "inferred")}
    overridden: dict[str, set[str]] = defaultdict(set)
    for e in graph.edges:
        if e.kind == "overrides":
            overridden[e.source].add(e.target)
    callers = symbols | modules(graph)
    known = {c for c in calls if c[0] in callers and c[1] in symbols}
    found = known & linked
    dispatched = {c for c in known - found if _through_overrides(c, linked, overridden)}
    missed = tuple(sorted(known - found - dispatched))
    return Outcome(project, len(known), len(found), len(dispatched), missed)


def modules(graph: LinkedGraph) -> set[str]:
    """The ids of the modules (a module's own code calls too)."""
    return {s.id for s in graph.symbols if s.kind == "module"}


def _through_overrides(call: Edge, linked: set[Edge], overridden: dict[str, set[str]]) -> bool:
    """Whether the callee overrides (at any depth) a method the graph has the caller call."""
    caller, todo, seen = call[0], [call[1]], set()
    while todo:
        for base in overridden.get(todo.pop(), ()):
            if (caller, base) in linked:
                return True
            if base not in seen:
                seen.add(base)
                todo.append(base)
    return False


def table(outcomes: Sequence[Outcome]) -> str:
    lines = [f"{'project':<10} {'calls':>6} {'linked':>7} {'dispatch':>9} {'missed':>7} {'recall':>7}"]
    for o in outcomes:
        lines.append(f"{o.project:<10} {o.runtime:>6} {o.found:>7} {o.through_overrides:>9} "
                     f"{len(o.missed):>7} {o.recall:>7.3f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="runtime_calls.py", description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="*", metavar="PROJECT", help=f"of: {', '.join(PROJECTS)} (default: all)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/impactbot-runtime-calls"))
    parser.add_argument("--missed", action="store_true", help="list the calls the graph misses")
    options = parser.parse_args(argv)
    options.work.mkdir(parents=True, exist_ok=True)
    unknown = [p for p in options.projects if p not in PROJECTS]
    if unknown:
        parser.error(f"unknown project: {', '.join(unknown)}")
    outcomes = [measure(p, options.work) for p in options.projects or PROJECTS]
    if options.missed:
        for o in outcomes:
            for caller, callee in o.missed:
                print(f"{o.project}: {caller} -> {callee}")
    print(table(outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
