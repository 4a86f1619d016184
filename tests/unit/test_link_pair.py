"""Base and head linked side by side: the same graphs as one at a time, and as the cache stores them."""

from __future__ import annotations

from pathlib import Path

from helpers.linking import facts

from impactbot.cache import decode
from impactbot.link import link
from impactbot.link.pair import LINK_BYTES_PER_SITE, available_memory, fits_side_by_side, link_pair
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


def test_two_links_go_side_by_side_only_where_the_memory_holds_both() -> None:
    need = 2 * 1000 * LINK_BYTES_PER_SITE
    assert fits_side_by_side(1000, need)
    assert not fits_side_by_side(1000, need - 1)
    assert fits_side_by_side(10**9, None)  # not known: the faster way


def _system(tmp_path: Path, meminfo: str | None, limit: str | None = None, current: str = "0") -> tuple[Path, Path]:
    proc, cgroup = tmp_path / "meminfo", tmp_path / "cgroup"
    cgroup.mkdir(parents=True)
    if meminfo is not None:
        proc.write_text(meminfo)
    if limit is not None:
        (cgroup / "memory.max").write_text(limit + "\n")
        (cgroup / "memory.current").write_text(current + "\n")
    return proc, cgroup


def test_available_memory_is_the_systems_or_what_the_container_leaves_if_less(tmp_path: Path) -> None:
    meminfo = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   2000 kB\n"
    assert available_memory(*_system(tmp_path / "a", meminfo)) == 2000 * 1024
    assert available_memory(*_system(tmp_path / "b", meminfo, "max")) == 2000 * 1024
    assert available_memory(*_system(tmp_path / "c", meminfo, "1500000", "1000000")) == 500000
    assert available_memory(*_system(tmp_path / "d", None, "1500000", "1000000")) == 500000


def test_available_memory_unknown_or_unreadable_is_none(tmp_path: Path) -> None:
    assert available_memory(*_system(tmp_path / "a", None)) is None
    assert available_memory(*_system(tmp_path / "b", "MemAvailable: lots\n", "unlimited")) is None
