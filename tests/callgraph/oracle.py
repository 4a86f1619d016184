"""Checks of the case data itself, independent of impactbot.

- ``defined_ids``: every symbol id a case's sources define (read with ``ast``), so
  an expected edge cannot name a symbol that does not exist.
- ``runtime_edges``: the calls that running the case's ``main.py`` really makes,
  recorded with ``sys.setprofile`` in a child process. Static expectations must
  contain every one of them (a missing one would be an expected-edge bug), apart
  from the exemptions ``unexplained_runtime_edges`` applies.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

Edge = tuple[str, str]

# Runs in the child: executes main.py as __main__ and records caller -> callee
# for every Python frame whose code lives in the case. A frame of code outside
# the case (stdlib, importlib) is skipped over when looking for the caller, so
# `with contextmanager_fn():` is attributed to the frame that wrote the `with`.
_TRACER = r"""
import inspect, json, os, runpy, sys

root, out = os.path.realpath(sys.argv[1]), sys.argv[2]
sys.path.insert(0, root)
edges = set()
cache = {}

def ident(code):
    if code in cache:
        return cache[code]
    cache[code] = found = _ident(code)
    return found

def _ident(code):
    # "<frozen abc>" and "<string>" are relative names: never resolve them against cwd.
    if not os.path.isabs(code.co_filename):
        return None, False
    path = os.path.realpath(code.co_filename)
    if not path.startswith(root + os.sep):
        return None, False
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    parts = []
    for part in code.co_qualname.split("."):
        if part == "<locals>":
            continue
        if part.startswith("<"):
            break  # lambdas and comprehensions belong to the enclosing symbol
        parts.append(part)
    real = not code.co_name.startswith("<") and bool(code.co_flags & inspect.CO_OPTIMIZED)
    return "::".join([rel, *parts]), real

def profile(frame, event, arg):
    if event != "call":
        return
    callee, real = ident(frame.f_code)
    if callee is None or not real:
        return  # module bodies, class bodies, lambdas, comprehensions are not callees
    caller_frame = frame.f_back
    while caller_frame is not None:
        caller, _ = ident(caller_frame.f_code)
        if caller is not None:
            edges.add((caller, callee))
            return
        caller_frame = caller_frame.f_back

sys.setprofile(profile)
try:
    runpy.run_path(os.path.join(root, "main.py"), run_name="__main__")
finally:
    sys.setprofile(None)
    with open(out, "w") as fh:
        json.dump(sorted(edges), fh)
"""


def defined_ids(files: Mapping[str, str]) -> set[str]:
    """Module, class and function ids defined by the sources (nested with ``::``)."""
    ids: set[str] = set()
    for path, text in files.items():
        ids.add(path)
        _collect(ast.parse(text, filename=path), path, ids)
    return ids


def _collect(node: ast.AST, prefix: str, ids: set[str]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            child_id = f"{prefix}::{child.name}"
            ids.add(child_id)
            _collect(child, child_id, ids)
        else:
            _collect(child, prefix, ids)


def runtime_edges(files: Mapping[str, str], workdir: Path) -> set[Edge]:
    """Run ``main.py`` of the case under a profiler; the in-case calls it made."""
    src = workdir / "src"
    if src.exists():
        shutil.rmtree(src)
    for rel, text in files.items():
        target = src / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    out = workdir / "edges.json"
    proc = subprocess.run(
        [sys.executable, "-B", "-c", _TRACER, str(src), str(out)],
        cwd=src, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"main.py failed (exit {proc.returncode}): {tail[0]}")
    return {(a, b) for a, b in json.loads(out.read_text())}


def unexplained_runtime_edges(
    runtime: set[Edge], expected: set[Edge] | frozenset[Edge], unresolved: Mapping[str, int]
) -> set[Edge]:
    """Runtime calls the expectations miss, minus the ones the conventions exempt.

    Exempt: calls to ``__bool__`` (not scored), and calls made by a symbol the case
    lists as having unresolvable calls (those are the calls no static tool sees).
    """
    return {
        (caller, callee)
        for caller, callee in runtime - set(expected)
        if not callee.endswith("::__bool__") and caller not in unresolved
    }
