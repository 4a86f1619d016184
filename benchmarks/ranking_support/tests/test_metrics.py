from __future__ import annotations

from itertools import permutations

import pytest

from ranking_support.metrics import (
    Scores,
    mean,
    random_scores,
    recall_at,
    reciprocal_rank,
    scores,
    tied_random_scores,
    tiers_of,
)


def test_recall_divides_by_what_could_fit_in_the_top_k() -> None:
    order = ["a", "b", "c", "d", "e", "f"]
    assert recall_at(order, {"b", "f"}, 5) == 0.5
    assert recall_at(order, {"a", "b", "c", "d", "e", "f"}, 5) == 1.0  # 5 of 6, but only 5 fit
    assert recall_at(order, {"e"}, 4) == 0.0


def test_reciprocal_rank_is_one_over_the_first_hit() -> None:
    assert reciprocal_rank(["x", "y", "z"], {"z", "y"}) == 0.5
    assert reciprocal_rank(["x"], {"q"}) == 0.0


def test_scores_only_count_relevant_items_the_list_holds() -> None:
    listed = [f"s{i}" for i in range(12)]
    # "missing" was not listed: it cannot be ranked, so it must not lower the recall.
    result = scores(listed, {"s0", "s11", "missing"})
    assert result == Scores(recall_at_10=0.5, recall_at_5=0.5, mrr=1.0)


def test_scores_refuse_a_list_without_relevant_items() -> None:
    with pytest.raises(ValueError, match="no relevant item"):
        scores(["a"], {"b"})


@pytest.mark.parametrize(("listed", "relevant"), [(1, 1), (4, 2), (7, 3), (12, 2), (13, 11)])
def test_random_expectation_matches_every_order_averaged(listed: int, relevant: int) -> None:
    items = [f"i{n}" for n in range(listed)]
    wanted = set(items[:relevant])
    orders = list(permutations(items)) if listed <= 7 else _rotations(items)
    averaged = mean([scores(list(o), wanted) for o in orders])
    expected = random_scores(listed, relevant)
    if listed <= 7:  # exhaustive: the expectation is exact
        assert expected.recall_at_5 == pytest.approx(averaged.recall_at_5)
        assert expected.mrr == pytest.approx(averaged.mrr)
    assert expected.recall_at_10 == pytest.approx(min(10, listed) * relevant / listed / min(10, relevant))


def _rotations(items: list[str]) -> list[list[str]]:
    return [items[i:] + items[:i] for i in range(len(items))]


def test_random_expectation_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="relevant <= listed"):
        random_scores(3, 4)


def test_mean_weighs_every_pair_the_same() -> None:
    assert mean([Scores(1.0, 0.0, 0.5), Scores(0.0, 1.0, 0.25)]) == Scores(0.5, 0.5, 0.375)


def test_shuffling_ties_is_averaging_every_order_that_keeps_the_tiers() -> None:
    # Scores 3, 3, 3, 2, 2, 1, 1 with relevant items "b", "d" and "g".
    order = ["a", "b", "c", "d", "e", "f", "g"]
    score = {"a": 3.0, "b": 3.0, "c": 3.0, "d": 2.0, "e": 2.0, "f": 1.0, "g": 1.0}
    relevant = {"b", "d", "g"}
    tiers = tiers_of(order, score, relevant)
    assert tiers == [(3, 1), (2, 1), (2, 1)]
    shuffled = [
        list(x) + list(y) + list(z)
        for x in permutations(order[:3])
        for y in permutations(order[3:5])
        for z in permutations(order[5:])
    ]
    averaged = mean([scores(o, relevant) for o in shuffled])
    expected = tied_random_scores(tiers)
    assert expected.recall_at_5 == pytest.approx(averaged.recall_at_5)
    assert expected.recall_at_10 == pytest.approx(averaged.recall_at_10) == 1.0
    assert expected.mrr == pytest.approx(averaged.mrr)


def test_one_tier_is_a_random_order() -> None:
    assert tied_random_scores([(9, 4)]) == random_scores(9, 4)
