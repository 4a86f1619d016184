"""What a link keeps once it returns: its answers go with it, and equal answers share one object."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from helpers.linking import facts

from impactbot.link import _Linker, link
from impactbot.model import symbol_id

SOURCES = {
    "pkg/__init__.py": "",
    "pkg/shapes.py": (
        "class Shape:\n    def area(self):\n        return 0\n\n"
        "class Square(Shape):\n    def __init__(self, side):\n        self.side = side\n"
        "    def area(self):\n        return self.side * self.side\n"
    ),
    "pkg/use.py": (
        "from pkg.shapes import Square, Shape\n\n"
        + "".join(f"def use{i}(n):\n    s = Square(n)\n    return s.area() + Shape().area()\n\n" for i in range(40))
    ),
}


@pytest.fixture
def no_cyclic_gc() -> Iterator[None]:
    """As an analysis runs (see ``cli``): what reference counting does not free stays."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def test_a_finished_link_leaves_no_cycle_holding_its_resolver(no_cyclic_gc: None) -> None:
    graph = link(facts(SOURCES))
    assert any(e.target == "pkg/shapes.py::Square::area" for e in graph.edges)
    # Kept in a cycle, the resolver and its memos are thousands of objects that only
    # the cyclic collector, off during an analysis, would free.
    assert gc.collect() < 100


def test_equal_memoised_answers_are_one_object() -> None:
    linker = _Linker(facts(SOURCES))
    linker.run()
    answers = [entry[0] for entry in linker.r._memo.values() if entry[0]]
    assert len(answers) > len({id(a) for a in answers})
    by_content: dict[tuple[object, ...], int] = {}
    for answer in answers:
        assert by_content.setdefault(tuple(answer.items()), id(answer)) == id(answer)


def test_symbol_ids_are_interned() -> None:
    built = [symbol_id("pkg/use.py", "use" + str(i % 2)) for i in range(4)]
    assert built[0] is built[2] and built[1] is built[3]
    assert symbol_id("pkg/use.py", "") == "pkg/use.py"
