"""The render stage: a ``Report`` as a pull-request comment, a job summary or terminal text.

The markdown comes from jinja2 templates (``templates/comment.md.j2``). Everything the
templates print that comes from the repository (paths, names, refs, reasons) goes
through one of the escaping filters below, so a hostile file name can neither inject
HTML nor break a table, a code span, a link or a ``<details>`` block.

A comment must fit GitHub's limit, so rendering is a loop over ever smaller layouts
(first dropping the collapsed detail sections, then shortening every list) until the
text fits, with a visible note saying what was cut. The module runs past the house
limit of about 400 lines because the comment, the job summary and the terminal text
share one view of the report (rows, ordering, paths), which splitting would duplicate.
"""

from __future__ import annotations

import io
import itertools
import re
import shlex
import shutil
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

import jinja2
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from impactbot.errors import AnalysisError, ConfigError
from impactbot.model import ChangedSymbol, Ranked, Report, Revision, Signature
from impactbot.publish import printable
from impactbot.report import partial_reason

MARKER = "<!-- impactbot:report -->"
TESTS_IN_COMMAND = 50  # a longer pytest command line is not something a reviewer copies
SUMMARY_MAX_BYTES = 1_000_000  # GitHub rejects a job summary over 1 MiB
CHANGED_SHOWN = 20  # changed symbols listed before the rest are folded into a <details>
_MAX_FREE_TEXT = 500  # reasons and notes are single sentences; longer ones are clipped
_ARROW = " ← "


@dataclass(frozen=True)
class RenderOptions:
    """How much of a report the markdown comment shows, and where symbols link to."""

    top: int = 15  # impacted symbols shown in the main table
    max_chars: int = 60_000  # GitHub comment limit is 65,536; stay under this
    repo_url: str | None = None  # e.g. "https://github.com/o/r": link symbols to lines
    no_impact_comment: bool = True  # False: a report without impact renders as ""

    def __post_init__(self) -> None:
        if self.top < 0:
            raise ConfigError(f"top: must be 0 or more, got {self.top}.")
        if self.max_chars < 500:
            raise ConfigError(f"max_chars: must be at least 500, got {self.max_chars}.")
        if self.repo_url is not None and not re.match(r"https?://[^\s]+$", self.repo_url):
            raise ConfigError(f"repo_url: expected an http(s) URL, got '{self.repo_url}'.")


# ------------------------------------------------------------------------- escaping

# Characters that mean something to GitHub markdown inline (CommonMark lets any ASCII
# punctuation be backslash-escaped). ":" and "." stop autolinks, "$" stops math.
_MD_PUNCTUATION = frozenset("\\`*_{}[]()#+-.!|~:$^")
_MD_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_MERMAID_SAFE = re.compile(r"[A-Za-z0-9 _./:-]")


def _one_line(value: object) -> str:
    # A line break would end a table row, a list item or a paragraph.
    return " ".join(str(value).splitlines())


def md_text(value: object) -> str:
    """Inline markdown showing ``value`` literally (usable in table cells too)."""
    out: list[str] = []
    for char in " ".join(str(value).split()):
        if char in _MD_ENTITIES:
            out.append(_MD_ENTITIES[char])
        elif char in _MD_PUNCTUATION:
            out.append("\\" + char)
        elif char == "@":
            out.append("@\u200b")  # no @-mention of whoever a file name names
        else:
            out.append(char)
    return "".join(out)


def md_cell(value: object) -> str:
    """A table cell showing ``value`` literally; never empty, so the row keeps its shape."""
    return md_text(value) or "–"


def md_code(value: object, *, in_table: bool = False) -> str:
    """A code span showing ``value`` exactly, whatever backticks it contains.

    The fence is one backtick longer than the longest run inside (CommonMark's rule).
    In a GFM table a ``|`` ends the cell even inside a code span, unless escaped.
    """
    text = _one_line(value)
    if not text:
        return md_cell(text) if in_table else ""
    fence = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    if text[0] == "`" or text[-1] == "`" or (text[0] == text[-1] == " " and text.strip()):
        text = f" {text} "  # CommonMark strips exactly one space on each side
    if in_table:
        text = text.replace("|", "\\|")
    return f"{fence}{text}{fence}"


def md_cell_code(value: object) -> str:
    """A code span inside a table cell."""
    return md_code(value, in_table=True)


def mermaid_label(value: object) -> str:
    """Text for a quoted mermaid label: everything but plain characters as ``#code;``."""
    return "".join(c if _MERMAID_SAFE.fullmatch(c) else f"#{ord(c)};" for c in _one_line(value))


def code_fence(content: str, info: str = "") -> str:
    """A fenced code block that no line of ``content`` can close."""
    longest = max((len(r) for r in re.findall(r"`+", content)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{content}\n{fence}"


def _number(value: int) -> str:
    return f"{value:,}"


# ---------------------------------------------------------------------- templates


def template_dirs() -> list[Path]:
    """Where the templates are: inside the installed package, or in a source checkout."""
    package = Path(__file__).resolve().parent
    candidates = [package / "templates", package.parent / "templates"]
    return [d for d in candidates if (d / "comment.md.j2").is_file()]


def make_environment() -> jinja2.Environment:
    """A jinja2 environment for impactbot's markdown: strict, unescaped, with the filters."""
    dirs = template_dirs()
    if not dirs:
        raise AnalysisError("impactbot's comment templates are missing from this installation; reinstall impactbot.")
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(dirs),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # markdown, not HTML: the filters escape for markdown instead
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(
        md=md_text,
        cell=md_cell,
        code=md_code,
        cell_code=md_cell_code,
        mermaid=mermaid_label,
        fence=code_fence,
        num=_number,
        count=_count,
    )
    return env


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return make_environment()


# ----------------------------------------------------------------------- view model

_MERMAID_PATHS = 15  # more paths than this make a diagram nobody can read
_DETAIL_SECTIONS = ("skipped", "impacted", "tests")  # in page order; dropped from the end


@dataclass(frozen=True)
class _ChangedRow:
    id: str
    url: str | None
    kind: str
    change: str
    signature_changed: bool
    old_id: str | None
    old_signature: str | None
    signature: str | None
    names: tuple[str, ...] = ()  # module-level names a module's change rebinds, the first few
    more_names: int = 0
    async_turn: str | None = None  # "now async" / "no longer async"


@dataclass(frozen=True)
class _ImpactRow:
    id: str
    url: str | None
    depth: int
    confidence: str
    score: float
    is_test: bool
    path: tuple[str, ...]  # display names, from the changed symbol outwards


@dataclass(frozen=True)
class _BreakingRow:
    file: str
    line: int
    url: str | None
    caller: str
    target: str
    reason: str


@dataclass(frozen=True)
class _Mermaid:
    nodes: tuple[tuple[str, str], ...]  # (node id, symbol id)
    edges: tuple[tuple[str, str], ...]
    changed: tuple[str, ...]


@dataclass(frozen=True)
class _Rows:
    """Everything the templates list, computed once per rendering."""

    changed: tuple[_ChangedRow, ...]
    impacted: tuple[_ImpactRow, ...]
    breaking: tuple[_BreakingRow, ...]
    tests: tuple[str, ...]


@dataclass(frozen=True)
class _Layout:
    """How much of each part to show; ``cap`` shortens every list once details are gone."""

    top: int
    mermaid: int
    tests_in_command: int
    details: tuple[str, ...]
    cap: int | None = None

    def limit(self, size: int) -> int:
        return size if self.cap is None else min(size, self.cap)


def _blob_url(repo_url: str | None, revision: Revision, file: str, line: int) -> str | None:
    if repo_url is None:
        return None
    # Percent-encoding keeps the destination one token: no ")", "<", space or newline.
    base = quote(repo_url.rstrip("/"), safe=":/")
    return f"{base}/blob/{quote(revision.commit)}/{quote(file)}#L{line}"


def _change_order(changed: ChangedSymbol) -> int:
    # What breaks callers first: removals, then signature changes; then what behaves
    # differently, before moves (a renamed directory's symbols, each unchanged) and additions.
    if changed.change == "removed":
        return 0
    if changed.signature_changed or changed.async_turn:
        return 1
    return 2 + ("modified", "renamed", "added").index(changed.change)


MAX_NAMES = 5  # rebound module-level names shown per module; the rest are counted
MAX_SIGNATURE_SHOWN = 100  # longer signatures show only the parameters that changed


def _shown(old: Signature, new: Signature) -> tuple[str, str]:
    """Both signatures as written; when one is long and their parameters pair up, only the
    parameters that differ (``(…, retries=3, …)`` → ``(…, retries=5, …)``), defaults whole."""
    before, after = old.text(), new.text()
    if max(len(before), len(after)) <= MAX_SIGNATURE_SHOWN:
        return before, after
    was, now = old.parts(None), new.parts(None)
    if len(was) != len(now):
        return before, after
    differs = [a != b for a, b in zip(was, now, strict=True)]
    same_returns = old.returns == new.returns
    return (_compact(was, differs, None if same_returns else old.returns),
            _compact(now, differs, None if same_returns else new.returns))


def _compact(parts: list[str], shown: list[bool], returns: str | None) -> str:
    out: list[str] = []
    for part, keep in zip(parts, shown, strict=True):
        if keep:
            out.append(part)
        elif not out or out[-1] != "…":
            out.append("…")
    return "(" + ", ".join(out) + ")" + (f" -> {returns}" if returns else "")


def _changed_row(c: ChangedSymbol, report: Report, repo_url: str | None) -> _ChangedRow:
    side = report.base if c.change == "removed" else report.head
    new, old = c.symbol.signature, c.old_signature
    if new == old:  # only another definition of the name (in a branch) changed: no "(a) → (a)"
        new = old = None
    shown: tuple[str | None, str | None] = (None, None)
    if c.signature_changed and old is not None and new is not None:
        shown = _shown(old, new)
    elif c.signature_changed:
        shown = (old.text() if old is not None else None, new.text() if new is not None else None)
    return _ChangedRow(
        id=c.symbol.id,
        url=_blob_url(repo_url, side, c.symbol.path, c.symbol.line),
        kind=c.symbol.kind,
        change=c.change,
        signature_changed=c.signature_changed,
        old_id=c.old_id if c.change == "renamed" else None,
        old_signature=shown[0],
        signature=shown[1],
        names=c.names[:MAX_NAMES],
        more_names=max(len(c.names) - MAX_NAMES, 0),
        async_turn=c.async_turn.replace("_", " ") if c.async_turn else None,
    )


def _display_names(report: Report) -> dict[str, str]:
    symbols = [c.symbol for c in report.changed] + [r.impacted.symbol for r in report.impacted]
    return {s.id: s.qualname or s.path for s in symbols}


def _impact_row(r: Ranked, report: Report, repo_url: str | None, names: dict[str, str]) -> _ImpactRow:
    s, paths = r.impacted.symbol, r.impacted.paths
    # Paths run from the impacted symbol down; a reader follows the change outwards.
    path = tuple(names.get(i) or i.partition("::")[2] or i for i in reversed(paths[0])) if paths else ()
    return _ImpactRow(
        id=s.id,
        url=_blob_url(repo_url, report.head, s.path, s.line),
        depth=r.impacted.depth,
        confidence=r.impacted.confidence,
        score=round(r.score, 4),
        is_test=s.is_test,
        path=path,
    )


def _rows(report: Report, repo_url: str | None) -> _Rows:
    names = _display_names(report)
    return _Rows(
        changed=tuple(_changed_row(c, report, repo_url) for c in sorted(report.changed, key=_change_order)),
        impacted=tuple(_impact_row(r, report, repo_url, names) for r in report.impacted),
        breaking=tuple(
            _BreakingRow(
                b.file, b.line, _blob_url(repo_url, report.head, b.file, b.line), b.caller, b.target, _clip(b.reason)
            )
            for b in report.breaking
        ),
        tests=tuple(sorted(report.tests)),
    )


def _mermaid(report: Report, count: int) -> _Mermaid | None:
    paths = [r.impacted.paths[0] for r in report.impacted[:count] if r.impacted.paths]
    if not paths:
        return None
    # Symbol ids can hold anything, mermaid node ids cannot: number the nodes.
    nodes: dict[str, str] = {}
    for sid in (sid for path in paths for sid in path):
        nodes.setdefault(sid, f"n{len(nodes)}")
    edges = dict.fromkeys((nodes[a], nodes[b]) for p in paths for a, b in itertools.pairwise(p))
    changed = {c.symbol.id for c in report.changed} | {p[-1] for p in paths}
    return _Mermaid(
        nodes=tuple((n, sid) for sid, n in nodes.items()),
        edges=tuple(edges),
        changed=tuple(n for sid, n in nodes.items() if sid in changed),
    )


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_FREE_TEXT else text[: _MAX_FREE_TEXT - 1] + "…"


def has_impact(report: Report) -> bool:
    """Whether anything beyond the changed symbols themselves is affected."""
    return bool(
        report.impacted or report.tests or report.breaking or report.hubs or report.run_all_tests or report.omitted
    )


def headline(report: Report) -> str:
    """``5 changed, 6 impacted, 3 tests, 1 hub, 2 breaking call sites``."""
    parts = [
        f"{len(report.changed):,} changed",
        f"{len(report.impacted) + report.omitted:,} impacted",
        _count(len(report.tests), "test"),
        _count(len(report.hubs), "hub"),
    ]
    if report.breaking:
        parts.append(_count(len(report.breaking), "breaking call site"))
    return ", ".join(parts)


def _in_command(rows: _Rows, layout: _Layout) -> int:
    return layout.limit(min(layout.tests_in_command, len(rows.tests)))


def _truncation_note(rows: _Rows, report: Report, layout: _Layout, first: _Layout) -> str | None:
    if layout == first:
        return None
    impacted, tests = len(rows.impacted), len(rows.tests)
    hidden = {
        "impacted symbol": 0 if "impacted" in layout.details else impacted - min(impacted, layout.limit(layout.top)),
        "test": 0 if "tests" in layout.details else tests - _in_command(rows, layout),
        "changed symbol": len(rows.changed) - layout.limit(len(rows.changed)),
        "breaking call site": len(rows.breaking) - layout.limit(len(rows.breaking)),
        "hub": len(report.hubs) - layout.limit(len(report.hubs)),
        "skipped file": 0 if "skipped" in layout.details or "skipped" not in first.details else len(report.skipped),
    }
    parts = [f"{_count(n, 'more ' + noun)}" for noun, n in hidden.items() if n > 0]
    what = ", ".join(parts) if parts else "some detail sections"
    return f"… truncated: {what} not shown here; see the job summary or the JSON report."


def _view(report: Report, rows: _Rows, layout: _Layout, first: _Layout) -> dict[str, object]:
    in_command = _in_command(rows, layout)
    return {
        "marker": MARKER,
        "report": report,
        "impact": has_impact(report),
        "headline": headline(report),
        "partial_reason": _clip(reason) if (reason := partial_reason(report)) else None,
        "run_all_tests": _clip(report.run_all_tests) if report.run_all_tests else None,
        "changed": rows.changed[: layout.limit(len(rows.changed))],
        # the most telling first (removed, signature changes); the rest folded away
        "changed_shown": CHANGED_SHOWN,
        "top": rows.impacted[: layout.limit(layout.top)],
        "all_impacted": rows.impacted if "impacted" in layout.details else (),
        "mermaid": _mermaid(report, layout.limit(layout.mermaid)),
        "tests": rows.tests,
        "tests_in_command": in_command,
        "command": " ".join(["pytest", *(shlex.quote(t) for t in rows.tests[:in_command])]),
        "all_tests": rows.tests if "tests" in layout.details else (),
        "breaking": rows.breaking[: layout.limit(len(rows.breaking))],
        "hubs": report.hubs[: layout.limit(len(report.hubs))],
        "skipped": report.skipped if "skipped" in layout.details else (),
        "skipped_reasons": sorted(Counter(s.reason for s in report.skipped).items()),
        "notes": [_clip(n) for n in report.notes],
        "note": _truncation_note(rows, report, layout, first),
    }


# ------------------------------------------------------------------------ markdown


def _layouts(first: _Layout) -> Iterator[_Layout]:
    """Ever smaller layouts: drop detail sections from the end, then shorten every list."""
    yield first
    for kept in range(len(first.details) - 1, -1, -1):
        yield replace(first, details=first.details[:kept])
    for cap in (200, 100, 50, 20, 10, 5, 2, 1, 0):
        yield replace(first, details=(), cap=cap)


def _size(text: str, in_bytes: bool) -> int:
    return len(text.encode()) if in_bytes else len(text)


def _cut(text: str, limit: int, in_bytes: bool) -> str:
    # Last resort, when even the shortest layout is too long (a giant reason string):
    # a cut comment is still honest, and its marker line survives.
    if in_bytes:
        return text.encode()[:limit].decode(errors="ignore")
    return text[:limit]


def _fit(report: Report, options: RenderOptions, first: _Layout, limit: int, in_bytes: bool) -> str:
    template = _environment().get_template("comment.md.j2")
    rows = _rows(report, options.repo_url)
    text = ""
    for layout in _layouts(first):
        text = printable(template.render(v=_view(report, rows, layout, first)))
        if _size(text, in_bytes) <= limit:
            return text
    return _cut(text, limit, in_bytes)


_DEFAULT_OPTIONS = RenderOptions()


def render_markdown(report: Report, options: RenderOptions = _DEFAULT_OPTIONS) -> str:
    """The pull-request comment: MARKER on the first line, at most ``options.max_chars`` long.

    With ``options.no_impact_comment`` off, a complete report without impact renders
    as ``""``: there is nothing worth a comment.
    """
    if not options.no_impact_comment and report.status == "complete" and not has_impact(report):
        return ""
    details = tuple(
        d
        for d in _DETAIL_SECTIONS
        if (d == "skipped" and report.skipped)
        or (d == "impacted" and len(report.impacted) > options.top)
        or (d == "tests" and len(report.tests) > TESTS_IN_COMMAND)
    )
    first = _Layout(options.top, min(options.top, _MERMAID_PATHS), TESTS_IN_COMMAND, details)
    return _fit(report, options, first, options.max_chars, in_bytes=False)


def render_summary(report: Report, options: RenderOptions = _DEFAULT_OPTIONS) -> str:
    """The job summary: every impacted symbol and the command for every test, under 1 MiB."""
    first = _Layout(
        top=len(report.impacted),
        mermaid=min(options.top, _MERMAID_PATHS),
        tests_in_command=len(report.tests),
        details=("skipped",) if report.skipped else (),
    )
    return _fit(report, options, first, SUMMARY_MAX_BYTES, in_bytes=True)


_MAX_FAILURE_MESSAGE = 2_000


def render_failure_markdown(message: str) -> str:
    """The comment for a run that could not analyse at all: MARKER and the error."""
    if len(message) > _MAX_FAILURE_MESSAGE:
        message = message[: _MAX_FAILURE_MESSAGE - 1] + "…"
    template = _environment().get_template("failure.md.j2")
    return template.render(marker=MARKER, message=message)


# ---------------------------------------------------------------------------- text


def _terminal_width() -> int:
    return shutil.get_terminal_size((100, 24)).columns


def render_text(report: Report, *, color: bool, width: int | None = None) -> str:
    """The report for a terminal (``impactbot diff``); plain text when ``color`` is off."""
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width or _terminal_width(),
        force_terminal=color,
        color_system="standard" if color else None,
        no_color=not color,
        highlight=False,
        markup=False,  # names from the repository are data, never rich markup
        emoji=False,
    )
    for part in _text_parts(report):
        console.print(part)
    return buffer.getvalue()


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _plain(text: str) -> str:
    # A name holding an escape sequence must not recolour or rewrite the terminal.
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _text(text: str, style: str = "") -> Text:
    return Text(_plain(text), style=style)


def _text_parts(report: Report) -> Iterator[RenderableType]:
    rows = _rows(report, None)
    if (reason := partial_reason(report)) is not None:
        yield _text(f"⚠ Partial analysis, results are incomplete: {reason}", "bold yellow")
    if report.run_all_tests:
        yield _text(f"Run the whole test suite: {report.run_all_tests}", "bold magenta")
    if has_impact(report):
        yield _text(f"impactbot: {headline(report)}", "bold")
    else:
        changed = _count(len(report.changed), "changed symbol")
        yield _text(f"No impact: {changed}, no callers or tests reach them.", "bold green")
    yield from _text_tables(rows)
    yield from _text_limits(report)
    if rows.tests:
        yield _text(f"Tests to run ({len(rows.tests):,}):", "bold")
        yield _text("\n".join(f"  {t}" for t in rows.tests))


def _text_tables(rows: _Rows) -> Iterator[RenderableType]:
    if rows.breaking:
        table = _table("Breaking call sites", "Call site", "Caller", "Calls", "Why")
        for b in rows.breaking:
            table.add_row(_text(f"{b.file}:{b.line}"), _text(b.caller), _text(b.target), _text(b.reason))
        yield table
    if rows.changed:
        table = _table("Changed symbols", "Change", "Kind", "Symbol")
        for c in rows.changed:
            table.add_row(_text(_text_change(c)), c.kind, _text(c.id))
        yield table
    if rows.impacted:
        table = _table("Impacted symbols", "Score", "Depth", "Symbol", "Path")
        for r in rows.impacted:
            symbol = f"{r.id} (test)" if r.is_test else r.id
            table.add_row(f"{r.score:.2f}", str(r.depth), _text(symbol), _text(_ARROW.join(r.path)))
        yield table


def _text_change(row: _ChangedRow) -> str:
    change = _text_change_kind(row)
    return f"{change}, {row.async_turn}" if row.async_turn else change


def _text_change_kind(row: _ChangedRow) -> str:
    if row.signature_changed and row.old_signature and row.signature:
        return f"signature {row.old_signature} → {row.signature}"
    if row.change == "renamed":
        return f"renamed from {row.old_id}"
    if row.signature_changed:
        return "signature changed"
    if row.names:
        more = f" and {row.more_names} more" if row.more_names else ""
        return f"{row.change}: {', '.join(row.names)}{more}"
    return row.change


def _table(title: str, *columns: str) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", expand=False)
    for column in columns:
        # Ids wrap rather than being cut with an ellipsis: a partial id is useless.
        table.add_column(column, overflow="fold")
    return table


def _text_limits(report: Report) -> Iterator[RenderableType]:
    for hub in report.hubs:
        yield _text(f"Hub not expanded: {hub.id} ({_count(hub.callers, 'caller')})")
    if report.unresolved_calls:
        calls = _count(report.unresolved_calls, "call")
        yield _text(f"{calls} could not be resolved, so the list is a lower bound.", "yellow")
    if report.depth_limit_hit:
        yield _text("The depth limit was reached: symbols further from the change are not listed.")
    if report.omitted:
        yield _text(f"{_count(report.omitted, 'more impacted symbol')} left out by the size limit.")
    for skipped in report.skipped:
        detail = f": {skipped.detail}" if skipped.detail else ""
        yield _text(f"Skipped {skipped.path} ({skipped.reason}{detail})")
    for note in report.notes:
        yield _text(f"Note: {note}")
