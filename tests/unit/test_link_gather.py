"""``a, b = await asyncio.gather(f(), g())``: each name holds what its own awaitable returns;
``rs = await gather(...)`` holds them at their places."""

from __future__ import annotations

import pytest
from helpers.linking import facts

from impactbot.extract import extract
from impactbot.link import link

CLASSES = """
import asyncio
from asyncio import gather


class User:
    def greet(self):
        return "hi"


class Item:
    def price(self):
        return 1


async def fetch_user():
    return User()


async def fetch_item():
    return Item()
"""


def method_calls(body: str) -> set[str]:
    """The methods of User and Item that ``use`` calls (not by a unique name alone)."""
    graph = link(facts({"m.py": CLASSES + "\n\nasync def use():\n" + body}))
    return {
        e.target.split("::", 1)[1] for e in graph.edges
        if e.kind == "calls" and e.source == "m.py::use" and e.confidence != "name_match"
        and e.target.split("::")[-1] in ("greet", "price")
    }


GATHERED = {
    "asyncio.gather": ("    u, i = await asyncio.gather(fetch_user(), fetch_item())\n", {"User::greet", "Item::price"}),
    "imported gather": ("    u, i = await gather(fetch_user(), fetch_item())\n", {"User::greet", "Item::price"}),
    "parenthesised, a keyword": (
        "    (u, i) = await (asyncio.gather(fetch_user(), fetch_item(), return_exceptions=True))\n",
        {"User::greet", "Item::price"},
    ),
    "the other order": (
        "    i, u = await asyncio.gather(fetch_item(), fetch_user())\n", {"User::greet", "Item::price"}
    ),
}


@pytest.mark.parametrize(("line", "expected"), GATHERED.values(), ids=GATHERED.keys())
def test_each_name_gets_the_result_of_the_awaitable_at_its_place(line: str, expected: set[str]) -> None:
    assert method_calls(line + "    u.greet()\n    i.price()\n") == expected


def test_names_are_not_paired_with_the_wrong_results() -> None:
    # `u.price()` would reach Item's price only if u were paired with fetch_item()
    assert method_calls("    u, i = await asyncio.gather(fetch_user(), fetch_item())\n    u.price()\n") == set()


def test_a_starred_argument_or_a_count_that_differs_pairs_nothing() -> None:
    starred = extract(b"async def f(cs):\n    a, b = await asyncio.gather(*cs)\n", "python").bindings
    fewer = extract(b"async def f():\n    a, b = await asyncio.gather(g())\n", "python").bindings
    assert {b.value for b in starred if b.target in ("a", "b")} == {"asyncio.gather()[0]", "asyncio.gather()[1]"}
    assert {b.value for b in fewer if b.target in ("a", "b")} == {"asyncio.gather()[0]", "asyncio.gather()[1]"}


def test_a_gather_that_is_not_awaited_is_a_future_not_its_results() -> None:
    found = extract(b"def f():\n    a, b = asyncio.gather(g(), h())\n", "python").bindings
    assert {b.value for b in found if b.target in ("a", "b")} == {"asyncio.gather()[0]", "asyncio.gather()[1]"}


@pytest.mark.parametrize(("body", "expected"), [
    ("    results = await asyncio.gather(fetch_user(), fetch_item())\n"
     "    results[0].greet()\n    results[-1].price()\n", {"User::greet", "Item::price"}),
    ("    results = await asyncio.gather(fetch_user(), fetch_item())\n    results[1].greet()\n", set()),
    ("    results = await gather(fetch_user(), fetch_item())\n    for r in results:\n        r.price()\n",
     {"Item::price"}),
])
def test_one_name_holds_the_list_of_results_each_at_its_place(body: str, expected: set[str]) -> None:
    assert method_calls(body) == expected
