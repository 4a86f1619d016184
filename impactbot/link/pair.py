"""Link two revisions at once: base in a forked process, head in this one.

A cold diff links two revisions that do not depend on each other; on a machine
with two cores that halves the wall time of the stage that dominates it. It
also doubles the memory of that stage: where the memory available would not
hold two links (a CI runner, a very large repository) they run one after the
other, slower but to the end (see ``fits_side_by_side``).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from impactbot.link.fixtures import DEFAULT_LAYOUT, TestLayout
from impactbot.model import FileFacts, LinkedGraph

# A link's peak beyond the facts it reads, per call site: about 1.9 KiB on Django's
# full source and the standard library; the margin covers repositories whose sites
# reach more.
LINK_BYTES_PER_SITE = 4096

# Set just before the fork, so the child reads the facts from memory it shares
# with the parent instead of receiving them pickled.
_FACTS: Mapping[str, FileFacts] = {}
_LAYOUT: TestLayout = DEFAULT_LAYOUT
_DEADLINE: float | None = None  # time.monotonic() is the same clock in the forked child


def fits_side_by_side(call_sites: int, available: int | None) -> bool:
    """Whether two links of revisions with ``call_sites`` each fit in ``available``
    bytes (None: not known, as on a system without /proc: assume they do)."""
    return available is None or 2 * call_sites * LINK_BYTES_PER_SITE <= available


def available_memory(meminfo: Path = Path("/proc/meminfo"), cgroup: Path = Path("/sys/fs/cgroup")) -> int | None:
    """Bytes this process can still take: the system's available memory, or what is
    left under the container's limit when that is less (cgroup v2); None if unknown."""
    found = [n for n in (_meminfo_available(meminfo), _cgroup_left(cgroup)) if n is not None]
    return min(found) if found else None


def _meminfo_available(path: Path) -> int | None:
    try:
        for line in path.read_text().splitlines():
            name, _, value = line.partition(":")
            if name == "MemAvailable":
                return int(value.split()[0]) * 1024  # "24113504 kB"
    except (OSError, ValueError, IndexError):
        return None
    return None


def _cgroup_left(root: Path) -> int | None:
    try:
        limit = (root / "memory.max").read_text().strip()
        if limit == "max":
            return None
        return max(0, int(limit) - int((root / "memory.current").read_text().strip()))
    except (OSError, ValueError):
        return None


def _link_shared() -> bytes:
    from impactbot.cache import encode
    from impactbot.link import link

    return encode(link(_FACTS, _LAYOUT, _DEADLINE))


@dataclass(frozen=True, slots=True)
class LinkedPair:
    """Both graphs, and each as encoded for the cache when that was done on the way
    (None: it was not)."""

    base: LinkedGraph
    head: LinkedGraph
    base_encoded: bytes | None = None
    head_encoded: bytes | None = None


def link_pair(
    base: Mapping[str, FileFacts], head: Mapping[str, FileFacts], layout: TestLayout = DEFAULT_LAYOUT,
    deadline: float | None = None, *, encode_head: bool = False,
) -> LinkedPair:
    """(link(base), link(head)), computed in parallel where fork is available, with
    the base graph as the child encoded it for the cache; ``encode_head``: the head's
    too, while the child may still be linking."""
    from impactbot.cache import decode, encode
    from impactbot.link import link

    if "fork" not in multiprocessing.get_all_start_methods():
        return LinkedPair(link(base, layout, deadline), link(head, layout, deadline))
    global _FACTS, _LAYOUT, _DEADLINE
    _FACTS, _LAYOUT, _DEADLINE = base, layout, deadline
    try:
        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as pool:
            future = pool.submit(_link_shared)
            head_graph = link(head, layout, deadline)
            # the child usually links on a while: a core that would wait encodes meanwhile
            head_encoded = encode(head_graph) if encode_head and not head_graph.cut_short else None
            encoded = future.result()
    finally:
        _FACTS, _LAYOUT, _DEADLINE = {}, DEFAULT_LAYOUT, None
    return LinkedPair(decode(encoded, LinkedGraph), head_graph, encoded, head_encoded)
