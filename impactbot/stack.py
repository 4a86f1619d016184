"""Room on the interpreter's stack for the stages that recurse over deep structures.

Extraction renders expressions by recursion over the syntax tree, and the resolver
follows chains of values; both bound their depth in their own units (tree levels,
resolutions), each of which takes several Python frames.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def deeper_stack(limit: int) -> Iterator[None]:
    """Run with the recursion limit at least ``limit`` frames, as it was afterwards."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)
