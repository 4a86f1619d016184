"""A pytest plugin that records, per test, which functions of the tree it ran.

It runs inside the project's own test environment, so it uses only the
standard library and pytest. Enable it with ``-p ranking_support.tracer_plugin``
and the variables ``RANKING_TRACE_ROOT`` (the tree whose code is recorded) and
``RANKING_TRACE_OUT`` (the JSON file written at the end of the session);
``RANKING_TRACE_BUDGET`` (seconds, default 20) stops recording a test that runs
longer under the profiler, and marks it ``truncated``: what it ran is then a
lower bound.

Functions are named like impactbot names symbols:
``<repo-relative path>::<Qualified>::<name>``, from ``co_qualname`` with
``<locals>`` dropped; lambdas and comprehensions belong to the enclosing
symbol. Besides the functions each test ran, the plugin keeps which functions
were on the call stack when another one was called (``reaches``): a caller
"executed" the code it reached, not merely ran in the same test.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import pytest

TRACE_FORMAT = 1
OUTSIDE = -1  # symbol index of code that is not in the traced tree
STRIDE = 1 << 24  # more symbols than any traced tree has
DEFAULT_BUDGET_SECONDS = 20.0
CLOCK_EVERY = 0xFFFF  # look at the clock once per 65536 events: reading it is not free


def code_symbol(filename: str, qualname: str, root: str) -> str | None:
    """The impactbot id of a code object, or None when it is not under ``root``."""
    prefix = root.rstrip(os.sep) + os.sep
    if not filename.startswith(prefix):
        return None
    path = filename[len(prefix) :].replace(os.sep, "/")
    parts = []
    for part in qualname.split("."):
        if part == "<locals>":
            continue
        if part.startswith("<"):  # <module>, <lambda>, <listcomp>, <genexpr>: the enclosing symbol's code
            break
        parts.append(part)
    return "::".join([path, *parts])


def node_function_id(nodeid: str) -> str:
    """A pytest node id without its parametrisation: the test function's id."""
    bracket = nodeid.find("[")
    return nodeid[:bracket] if bracket > nodeid.find("::") >= 0 else nodeid


class Recorder:
    """Collects executed symbols per test and caller->callee reachability on the stack."""

    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        self.symbols: list[str] = []
        self._symbol_index: dict[str, int] = {}
        self._codes: dict[int, tuple[CodeType, int]] = {}  # id(code) -> (code kept alive, symbol)
        # A context is the set of traced symbols on the stack; it is interned so
        # that reachability is recorded once per new context, not once per call.
        self._contexts: list[frozenset[int]] = [frozenset()]
        self._context_of_set: dict[frozenset[int], int] = {frozenset(): 0}
        self._child_context: dict[int, int] = {}  # context * STRIDE + symbol -> context
        self.reaches: set[tuple[int, int]] = set()
        self.tests: list[dict[str, Any]] = []
        self.truncated = False  # the current test outran its budget

    def symbol_of(self, code: CodeType) -> int:
        """The symbol index of ``code`` (OUTSIDE when not traced), memoised by identity."""
        entry = self._codes.get(id(code))
        if entry is not None and entry[0] is code:
            return entry[1]
        filename = os.path.realpath(code.co_filename) if os.path.isabs(code.co_filename) else ""
        name = code_symbol(filename, getattr(code, "co_qualname", code.co_name), self.root)
        index = OUTSIDE if name is None else self._index(name)
        self._codes[id(code)] = (code, index)
        return index

    def _index(self, name: str) -> int:
        index = self._symbol_index.get(name)
        if index is None:
            index = self._symbol_index[name] = len(self.symbols)
            self.symbols.append(name)
        return index

    def _enter(self, context: int, symbol: int) -> int:
        outer = self._contexts[context]
        if symbol in outer:  # recursion adds nothing new to the stack's set
            inner = context
        else:
            members = outer | {symbol}
            inner = self._context_of_set.get(members, -1)
            if inner < 0:
                inner = self._context_of_set[members] = len(self._contexts)
                self._contexts.append(members)
            self.reaches.update((caller, symbol) for caller in outer)
        self._child_context[context * STRIDE + symbol] = inner
        return inner

    def profiler(self, executed: set[int], budget: float) -> Callable[[FrameType, str, object], None]:
        """A ``sys.setprofile`` function that adds every traced call to ``executed``.

        After ``budget`` seconds it turns itself off and sets ``self.truncated``.
        """
        stack = [0]
        codes = self._codes
        children = self._child_context
        push, pop = stack.append, stack.pop
        deadline = time.monotonic() + budget
        events = 0
        self.truncated = False

        def profile(frame: FrameType, event: str, arg: object) -> None:
            nonlocal events
            events += 1
            if not events & CLOCK_EVERY and time.monotonic() > deadline:
                sys.setprofile(None)
                self.truncated = True
                return
            if event == "call":
                code = frame.f_code
                entry = codes.get(id(code))
                symbol = entry[1] if entry is not None and entry[0] is code else self.symbol_of(code)
                context = stack[-1]
                if symbol == OUTSIDE:
                    push(context)
                    return
                executed.add(symbol)
                inner = children.get(context * STRIDE + symbol)
                push(self._enter(context, symbol) if inner is None else inner)
            elif event == "return" and len(stack) > 1:
                # Frames that were running before profiling started return
                # without a matching call: the bottom of the stack stays.
                pop()

        return profile

    def add_test(self, item: pytest.Item, executed: set[int], outcome: str, truncated: bool) -> None:
        aliases = {node_function_id(item.nodeid)}
        code_id = self._test_code_id(item)
        if code_id is not None:
            aliases.add(code_id)
        self.tests.append(
            {"nodeid": item.nodeid, "aliases": sorted(aliases), "executed": sorted(executed), "outcome": outcome,
             "truncated": truncated}
        )

    def _test_code_id(self, item: pytest.Item) -> str | None:
        # An inherited test method runs under the subclass's node id but is
        # defined (and named by impactbot) in the base class.
        function = getattr(item, "obj", None)
        function = getattr(function, "__func__", function)
        try:
            code = inspect.unwrap(function).__code__  # type: ignore[arg-type]
        except (AttributeError, TypeError, ValueError):
            return None
        index = self.symbol_of(code)
        return None if index == OUTSIDE else self.symbols[index]

    def dump(self, path: Path) -> None:
        data = {
            "format": TRACE_FORMAT,
            "root": self.root,
            "symbols": self.symbols,
            "tests": self.tests,
            "reaches": sorted(self.reaches),
        }
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(data))
        tmp.replace(path)  # a crashed run leaves no half-written trace behind


class TracerPlugin:
    """Turns the profiler on around each test's setup, call and teardown."""

    def __init__(self, root: str, out: Path, budget: float) -> None:
        self.recorder = Recorder(root)
        self.out = out
        self.budget = budget
        self._outcome = "passed"

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> Any:
        executed: set[int] = set()
        self._outcome = "passed"
        previous = sys.getprofile()
        sys.setprofile(self.recorder.profiler(executed, self.budget))
        try:
            yield
        finally:
            sys.setprofile(previous)
        self.recorder.add_test(item, executed, self._outcome, self.recorder.truncated)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed:
            self._outcome = "failed"
        elif report.skipped and self._outcome == "passed":
            self._outcome = "skipped"

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.recorder.dump(self.out)


def pytest_configure(config: pytest.Config) -> None:
    root = os.environ.get("RANKING_TRACE_ROOT")
    out = os.environ.get("RANKING_TRACE_OUT")
    budget = float(os.environ.get("RANKING_TRACE_BUDGET") or DEFAULT_BUDGET_SECONDS)
    if root and out:
        config.pluginmanager.register(TracerPlugin(root, Path(out), budget), "ranking-tracer")
