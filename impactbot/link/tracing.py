"""A resolver that records what each resolution read and whether it depended on order.

Deriving a revision's graph from another's (:mod:`impactbot.link.incremental`)
needs two things the link itself does not keep: what each file's resolution
read (so a change elsewhere can tell which files it reaches), and which results
depend on the order in which sites are resolved (so those are replayed in that
order). :class:`TracingResolver` gives both without changing a single answer of
:class:`~impactbot.link.python.Resolver`: it wraps the resolver's cached
computations and lookups and calls the original for every result.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TypeVar

from impactbot import stack
from impactbot.link.dirty import Read
from impactbot.link.modules import ModuleIndex
from impactbot.link.python import Resolver, Scope, StoreTable, Values
from impactbot.model import FileFacts, Import

TRACED_RECURSION_LIMIT = 6000  # about twice the frames the link's bounded chains need, with tracing
SHARED_USES = 4  # a cached result reused this often keeps its own closure of reads

Item = tuple[str, ...]  # a read (two strings) or the key of a cached computation (tag first, more parts)
_T = TypeVar("_T")


class _ActiveStack(set[tuple[str, str]]):
    """The resolver's set of keys being resolved, in order, to tell cycles apart.

    A key met again while it is the innermost one (``x = x.strip()``) gives the
    same result whoever asks first. A key met again with others entered since
    closes a longer cycle, whose memoised results depend on the entry point.
    """

    __slots__ = ("owner", "stack")

    def __init__(self, owner: TracingResolver) -> None:
        super().__init__()
        self.owner = owner
        self.stack: list[tuple[str, str]] = []

    def add(self, key: tuple[str, str]) -> None:
        set.add(self, key)
        self.stack.append(key)

    def discard(self, key: object) -> None:
        set.discard(self, key)
        if self.stack and self.stack[-1] == key:
            self.stack.pop()
        elif key in self.stack:
            self.stack.remove(key)

    def __contains__(self, key: object) -> bool:
        if not set.__contains__(self, key):
            return False
        if self.stack[-1] != key:
            self.owner.tainted = self.owner.cut = True
        return True


@dataclass
class _WatchedModules(ModuleIndex):
    """The module index, telling the resolver which module names it was asked about."""

    owner: TracingResolver | None = None

    def paths(self, name: str, near: str | None = None) -> list[str]:
        self._note(("<module>", name))
        return super().paths(name, near)

    def is_module(self, name: str) -> bool:
        self._note(("<module>", name))
        return super().is_module(name)

    def ending(self, suffix: str) -> list[str]:
        self._note(("<ending>", suffix))
        return super().ending(suffix)

    def absolute(self, path: str, module: str, level: int) -> str | None:
        if level:
            self._note(("<package>", path))
        return super().absolute(path, module, level)

    def _note(self, read: Read) -> None:
        if self.owner is not None and self.owner.frame is not None:
            self.owner.frame.append(read)


class TracingResolver(Resolver):
    """A resolver that also records what each resolution read and whether it depended on order.

    While ``frame`` is a list, every read is appended to it: ``(scope id, name)``
    lookups, ``(class id, attr)`` member lookups, ``("<module>", dotted)`` and
    ``("<package>", path)`` module lookups, ``(function id, "@param")`` parameter
    reads, ``("<subclasses>", class id)`` for dispatch to subclasses. A reused
    cached result (memoised value, member, wrapper list, MRO) is appended as its
    key instead, and :meth:`closure` expands keys into their reads: recording
    stays cheap, and a file's reads are computed once, at the end.

    ``tainted`` turns true when the resolution closed a longer cycle, or reused
    something computed in one: its result depends on which site entered the
    cycle first. ``stale`` turns true when it reused a wrapper list or MRO that
    read parameters or was cut short: the link caches those without its flags,
    so the result depends on when they were computed (a replay in the link's
    order reproduces that; it is not a cycle).
    """

    def __init__(self, facts: Mapping[str, FileFacts]) -> None:
        super().__init__(facts)
        m = self.modules
        self.modules = _WatchedModules(m.by_name, m.name_of, m.package_of, owner=self)
        self._active = _ActiveStack(self)
        self.tainted = False
        self.stale = False
        self.cut = False  # a longer cycle was closed here (not merely reused)
        self.frame: list[Item] | None = None
        self.table_digest: str | None = None  # of the subclass table, once built
        self._deps: dict[Item, tuple[Item, ...]] = {}
        self._tainted_keys: set[Item] = set()
        self._stale_keys: set[Item] = set()
        self._open: set[Item] = set()
        self._uses: dict[Item, int] = defaultdict(int)
        self._closures: dict[Item, frozenset[Read]] = {}
        self._expanding: set[Item] = set()

    # ---------------------------------------------------- cached computations

    def resolve(self, expr: str | None, scope_id: str) -> Values | None:
        if expr is None:
            return {}
        key = ("r", expr, scope_id)
        if (expr, scope_id) in self._memo and not self.refreshes((expr, scope_id)):
            self._reuse(key)
            return super().resolve(expr, scope_id)
        memo = self._memo
        return self._tracked(key, lambda: super(TracingResolver, self).resolve(expr, scope_id),
                             lambda: (expr, scope_id) in memo)

    def resolve_line(self, expr: str, scope_id: str, line: int) -> Values | None:
        return self._line_tracked(("a", expr, scope_id, str(line)), (expr, scope_id, line),
                                  lambda: super(TracingResolver, self).resolve_line(expr, scope_id, line))

    def resolve_narrowed(self, expr: str, scope_id: str, line: int) -> Values | None:
        return self._line_tracked(("n", expr, scope_id, str(line)), (expr, f"{scope_id}!", line),
                                  lambda: super(TracingResolver, self).resolve_narrowed(expr, scope_id, line))

    def _line_tracked(self, key: Item, memo_key: tuple[str, str, int],
                      compute: Callable[[], Values | None]) -> Values | None:
        """An answer of the line memo (reads at a line, narrowed reads): reused, or computed and traced."""
        memo = self._line_memo
        if memo_key in memo and not self.line_refreshes(memo_key):
            self._reuse(key)
            return compute()  # answered from the memo
        return self._tracked(key, compute, lambda: memo_key in memo)

    def class_member(self, class_id: str, attr: str, start: int = 0) -> tuple[Values, str | None] | None:
        if self.frame is not None:
            self.frame.append((class_id, attr))
        memo_key = (class_id, attr, start)
        key = ("m", class_id, attr, str(start))
        memo = self._members_memo
        if memo_key in memo:
            self._reuse(key)
            return super().class_member(class_id, attr, start)
        return self._tracked(key, lambda: super(TracingResolver, self).class_member(class_id, attr, start),
                             lambda: memo_key in memo)

    def decorator_wrappers(self, func_id: str, k: int) -> list[str]:
        key = ("w", func_id, str(k))  # three parts: ``closure`` takes a two-part item for a read
        if (func_id, k) in self._wrappers:
            self._reuse(key)
            return super().decorator_wrappers(func_id, k)
        return self._tracked(key, lambda: super(TracingResolver, self).decorator_wrappers(func_id, k), None)

    def registered(self, func_id: str) -> list[str]:
        key = ("g", func_id, "")  # three parts, as for wrappers
        if func_id in self._registered:
            self._reuse(key)
            return super().registered(func_id)
        return self._tracked(key, lambda: super(TracingResolver, self).registered(func_id), None)

    def mro(self, class_id: str) -> tuple[str, ...]:
        key = ("o", class_id, "")  # three parts, as for wrappers
        if class_id in self._mro:
            self._reuse(key)
            return super().mro(class_id)
        return self._tracked(key, lambda: super(TracingResolver, self).mro(class_id), None)

    def is_enum(self, class_id: str) -> bool:
        self.mro(class_id)  # the memoised answer depends on the MRO's classes and their bases
        return super().is_enum(class_id)

    def subclasses(self) -> dict[str, list[str]]:
        # The table is built once, at the first dispatch, from every class's MRO; a few
        # MROs may depend on parameters or cycles. Its users are not marked for that:
        # the trace keeps which site built it and a digest, and deriving compares them.
        self._note(("<subclasses>", ""))
        if self._subclasses is not None:
            return super().subclasses()
        frame = self.frame
        self.frame = None
        try:
            table = self._tracked(("s",), lambda: super(TracingResolver, self).subclasses(), None)
        finally:
            self.frame = frame
        self.tainted = True  # the site that builds it: replay it in its place, in either pass
        self.table_digest = _digest(table)
        return table

    def collect_stores(self) -> None:
        frame, self.frame = self.frame, None  # between sites: each site reading a table reuses its key
        try:
            super().collect_stores()
        finally:
            self.frame = frame

    def _store_table(self, attr: str) -> tuple[StoreTable, int]:
        return self._tracked(("t", attr, ""), lambda: super(TracingResolver, self)._store_table(attr), None)

    def _reuse_stores(self, attr: str) -> None:
        self._reuse(("t", attr, ""))  # three parts, as for wrappers

    def _reuse(self, key: Item) -> None:
        if key in self._open:
            self.tainted = self.cut = True  # a guard against recursion answered
        elif key in self._tainted_keys:
            self.tainted = True  # a value computed in a cycle
        if key in self._stale_keys:
            self.stale = True
        if self.frame is not None:
            self.frame.append(key)
            self._uses[key] += 1

    def _tracked(self, key: Item, compute: Callable[[], _T], stored: Callable[[], bool] | None) -> _T:
        """Compute a cacheable result, noting what it read; ``stored`` says whether the resolver kept it."""
        outer = (self.tainted, self.stale, self.touched_param, self.truncated, self.frame)
        self.tainted = self.stale = self.truncated = False
        self.touched_param = 0
        frame: list[Item] = []
        self.frame = frame
        self._open.add(key)
        try:
            result = compute()
        finally:
            self._open.discard(key)
            taint, stale, touch, cut_short = self.tainted, self.stale, self.touched_param, self.truncated
            self.tainted, self.stale = outer[0] or taint, outer[1] or stale
            self.touched_param, self.truncated = outer[2] | touch, outer[3] or cut_short
            self.frame = outer[4]
        kept = stored() if stored is not None else True  # a cycle cut stores nothing
        if kept and cut_short and stored is not None:
            # a resolved expression is kept though cut short: like a value computed in a
            # cycle, its answer depends on which site asked first, here this one
            taint = self.tainted = self.cut = True
        if kept:
            _mark(self._tainted_keys, key, taint)
            # wrapper lists and MROs are cached without the link's flags: one that read
            # parameters, or was cut short, depends on when it was computed
            _mark(self._stale_keys, key, stale or (stored is None and bool(touch or cut_short)))
            old = self._deps.get(key)
            self._deps[key] = tuple(frame) if old is None else old + tuple(frame)
        if self.frame is not None:
            if kept:
                self.frame.append(key)
            else:
                self.frame.extend(frame)
        return result

    def closure(self, items: Iterable[Item]) -> set[Read]:
        """The reads behind recorded items, through every cached result they reused.

        Call it once everything is resolved. Results reused by many others keep
        their own closure, so files that share them do not walk them again. The walk
        keeps its own stack of such results (one nests in another thousands deep on
        SQLAlchemy, past any recursion limit).
        """
        deps, done, uses = self._deps, self._closures, self._uses
        # a frame: the shared result whose closure it gathers (None: the caller's
        # items), the reads so far, the items seen, the items left to walk
        frames: list[tuple[Item | None, set[Read], set[Item], list[Item]]] = [(None, set(), set(), list(items))]
        while True:
            key, reads, seen, stack = frames[-1]
            if not stack:
                frames.pop()
                if key is None:
                    return reads
                done[key] = frozenset(reads)
                self._expanding.discard(key)
                frames[-1][1].update(done[key])
                continue
            item = stack.pop()
            if len(item) == 2:
                reads.add(item)
                continue
            if item in seen:
                continue
            seen.add(item)
            if item in done:
                reads |= done[item]
            elif uses.get(item, 0) >= SHARED_USES and item not in self._expanding:
                self._expanding.add(item)
                frames.append((item, set(), set(), list(deps.get(item, ()))))
            else:
                stack.extend(deps.get(item, ()))

    # ----------------------------------------------------------------- reads

    def _note(self, read: Read) -> None:
        if self.frame is not None:
            self.frame.append(read)

    def _lookup_here(self, name: str, scope: Scope) -> Values | None:
        if self.frame is not None:
            self.frame.append((scope.id, name))
            self._note_elements(scope.id, name)
        return super()._lookup_here(name, scope)

    def _scope_target(self, scope_id: str, target: str) -> Values:
        self._note((scope_id, target))
        self._note_elements(scope_id, target)
        return super()._scope_target(scope_id, target)

    def _note_elements(self, scope_id: str, name: str) -> None:
        """A module's container elements are also written from other modules (see
        ``Resolver._move_elements``): which module owns them is read too."""
        if self.frame is not None and name.endswith("[]") and "::" not in scope_id:
            self.frame.append(("<elements>", name[:-2]))

    def returns(self, func_id: str, wrapped: bool = True) -> Values:
        self._note((func_id, "<return>[]"))
        return super().returns(func_id, wrapped)

    def _dispatch(self, class_id: str, attr: str, instance: bool = True) -> Values:
        self._note(("<subclasses>", class_id))
        memo_key = (class_id, attr, instance)
        key = ("d", class_id, attr, "i" if instance else "c")
        memo = self._dispatch_memo
        if memo_key in memo:
            self._reuse(key)
            return super()._dispatch(class_id, attr, instance)
        return self._tracked(key, lambda: super(TracingResolver, self)._dispatch(class_id, attr, instance),
                             lambda: memo_key in memo)

    def _star_lookup(self, name: str, scope: Scope) -> Values | None:
        if self.frame is not None:  # which modules' __all__ decide what a star import binds
            for imp in scope.names["*"]:
                assert isinstance(imp, Import)
                target = self.modules.absolute(scope.path, imp.module, imp.level)
                for path in self.modules.paths(target, scope.path) if target is not None else ():
                    self.frame.append(("<all>", path))
        return super()._star_lookup(name, scope)

    def _param_values(self, scope: Scope, name: str) -> Values:
        before = self.touched_param
        self.touched_param = 0
        vals = super()._param_values(scope, name)
        if self.touched_param:
            self._note((scope.id, "@" + name))
        self.touched_param = before | self.touched_param
        return vals


def _digest(table: Mapping[str, Sequence[str]]) -> str:
    return hashlib.sha1(repr(sorted((k, list(v)) for k, v in table.items() if v)).encode()).hexdigest()


def _mark(keys: set[Item], key: Item, flag: bool) -> None:
    if flag:
        keys.add(key)
    else:
        keys.discard(key)


def deeper_stack() -> AbstractContextManager[None]:
    """Room for the tracing frames as well as the resolver's."""
    return stack.deeper_stack(TRACED_RECURSION_LIMIT)
