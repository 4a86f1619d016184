"""Tables and target checks printed at the end of a benchmark run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .runs import Row

# Targets, as multiples of the floor's time (see README.md).
TARGETS = {"cold": 2.0, "warm": 0.25, "incremental": 0.4}
RSS_LIMIT_MIB = 1024.0
HEADER = ("run", "seconds", "x floor", "files/s", "peak RSS MiB", "files_parsed")
WIDTHS = (24, 10, 10, 10, 15, 15)


@dataclass(frozen=True, slots=True)
class CorpusResult:
    """Everything printed about one corpus."""

    name: str
    label: str
    files: int
    megabytes: float
    pull_request: str  # one line describing the scripted commits
    repeat: int
    rows: tuple[Row, ...]

    def row(self, name: str) -> Row | None:
        return next((r for r in self.rows if r.name == name), None)

    def ratio(self, name: str) -> float | None:
        """Median time of a row over the floor's median time."""
        row, floor = self.row(name), self.row("floor")
        if row is None or floor is None or row.seconds is None or not floor.seconds:
            return None
        return row.seconds / floor.seconds


def _cells(result: CorpusResult, row: Row) -> tuple[str, ...]:
    if row.seconds is None:
        return (row.name, row.problem or "no data")
    ratio = result.ratio(row.name)
    name = row.name if row.runs >= result.repeat else f"{row.name} [{row.runs} run]"
    return (
        name,
        f"{row.seconds:.3f}",
        f"{ratio:.2f}x" if ratio is not None else "-",
        f"{result.files / row.seconds:.0f}" if row.seconds > 0 else "-",
        f"{row.peak_rss_mib:.0f}" if row.peak_rss_mib is not None else "-",
        row.files_parsed if row.files_parsed is not None else "-",
    )


def _line(cells: Sequence[str]) -> str:
    if len(cells) == 2:  # a row without numbers: its reason runs across the columns
        return f"{cells[0]:<{WIDTHS[0]}}{cells[1]}"
    first = f"{cells[0]:<{WIDTHS[0]}}"
    return first + "".join(f"{c:>{w}}" for c, w in zip(cells[1:], WIDTHS[1:], strict=True))


def table(result: CorpusResult) -> str:
    """The per-corpus table: one row per measured run."""
    title = (
        f"{result.name}: {result.label}, {result.files} .py files, {result.megabytes:.1f} MB; median of {result.repeat}"
    )
    lines = [title, f"  {result.pull_request}", _line(HEADER)]
    lines += [_line(_cells(result, row)) for row in result.rows]
    return "\n".join(lines)


def _fmt(ratio: float | None) -> str:
    return f"{ratio:.2f}x" if ratio is not None else "n/a"


def ratios_line(result: CorpusResult) -> str:
    """``ratios: cold=X.XXx warm=Y.YYx incremental=Z.ZZx``."""
    return "ratios: " + " ".join(f"{name}={_fmt(result.ratio(name))}" for name in TARGETS)


def targets_line(result: CorpusResult) -> str:
    """Whether each target is met; a missing number is reported, never counted as met."""
    parts = []
    for name, limit in TARGETS.items():
        ratio = result.ratio(name)
        verdict = "n/a" if ratio is None else ("met" if ratio <= limit else "MISSED")
        parts.append(f"{name} <= {limit:.2f}x {verdict}")
    measured = [r for r in result.rows if r.name != "floor" and r.peak_rss_mib is not None]
    if measured:
        worst = max(measured, key=lambda r: r.peak_rss_mib or 0.0)
        peak = worst.peak_rss_mib or 0.0
        verdict = "met" if peak < RSS_LIMIT_MIB else "MISSED"
        parts.append(f"peak RSS < 1 GiB {verdict} ({peak:.0f} MiB, {worst.name})")
    else:
        parts.append("peak RSS < 1 GiB n/a")
    return f"targets ({result.name}): " + "; ".join(parts)
