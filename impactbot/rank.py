"""Stage `rank`: order the impacted symbols; never add or drop one.

The structural score prefers symbols close to the change, reached by several
paths and by certain edges. A semantic score (cosine similarity between the
code of an impacted symbol and the code of the changed symbols it reaches) can
be blended in; it only reorders the list the graph decided.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from impactbot.model import Impacted, Ranked, Symbol

CONFIDENCE_WEIGHT = {"resolved": 1.0, "inferred": 0.8, "name_match": 0.5}
SEMANTIC_WEIGHT = 0.35


TEST_WEIGHT = 1.0
CODE_WEIGHT = 0.92  # at equal depth a test comes first: it is what a reviewer runs


def structural_score(item: Impacted) -> float:
    """In (0, 1]: 1 for a direct, certain caller that is a test or is reached by several paths."""
    closeness = 1.0 / item.depth
    multiplicity = 1.0 + 0.04 * (len(item.paths) - 1)
    kind = TEST_WEIGHT if item.symbol.is_test else CODE_WEIGHT
    return min(1.0, closeness * CONFIDENCE_WEIGHT[item.confidence] * multiplicity * kind)


def rank(
    impacted: Sequence[Impacted],
    *,
    similarity: Mapping[str, float] | None = None,
) -> tuple[Ranked, ...]:
    """Score and sort, highest first; ties broken by depth then id for stable output."""
    ranked = []
    for item in impacted:
        score = structural_score(item)
        if similarity is not None and item.symbol.id in similarity:
            sim = max(0.0, similarity[item.symbol.id])
            score = (1 - SEMANTIC_WEIGHT) * score + SEMANTIC_WEIGHT * sim
        ranked.append(Ranked(item, round(score, 4)))
    return tuple(sorted(ranked, key=lambda r: (-r.score, r.impacted.depth, r.impacted.symbol.id)))


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
