"""Cold extraction across processes: parsing is the expensive floor, and it is
embarrassingly parallel because facts depend only on a blob's bytes."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor

from impactbot.model import FileFacts

MIN_PARALLEL = 64  # below this, starting processes costs more than it saves
CHUNK = 16  # blobs per task: amortises the round trip without starving a worker


def _extract_chunk(items: list[tuple[str, bytes]], language: str) -> list[tuple[str, bytes]]:
    from impactbot.cache import encode
    from impactbot.extract import extract

    # facts travel back in the cache's compact encoding: smaller and faster than plain pickle
    return [(key, encode(extract(data, language))) for key, data in items]


def workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def extract_all(
    blobs: Iterable[tuple[str, bytes]], count: int, language: str
) -> Iterator[tuple[str, FileFacts, bytes]]:
    """(key, bytes) -> (key, facts, facts encoded for the cache), in completion order;
    parallel when it pays off. The encoding is done where the facts are made, so
    the parent stores the bytes it received instead of encoding them again."""
    from impactbot.cache import encode

    n = workers()
    if count < MIN_PARALLEL or n < 2:
        from impactbot.extract import extract

        for key, data in blobs:
            facts = extract(data, language)
            yield key, facts, encode(facts)
        return
    yield from _in_pool(blobs, language, n)


def _in_pool(blobs: Iterable[tuple[str, bytes]], language: str, n: int) -> Iterator[tuple[str, FileFacts, bytes]]:
    from impactbot.cache import decode

    # fork keeps start-up at a few milliseconds: the parser modules are already imported
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pending: list[Future[list[tuple[str, bytes]]]] = []
    with ProcessPoolExecutor(max_workers=n, mp_context=context) as pool:
        chunk: list[tuple[str, bytes]] = []
        try:
            for item in blobs:
                chunk.append(item)
                if len(chunk) == CHUNK:
                    pending.append(pool.submit(_extract_chunk, chunk, language))
                    chunk = []
            if chunk:
                pending.append(pool.submit(_extract_chunk, chunk, language))
            for future in pending:
                for key, data in future.result():
                    yield key, decode(data, FileFacts), data
        finally:
            for future in pending:
                future.cancel()
