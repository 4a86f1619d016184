"""Stage `rank`: the order of the impacted list, with and without similarity."""

from __future__ import annotations

from helpers.reports import symbol

from impactbot.model import Confidence, Impacted
from impactbot.rank import rank

CHANGED = "core.py::changed"


def item(name: str, depth: int, *, test: bool = False, confidence: Confidence = "resolved",
         paths: int = 1) -> Impacted:
    sym = symbol("tests/test_core.py" if test else "app.py", name, is_test=test)
    path = (sym.id, *[f"app.py::hop{i}" for i in range(depth - 1)], CHANGED)
    return Impacted(sym, depth, tuple(path for _ in range(paths)), confidence)


def order(items: list[Impacted], similarity: dict[str, float] | None = None) -> list[str]:
    return [r.impacted.symbol.qualname for r in rank(items, similarity=similarity)]


def test_closer_first_then_tests_then_certain_and_many_sided_links() -> None:
    items = [
        item("far_test", 2, test=True),
        item("guessed_caller", 1, confidence="name_match"),
        item("caller", 1),
        item("popular_caller", 1, paths=6),
        item("inferred_test", 1, test=True, confidence="inferred"),
        item("test", 1, test=True),
    ]
    assert order(items) == ["test", "inferred_test", "popular_caller", "caller", "guessed_caller", "far_test"]


def test_no_path_count_or_confidence_lifts_code_above_a_test_of_its_depth() -> None:
    items = [item("busy_caller", 1, paths=50), item("guessed_test", 1, test=True, confidence="name_match")]
    assert order(items) == ["guessed_test", "busy_caller"]


def test_similarity_orders_within_a_depth_and_never_across() -> None:
    items = [item("a_unlike", 1), item("b_alike", 1), item("far_alike", 2), item("test", 1, test=True)]
    similarity = {"app.py::a_unlike": 0.05, "app.py::b_alike": 0.95, "app.py::far_alike": 1.0,
                  "tests/test_core.py::test": 0.0}
    assert order(items) == ["test", "a_unlike", "b_alike", "far_alike"]
    assert order(items, similarity) == ["test", "b_alike", "a_unlike", "far_alike"]


def test_scores_fall_along_the_order() -> None:
    items = [item("test", 1, test=True, confidence="name_match"), item("caller", 1, paths=9),
             item("far_test", 2, test=True), item("far", 2, confidence="inferred"), item("farther", 3)]
    for similarity in (None, {"app.py::caller": 1.0, "app.py::far": 0.0, "app.py::farther": 1.0}):
        scores = [r.score for r in rank(items, similarity=similarity)]
        assert scores == sorted(scores, reverse=True) and len(set(scores)) == len(scores)
        assert all(0 < s <= 1 for s in scores)
