"""Calls on an object of unknown class guessed by the method's name alone (name_match)."""

from __future__ import annotations

from helpers.linking import facts

from impactbot.link import link


def _guesses(files: dict[str, str]) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in link(facts(files)).edges if e.confidence == "name_match"}


def test_a_name_defined_once_among_methods_is_guessed() -> None:
    files = {"jobs.py": "class Job:\n    def reschedule(self, when):\n        return when\n\n\n"
                        "def later(job):\n    return job.reschedule(5)\n"}
    assert _guesses(files) == {("jobs.py::later", "jobs.py::Job::reschedule")}


def test_a_def_inside_a_function_is_no_attribute_to_guess() -> None:
    # `self.test.fail(...)` is unittest's fail, not the one a test defines for itself
    files = {
        "test_a.py": "def test_errors():\n    def fail():\n        raise ValueError\n    return fail\n",
        "handler.py": "class Handler:\n    def enter(self, test):\n        test.fail('twice')\n",
    }
    assert _guesses(files) == set()
    # beside such a def, a method of that name is the one guess left
    files["jobs.py"] = "class Job:\n    def fail(self, why):\n        return why\n"
    assert _guesses(files) == {("handler.py::Handler::enter", "jobs.py::Job::fail")}


def test_a_module_function_is_no_attribute_of_an_object_to_guess() -> None:
    # xarray: `Y.ravel()` on a numpy array is not duck_array_ops.ravel(array)
    files = {"ops.py": "def flatten_rows(array):\n    return array\n",
             "use.py": "def flat(grid):\n    return grid.flatten_rows()\n"}
    assert _guesses(files) == set()
    assert dict(link(facts(files)).unresolved) == {"use.py::flat": 1}  # counted, not dropped
    # a method of that name beside it makes two candidates: still no guess
    files["shapes.py"] = "class Grid:\n    def flatten_rows(self):\n        return self\n"
    assert _guesses(files) == set()
    del files["ops.py"]
    assert _guesses(files) == {("use.py::flat", "shapes.py::Grid::flatten_rows")}
