"""The trace of a linked revision: what deriving another revision's graph from it needs.

Filled by :class:`Recorder` (the link's :class:`~impactbot.link.SiteWatch`)
while the two resolution passes run; kept in the cache next to the graph.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from impactbot.link import Outcome, _Linker
from impactbot.link.dirty import Read, Reads, fixture_names, named_by_site
from impactbot.link.python import Target
from impactbot.link.tracing import Item, TracingResolver
from impactbot.model import CallSite, FileFacts, LinkedGraph

TRACE_FORMAT = 1
READS_FORMAT = 1001  # marks the rows that hold a file's reads

FrozenOutcome = tuple[tuple[tuple[str, bool, bool | None], ...], str]


@dataclass(frozen=True)
class FileTrace:
    """What the link saw at the call sites of one file (indices into ``FileFacts.calls``)."""

    count: int
    touched: frozenset[int] = frozenset()
    cyclic1: frozenset[int] = frozenset()
    cyclic2: frozenset[int] = frozenset()
    entered2: frozenset[int] = frozenset()  # second-pass sites that closed a cycle themselves
    first: Mapping[int, tuple[tuple[str, bool | None], ...]] = field(default_factory=dict)
    final: Mapping[int, FrozenOutcome] = field(default_factory=dict)
    reads: Reads = field(default_factory=dict)  # everything its resolution read, by scope
    names: frozenset[str] = frozenset()  # names whose definitions anywhere decide its links (see .dirty)


@dataclass(frozen=True)
class LinkTrace:
    """The trace of one linked revision: what deriving another revision from it needs."""

    files: Mapping[str, FileTrace]
    # classes whose edges closed a resolution cycle: their result depends on the order of classes
    ordered_classes: frozenset[str] = frozenset()
    table: tuple[str, str] | None = None  # (file of the site that built the subclass table, digest)
    passed_on: bool = False  # the link passed on arguments its second pass found (``_Linker.pass_on``)

    def matches(self, facts: Mapping[str, FileFacts]) -> bool:
        """Whether this trace belongs to these facts (same files, same call sites)."""
        return self.files.keys() == facts.keys() and all(
            t.count == len(facts[p].calls) for p, t in self.files.items()
        )


def _grouped(reads: Iterable[Read], old: Reads) -> dict[str, set[str]]:
    out: dict[str, set[str]] = defaultdict(set)
    for where, names in old.items():
        out[where].update(names)
    for where, name in reads:
        out[where].add(name)
    return dict(out)


def freeze(outcome: Outcome) -> FrozenOutcome:
    """An outcome in a hashable, storable form."""
    return tuple((t.id, t.inferred, t.bound) for t in outcome[0]), outcome[1]


def thaw(frozen: FrozenOutcome) -> Outcome:
    """The outcome a frozen one stands for."""
    return [Target(i, inferred, bound) for i, inferred, bound in frozen[0]], frozen[1]


# -------------------------------------------------------------------- recorder


@dataclass
class _Seen:
    """Observations of one file's sites during one link or derivation."""

    first_done: set[int] = field(default_factory=set)
    second_done: set[int] = field(default_factory=set)
    touched: set[int] = field(default_factory=set)
    cyclic1: set[int] = field(default_factory=set)
    cyclic2: set[int] = field(default_factory=set)
    entered2: set[int] = field(default_factory=set)
    first: dict[int, tuple[tuple[str, bool | None], ...]] = field(default_factory=dict)
    final: dict[int, FrozenOutcome] = field(default_factory=dict)
    items: list[Item] = field(default_factory=list)  # what the resolutions read, keys not yet expanded


class Recorder:
    """The SiteWatch that fills a trace while the passes run."""

    def __init__(self, linker: _Linker, sites: Sequence[tuple[str, CallSite]]) -> None:
        assert isinstance(linker.r, TracingResolver)
        self.linker = linker
        self.r: TracingResolver = linker.r
        self.sites = sites
        self.where: list[tuple[str, int]] = []
        for path, group in groupby(sites, key=lambda s: s[0]):
            self.where.extend((path, j) for j, _ in enumerate(group))
        self.seen: dict[str, _Seen] = defaultdict(_Seen)
        self._class: str | None = None
        self.table: tuple[str, str] | None = None

    def begin(self, second: bool) -> None:
        self.r.tainted = self.r.stale = self.r.cut = False
        self.r.frame = []

    def first(self, i: int, outcome: Outcome, touched: bool) -> None:
        path, j = self.where[i]
        seen = self.seen[path]
        seen.first_done.add(j)
        site = self.sites[i][1]
        # the targets a site's arguments (or a classmethod's receiver) flow into
        if site.args or site.kwargs or any(self.linker.takes_class(t.id) for t in outcome[0]):
            seen.first[j] = tuple((t.id, t.bound) for t in outcome[0])
        ordered = self.r.tainted or self.r.stale  # in the first pass, both depend on the order
        if touched:
            seen.touched.add(j)
        if ordered:
            seen.cyclic1.add(j)
        if touched or ordered:
            seen.final[j] = freeze(outcome)
        self._take_reads(path)

    def second(self, i: int, outcome: Outcome) -> None:
        path, j = self.where[i]
        seen = self.seen[path]
        seen.second_done.add(j)
        if self.r.tainted:
            seen.cyclic2.add(j)
        if self.r.cut:
            seen.entered2.add(j)
        seen.final[j] = freeze(outcome)
        self._take_reads(path)

    def outside(self, path: str) -> None:
        """Reads made for a file outside the two passes (sites resolved late)."""
        self._take_reads(path)

    def classes(self, paths: Iterable[str] | None) -> frozenset[str]:
        """Link the classes (of ``paths``), recording their reads; returns those that closed a cycle."""
        self._class = None
        self._cut: set[str] = set()
        self.linker.class_edges(set(paths) if paths is not None else None, each=self._next_class)
        self._next_class(None)
        return frozenset(self._cut)

    def _next_class(self, class_id: str | None) -> None:
        if self._class is not None:
            path = self.r.scopes[self._class].path
            # which methods the classes of its MRO define decides its override edges
            self.seen[path].items.extend((c, "<methods>") for c in self.r.mro(self._class))
            self._take_reads(path)
            if self.r.cut:
                self._cut.add(self._class)
        self._class = class_id
        self.r.frame = []
        self.r.cut = False

    def _take_reads(self, path: str) -> None:
        self.seen[path].items.extend(self.r.frame or ())
        self.r.frame = None
        if self.table is None and self.r.table_digest is not None:
            self.table = (path, self.r.table_digest)

    def trace(self, path: str, facts: FileFacts, old: FileTrace | None, reread: bool) -> FileTrace:
        """The new trace of a file: what was observed, the rest kept from ``old``.

        ``reread``: its edges were linked again, so its reads are collected again
        (and added to the old ones, unless there are none).
        """
        seen = self.seen.get(path)
        if old is not None and seen is None:
            return old
        seen = seen or _Seen()
        count = len(facts.calls)
        if old is None:
            names = named_by_site(facts) | fixture_names(path, facts, self.linker.layout)
            old = FileTrace(count, names=frozenset(names))
        touched = (old.touched - seen.first_done) | seen.touched
        cyclic1 = (old.cyclic1 - seen.first_done) | seen.cyclic1
        final = {**old.final, **seen.final}
        # a site replayed in the first pass only (deriving keeps its second pass): what it
        # came to is still what the old second pass gave, not the replay's first answer
        for j in (seen.first_done & touched) - seen.second_done:
            if j in old.final:
                final[j] = old.final[j]
        final = {j: o for j, o in final.items() if j in touched or j in cyclic1}
        return FileTrace(
            count=count,
            touched=frozenset(touched),
            cyclic1=frozenset(cyclic1),
            cyclic2=frozenset((old.cyclic2 - seen.second_done) | seen.cyclic2) & touched,
            entered2=frozenset((old.entered2 - seen.second_done) | seen.entered2) & touched,
            first={**old.first, **seen.first},
            final=final,
            reads=_grouped(self.r.closure(seen.items), old.reads) if reread else old.reads,
            names=old.names,
        )


# --------------------------------------------------------------------- storage


class StoredReads(Mapping[str, Collection[str]]):
    """A file's reads as stored: JSON, parsed only when something asks for them.

    Deriving asks every unchanged file whether it read one of a few changed
    scopes; :meth:`mentions` answers "certainly not" for most files from the
    text alone, so their reads are never parsed.
    """

    def __init__(self, text: str) -> None:
        self._text = text
        self._parsed: dict[str, list[str]] | None = None

    def mentions(self, scopes: Iterable[str]) -> bool:
        """False when none of these scope ids (or id prefixes) can occur in the reads."""
        if self._parsed is not None:
            return True
        # the needles are escaped the way json.dumps escaped the ids: no false "absent"
        return any(json.dumps(s)[:-1] in self._text for s in scopes)

    def _data(self) -> dict[str, list[str]]:
        if self._parsed is None:
            self._parsed = json.loads(self._text)
        return self._parsed

    def __getitem__(self, key: str) -> list[str]:
        return self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())


def trace_to_graph(trace: LinkTrace) -> LinkedGraph:
    """A trace in the shape the cache stores: per file one row of site data, one of reads."""
    head = {"ordered_classes": sorted(trace.ordered_classes), "table": trace.table, "passed_on": trace.passed_on}
    header = ("", json.dumps(head), TRACE_FORMAT)
    rows = [
        row
        for path, t in trace.files.items()
        for row in (
            (path, json.dumps(_encode(t), separators=(",", ":")), TRACE_FORMAT),
            (path, _reads_text(t.reads), READS_FORMAT),
        )
    ]
    return LinkedGraph(symbols=(), edges=(), unresolved=(), dangling=(header, *sorted(rows)))


def _reads_text(reads: Reads) -> str:
    if isinstance(reads, StoredReads) and reads._parsed is None:
        return reads._text
    return json.dumps({where: list(what) for where, what in reads.items()}, separators=(",", ":"))


def trace_from_graph(graph: LinkedGraph) -> LinkTrace | None:
    """The trace stored by :func:`trace_to_graph`; None for anything else."""
    try:
        if graph.symbols or graph.edges or not graph.dangling or graph.dangling[0][0] != "":
            return None
        if any(fmt not in (TRACE_FORMAT, READS_FORMAT) for _, _, fmt in graph.dangling):
            return None
        (_, header, _), *rows = graph.dangling
        reads = {path: StoredReads(text) for path, text, fmt in rows if fmt == READS_FORMAT}
        files = {path: _decode(json.loads(text), reads[path]) for path, text, fmt in rows if fmt == TRACE_FORMAT}
        head = json.loads(header)
        table = tuple(head["table"]) if head["table"] else None
        return LinkTrace(files, frozenset(head["ordered_classes"]), table, bool(head["passed_on"]))
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def _encode(t: FileTrace) -> dict[str, Any]:
    return {
        "n": t.count, "t": sorted(t.touched), "c1": sorted(t.cyclic1), "c2": sorted(t.cyclic2),
        "e2": sorted(t.entered2),
        "f": [[j, [list(x) for x in t.first[j]]] for j in sorted(t.first)],
        "o": [[j, [list(x) for x in t.final[j][0]], t.final[j][1]] for j in sorted(t.final)],
        "m": sorted(t.names),
    }


def _decode(d: dict[str, Any], reads: StoredReads) -> FileTrace:
    return FileTrace(
        count=int(d["n"]),
        touched=frozenset(d["t"]),
        cyclic1=frozenset(d["c1"]),
        cyclic2=frozenset(d["c2"]),
        entered2=frozenset(d["e2"]),
        first={j: tuple((tid, b) for tid, b in ts) for j, ts in d["f"]},
        final={j: (tuple((tid, inf, b) for tid, inf, b in ts), st) for j, ts, st in d["o"]},
        reads=reads,
        names=frozenset(d["m"]),
    )
