"""Hand-built ``Report`` values for tests of the report, render and publish stages.

``sample_report()`` is a realistic pull request on a small payment codebase; the
other builders derive the other states (no impact, partial, large, hostile names)
from the same pieces, so a reader learns one scenario and recognises the rest.
"""

from __future__ import annotations

from dataclasses import replace

from impactbot.model import (
    Breaking,
    ChangedSymbol,
    Confidence,
    Hub,
    Impacted,
    Param,
    Ranked,
    Report,
    Revision,
    Signature,
    SkippedFile,
    Stats,
    Symbol,
    SymbolKind,
    symbol_id,
)

BASE_COMMIT = "3f1c2a9e8d7b6c5a4f3e2d1c0b9a8f7e6d5c4b3a"
HEAD_COMMIT = "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b"
REPO_URL = "https://github.com/acme/shop"


def symbol(
    path: str,
    qualname: str,
    kind: SymbolKind = "function",
    line: int = 1,
    *,
    end_line: int | None = None,
    signature: Signature | None = None,
    is_test: bool = False,
    language: str = "python",
) -> Symbol:
    """A graph node with a fingerprint derived from its id (stable across runs)."""
    sid = symbol_id(path, qualname)
    return Symbol(
        id=sid,
        path=path,
        qualname=qualname,
        kind=kind,
        line=line,
        end_line=end_line if end_line is not None else line + 4,
        fingerprint=f"fp:{sid}",
        language=language,
        signature=signature,
        is_test=is_test,
    )


def params(*names: str, defaults: int = 0) -> Signature:
    """``params("a", "b", defaults=1)`` -> ``(a, b=…)``."""
    first_default = len(names) - defaults
    return Signature(tuple(Param(n, "positional", has_default=i >= first_default) for i, n in enumerate(names)))


def ranked(
    sym: Symbol,
    depth: int,
    *path: str,
    score: float = 0.5,
    confidence: Confidence = "resolved",
) -> Ranked:
    """An impacted symbol whose one path runs ``sym`` -> ``path[0]`` -> ... -> changed."""
    return Ranked(Impacted(sym, depth, ((sym.id, *path),), confidence), score)


def revision(ref: str, commit: str, *, worktree: bool = False) -> Revision:
    return Revision(ref=ref, commit=commit, files=(), worktree=worktree)


# ------------------------------------------------------------------ the scenario

TOTAL = symbol(
    "pkg/orders.py",
    "calculate_order_total",
    line=12,
    end_line=30,
    signature=Signature(
        (
            Param("items", "positional", False, "list[Item]"),
            Param("currency", "positional", False, "str"),
        ),
        returns="Decimal",
    ),
)
TOTAL_OLD_SIGNATURE = Signature((Param("items", "positional", False, "list[Item]"),), "Decimal")
CART_TOTAL = symbol("pkg/orders.py", "Cart::total", "method", 40, signature=params("self"))
OLD_DISCOUNT = symbol("pkg/legacy.py", "old_discount", line=7, signature=params("order"))
APPLY_TAX = symbol("pkg/pricing.py", "apply_tax", line=3, signature=params("amount", "rate"))
PROMO = symbol("pkg/promo.py", "Promo", "class", 5)

CHECKOUT = symbol("pkg/checkout.py", "process_checkout", line=40)
INVOICE = symbol("pkg/invoice.py", "render_invoice", line=18)
VIEW = symbol("pkg/api.py", "CheckoutView::post", "method", 25)
TEST_CHECKOUT = symbol("tests/test_checkout.py", "test_checkout_total", line=9, is_test=True)
MONTHLY = symbol("pkg/reports.py", "monthly_revenue", line=61)
REFUND = symbol("pkg/refunds.py", "refund", line=30)


def sample_changed() -> tuple[ChangedSymbol, ...]:
    """Five changes, deliberately not in display order (the renderer sorts)."""
    return (
        ChangedSymbol(CART_TOTAL, "modified"),
        ChangedSymbol(PROMO, "added"),
        ChangedSymbol(TOTAL, "modified", True, old_signature=TOTAL_OLD_SIGNATURE),
        ChangedSymbol(APPLY_TAX, "renamed", old_id="pkg/pricing.py::add_tax"),
        ChangedSymbol(OLD_DISCOUNT, "removed"),
    )


def sample_impacted() -> tuple[Ranked, ...]:
    return (
        ranked(CHECKOUT, 1, TOTAL.id, score=0.91),
        ranked(VIEW, 2, CHECKOUT.id, TOTAL.id, score=0.77),
        ranked(TEST_CHECKOUT, 2, CHECKOUT.id, TOTAL.id, score=0.74),
        ranked(INVOICE, 1, CART_TOTAL.id, score=0.52, confidence="inferred"),
        ranked(REFUND, 1, OLD_DISCOUNT.id, score=0.4),
        ranked(MONTHLY, 3, INVOICE.id, CART_TOTAL.id, score=0.123456, confidence="name_match"),
    )


def sample_report(**changes: object) -> Report:
    """A complete analysis that found impact; keyword arguments replace fields."""
    report = Report(
        base=revision("main", BASE_COMMIT),
        head=revision("feature/currency", HEAD_COMMIT),
        changed=sample_changed(),
        impacted=sample_impacted(),
        tests=(
            "tests/test_orders.py::TestCart::test_total",
            "tests/test_checkout.py::test_checkout_total",
            "tests/test_api.py::test_post_checkout",
        ),
        breaking=(
            Breaking(TOTAL.id, CHECKOUT.id, "pkg/checkout.py", 44, "missing required argument 'currency'"),
            Breaking(OLD_DISCOUNT.id, REFUND.id, "pkg/refunds.py", 33, "calls a removed function"),
        ),
        hubs=(Hub("pkg/db.py::execute_query", 240),),
        depth_limit_hit=False,
        omitted=0,
        unresolved_calls=3,
        stats=Stats(files_parsed=3, files_cached=812, seconds=0.4219),
        skipped=(SkippedFile("pkg/vendored/big_table.py", "too-large", "2.1 MB > 1 MB limit"),),
    )
    return replace(report, **changes)


def no_impact_report() -> Report:
    """Two body changes that nothing calls."""
    return sample_report(
        changed=(
            ChangedSymbol(symbol("pkg/util.py", "slugify", line=3), "modified"),
            ChangedSymbol(symbol("pkg/util.py", "Slug", "class", 20), "added"),
        ),
        impacted=(),
        tests=(),
        breaking=(),
        hubs=(),
        unresolved_calls=0,
        skipped=(),
    )


def partial_report() -> Report:
    """The time budget ran out after the first hop."""
    return sample_report(
        status="partial",
        partial_reason="the time budget of 60 s ran out while linking 4,210 files",
        impacted=sample_impacted()[:2],
        depth_limit_hit=True,
        breaking=(),
    )


def large_report(impacted: int = 500, tests: int = 2000, path_length: int = 8) -> Report:
    """A change to a core helper reaching far: long ids, long paths, many tests."""
    core = symbol("src/platform/core/accounting/ledger_balances.py", "LedgerBalances::recompute", "method", 120)
    chain = [
        symbol(
            f"src/platform/services/module_{i:03d}/handlers.py",
            f"Handler{i:03d}::process_event_batch",
            "method",
            10 + i,
        )
        for i in range(path_length)
    ]
    rows = []
    for i in range(impacted):
        sym = symbol(
            f"src/platform/services/module_{i % 97:03d}/subsystem_{i:04d}/operations.py",
            f"OperationGroup{i:04d}::handle_incoming_request_with_retry",
            "method",
            100 + i,
            is_test=i % 10 == 0,
        )
        middle = [c.id for c in chain[: 1 + i % path_length]]
        rows.append(ranked(sym, len(middle) + 1, *middle, core.id, score=1 - i / (impacted + 1)))
    return sample_report(
        changed=(ChangedSymbol(core, "modified", True, old_signature=params("self")),),
        impacted=tuple(rows),
        tests=tuple(
            f"tests/platform/services/test_module_{i % 97:03d}.py::TestOperations::test_case_{i:05d}"
            for i in range(tests)
        ),
        breaking=(),
        hubs=(Hub("src/platform/db/session.py::execute_query", 1312),),
        omitted=12,
        depth_limit_hit=True,
        unresolved_calls=41,
    )


# A file name that tries everything: a code-span breaker, table pipes, raw HTML,
# emphasis, a link, a closing <details>, a mention and a newline.
HOSTILE_PATH = "a`|<img src=x onerror=alert(1)>*_[x](http://e)|.py"
HOSTILE_OTHER = "b</details><script>x</script>``|.py"


def hostile_report() -> Report:
    """Every name, path and reason that comes from the repository is hostile."""
    evil = symbol(HOSTILE_PATH, "f", line=2)
    other = symbol(HOSTILE_OTHER, 'K"[x]<y>::m', "method", 4)
    test = symbol("tests/test_`x`.py", "test_<b>ok</b>|", line=8, is_test=True)
    return sample_report(
        base=revision("main`|<b>", BASE_COMMIT),
        changed=(ChangedSymbol(evil, "modified", True, old_signature=params("a`b")),),
        impacted=(
            ranked(other, 1, evil.id, score=0.9),
            ranked(test, 2, other.id, evil.id, score=0.8),
        ),
        tests=(test.id, "tests/it's `$(rm -rf ~)`.py::test_q"),
        breaking=(Breaking(evil.id, other.id, HOSTILE_OTHER, 5, "missing <b>x</b> | `y` @octocat [z](http://e)"),),
        hubs=(Hub(f"{HOSTILE_PATH}::hub", 99),),
        skipped=(SkippedFile("c</details>|`.py", "parse-error", "line 1: <img src=x>\n</details>"),),
        notes=("see [docs](javascript:alert(1)) </details>",),
        run_all_tests="conftest.py changed: <b>`|`</b>",
        status="partial",
        partial_reason="budget <img src=x onerror=alert(1)> | ran out",
    )
