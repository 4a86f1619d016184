"""Code in a string given to ``eval`` or ``exec``: its calls are the caller's.

Only a plain string literal whose code runs in the caller's own namespace counts: the
text of anything else is not known, or its names are looked up elsewhere.
"""

from __future__ import annotations

import pytest
from helpers.linking import facts

from impactbot.link import link

FUNCS = "def f(): pass\ndef g(x): pass\nclass Job:\n    def run(self): pass\n"


def calls(source: str) -> set[tuple[str, str, int]]:
    """(caller, callee, line) of every resolved call in main.py, ids without the path."""
    graph = link(facts({"main.py": FUNCS + source}))
    return {(c.caller.removeprefix("main.py"), c.target.removeprefix("main.py::"), c.line) for c in graph.calls}


RUN = {
    "eval of a call": ('def main():\n    return eval("f()")\n', {("::main", "f", 6)}),
    "exec of statements": ('def main():\n    exec("f()\\ng(1)")\n', {("::main", "f", 6), ("::main", "g", 6)}),
    "exec at module level": ('exec("g(2)")\n', {("", "g", 5)}),
    "with the caller's globals": ('def main():\n    exec("f()", globals())\n', {("::main", "f", 6)}),
    "with globals= and locals=": (
        'def main():\n    eval("f()", globals=globals(), locals=locals())\n', {("::main", "f", 6)}
    ),
    "escaped quotes": ('def main():\n    exec("g(\\"x\\")")\n', {("::main", "g", 6)}),
    "a raw string": ('def main():\n    eval(r"f()")\n', {("::main", "f", 6)}),
    "a triple-quoted block": ('def main():\n    exec("""\nf()\ng(3)\n""")\n', {("::main", "f", 6), ("::main", "g", 6)}),
    "names of the caller's scope": (
        'def main(job: Job):\n    eval("job.run()")\n', {("::main", "Job::run", 6)}
    ),
}

NOTHING = {
    "a namespace of the caller's making": 'def main():\n    eval("f()", {"f": print})\n',
    "an f-string": 'def main(name):\n    eval(f"{name}()")\n',
    "a name holding the code": 'CODE = "f()"\ndef main():\n    eval(CODE)\n',
    "text that is not code": 'def main():\n    eval("call me (maybe")\n',
    "a function defined in the string": 'exec("def h():\\n    f()")\n',
    "this module's own eval": 'def eval(text):\n    return text\ndef main():\n    eval("f()")\n',
    "eval imported from elsewhere": 'from sandbox import eval\ndef main():\n    eval("f()")\n',
}


@pytest.mark.parametrize(("source", "expected"), RUN.values(), ids=RUN.keys())
def test_the_code_of_a_string_literal_is_called_from_the_caller(
        source: str, expected: set[tuple[str, str, int]]) -> None:
    assert calls(source) == expected


@pytest.mark.parametrize("source", NOTHING.values(), ids=NOTHING.keys())
def test_a_string_whose_code_or_namespace_is_not_known_calls_nothing(source: str) -> None:
    found = {(caller, callee) for caller, callee, _line in calls(source)}
    assert ("::main", "f") not in found and ("", "f") not in found
