"""``stack.enter_context(cm)`` runs cm's ``__enter__`` at once and its ``__exit__`` when the
stack closes: the same calls ``with cm:`` makes."""

from __future__ import annotations

import pytest
from helpers.linking import facts

from impactbot.link import link

RESOURCES = """
import contextlib


class Res:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        pass

    def use(self):
        pass
"""


def calls(body: str) -> dict[str, str]:
    graph = link(facts({"m.py": RESOURCES + "\n\n" + body}))
    return {
        e.target.split("::", 1)[1]: e.confidence for e in graph.edges if e.kind == "calls" and e.source == "m.py::run"
    }


STACKS = {
    "ExitStack": (
        "def run():\n    with contextlib.ExitStack() as st:\n        r = st.enter_context(Res())\n        r.use()\n",
        {"Res::__enter__", "Res::__exit__", "Res::use"},
    ),
    "AsyncExitStack": (
        "async def run():\n    async with contextlib.AsyncExitStack() as st:\n"
        "        r = await st.enter_async_context(Res())\n        r.use()\n",
        {"Res::__aenter__", "Res::__aexit__", "Res::use"},
    ),
    "a stack kept on self, no name for what it gives": (
        "def run(self):\n    self.stack.enter_context(Res())\n",
        {"Res::__enter__", "Res::__exit__"},
    ),
}


@pytest.mark.parametrize(("body", "expected"), STACKS.values(), ids=STACKS.keys())
def test_entering_a_context_on_a_stack_calls_its_enter_and_exit(body: str, expected: set[str]) -> None:
    assert expected <= calls(body).keys()


def test_a_method_of_another_name_enters_nothing() -> None:
    found = calls("def run(st):\n    st.push(Res())\n")
    assert "Res::__enter__" not in found and "Res::__exit__" not in found
