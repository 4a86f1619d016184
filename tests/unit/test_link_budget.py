"""A deadline stops the link where it is: what was resolved stands, and the graph says so."""

from __future__ import annotations

import time

import pytest
from helpers.linking import facts

from impactbot.errors import OutOfTime
from impactbot.link import link
from impactbot.link.python import Resolver

SHOP = {"m.py": "class A:\n    def run(self):\n        return 1\n\n\nclass B(A):\n    pass\n\n\n"
                "def go():\n    return B().run()\n"}


def test_a_deadline_already_passed_leaves_the_calls_unresolved_and_says_so() -> None:
    graph = link(facts(SHOP), deadline=time.monotonic() - 1)
    assert graph.cut_short
    # classes are still drawn; the calls the passes did not reach count as unresolved
    assert [(e.source, e.target, e.kind) for e in graph.edges] == [("m.py::B", "m.py::A", "inherits")]
    assert graph.unresolved == (("m.py::go", 2),)


def test_a_deadline_not_reached_changes_nothing() -> None:
    graph = link(facts(SHOP), deadline=time.monotonic() + 600)
    assert not graph.cut_short
    assert graph == link(facts(SHOP))


def test_one_long_resolution_reads_the_clock_itself() -> None:
    resolver = Resolver(facts({"m.py": "".join(f"v{i} = {i}\n" for i in range(2000))}))
    resolver.deadline = time.monotonic() - 1
    with pytest.raises(OutOfTime):
        for i in range(2000):
            resolver.resolve(f"v{i}", "m.py")
    assert resolver.resolutions == 1024  # the clock is read every 1,024 answers computed
