"""Elements written into another module's container: ``from reg import HOOKS;
HOOKS.append(f)``, ``reg.TABLE["k"] = g``, from a module body or a function.

They belong to the module that binds the container: its own code iterating or
indexing it calls them, and so does every module reading it through an import.
"""

from __future__ import annotations

import pytest
from helpers.linking import assert_derived_both_ways, facts

from impactbot.link import incremental, link

REGISTRY = """
HOOKS = []
TABLE = {}


def fire():
    for hook in HOOKS:
        hook()


def dispatch(key):
    TABLE[key]()
"""

WRITERS = {
    "an imported list appended to": "from pkg.reg import HOOKS\n\ndef p():\n    pass\n\nHOOKS.append(p)\n",
    "an imported dict stored into": "from pkg.reg import TABLE\n\ndef p():\n    pass\n\nTABLE['p'] = p\n",
    "an alias of the imported name": "from pkg.reg import TABLE as t\n\ndef p():\n    pass\n\nt[1] = p\n",
    "a relative import": "from .reg import HOOKS\n\ndef p():\n    pass\n\nHOOKS.append(p)\n",
    "a module attribute": "import pkg.reg\n\ndef p():\n    pass\n\npkg.reg.TABLE['p'] = p\n",
    "a module imported by name": "from pkg import reg\n\ndef p():\n    pass\n\nreg.HOOKS.append(p)\n",
    "inside a function": (
        "from pkg.reg import TABLE\n\ndef p():\n    pass\n\ndef setup():\n    TABLE['p'] = p\n"
    ),
    "a module attribute inside a function": (
        "from pkg import reg\n\ndef p():\n    pass\n\ndef setup():\n    reg.TABLE['p'] = p\n"
    ),
}

TARGET = "pkg/plugin.py::p"


def callers_of(files: dict[str, str], target: str) -> set[str]:
    graph = link(facts(files))
    return {e.source for e in graph.edges if e.target == target and e.kind == "calls"}


@pytest.mark.parametrize("writer", WRITERS.values(), ids=WRITERS.keys())
def test_the_owning_module_calls_what_another_module_put_in_its_container(writer: str) -> None:
    files = {"pkg/__init__.py": "", "pkg/reg.py": REGISTRY, "pkg/plugin.py": writer}
    found = callers_of(files, TARGET)
    assert found & {"pkg/reg.py::fire", "pkg/reg.py::dispatch"}


def test_a_reader_importing_the_container_sees_the_writes_of_a_third_module() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/reg.py": "HOOKS = []\n",
        "pkg/plugin.py": WRITERS["an imported list appended to"],
        "pkg/run.py": "from pkg.reg import HOOKS\n\ndef run():\n    for h in HOOKS:\n        h()\n",
    }
    assert "pkg/run.py::run" in callers_of(files, TARGET)


def test_writes_follow_a_re_export_to_the_module_that_binds_the_container() -> None:
    files = {
        "pkg/__init__.py": "from pkg.reg import HOOKS\n",
        "pkg/reg.py": REGISTRY,
        "pkg/plugin.py": "from pkg import HOOKS\n\ndef p():\n    pass\n\nHOOKS.append(p)\n",
    }
    assert "pkg/reg.py::fire" in callers_of(files, TARGET)


def test_a_local_container_of_the_same_name_keeps_its_own_elements() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/reg.py": REGISTRY,
        "pkg/plugin.py": "HOOKS = []\n\ndef p():\n    pass\n\nHOOKS.append(p)\n",
    }
    assert callers_of(files, TARGET) == set()


def test_a_name_imported_from_outside_the_repository_is_left_alone() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/reg.py": REGISTRY,
        "pkg/plugin.py": "from atexit import HOOKS\n\ndef p():\n    pass\n\nHOOKS.append(p)\n",
    }
    assert callers_of(files, TARGET) == set()


CHANGES = {
    "a write added": ("def p():\n    pass\n", WRITERS["an imported list appended to"]),
    "a write through a module added": ("import pkg.reg\n\ndef p():\n    pass\n", WRITERS["a module attribute"]),
    "a write in a function added": ("def p():\n    pass\n", WRITERS["inside a function"]),
    "a write moved to another container": (
        WRITERS["an imported list appended to"], "from pkg.reg import TABLE\n\ndef p():\n    pass\n\nTABLE[0] = p\n"
    ),
}


@pytest.mark.parametrize(("before", "after"), CHANGES.values(), ids=CHANGES.keys())
def test_a_derived_graph_follows_writes_into_a_module_that_did_not_change(
    before: str, after: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    shared = {"pkg/__init__.py": "", "pkg/reg.py": REGISTRY, "pkg/other.py": "from pkg.reg import fire\n"}
    assert_derived_both_ways(shared, "pkg/plugin.py", before, after)


def test_a_derived_graph_follows_the_container_moving_to_another_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    shared = {
        "pkg/__init__.py": "",
        "pkg/plugin.py": WRITERS["an imported list appended to"],
        "pkg/base.py": "HOOKS = []\n\ndef fire_all():\n    for h in HOOKS:\n        h()\n",
        "pkg/run.py": "from pkg.reg import fire\n",
    }
    owns = REGISTRY
    re_exports = "from pkg.base import HOOKS\n\ndef fire():\n    for hook in HOOKS:\n        hook()\n"
    assert_derived_both_ways(shared, "pkg/reg.py", owns, re_exports)
