"""One release pair: impactbot's two orders measured against what the tests really ran.

Two truths, both from the traced test run of the head release, each measured
on the part of the ``impacted`` order where it can be found:

- ``tests`` (A): the tests that executed a changed symbol (modified or renamed
  in impactbot's ``changed`` list), in the whole ``impacted`` list. Every
  non-test item is irrelevant here, so this also rewards putting tests first;
- ``test-order``: the same truth among the listed tests only: which tests first;
- ``callers`` (B): the non-test functions that were on the call stack while a
  changed symbol ran, among the non-test items;
- ``either``: A or B, in the whole list: everything the tests showed affected.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .impact_runs import ORDERS, Order, PairReport
from .metrics import Scores, random_scores, scores, tied_random_scores, tiers_of
from .traces import Trace

TRUTHS = ("tests", "test-order", "callers", "either")
TRUTH_TITLES = {
    "tests": "truth A: tests that executed a changed symbol, in the whole impacted list",
    "test-order": "truth A among the listed tests only",
    "callers": "truth B: non-test functions with a changed symbol below them on the stack, among non-test items",
    "either": "A or B, in the whole impacted list",
}
MEASURED_CHANGES = ("modified", "renamed")
EXTRACTOR_CRASH = "could not extract facts"  # impactbot's own failure, unlike a syntax error in the release


@dataclass(frozen=True, slots=True)
class Measured:
    """One truth on one pair: the list's size, the relevant count, scores per order."""

    listed: int
    relevant: int
    orders: Mapping[str, Scores]  # "structural", "semantic", "random" and "shuffled ties"


@dataclass(frozen=True, slots=True)
class PairResult:
    project: str
    base: str
    head: str
    changed: int  # modified or renamed symbols
    changed_ran: int  # of those, how many some test executed
    impacted: int
    unknown: int  # impacted tests left out because their tracing was cut short
    top_ties: int  # items sharing the best structural score (its order among them is by id)
    truths: Mapping[str, Measured | None]  # None: no relevant item is listed
    problems: tuple[str, ...] = ()
    selection: Selection | None = None  # the report's test list against the traced tests

    @property
    def label(self) -> str:
        return f"{self.base}..{self.head}"


@dataclass(frozen=True, slots=True)
class Selection:
    """The report's ``tests`` (what a CI job would run) against the traced tests."""

    traced: int  # tests that ran, with a known truth
    affected: int  # of those, the ones that executed a changed symbol
    selected: int  # of those, the ones the report lists (under any of their ids)
    hits: int  # affected and selected

    @property
    def missed(self) -> int:
        return self.affected - self.hits


def evaluate_pair(project: str, base: str, head: str, reports: Mapping[Order, PairReport], trace: Trace) -> PairResult:
    """Measure both orders of one pair against the traced truths."""
    structural = reports["structural"]
    changed = [cid for cid, change in structural.changed if change in MEASURED_CHANGES]
    executed = frozenset(s for t in trace.tests for s in t.executed)
    tests = trace.test_ids | {i.id for i in structural.impacted if i.is_test}
    # A test whose tracing was cut short and that had not yet run a changed
    # symbol has no known truth: it is left out of every order.
    unknown = trace.unknown_tests(changed)
    kept = {o: _without(r, unknown) for o, r in reports.items()}
    score = {i.id: i.score for i in structural.impacted}
    affected_tests = trace.affected_tests(changed)
    callers = trace.reaching_callers(changed) - tests
    relevant = {"tests": affected_tests, "test-order": affected_tests, "callers": callers,
                "either": affected_tests | callers}  # fmt: skip
    truths = {
        name: _measure({o: _candidates(kept[o], name, tests) for o in ORDERS}, relevant[name], score)
        for name in TRUTHS
    }
    selection = _selection(structural, trace, changed, unknown)
    return PairResult(
        project=project,
        base=base,
        head=head,
        changed=len(changed),
        changed_ran=sum(1 for c in changed if c in executed),
        impacted=len(structural.impacted),
        unknown=sum(1 for i in structural.impacted if i.id in unknown),
        top_ties=_top_ties(structural),
        truths=truths,
        problems=_disagreements(reports),
        selection=selection,
    )


def _selection(report: PairReport, trace: Trace, changed: list[str], unknown: frozenset[str]) -> Selection:
    """A traced test counts once, selected when the report lists any of its ids; a test
    cut short before it ran a changed symbol has no known truth and is left out."""
    targets, listed = frozenset(changed), frozenset(report.tests)
    known = [t for t in trace.tests if not t.aliases & unknown]
    affected = [t for t in known if t.executed & targets]
    return Selection(
        traced=len(known),
        affected=len(affected),
        selected=sum(1 for t in known if t.aliases & listed),
        hits=sum(1 for t in affected if t.aliases & listed),
    )


def _without(report: PairReport, unknown: frozenset[str]) -> PairReport:
    if not unknown:
        return report
    kept = tuple(i for i in report.impacted if i.id not in unknown)
    return PairReport(report.changed, kept, report.ranking, report.skipped)


def _candidates(report: PairReport, truth: str, tests: frozenset[str] | set[str]) -> tuple[str, ...]:
    if truth == "callers":
        return tuple(i for i in report.order if i not in tests)
    if truth == "test-order":
        return tuple(i for i in report.order if i in tests)
    return report.order


def _measure(
    orders: Mapping[str, tuple[str, ...]], relevant: frozenset[str], structural_score: Mapping[str, float]
) -> Measured | None:
    listed = orders["structural"]
    hits = relevant & set(listed)
    if not hits:
        return None
    by_order = {o: scores(orders[o], hits) for o in ORDERS}
    by_order["random"] = random_scores(len(listed), len(hits))
    by_order["shuffled ties"] = tied_random_scores(tiers_of(listed, structural_score, hits))
    return Measured(len(listed), len(hits), by_order)


def _top_ties(report: PairReport) -> int:
    if not report.impacted:
        return 0
    best = max(i.score for i in report.impacted)
    return sum(1 for i in report.impacted if i.score == best)


def _disagreements(reports: Mapping[Order, PairReport]) -> tuple[str, ...]:
    # Ranking may only reorder: both runs must agree on what changed and what is impacted.
    a, b = reports["structural"], reports["semantic"]
    problems = []
    if set(a.changed) != set(b.changed):
        problems.append("the two runs disagree on the changed symbols")
    if set(a.order) != set(b.order):
        problems.append(f"the two runs list different impacted sets ({len(a.order)} vs {len(b.order)})")
    # A file skipped for a syntax error of the release is data; an extractor
    # crash means this impactbot is broken and every number of the pair is suspect.
    crashed = sorted({path for r in (a, b) for path, reason, detail in r.skipped
                      if reason == "parse-error" and detail.startswith(EXTRACTOR_CRASH)})  # fmt: skip
    if crashed:
        problems.append(f"impactbot could not read {len(crashed)} files (first: {crashed[0]})")
    return tuple(problems)
