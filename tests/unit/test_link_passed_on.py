"""A function called through a parameter passes its own arguments on.

``call(arg)`` where ``call`` is a parameter is resolved only once every argument has
flowed (the second pass); the passes after it give ``arg`` to the parameters of what
``call`` turned out to hold, and resolve again what read them.
"""

from __future__ import annotations

import logging

import pytest
from helpers.linking import assert_derived_both_ways, derived_from, facts

import impactbot.link.linker as link_module
from impactbot.link import PASSES_ON, _Linker, link
from impactbot.link.incremental import link_traced, trace_from_graph, trace_to_graph

# `a.py` sorts before `b.py`: the first pass resolves `func(arg)` before any caller
# has told it what `func` is
HELPERS = """
def call_with(func, arg):
    return func(arg)

def twice(wrap, func):
    return wrap(func, "bob")
"""

CALLERS = """
from a import call_with, twice

class Response:
    def render(self):
        return "<p>"

def show(response):
    return response.render()

def handle():
    return call_with(show, Response())

class Greeter:
    def hello(self, name):
        return "hello " + name

    def shout(self, fn, name):
        return fn(name).upper()

def greet():
    g = Greeter()
    return twice(g.shout, g.hello)
"""


def _calls(files: dict[str, str]) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in link(facts(files)).edges if e.kind == "calls"}


def test_a_callback_gets_what_the_function_holding_it_passes() -> None:
    calls = _calls({"a.py": HELPERS, "b.py": CALLERS})
    assert ("a.py::call_with", "b.py::show") in calls
    assert ("b.py::show", "b.py::Response::render") in calls


def test_a_bound_method_passed_on_gets_the_method_passed_beside_it() -> None:
    calls = _calls({"a.py": HELPERS, "b.py": CALLERS})
    assert ("a.py::twice", "b.py::Greeter::shout") in calls
    assert ("b.py::Greeter::shout", "b.py::Greeter::hello") in calls


def test_a_view_decorator_passes_the_request_to_the_view() -> None:
    decorators = """
def login_required(view):
    def wrapper(request, *args):
        if not request.user_ok():
            return None
        return view(request, *args)
    return wrapper
"""
    views = """
from deco import login_required

class Request:
    def user_ok(self):
        return True

    def session(self):
        return {}

@login_required
def profile(request):
    return request.session()

def dispatch():
    return profile(Request())
"""
    calls = _calls({"deco.py": decorators, "views.py": views})
    assert ("deco.py::login_required::wrapper", "views.py::profile") in calls
    assert ("views.py::profile", "views.py::Request::session") in calls


def test_only_the_answers_that_read_a_grown_parameter_are_computed_again() -> None:
    unrelated = "".join(f"\ndef job{i}(x):\n    return x.strip()\n\njob{i}(' a ')\n" for i in range(30))
    linker = _Linker(facts({"a.py": HELPERS, "b.py": CALLERS, "c.py": unrelated}))
    sites = linker.sites()
    results, revisit = linker.first_pass(sites)
    read = linker.second_pass(sites, results, revisit)
    before = linker.r.resolutions
    assert linker.pass_on(sites, results, read) == 1
    again = linker.r.resolutions - before
    assert 0 < again < (before // 4)


def test_the_second_pass_keeps_the_answers_that_read_no_parameter_and_met_no_cycle() -> None:
    cycle = "def first():\n    pass\n\nx = first\nif flag:\n    x = y\ny = x\ny()\n"
    linker = _Linker(facts({"a.py": HELPERS, "b.py": CALLERS, "c.py": cycle}))
    sites = linker.sites()
    results, revisit = linker.first_pass(sites)
    memo = linker.r._memo
    settled, through_parameter, in_cycle = ("Response", "b.py::handle"), ("func", "a.py::call_with"), ("x", "c.py")
    before = {key: memo[key] for key in (settled, through_parameter, in_cycle)}
    linker.second_pass(sites, results, revisit)
    # arguments flowing cannot change the first; the others are computed again when asked
    assert memo[settled] is before[settled]
    assert memo.get(through_parameter) is not before[through_parameter]
    assert memo.get(in_cycle) is not before[in_cycle]


def _relay(levels: int) -> str:
    """``s0(s1)``: s0 calls s1 with s2, s1 calls s2 with s3, ...: each level's call is
    found one pass after the one before it."""
    parts = [f"def s{i}(f):\n    f(s{i + 2})\n\n" for i in range(levels)]
    parts += [f"def s{levels}(f):\n    pass\n\n", f"def s{levels + 1}(f):\n    pass\n\n", "s0(s1)\n"]
    return "".join(parts)


def _passes(source: str) -> tuple[int, set[tuple[str, str]]]:
    linker = _Linker(facts({"m.py": source}))
    sites = linker.sites()
    results, revisit = linker.first_pass(sites)
    passes = linker.pass_on(sites, results, linker.second_pass(sites, results, revisit))
    linker.emit(sites, results)
    return passes, {(e.source, e.target) for e in linker.edges.edges() if e.kind == "calls"}


def test_each_call_found_late_passes_its_arguments_on_for_a_bounded_number_of_passes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for bound in (PASSES_ON, 3):
        monkeypatch.setattr(link_module, "PASSES_ON", bound)
        passes, calls = _passes(_relay(bound + 3))
        assert passes == bound
        # s0 -> s1 is found in the second pass, each pass after it one more level
        assert {(f"m.py::s{i}", f"m.py::s{i + 1}") for i in range(bound + 1)} <= calls
        assert (f"m.py::s{bound + 1}", f"m.py::s{bound + 2}") not in calls


def test_without_calls_through_parameters_nothing_is_passed_on() -> None:
    linker = _Linker(facts({"m.py": "def f(x):\n    return x.strip()\n\nf(' a ')\n"}))
    sites = linker.sites()
    results, revisit = linker.first_pass(sites)
    assert linker.pass_on(sites, results, linker.second_pass(sites, results, revisit)) == 0


def test_a_traced_link_notes_that_it_passed_arguments_on() -> None:
    graph, trace = link_traced(facts({"a.py": HELPERS, "b.py": CALLERS}))
    assert trace.passed_on
    assert graph == link(facts({"a.py": HELPERS, "b.py": CALLERS}))
    back = trace_from_graph(trace_to_graph(trace))
    assert back is not None and back.passed_on
    _graph, plain = link_traced(facts({"m.py": "def f(x):\n    return x\n\nf(1)\n"}))
    assert not plain.passed_on


@pytest.mark.parametrize("after", [
    CALLERS.replace("call_with(show, Response())", "show(Response())"),
    CALLERS + "\ndef later():\n    return call_with(show, Response())\n",
])
def test_derived_graphs_equal_full_links_that_pass_arguments_on(after: str) -> None:
    assert_derived_both_ways({"a.py": HELPERS}, "b.py", CALLERS, after)


def test_deriving_from_a_link_that_passed_arguments_on_links_again(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="impactbot.link.incremental")
    old = facts({"a.py": HELPERS, "b.py": CALLERS})
    new = facts({"a.py": HELPERS, "b.py": CALLERS + "\nx = 1\n"})
    _graph, derived = derived_from(old, new)
    assert derived == link(new)
    assert any("linking from scratch" in r.getMessage() for r in caplog.records)
