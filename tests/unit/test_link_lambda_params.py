"""A lambda's parameters: the elements a builtin calls it on (``key=``, ``map``,
``filter``, ``reduce``), or their defaults."""

from __future__ import annotations

import textwrap

import pytest
from helpers.linking import assert_derived_both_ways, facts

from impactbot.extract import extract
from impactbot.link import incremental, link

HEAD = """
import functools
import heapq
import itertools
class Job:
    def cost(self): pass
class Task:
    def cost(self): pass
JOBS = [Job()]
TASKS = [Task()]
"""

CASES = {
    "sorted key": ("sorted(JOBS, key=lambda j: j.cost())", {"Job::cost"}),
    "max key": ("max(JOBS, key=lambda j: j.cost())", {"Job::cost"}),
    "list.sort key": ("jobs = list(JOBS)\njobs.sort(key=lambda j: j.cost())", {"Job::cost"}),
    "nlargest key": ("heapq.nlargest(2, TASKS, key=lambda t: t.cost())", {"Task::cost"}),
    "groupby key": ("itertools.groupby(TASKS, key=lambda t: t.cost())", {"Task::cost"}),
    "map": ("list(map(lambda j: j.cost(), JOBS))", {"Job::cost"}),
    "map over two": ("list(map(lambda j, t: (j.cost(), t.cost()), JOBS, TASKS))", {"Job::cost", "Task::cost"}),
    "filter": ("list(filter(lambda t: t.cost(), TASKS))", {"Task::cost"}),
    "reduce": ("functools.reduce(lambda n, t: t.cost(), TASKS, 0)", {"Task::cost"}),
    "a default": ("job = Job()\ncallback = lambda j=job: j.cost()\ncallback()", {"Job::cost"}),
    # several arguments: the key gets each of them, not their elements
    "max of two arguments": ("max(Job(), Task(), key=lambda x: x.cost())", {"Job::cost", "Task::cost"}),
    "min of a list and an instance": ("min(JOBS, Task(), key=lambda x: x.cost())", {"Task::cost"}),
    "another function's callback": ("print(lambda j: j.cost())", set()),
    "a key after a star": ("sorted(*[JOBS], key=lambda j: j.cost())", set()),
}


def called(body: str) -> set[str]:
    source = HEAD + "\ndef main():\n" + textwrap.indent(body, "    ") + "\n"
    graph = link(facts({"main.py": source}))
    return {e.target.removeprefix("main.py::") for e in graph.edges
            if e.source == "main.py::main" and e.kind == "calls" and e.target.endswith("::cost")}


@pytest.mark.parametrize(("body", "expected"), CASES.values(), ids=CASES.keys())
def test_a_lambda_parameter_is_what_the_builtin_calls_it_on(body: str, expected: set[str]) -> None:
    assert called(body) == expected


def test_a_lambda_parameter_shadows_nothing_before_it() -> None:
    # the loop's `t` is a Task before the lambda reuses the name
    body = "for t in TASKS:\n    t.cost()\nsorted(JOBS, key=lambda t: t.cost())"
    assert called(body) == {"Job::cost", "Task::cost"}


def test_a_call_running_a_lambda_written_elsewhere_runs_that_scope() -> None:
    source = (
        "def scale(x):\n    return x * 2\n\ndouble = lambda x: scale(x)\n\n"
        "def use(x):\n    return double(x)\n\n"
        "def local(x):\n    twice = lambda y: scale(y)\n    return twice(x)\n"
    )
    edges = {(e.source, e.target, e.kind) for e in link(facts({"m.py": source})).edges}
    assert ("m.py::use", "m.py", "runs_lambda") in edges
    assert ("m.py", "m.py::scale", "calls") in edges  # the lambda's calls stay the module's
    assert not {(s, t) for s, t, k in edges if s == "m.py::use" and k == "calls"}
    # written and called in one function: its calls are already that function's
    assert ("m.py::local", "m.py::scale", "calls") in edges
    assert not {t for s, t, k in edges if s == "m.py::local" and k == "runs_lambda"}


def test_a_lambda_written_elsewhere_handed_to_a_library_is_run_by_the_caller() -> None:
    source = (
        "import itertools\n\ndef dot(x, y):\n    return x * y\n\n_dot = lambda x, y: dot(x, y)\n\n"
        "def matmul(rows):\n    return list(itertools.starmap(_dot, rows))\n\n"
        "def keyed(rows):\n    return sorted(rows, key=lambda r: dot(r, r))\n\n"
        "def printed(rows):\n    print(_dot, rows)\n"
    )
    edges = {(e.source, e.target, e.kind) for e in link(facts({"m.py": source})).edges}
    assert ("m.py::matmul", "m.py", "runs_lambda") in edges
    # its own lambda's calls are already the caller's; print calls nothing it is given
    assert ("m.py::keyed", "m.py::dot", "calls") in edges
    assert not {t for s, t, k in edges if s in ("m.py::keyed", "m.py::printed") and k == "runs_lambda"}


def test_a_lambda_given_as_one_case_of_a_parametrize_list_is_run_by_the_test() -> None:
    source = (
        "import pytest\n\ndef shout(t):\n    return t.upper()\n\n"
        "@pytest.mark.parametrize('alter', [pytest.param(None, id='plain'),"
        " pytest.param(lambda text: shout(text), id='loud')])\n"
        "def test_it(alter):\n    if alter:\n        alter('a')\n"
    )
    edges = {(e.source, e.target, e.kind) for e in link(facts({"tests/test_m.py": source})).edges}
    assert ("tests/test_m.py::test_it", "tests/test_m.py", "runs_lambda") in edges


def test_a_derived_graph_follows_runs_lambda_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    module = "def scale(x):\n    return x\n\ndouble = {}\n"
    user = "from m import double\n\ndef use(x):\n    return {}\n"
    other = {"other.py": "def f():\n    return 1\n"}
    assert_derived_both_ways({**other, "use.py": user.format("double(x)")}, "m.py",
                             module.format("scale"), module.format("lambda x: scale(x)"))
    assert_derived_both_ways({**other, "m.py": module.format("lambda x: scale(x)")}, "use.py",
                             user.format("x"), user.format("double(x)"))



def test_files_of_one_blob_each_run_their_own_lambda() -> None:
    user = extract(b"from .m import double\n\ndef use(x):\n    return double(x)\n", "python")
    files = facts({"a/__init__.py": "", "b/__init__.py": "", "a/m.py": "double = lambda x: x\n",
                   "b/m.py": "def double(x):\n    return x\n"})
    # the same bytes in two packages share one set of facts, call sites included
    files.update({"a/use.py": user, "b/use.py": user})
    edges = {(e.source, e.target, e.kind) for e in link(files).edges}
    assert ("a/use.py::use", "a/m.py", "runs_lambda") in edges
    assert ("b/use.py::use", "b/m.py::double", "calls") in edges
    assert not {t for s, t, k in edges if s == "b/use.py::use" and k == "runs_lambda"}
