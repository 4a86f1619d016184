"""Ranking quality of one ordered list against a set of relevant ids.

Only the order is measured: the relevant set is always cut down to the items
the list holds, so an item impactbot did not list counts for nothing either way.
``random`` is the expectation under a uniformly random order of the same list,
the floor that any useful order must beat; ``shuffled ties`` keeps the
structural order between different scores and shuffles items of equal score,
the floor for whatever breaks structural ties.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from math import comb


@dataclass(frozen=True, slots=True)
class Scores:
    recall_at_10: float
    recall_at_5: float
    mrr: float


def recall_at(order: Sequence[str], relevant: Collection[str], k: int) -> float:
    """|top-k of order ∩ relevant| / min(k, |relevant|); ``relevant`` must be non-empty."""
    hits = sum(1 for item in order[:k] if item in relevant)
    return hits / min(k, len(relevant))


def reciprocal_rank(order: Sequence[str], relevant: Collection[str]) -> float:
    """1 / the 1-based rank of the first relevant item, 0 when none is listed."""
    for rank, item in enumerate(order, start=1):
        if item in relevant:
            return 1.0 / rank
    return 0.0


def scores(order: Sequence[str], relevant: Collection[str]) -> Scores:
    """All three measures of ``order``, counting only relevant items that it lists."""
    listed = set(order) & set(relevant)
    if not listed:
        raise ValueError("no relevant item is listed: the order cannot be measured")
    return Scores(recall_at(order, listed, 10), recall_at(order, listed, 5), reciprocal_rank(order, listed))


def random_scores(listed: int, relevant: int) -> Scores:
    """Expected scores of a uniformly random order of ``listed`` items, ``relevant`` of them relevant."""
    if not 0 < relevant <= listed:
        raise ValueError(f"need 0 < relevant <= listed, got {relevant} of {listed}")
    return tied_random_scores([(listed, relevant)])


def tied_random_scores(tiers: Sequence[tuple[int, int]]) -> Scores:
    """Expected scores when each tier's items are shuffled but tiers keep their order.

    ``tiers`` holds (size, relevant) per group of equal score, best group first.
    """
    total = sum(r for _, r in tiers)
    if total == 0:
        raise ValueError("no relevant item in any tier")
    return Scores(
        _expected_hits(tiers, 10) / min(10, total),
        _expected_hits(tiers, 5) / min(5, total),
        _expected_reciprocal_rank(tiers),
    )


def _expected_hits(tiers: Sequence[tuple[int, int]], k: int) -> float:
    hits, position = 0.0, 0
    for size, relevant in tiers:
        # Each of the tier's slots inside the top k holds a relevant item with probability r / n.
        hits += max(0, min(k - position, size)) * relevant / size
        position += size
    return hits


def _expected_reciprocal_rank(tiers: Sequence[tuple[int, int]]) -> float:
    offset = 0
    for size, relevant in tiers:
        if relevant:
            # P(first relevant item at rank i of the tier) = C(n - i, r - 1) / C(n, r).
            total = comb(size, relevant)
            return sum(comb(size - i, relevant - 1) / total / (offset + i) for i in range(1, size - relevant + 2))
        offset += size
    return 0.0


def tiers_of(order: Sequence[str], score: Mapping[str, float], relevant: Collection[str]) -> list[tuple[int, int]]:
    """(size, relevant) of each run of equal ``score`` along ``order``."""
    tiers: list[tuple[int, int]] = []
    previous: float | None = None
    for item in order:
        hit = 1 if item in relevant else 0
        if tiers and score[item] == previous:
            size, count = tiers[-1]
            tiers[-1] = (size + 1, count + hit)
        else:
            tiers.append((1, hit))
        previous = score[item]
    return tiers


def mean(values: Sequence[Scores]) -> Scores:
    """The macro average: every pair weighs the same."""
    if not values:
        raise ValueError("no scores to average")
    n = len(values)
    return Scores(
        sum(v.recall_at_10 for v in values) / n,
        sum(v.recall_at_5 for v in values) / n,
        sum(v.mrr for v in values) / n,
    )
