"""Base and head linked side by side: the same graphs as one at a time, and as the cache stores them."""

from __future__ import annotations

from helpers.linking import facts

from impactbot.cache import decode
from impactbot.link import link
from impactbot.link.pair import link_pair
from impactbot.model import LinkedGraph

BASE = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def helper(x):\n    return x\n\ndef run(x):\n    return helper(x)\n",
}
HEAD = {**BASE, "pkg/core.py": "def helper(x, y=0):\n    return x + y\n\ndef run(x):\n    return helper(x, 1)\n",
        "pkg/cli.py": "from pkg.core import run\n\ndef main():\n    run(2)\n"}


def test_both_graphs_equal_linking_each_alone_and_decode_from_what_was_encoded() -> None:
    base, head = facts(BASE), facts(HEAD)
    pair = link_pair(base, head, encode_head=True)
    assert pair.base == link(base)
    assert pair.head == link(head)
    assert any(e.source == "pkg/cli.py::main" and e.target == "pkg/core.py::run" for e in pair.head.edges)
    assert pair.base_encoded is not None and pair.head_encoded is not None
    assert decode(pair.base_encoded, LinkedGraph) == pair.base
    assert decode(pair.head_encoded, LinkedGraph) == pair.head


def test_the_head_is_left_unencoded_unless_asked() -> None:
    pair = link_pair(facts(BASE), facts(HEAD))
    assert pair.head_encoded is None
    assert pair.base_encoded is not None  # the forked child's result travels encoded anyway
