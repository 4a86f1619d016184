"""The printed results: per-pair rows, per-project and overall means, the final line."""

from __future__ import annotations

from collections.abc import Sequence

from .evaluate import TRUTH_TITLES, PairResult, Selection
from .metrics import Scores, mean

COLUMNS = ("structural", "semantic", "random", "shuffled ties")
MEASURES = (("R@10", "recall_at_10"), ("R@5", "recall_at_5"), ("MRR", "mrr"))


def _score_header() -> str:
    return "  ".join(f"{name + ' str':>8} {'sem':>4} {'rnd':>4} {'tie':>4}" for name, _ in MEASURES)


def _score_cells(orders: dict[str, Scores] | None) -> str:
    if orders is None:
        return "  ".join(f"{'-':>8} {'-':>4} {'-':>4} {'-':>4}" for _ in MEASURES)
    cells = []
    for _, attr in MEASURES:
        first, *rest = (getattr(orders[c], attr) for c in COLUMNS)
        cells.append(f"{first:>8.2f} " + " ".join(f"{v:>4.2f}" for v in rest))
    return "  ".join(cells)


def pair_table(results: Sequence[PairResult], truth: str) -> str:
    """One row per pair: sizes, relevant count and the three orders' scores."""
    lines = [
        f"== {TRUTH_TITLES[truth]} ==",
        f"{'pair':<30} {'changed':>7} {'ran':>4} {'impacted':>8} {'cut':>3} {'ties':>5} {'listed':>6} {'relevant':>8}  "
        + _score_header(),
    ]
    for r in results:
        measured = r.truths[truth]
        sizes = f"{measured.listed:>6} {measured.relevant:>8}" if measured else f"{'-':>6} {0:>8}"
        counts = f"{r.changed:>7} {r.changed_ran:>4} {r.impacted:>8} {r.unknown:>3} {r.top_ties:>5}"
        cells = _score_cells(dict(measured.orders) if measured else None)
        lines.append(f"{r.project + ' ' + r.label:<30} {counts} {sizes}  {cells}")
    return "\n".join(lines)


def averages(results: Sequence[PairResult], truth: str) -> dict[str, Scores] | None:
    """Macro averages per order over the pairs that have this truth; None when none has."""
    measured = [r.truths[truth] for r in results if r.truths[truth] is not None]
    if not measured:
        return None
    return {c: mean([m.orders[c] for m in measured if m is not None]) for c in COLUMNS}


def summary_table(results: Sequence[PairResult], projects: Sequence[str], truth: str) -> str:
    """Per-project and overall means; ``wider`` counts pairs whose list is longer than 10."""
    lines = [
        f"== summary, {TRUTH_TITLES[truth]} ==",
        f"{'project':<16} {'pairs':>5} {'truth':>5} {'>10':>4}  " + _score_header(),
    ]
    groups = [(p, [r for r in results if r.project == p]) for p in projects]
    groups.append(("overall", list(results)))
    for name, group in groups:
        with_truth = [r for r in group if r.truths[truth] is not None]
        wider = sum(1 for r in with_truth if (m := r.truths[truth]) is not None and m.listed > 10)
        lines.append(
            f"{name:<16} {len(group):>5} {len(with_truth):>5} {wider:>4}  {_score_cells(averages(group, truth))}"
        )
    wide = [r for r in results if (m := r.truths[truth]) is not None and m.listed > 10]
    n = len(wide)
    lines.append(f"{'overall, >10':<16} {n:>5} {n:>5} {n:>4}  {_score_cells(averages(wide, truth))}")
    return "\n".join(lines)


def final_line(results: Sequence[PairResult]) -> str:
    """``recall@10: structural=X semantic=Y (n=N pairs)`` for truth A."""
    means = averages(results, "tests")
    n = sum(1 for r in results if r.truths["tests"] is not None)
    if means is None:
        return "recall@10: structural=n/a semantic=n/a (n=0 pairs)"
    s, m = means["structural"].recall_at_10, means["semantic"].recall_at_10
    return f"recall@10: structural={s:.3f} semantic={m:.3f} (n={n} pairs)"


def selection_table(results: Sequence[PairResult], projects: Sequence[str]) -> str:
    """The report's test list as a CI job would run it: per pair, then per project and
    overall, how many of the tests that executed a changed symbol it selects (recall),
    how many of those it selects were such tests (precision), and its share of the suite."""
    lines = [
        "== test selection: the report's tests against the traced tests ==",
        f"{'pair':<30} {'traced':>6} {'affected':>8} {'selected':>8} {'missed':>6} {'recall':>6} {'precision':>9}",
    ]
    for r in results:
        if r.selection is not None:
            lines.append(f"{r.project + ' ' + r.label:<30} {_selection_cells(r.selection)}")
    groups = [(p, [r for r in results if r.project == p]) for p in projects] + [("overall", list(results))]
    for name, group in groups:
        total = _summed([r.selection for r in group if r.selection is not None])
        if total is not None:
            lines.append(f"{name:<30} {_selection_cells(total)}")
    return "\n".join(lines)


def selection_line(results: Sequence[PairResult]) -> str:
    """``selection: recall=X precision=Y share=Z (n=N pairs)``, summed over every pair."""
    chosen = [r.selection for r in results if r.selection is not None]
    total = _summed(chosen)
    if total is None or not total.affected or not total.selected:
        return f"selection: recall=n/a precision=n/a share=n/a (n={len(chosen)} pairs)"
    return (f"selection: recall={total.hits / total.affected:.3f} precision={total.hits / total.selected:.3f} "
            f"share={total.selected / total.traced:.3f} (n={len(chosen)} pairs)")


def _summed(selections: Sequence[Selection]) -> Selection | None:
    if not selections:
        return None
    return Selection(*(sum(getattr(s, f) for s in selections) for f in ("traced", "affected", "selected", "hits")))


def _selection_cells(s: Selection) -> str:
    recall = f"{s.hits / s.affected:>6.3f}" if s.affected else f"{'-':>6}"
    precision = f"{s.hits / s.selected:>9.3f}" if s.selected else f"{'-':>9}"
    return f"{s.traced:>6} {s.affected:>8} {s.selected:>8} {s.missed:>6} {recall} {precision}"
