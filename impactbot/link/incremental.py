"""Per-commit incremental graphs: a revision's linked graph derived from a nearby one.

``derive`` returns exactly what ``link`` returns for the new facts, while
resolving again only what can have changed. Exactness is the hard part,
because ``link`` is not a function of each file alone:

- the first pass records argument flows from each site's *first-pass* targets,
  which depend on every site resolved before it (flows not yet recorded,
  memoised values computed before more flows arrived);
- a memoised value computed inside a resolution cycle depends on which member
  of the cycle was entered first, in either pass;
- what a site resolves to depends on names read in other files, through
  imports, return values, base classes and argument flows.

So a linked revision comes with a :class:`LinkTrace`. Per call site: whether
its first pass read a parameter (``touched``, the link's own flag) or met a
cycle (``cyclic``), its first-pass targets (the flows it fed), and its outcome
when that is order-sensitive. Per file: everything its resolution read (see
:class:`TracingResolver`). Deriving then

1. finds the files that read something that changed (:mod:`.dirty`);
2. replays the first pass in the link's order: those files' sites and every
   order-sensitive site are resolved, every other site only feeds its recorded
   flows, so each parameter receives exactly the flows ``link`` gives it;
3. resolves again, in the second pass, the files that read a parameter whose
   flows changed, replaying the order-sensitive sites of that pass in order;
4. keeps every other file's edges, calls and counts from the old graph.

When the changes reach most of the revision, or class bases meet a cycle (the
one order-sensitive case the replay does not reproduce), it links from scratch
rather than return a different graph.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from impactbot.link import Flow, Outcome, _Linker, site_flows, symbols_of
from impactbot.link.dirty import Changes, changes
from impactbot.link.fixtures import DEFAULT_LAYOUT, TestLayout, pytest_flows
from impactbot.link.inits import inherited_inits
from impactbot.link.python import Resolver, Target, descriptors
from impactbot.link.trace import FileTrace, LinkTrace, Recorder, freeze, thaw, trace_from_graph, trace_to_graph
from impactbot.link.tracing import TracingResolver, deeper_stack
from impactbot.model import CallSite, Edge, FileFacts, LinkedGraph, Param, ResolvedCall, Symbol

log = logging.getLogger(__name__)

MAX_AFFECTED = 0.6  # share of files beyond which a full link is cheaper than deriving

Key = tuple[str, str]  # (callee id, parameter name)
_I = TypeVar("_I")

__all__ = ["LinkTrace", "derive", "link_traced", "trace_from_graph", "trace_to_graph"]


# ----------------------------------------------------------------- full link


def link_traced(facts: Mapping[str, FileFacts], layout: TestLayout = DEFAULT_LAYOUT) -> tuple[LinkedGraph, LinkTrace]:
    """``link(facts, layout)`` and the trace that lets a later revision be derived from it."""
    return _traced(_Linker(facts, resolver=TracingResolver, layout=layout))


def _traced(linker: _Linker) -> tuple[LinkedGraph, LinkTrace]:
    with deeper_stack():
        return _traced_run(linker)


def _traced_run(linker: _Linker) -> tuple[LinkedGraph, LinkTrace]:
    sites = linker.sites()
    recorder = Recorder(linker, sites)
    results, revisit = linker.first_pass(sites, watch=recorder)
    read = linker.second_pass(sites, results, revisit, watch=recorder)
    passed_on = linker.pass_on(sites, results, read, watch=recorder) > 0
    linker.emit(sites, results)
    ordered = recorder.classes(None)
    linker.fixture_edges()
    linker.route_edges()
    linker.signal_edges()
    files = {p: recorder.trace(p, f, None, True) for p, f in linker.facts.items()}
    return linker.graph(), LinkTrace(files, ordered_classes=ordered, table=recorder.table, passed_on=passed_on)


# ----------------------------------------------------------------------- derive


def derive(
    old: LinkedGraph,
    old_facts: Mapping[str, FileFacts],
    new_facts: Mapping[str, FileFacts],
    trace: LinkTrace,
    layout: TestLayout = DEFAULT_LAYOUT,
) -> tuple[LinkedGraph, LinkTrace]:
    """``link_traced(new_facts, layout)``, computed from the linked graph and trace of
    ``old_facts`` (linked with the same ``layout``).

    The graph equals ``link(new_facts)`` field by field. Files whose facts are
    the same object (or equal) in both mappings count as unchanged.
    """
    prev = {p: f for p, f in old_facts.items() if f.language == "python"}
    new = {p: f for p, f in new_facts.items() if f.language == "python"}
    changed = {p for p in prev.keys() | new.keys() if not _same(prev.get(p), new.get(p))}
    if not changed:
        return old, trace
    linker = _Linker(new, resolver=TracingResolver, layout=layout)
    if not trace.matches(prev):
        log.debug("linking from scratch: the trace does not belong to the old facts")
        return _traced(linker)
    if trace.passed_on:
        # what the later passes resolved again hangs on every answer the second pass kept
        log.debug("linking from scratch: the old link passed on the second pass's arguments")
        return _traced(linker)
    old_r = Resolver({p: prev[p] for p in changed if p in prev})
    found = changes(old_r, prev, linker.r, new, changed)
    found.definitions |= _descriptor_names(prev, linker.r)
    affected = _affected(found, new, changed, trace)
    if len(affected) > MAX_AFFECTED * len(new):
        log.debug("linking from scratch: %d of %d files affected", len(affected), len(new))
        return _traced(linker)
    try:
        with deeper_stack():
            derived = _Derivation(old, prev, new, changed, trace, linker, affected, old_r, found.hierarchy).run()
    except _OrderSensitive:
        log.debug("linking from scratch: an order-sensitive result changed")
        return link_traced(new, layout)
    log.debug("derived: %d changed, %d of %d files resolved again", len(changed), len(affected), len(new))
    return derived


def _descriptor_names(prev: Mapping[str, FileFacts], new_r: Resolver) -> set[str]:
    """Attribute names whose reads may run another ``__get__`` than before. Which classes
    are descriptors is decided by names over the whole revision, not by lookups a trace
    records: when that changes, every read of a name bound to a descriptor may change."""
    old_ids, old_attrs = descriptors(prev)
    if old_ids == new_r.descriptor_classes:
        return old_attrs ^ new_r.descriptor_attrs
    return old_attrs | new_r.descriptor_attrs


def _same(a: FileFacts | None, b: FileFacts | None) -> bool:
    return a is b or (a is not None and b is not None and a == b)


def _affected(found: Changes, new: Mapping[str, FileFacts], changed: set[str], trace: LinkTrace) -> set[str]:
    """Files of the new revision to resolve again: changed, or reading something that changed."""
    out = {p for p in changed if p in new}
    for path in new:
        if path in out:
            continue
        t = trace.files[path]
        if found.hit(t.reads) or not found.definitions.isdisjoint(t.names):
            out.add(path)
    return out


class _OrderSensitive(Exception):
    """A result the replay cannot reproduce exactly: link from scratch instead."""


class _Derivation:
    def __init__(
        self,
        old: LinkedGraph,
        prev: dict[str, FileFacts],
        new: dict[str, FileFacts],
        changed: set[str],
        trace: LinkTrace,
        linker: _Linker,
        affected: set[str],
        old_r: Resolver,
        hierarchy: bool,
    ) -> None:
        self.old, self.prev, self.new, self.changed = old, prev, new, changed
        self.trace, self.linker, self.affected, self.old_r = trace, linker, affected, old_r
        self.hierarchy = hierarchy
        self.sites = linker.sites()
        self.recorder = Recorder(linker, self.sites)
        self.r = self.recorder.r
        self.where = self.recorder.where
        self.start = {path: i - j for i, (path, j) in enumerate(self.where) if j == 0}

    def run(self) -> tuple[LinkedGraph, LinkTrace]:
        results, revisit = self.linker.first_pass(self.sites, watch=self.recorder, known=self._known)
        self._check_table()
        redo = self.affected | self._diverged(results, set(revisit))
        params = self._dirty_params()
        redo |= {p for p in self.new if p not in redo and _reads_any(self.trace.files[p], params)}
        second = self._second_pass(results, revisit, redo)
        if self._passes_on(results, revisit, second):
            raise _OrderSensitive
        emitted = redo | {self.where[i][0] for i in second if self._changed_final(i, results[i], redo)}
        self._complete(results, set(revisit) - set(second), emitted)
        self.linker.emit(self.sites, results, paths=emitted)
        ordered = self.trace.ordered_classes
        if self.recorder.classes(emitted) or any(c.split("::", 1)[0] in emitted for c in ordered):
            raise _OrderSensitive
        self._check_table()
        self.linker.fixture_edges(emitted)
        self.linker.route_edges()  # a route or request anywhere may change any of them: all again
        self.linker.signal_edges()  # so may a receiver anywhere
        return self._graph(emitted), self._trace(emitted)

    # -------------------------------------------------------------- first pass

    def _check_table(self) -> None:
        """Whether the subclass table is built where, and as, the link would build it.

        The link builds it at the first site that dispatches to subclasses. Files
        that are not resolved again keep what they got from the old table, so it
        must come out the same, unless the class hierarchy changed (then every
        file that dispatches is resolved again anyway).
        """
        old = self.trace.table
        if old is None:
            return  # nothing dispatched before: no kept file depends on the table
        built = self.recorder.table
        if old[0] in self.affected:
            # the old first dispatcher changed: a kept file that dispatches may now come first
            first = built[0] if built is not None else None
            kept = [t for p, t in self.trace.files.items() if p in self.new and p not in self.affected
                    and (first is None or p <= first)]
            if any(_dispatches(t) for t in kept):
                raise _OrderSensitive
        if built is not None and built[1] != old[1] and not self.hierarchy:
            raise _OrderSensitive  # the table came out differently: its users may resolve differently

    def _known(self, i: int) -> Sequence[Target] | None:
        path, j = self.where[i]
        if path in self.affected:
            return None
        t = self.trace.files[path]
        if j in t.touched or j in t.cyclic1:
            return None  # order-sensitive: resolve it again, in its place
        return [Target(tid, False, bound) for tid, bound in t.first.get(j, ())]

    def _diverged(self, results: Mapping[int, Outcome], revisit: set[int]) -> set[str]:
        """Unaffected files whose replayed first-pass sites came out differently."""
        out = set()
        for i, outcome in results.items():
            path, j = self.where[i]
            if path in self.affected:
                continue
            t = self.trace.files[path]
            touched = i in revisit
            if touched != (j in t.touched) or (not touched and freeze(outcome) != t.final.get(j)):
                out.add(path)
        return out

    # --------------------------------------------------------------- flows

    def _dirty_params(self) -> set[Key]:
        """Parameters whose flows differ from the old link's."""
        before = self._old_flows()
        after = self.r.param_flow
        empty: list[tuple[str | None, str]] = []
        return {k for k in before.keys() | after.keys() if before.get(k, empty) != after.get(k, empty)}

    def _old_flows(self) -> dict[Key, list[tuple[str | None, str]]]:
        out: dict[Key, list[tuple[str | None, str]]] = defaultdict(list)
        for key, flow in pytest_flows(self.prev, self.linker.layout):  # first, as the link adds them
            out[key].append(flow)
        for path in sorted(self.prev):
            calls = self.prev[path].calls
            t = self.trace.files[path]
            for j in sorted(t.first):
                targets = [Target(tid, False, bound) for tid, bound in t.first[j]]
                flows: list[Flow] = site_flows(path, calls[j], targets, self._old_params, self._old_takes_class)
                for key, flow in flows:
                    out[key].append(flow)
        return out

    def _old_params(self, callee: str) -> tuple[Param, ...] | None:
        if callee.split("::", 1)[0] not in self.changed:
            return self.linker.params_of(callee)
        scope = self.old_r.scopes.get(callee)
        d = scope.definition if scope is not None else None
        return d.signature.params if d is not None and d.signature is not None else None

    def _old_takes_class(self, callee: str) -> bool:
        if callee.split("::", 1)[0] not in self.changed:
            return self.linker.takes_class(callee)
        scope = self.old_r.scopes.get(callee)
        return scope is not None and scope.method_kind == "classmethod"

    # ----------------------------------------------------------- second pass

    def _second_pass(self, results: dict[int, Outcome], revisit: list[int], redo: set[str]) -> list[int]:
        """Resolve the files to redo again; replay the sites that met a cycle only when needed.

        When none of the sites resolved again meets a cycle, and no site of the old
        versions of their files entered one or reused what one computed, every cycle is
        entered where it was before.
        """
        second = [i for i in revisit if self.where[i][0] in redo]
        old = [self.trace.files[p] for p in (redo | self.changed) & self.trace.files.keys()]
        # an old site that reused an answer cut short by a site asking before it may not
        # meet the cut when asking first: replay in order whenever one did
        entered = any(t.entered2 or t.cyclic2 for t in old)
        if not entered:
            self.linker.second_pass(self.sites, results, second, watch=self.recorder)
            if not any(self.recorder.seen[p].cyclic2 for p in redo):
                return second
            for p in redo:  # observations of the attempt are replaced by the replay's
                self.recorder.seen[p].cyclic2.clear()
                self.recorder.seen[p].entered2.clear()
        second = [i for i in revisit if self.where[i][0] in redo or self._cyclic2(i)]
        self.linker.second_pass(self.sites, results, second, watch=self.recorder)
        return second

    def _passes_on(self, results: Mapping[int, Outcome], revisit: Sequence[int], second: Sequence[int]) -> bool:
        """Whether a full link would pass arguments on after its second pass: a site's
        second-pass targets (a kept site's from the trace, whose link passed nothing on)
        receive an argument the first pass did not give them."""
        again = set(second)
        flows = self.r.param_flow
        for i in revisit:
            path, site = self.sites[i]
            if i in again:
                targets = results[i][0]
            else:
                final = self.trace.files[path].final.get(self.where[i][1])
                if final is None:
                    return True  # not known: take the safe side
                targets = thaw(final)[0]
            if any(flow not in flows.get(key, ()) for key, flow in self.linker.flows(path, site, targets)):
                return True
        return False

    def _cyclic2(self, i: int) -> bool:
        path, j = self.where[i]
        t = self.trace.files.get(path)
        return t is not None and j in t.cyclic2

    def _changed_final(self, i: int, outcome: Outcome, redo: set[str]) -> bool:
        path, j = self.where[i]
        return path not in redo and freeze(outcome) != self.trace.files[path].final.get(j)

    def _complete(self, results: dict[int, Outcome], kept: set[int], emitted: set[str]) -> None:
        """Outcomes of every site of the emitted files: kept ones from the trace, the rest resolved."""
        for path in sorted(emitted):
            t = self.trace.files.get(path)
            for j, site in enumerate(self.new[path].calls):
                i = self.start[path] + j
                if i in kept and path not in self.affected:
                    assert t is not None
                    results[i] = thaw(t.final[j])  # its second pass read nothing that changed
                elif i not in results:
                    results[i] = self._resolve_pure(path, site)

    def _resolve_pure(self, path: str, site: CallSite) -> Outcome:
        """A site whose result depends on neither order nor parameters: resolve it now."""
        self.recorder.begin(second=False)
        self.r.touched_param = 0
        outcome = self.linker.resolve_site(path, site)
        if self.r.touched_param or self.r.tainted or self.r.stale:
            raise _OrderSensitive
        self.recorder.outside(path)
        return outcome

    # ----------------------------------------------------------------- result

    def _graph(self, emitted: set[str]) -> LinkedGraph:
        def kept(sid: str) -> bool:
            path = sid.split("::", 1)[0]
            return path in self.new and path not in emitted

        linker = self.linker
        old_calls = _by_path(self.old.calls, lambda c: c.caller)
        new_calls = _by_path(linker.calls, lambda c: c.caller)
        old_symbols = _by_path(self.old.symbols, lambda s: s.path)
        inits = inherited_inits(self.r)
        calls: list[ResolvedCall] = []
        symbols: list[Symbol] = []
        for path in sorted(self.new):
            calls.extend((new_calls if path in emitted else old_calls).get(path, ()))
            before = old_symbols.get(path, [])
            # a class's __init__ may come from bases in files that changed
            if path in self.changed or any(s.id in inits or (s.kind == "class" and s.signature) for s in before):
                symbols.extend(symbols_of(path, self.new[path], inits, self.linker.layout))
            else:
                symbols.extend(before)
        again = ("requests", "signals")  # computed again for the whole revision
        edges = [e for e in self.old.edges if kept(e.source) and e.kind not in again] + list(linker.edges.edges())
        unresolved = [u for u in self.old.unresolved if kept(u[0])]
        unresolved += [(k, v) for k, v in linker.unresolved.items() if v]
        return LinkedGraph(
            symbols=tuple(symbols),
            edges=tuple(sorted(edges, key=_edge_key)),
            unresolved=tuple(sorted(unresolved)),
            calls=tuple(calls),
            dangling=tuple(sorted({d for d in self.old.dangling if kept(d[0])} | set(linker.dangling))),
        )

    def _trace(self, emitted: set[str]) -> LinkTrace:
        files = {}
        for path, f in self.new.items():
            old = None if path in self.affected else self.trace.files[path]
            files[path] = self.recorder.trace(path, f, old, path in emitted)
        classes = {sid for sid, scope in self.r.scopes.items() if scope.kind == "class"}
        return LinkTrace(files, self.trace.ordered_classes & classes, self.recorder.table or self.trace.table)


def _dispatches(t: FileTrace) -> bool:
    return "<subclasses>" in t.reads


def _reads_any(t: FileTrace, params: set[Key]) -> bool:
    """Whether a file's resolution read any of these parameters."""
    mentions = getattr(t.reads, "mentions", None)
    if mentions is not None and not mentions({callee for callee, _ in params}):
        return False
    return any("@" + name in t.reads.get(callee, ()) for callee, name in params)


def _edge_key(e: Edge) -> tuple[str, str, str]:
    return e.source, e.target, e.kind


def _by_path(items: Sequence[_I], sid: Callable[[_I], str]) -> dict[str, list[_I]]:
    out: dict[str, list[_I]] = defaultdict(list)
    for item in items:
        out[sid(item).split("::", 1)[0]].append(item)
    return out
