"""Stage `rank`: order the impacted symbols; never add or drop one.

Symbols closer to the change come first, and at equal depth tests come first;
within that, symbols reached by certain edges and by several paths. A semantic
score (cosine similarity between the code of an impacted symbol and the code of
the changed symbols it reaches) can be blended into the order within a depth;
it only reorders the list the graph decided.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from impactbot.model import Impacted, Ranked, Symbol

CONFIDENCE_WEIGHT = {"resolved": 1.0, "inferred": 0.8, "name_match": 0.5}
SEMANTIC_WEIGHT = 0.35
MAX_MULTIPLICITY = 1.4  # paths beyond 11 add nothing more


def band(item: Impacted) -> int:
    """0, 1, 2, ...: depth 1 tests, depth 1 code, depth 2 tests, ... Nothing moves an item
    out of its band: a closer symbol always comes first, and at equal depth a test does
    (it is what a reviewer runs). Measured on real history, letting path count or edge
    confidence lift code above a test of the same depth, or similarity lift anything
    above a closer symbol, put fewer of the really affected tests near the top."""
    return 2 * (item.depth - 1) + (0 if item.symbol.is_test else 1)


def structural_quality(item: Impacted) -> float:
    """In (0, 1]: how sure and how many-sided the link is, which orders items within a band."""
    multiplicity = min(MAX_MULTIPLICITY, 1.0 + 0.04 * (len(item.paths) - 1))
    return CONFIDENCE_WEIGHT[item.confidence] * multiplicity / MAX_MULTIPLICITY


def score(item: Impacted, similarity: float | None = None) -> float:
    """In (0, 1], strictly lower for a later band: depth ``d`` scores in (1/(d+1), 1/d],
    tests in the upper half of that and other symbols in the lower half, each placed
    there by its quality within the band (its structural quality, blended with its code
    similarity when there is one). A direct caller of certain edge scores about 0.7,
    a test calling the change directly about 0.9."""
    quality = structural_quality(item)
    if similarity is not None:
        quality = (1 - SEMANTIC_WEIGHT) * quality + SEMANTIC_WEIGHT * max(0.0, similarity)
    low, high = 1.0 / (item.depth + 1), 1.0 / item.depth
    middle = (low + high) / 2
    return middle + (high - middle) * quality if item.symbol.is_test else low + (middle - low) * quality


def rank(
    impacted: Sequence[Impacted],
    *,
    similarity: Mapping[str, float] | None = None,
) -> tuple[Ranked, ...]:
    """Score and sort: by band, highest score first within it, then by id for stable output."""
    ranked = [
        Ranked(item, round(score(item, similarity.get(item.symbol.id) if similarity is not None else None), 4))
        for item in impacted
    ]
    return tuple(sorted(ranked, key=lambda r: (band(r.impacted), -r.score, r.impacted.symbol.id)))


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def similarities(
    impacted: Sequence[Impacted], changed: Sequence[Symbol], vectors: Mapping[str, Sequence[float]]
) -> dict[str, float]:
    """Each impacted symbol's best cosine similarity to a changed symbol its paths reach."""
    by_id = {s.id: s for s in changed}
    out: dict[str, float] = {}
    for item in impacted:
        own = vectors.get(item.symbol.fingerprint)
        if own is None:
            continue
        reached = [by_id[p[-1]] for p in item.paths if p[-1] in by_id] or list(changed)
        sims = [_cosine(own, vectors[s.fingerprint]) for s in reached if s.fingerprint in vectors]
        if sims:
            out[item.symbol.id] = max(sims)
    return out
