"""Breaking call sites: what in head no longer fits a changed symbol (part of stage `impact`).

A call that misses a now-required argument, passes an unknown keyword, too many
positional arguments or one that now lands on another parameter; a call, read or
import still naming a removed or moved symbol, module or name; a def turned async
(or back) whose callers did not follow; a class left with an abstract method its
subclasses do not implement. Each rule reads the head and base graphs
(:class:`impactbot.impact.SymbolGraph`) and the facts of both revisions, and keeps
quiet wherever Python might still run the code (another definition, a base from
outside the repository, a guard). One entry per call site and reason (the contract's
``breaking``).

The module is long (one section per kind of break) because the rules share the
helpers that tell what a name, class or import gives in either revision.
"""

from __future__ import annotations

import abc
import enum
import importlib
import re
import sys
import typing
import warnings
from collections import defaultdict, deque
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from impactbot.link import keeps_signature, receives_call_arguments
from impactbot.link.modules import ModuleIndex
from impactbot.link.python import makes_property, parse_expr
from impactbot.model import (
    Breaking,
    CallSite,
    ChangedSymbol,
    Confidence,
    Definition,
    FileFacts,
    Import,
    Param,
    ResolvedCall,
    Signature,
    Symbol,
    symbol_id,
)

if TYPE_CHECKING:
    from impactbot.impact import SymbolGraph


def _count(n: int, noun: str) -> str:
    """``1 positional argument``, ``2 positional arguments`` (as Python words it)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def misfit(sig: Signature, site: CallSite, bound: bool) -> str | None:
    """Why a call no longer fits a signature, or None when it may fit."""
    params = list(sig.params)
    if bound and params and params[0].kind in ("positional", "positional_only"):
        params = params[1:]
    positional = [p for p in params if p.kind in ("positional", "positional_only")]
    var_pos = any(p.kind == "var_positional" for p in params)
    var_kw = any(p.kind == "var_keyword" for p in params)
    if not site.star and not var_pos and site.positional > len(positional):
        return f"takes {_count(len(positional), 'positional argument')} but {site.positional} " \
               f"{'was' if site.positional == 1 else 'were'} given"
    named = {p.name for p in params if p.kind in ("positional", "keyword_only")}
    for kw in site.keywords:
        if kw not in named and not var_kw:
            return f"unexpected keyword argument '{kw}'"
    for p in positional[: site.positional]:  # `f(1, a=2)` for `def f(a, ...)`
        if p.kind == "positional" and p.name in site.keywords:
            return f"got multiple values for argument '{p.name}'"
    for i, p in enumerate(params):
        if p.has_default or p.kind in ("var_positional", "var_keyword"):
            continue
        if p.kind in ("positional", "positional_only") and (i < site.positional or site.star):
            continue
        if p.kind != "positional_only" and (p.name in site.keywords or site.starstar):
            continue
        return f"missing required argument '{p.name}'"
    return None


def shifted(old: Signature, new: Signature, site: CallSite, bound: bool) -> str | None:
    """A positional argument that now lands on another parameter: the parameters were
    reordered, or one was inserted or removed before it (``f(1, 2)`` against ``(a, b)``
    turned ``(b, a)``). A parameter renamed in its place moves nothing."""
    if site.star:
        return None  # where the unpacked ones start is not known
    old_params, new_params = _positional(old, bound), _positional(new, bound)
    if _renamed_in_place(old_params, new_params):
        return None
    before, after = [p.name for p in old_params], [p.name for p in new_params]
    for i in range(min(site.positional, len(before), len(after))):
        was, now = before[i], after[i]
        if was != now and (was in after or now in before):
            given = site.args[i] if i < len(site.args) else None
            if given is not None and given.rpartition(".")[2] == now:
                return None  # `self.__init__(client_id, ...)` lands on client_id now: the change fixed it
            return f"argument {i + 1} by position now goes to '{now}', not '{was}'"
    return None


def _binding_changed(symbol: Symbol, base: SymbolGraph, head_facts: Mapping[str, FileFacts],
                     base_facts: Mapping[str, FileFacts]) -> bool:
    """A method that became a staticmethod or classmethod, or stopped being one: what the
    receiver fills changed, so its parameters' places are not comparable."""
    if symbol.kind != "method":
        return False
    new, old = _definition_of(symbol, head_facts), _definition_of(base.symbols.get(symbol.id), base_facts)
    return new is None or old is None or _method_kind(new) != _method_kind(old)


def _method_kind(definition: Definition) -> str:
    names = {d.removesuffix("()").rsplit(".", 1)[-1] for d in definition.decorators}
    return "static" if "staticmethod" in names else "class" if "classmethod" in names else "instance"


def _positional(sig: Signature, bound: bool) -> list[Param]:
    params = list(sig.params)
    if bound and params and params[0].kind in ("positional", "positional_only"):
        params = params[1:]
    return [p for p in params if p.kind in ("positional", "positional_only")]


def _renamed_in_place(before: Sequence[Param], after: Sequence[Param]) -> bool:
    """The positional slots are as many as they were and have defaults where they had,
    and a name now in another slot took that slot's default or lack of one: the slots
    were renamed, each where it stands (``seek(self, pos, offset=0)`` turned ``seek(self,
    offset, whence=0)``), not moved. A parameter moving takes its default along."""
    if len(before) != len(after) or any(b.has_default != a.has_default for b, a in zip(before, after, strict=True)):
        return False
    was = {p.name: (i, p.has_default) for i, p in enumerate(before)}
    return any(p.name in was and was[p.name][0] != i and was[p.name][1] != p.has_default
               for i, p in enumerate(after))


def _unchanged_call(call: ResolvedCall, head: SymbolGraph, base_facts: Mapping[str, FileFacts],
                    edited: Collection[str]) -> bool:
    """The call was left as it was: its caller is not changed, or made the same call in
    base with the same arguments, each known (a literal's text is not kept; one rewritten
    for the new order passes them otherwise)."""
    if call.caller not in edited:
        return True
    caller = head.symbols.get(call.caller)
    facts = base_facts.get(caller.path) if caller is not None else None
    site = call.site
    return facts is not None and None not in site.args and all(v is not None for _, v in site.kwargs) and any(
        s.scope == site.scope and s.callee == site.callee and s.args == site.args and s.kwargs == site.kwargs
        for s in facts.calls)


def _broken_before(call: ResolvedCall, c: ChangedSymbol, base: SymbolGraph) -> bool:
    """The same call, to the same symbol, fit none of its signatures in base either: the
    change did not break it. Such a call usually goes to another class's method the
    linker cannot tell apart (``self.jar.clear(domain, path, name)`` where ``jar`` holds
    either a ``Cookies`` or the standard library's ``CookieJar``), or is never run."""
    old = base.symbols.get(c.old_id or c.symbol.id)
    if old is None or old.signature is None:
        return False
    shape = _shape(call.site)
    return any(b.target == old.id and not b.guess and _shape(b.site) == shape
               and _fits_none(old, b.site, b.bound) is not None for b in base.calls_of(call.caller))


def _shape(site: CallSite) -> tuple[object, ...]:
    """A call site without its line: the same call in a file edited above it."""
    return (site.scope, site.callee, site.kind, site.positional, site.keywords, site.star, site.starstar,
            site.args, site.kwargs)


def breaking_calls(
    head: SymbolGraph,
    base: SymbolGraph,
    changed: Iterable[ChangedSymbol],
    head_facts: Mapping[str, FileFacts],
    base_facts: Mapping[str, FileFacts] | None = None,
) -> tuple[Breaking, ...]:
    """Call sites in head that no longer fit the symbol they call."""
    changed = tuple(changed)
    out: set[Breaking] = set()
    by_target = {c.symbol.id: c for c in changed if c.signature_changed and c.change != "removed"}
    by_target = {i: c for i, c in by_target.items() if _takes_call_arguments(c.symbol, head, head_facts)
                 and not _declared_by_interface(c.symbol, head, head_facts)}
    if by_target:
        alternatives = _alternatives(head)
        edited = {c.symbol.id for c in changed}
        rebound = {i for i, c in by_target.items() if _binding_changed(c.symbol, base, head_facts, base_facts or {})}
        for call in head.linked.calls:
            c = by_target.get(call.target)
            # a caller changed as well is checked too: its recursive call may be the stale one
            if c is None or c.symbol.signature is None:
                continue
            if _implied(call.site.callee, c.symbol):
                continue  # `len(x)` runs `x.__len__()`: its arguments are not the dunder's
            if call.guess:
                continue  # `getattr(self, "visit_" + kind)(node)` may never pick this one
            reason = _fits_none(c.symbol, call.site, call.bound)
            if reason and (_fits_an_override(call, alternatives, head)
                           or _fits_another_callable(call, alternatives, head)
                           or _through_a_pass_through(call, head, head_facts)
                           or _broken_before(call, c, base)):
                continue
            if reason is None and c.old_signature is not None and not c.symbol.variants \
                    and c.symbol.id not in rebound and _unchanged_call(call, head, base_facts or {}, edited):
                reason = shifted(c.old_signature, c.symbol.signature, call.site, call.bound)
                if reason and len(alternatives.get((call.caller, call.line, call.site), ())) > 1:
                    reason = None  # the receiver may be of another class, whose method did not move
            if reason:
                out.add(Breaking(call.target, call.caller, _path_of(head, call.caller), call.line, reason))
        out.update(_partials_made(head, base, by_target, head_facts, base_facts or {}))
    gone = {c.symbol.id for c in changed if c.change == "removed"}
    gone |= {c.old_id for c in changed if c.change == "renamed" and c.old_id}
    callees = _callees_of(base, gone, base_facts or {}) if gone else {}
    modules = _Modules(head_facts, base_facts or {})
    left = _LeftBehind.of(head, head_facts, modules.head) if gone else _LeftBehind(set(), set())
    for c in changed:
        if c.change == "removed":
            out.update(_still_called(head, base, c.symbol, head_facts, base_facts or {}, callees, left))
        elif c.change == "renamed" and c.old_id in base.symbols:
            out.update(_still_called(head, base, base.symbols[c.old_id], head_facts, base_facts or {}, callees,
                                     left, moved_to=c.symbol))
    out.update(_property_turns(head, base, changed, head_facts, base_facts or {}))
    out.update(_now_async(head, base, changed, head_facts, base_facts or {}))
    out.update(_no_longer_async(head, base, changed, head_facts, base_facts or {}))
    # an import of a removed def whose calls are listed already says nothing more, nor
    # does a read on the line of a listed call (`@m.gone`, `map(m.gone, xs)`)
    called = {(b.file, b.target) for b in out}
    lines = {(b.file, b.line, b.target) for b in out}
    imports, reads = _stale_names(base, changed, head_facts, base_facts or {}, modules)
    out.update(b for b in imports if (b.file, b.target) not in called)
    out.update(b for b in reads if (b.file, b.line, b.target) not in lines)
    out.update(_stale_modules(changed, head_facts, base_facts or {}, modules))
    out.update(_stale_class_reads(head, changed, head_facts, base_facts or {}))
    out.update(_left_abstract(head, base, changed, head_facts, base_facts or {}))
    kept = sorted((b for b in out if not _expected_to_fail(b, head_facts)),
                  key=lambda b: (b.file, b.line, b.caller, b.target, b.reason))
    return tuple(_one_per_site(kept))


# ``partial(f, ...)`` and ``partialmethod(f, ...)``: the arguments they hold go to f when
# what they make is called; a partialmethod's go after the instance it is read from
PARTIAL_MAKERS = {"partial": False, "functools.partial": False,
                  "partialmethod": True, "functools.partialmethod": True}


def _partials_made(head: SymbolGraph, base: SymbolGraph, by_target: Mapping[str, ChangedSymbol],
                   head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts]) -> Iterator[Breaking]:
    """``partial(send, retries=1)`` where send no longer takes ``retries``: every call of
    what it made fails. Listed where the partial is made, which is what to fix; the
    arguments still missing come with each call, so only those it holds are judged."""
    making: dict[str, bool] = {}  # per file: whether it makes any partial (few do)
    for target, c in by_target.items():
        if c.symbol.kind not in ("function", "method") or c.symbol.signature is None:
            continue
        for caller, _ in head.callers(target):
            if not _makes_partials(head, head_facts, caller, making):
                continue
            for site, bound, maker in _partials_of(c.symbol, caller, head, head_facts):
                reason = _holds_what_fits_none(c.symbol, site, bound)
                if reason is None or _made_the_same_in_base(c, caller, site, bound, base, base_facts):
                    continue
                yield Breaking(target, caller, _path_of(head, caller), site.line, f"{reason} (bound by {maker}())")
            yield from _calls_through_partials(head, base, c, caller, head_facts, base_facts)


def _makes_partials(graph: SymbolGraph, facts: Mapping[str, FileFacts], caller: str, making: dict[str, bool]) -> bool:
    """Whether the caller's file calls a partial maker anywhere (memoised in ``making``)."""
    symbol = graph.symbols.get(caller)
    if symbol is None:
        return False
    if symbol.path not in making:
        found = facts.get(symbol.path)
        making[symbol.path] = found is not None and any(
            PARTIAL_MAKERS.get(site.callee or "") is not None for site in found.calls)
    return making[symbol.path]


def _calls_through_partials(head: SymbolGraph, base: SymbolGraph, c: ChangedSymbol, caller: str,
                            head_facts: Mapping[str, FileFacts],
                            base_facts: Mapping[str, FileFacts]) -> Iterator[Breaking]:
    """``quick("x", timeout=3)`` where ``quick = partial(send, retries=1)`` in the
    caller's scope or its module's: the call passes what the partial holds and its
    own arguments together. Not listed when the same call did not fit in base either."""
    old = base.symbols.get(c.old_id or c.symbol.id)
    before = {_shape(call): (_together(held, call), bound)
              for call, held, bound in _through_partials(base, base_facts, old, caller)} \
        if old is not None and old.signature is not None else {}
    for call, held, bound in _through_partials(head, head_facts, c.symbol, caller):
        if _holds_what_fits_none(c.symbol, held, bound) is not None:
            continue  # listed where the partial is made
        reason = _fits_none(c.symbol, _together(held, call), bound)
        was = before.get(_shape(call))
        if reason is None or (was is not None and old is not None and _fits_none(old, *was) is not None):
            continue
        yield Breaking(c.symbol.id, caller, _path_of(head, caller), call.line,
                       f"{reason} (through the partial '{call.callee}')")


def _together(held: CallSite, call: CallSite) -> CallSite:
    """The call a partial's target gets: what the partial holds, then the call's own arguments."""
    return replace(held, scope=call.scope, line=call.line, positional=held.positional + call.positional,
                   keywords=tuple(dict.fromkeys(held.keywords + call.keywords)), star=call.star,
                   starstar=held.starstar or call.starstar, args=held.args + call.args,
                   kwargs=held.kwargs + call.kwargs)


def _through_partials(graph: SymbolGraph, facts: Mapping[str, FileFacts], target: Symbol,
                      caller: str) -> Iterator[tuple[CallSite, CallSite, bool]]:
    """The calls ``caller`` makes of a partial of ``target`` named by a plain name, each
    with what the partial holds (as a call of ``target``) and whether it is bound."""
    reached = _reaching(graph, facts, caller, target)
    if reached is None:
        return
    found, scope, lines = reached
    for call in found.calls:
        if call.kind == "call" and call.line in lines and call.scope == scope and (call.callee or "").isidentifier():
            made = _partial_named(call.callee or "", scope, target, found, facts)
            if made is not None:
                yield call, made[0], made[1]


def _partial_named(name: str, scope: str, target: Symbol, found: FileFacts,
                   facts: Mapping[str, FileFacts]) -> tuple[CallSite, bool, str] | None:
    """The partial of ``target`` that ``name`` holds where it is read: bound once, by an
    assignment of ``partial(...)``, in that scope or else at module level."""
    for where in dict.fromkeys((scope, "")):
        bindings = [b for b in found.bindings if b.scope == where and b.target == name]
        if not bindings:
            continue
        if len(bindings) != 1 or bindings[0].conditional:
            return None
        made = (_partial_of(s, target, facts) for s in found.calls if s.scope == where and s.line == bindings[0].line)
        return next((m for m in made if m is not None), None)
    return None


def _partials_of(target: Symbol, caller: str, head: SymbolGraph,
                 facts: Mapping[str, FileFacts]) -> Iterator[tuple[CallSite, bool, str]]:
    """The partials ``caller`` makes of ``target`` on the lines it reaches it (see
    :func:`_partial_of`)."""
    reached = _reaching(head, facts, caller, target)
    if reached is None:
        return
    found, scope, lines = reached
    for site in found.calls:
        made = _partial_of(site, target, facts) if site.line in lines and site.scope == scope else None
        if made is not None:
            yield made


def _reaching(graph: SymbolGraph, facts: Mapping[str, FileFacts], caller: str,
              target: Symbol) -> tuple[FileFacts, str, set[int]] | None:
    """The caller's file facts, its scope there, and the lines where it reaches ``target``."""
    symbol = graph.symbols.get(caller)
    found = facts.get(symbol.path) if symbol is not None else None
    if symbol is None or found is None:
        return None
    return found, symbol.qualname if symbol.kind != "module" else "", set(graph.lines(caller, target.id))


def _partial_of(site: CallSite, target: Symbol, facts: Mapping[str, FileFacts]) -> tuple[CallSite, bool, str] | None:
    """``site`` as the making of a partial of ``target``: the call of ``target`` with the
    arguments it holds, whether that call is bound, and the maker's name."""
    maker = PARTIAL_MAKERS.get(site.callee or "")
    held = _held(site) if maker is not None else None
    if held is None or held.callee is None or held.callee.rsplit(".", 1)[-1] != target.qualname.rsplit("::", 1)[-1]:
        return None
    bound = maker or _bound_by_its_receiver(target, held.callee, facts)
    return None if bound is None else (held, bound, (site.callee or "").rsplit(".", 1)[-1])


def _bound_by_its_receiver(target: Symbol, held: str, facts: Mapping[str, FileFacts]) -> bool | None:
    """Whether ``partial(held, ...)`` passes an instance first: a function does not, a
    method read from ``self`` or an object does, one read from a class (a capitalised
    name) does not, but a classmethod does. None when that cannot be told."""
    if target.kind != "method":
        return False
    definition = _definition_of(target, facts)
    if definition is None or "." not in held:
        return None
    kind = _method_kind(definition)
    if kind != "instance":
        return kind == "class"
    receiver = held.rsplit(".", 1)[0].rsplit(".", 1)[-1]
    if receiver in ("self", "cls"):
        return receiver == "self"
    return not receiver[:1].isupper()


def _holds_what_fits_none(target: Symbol, site: CallSite, bound: bool) -> str | None:
    """Why the arguments a partial holds fit no signature of ``target``, whatever the
    calls of the partial add: too many by position, or a keyword it does not take."""
    reason = _fits_none(target, site, bound)
    return None if reason is None or reason.startswith("missing required") else reason


def _made_the_same_in_base(c: ChangedSymbol, caller: str, site: CallSite, bound: bool, base: SymbolGraph,
                           base_facts: Mapping[str, FileFacts]) -> bool:
    """The same partial was made in base, where it did not fit either: not this change's doing."""
    old = base.symbols.get(c.old_id or c.symbol.id)
    symbol = base.symbols.get(caller)
    facts = base_facts.get(symbol.path) if symbol is not None else None
    if old is None or old.signature is None or facts is None:
        return False
    made = (_held(s) for s in facts.calls if PARTIAL_MAKERS.get(s.callee or "") is not None)
    return any(m is not None and _shape(m) == _shape(site) for m in made) \
        and _holds_what_fits_none(old, site, bound) is not None


def _held(site: CallSite) -> CallSite | None:
    """A partial's making, as the call of what it holds (see :func:`_partials_of`)."""
    if site.star or not site.args or site.args[0] is None:
        return None
    return CallSite(site.scope, site.args[0], site.line, positional=site.positional - 1, keywords=site.keywords,
                    starstar=site.starstar, args=site.args[1:], kwargs=site.kwargs)


def _one_per_site(found: Iterable[Breaking]) -> Iterator[Breaking]:
    """One entry per call site and reason: ``self.metadata.bind`` guessed, by its name
    alone, to be any of five removed ``bind`` properties is one stale read, not five.
    The first target in order stands for the others."""
    seen: set[tuple[str, int, str, str]] = set()
    for b in found:
        key = (b.file, b.line, b.caller, b.reason)
        if key not in seen:
            seen.add(key)
            yield b


class _Modules:
    """Head's and base's module indexes, each built the first time a check asks for it."""

    def __init__(self, head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts]) -> None:
        self._facts = (head_facts, base_facts)

    @cached_property
    def head(self) -> ModuleIndex:
        return ModuleIndex.build(self._facts[0])

    @cached_property
    def base(self) -> ModuleIndex:
        return ModuleIndex.build(self._facts[1])


def _property_turns(head: SymbolGraph, base: SymbolGraph, changed: tuple[ChangedSymbol, ...],
                    head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts]) -> set[Breaking]:
    """Uses a method that became a property (or a property that became a method) no
    longer fit: ``k.size()`` now calls what the getter returns, ``k.size + 1`` now reads
    the bound method."""
    now: dict[str, str] = {}  # id -> what it became
    for c in changed:
        if c.change != "modified" or c.symbol.kind != "method":
            continue
        new, old = _definition_of(c.symbol, head_facts), _definition_of(base.symbols.get(c.symbol.id), base_facts)
        if new is None or old is None or _is_property(new) == _is_property(old):
            continue
        # a method under a decorator of its own may still be read as a value: a descriptor
        # (`@util.non_memoized_property`) in place of `@property`
        if _is_property(new) or _plain(new):
            now[c.symbol.id] = "property" if _is_property(new) else "method"
    if not now:
        return set()
    out: set[Breaking] = set()
    for target, became in sorted(now.items()):
        name = target.rsplit("::", 1)[-1]
        if became == "property":  # `k.size()` in head: the getter runs, its value is called
            for caller, site in _sites_reaching(head, head_facts, target, "call"):
                if (site.callee or "").rsplit(".", 1)[-1] == name:
                    out.add(Breaking(target, caller, _path_of(head, caller), site.line,
                                     f"'{name}' is now a property: this calls the value it gives"))
            continue
        # `k.size` read in base (the getter ran), still read so in head: it is the method now
        for caller, site in _sites_reaching(base, base_facts, target, "attribute"):
            if (site.callee or "").rsplit(".", 1)[-1] != name:
                continue  # another read on its line (`self.col == self.value`)
            symbol = head.symbols.get(caller)
            facts = head_facts.get(symbol.path) if symbol is not None else None
            if symbol is None or facts is None:
                continue
            for kept in facts.calls:
                if kept.kind == "attribute" and kept.callee == site.callee and kept.scope == symbol.qualname:
                    out.add(Breaking(target, caller, symbol.path, kept.line,
                                     f"'{name}' is now a method: this reads the method, not a value"))
    return out


# Decorators that leave a def as it is (one that became async still gives a coroutine;
# one that stopped being a property is read as a bound method)
_PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod", "abstractmethod", "override", "overload"})


def _async_turns(base: SymbolGraph, changed: tuple[ChangedSymbol, ...], head_facts: Mapping[str, FileFacts],
                 base_facts: Mapping[str, FileFacts]) -> Iterator[tuple[ChangedSymbol, Definition]]:
    """The functions and methods that became async or stopped being, with their head
    definition; not one under a decorator that may wrap it (into either kind)."""
    for c in changed:
        if c.change != "modified" or c.symbol.kind not in ("function", "method"):
            continue
        new, old = _definition_of(c.symbol, head_facts), _definition_of(base.symbols.get(c.symbol.id), base_facts)
        if new is not None and old is not None and new.is_async != old.is_async and _plain(new):
            yield c, new


def _now_async(head: SymbolGraph, base: SymbolGraph, changed: tuple[ChangedSymbol, ...],
               head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts]) -> set[Breaking]:
    """Calls that drop the value of a def that became async (``fetch(url)`` as a statement
    of its own): calling it now only makes a coroutine, nothing awaits it, and its body
    never runs. A def under another decorator may be wrapped back into a plain one."""
    targets = {c.symbol.id for c, new in _async_turns(base, changed, head_facts, base_facts) if new.is_async}
    out: set[Breaking] = set()
    for call in head.linked.calls if targets else ():
        if call.target not in targets or call.guess or call.site.kind != "call" or not call.site.callee:
            continue
        name = call.target.rsplit("::", 1)[-1]
        path = _path_of(head, call.caller)
        facts = head_facts.get(path)
        if facts is not None and (call.line, call.site.callee) in facts.discarded and _last(call.site.callee) == name:
            out.add(Breaking(call.target, call.caller, path, call.line,
                             f"'{name}' is now async: this call only makes a coroutine, which nothing awaits"))
    return out


# Return annotations of values no `await` takes
_NOT_AWAITABLE = frozenset({
    "None", "int", "float", "complex", "str", "bytes", "bytearray", "bool", "list", "dict", "set", "frozenset",
    "tuple", "List", "Dict", "Set", "FrozenSet", "Tuple", "Iterator", "Generator", "Iterable", "Sequence",
    "Mapping",
})


def _no_longer_async(head: SymbolGraph, base: SymbolGraph, changed: tuple[ChangedSymbol, ...],
                     head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts]) -> set[Breaking]:
    """``await load()`` where ``load`` stopped being async and gives what cannot be
    awaited: nothing (no ``return`` of a value), or a value annotated as no awaitable
    (``-> int``). One that may still return a coroutine (``return fetch()``, unannotated)
    is left alone, as is a call that may reach an override still async."""
    targets = {c.symbol.id: c.symbol.qualname.rsplit("::", 1)[-1]
               for c, new in _async_turns(base, changed, head_facts, base_facts)
               if not new.is_async and _gives_no_awaitable(new, head_facts.get(c.symbol.path))}
    if not targets:
        return set()
    reached: dict[tuple[str, int, CallSite], set[str]] = defaultdict(set)
    for call in head.linked.calls:
        reached[(call.caller, call.line, call.site)].add(call.target)
    out: set[Breaking] = set()
    for (caller, line, site), found in reached.items():
        if len(found) != 1 or not found & targets.keys() or not site.callee:
            continue
        target = next(iter(found))
        path = _path_of(head, caller)
        facts = head_facts.get(path)
        if facts is not None and (line, site.callee) in facts.awaited and _last(site.callee) == targets[target]:
            out.add(Breaking(target, caller, path, line,
                             f"'{targets[target]}' is no longer async: awaiting what it returns fails"))
    return out


def _gives_no_awaitable(definition: Definition, facts: FileFacts | None) -> bool:
    """What the def gives cannot be awaited: annotated as a builtin value (``-> int``,
    ``-> None``, ``-> list[str]``), or unannotated with no ``return`` of a value."""
    returns = definition.signature.returns if definition.signature else None
    if returns is not None:
        return returns.split("[", 1)[0].rsplit(".", 1)[-1] in _NOT_AWAITABLE
    if facts is None:
        return False
    return not any(b.scope == definition.qualname and b.kind == "return" and b.value for b in facts.bindings)


def _stale_modules(changed: tuple[ChangedSymbol, ...], head_facts: Mapping[str, FileFacts],
                   base_facts: Mapping[str, FileFacts], modules: _Modules) -> set[Breaking]:
    """Unguarded imports of a module that no longer exists (its file deleted or moved
    away): importing the importer now fails. A package that lost only its
    ``__init__.py`` still imports, as a namespace package."""
    deleted = base_facts.keys() - head_facts.keys()
    if not deleted:
        return set()
    before, now = modules.base, modules.head
    gone: dict[str, str] = {}  # module name -> its path in base
    for name, paths in before.by_name.items():
        for old in paths:
            if old in deleted and name not in now.by_name and not _still_a_namespace(old, now):
                gone[name] = old
    if not gone:
        return set()
    moved = {c.old_id: c.symbol.path for c in changed
             if c.change == "renamed" and c.symbol.kind == "module" and c.old_id}
    out: set[Breaking] = set()
    for path, facts in head_facts.items():
        for imp in facts.imports:
            found = None if imp.type_only or imp.conditional else _gone_module(path, imp, gone, now, head_facts)
            if found is None or not _importable_from(found, gone[found], path):
                continue
            old = gone[found]
            where = f"was moved to {moved[old]}" if old in moved else "no longer exists"
            caller = path if not imp.scope else f"{path}::{imp.scope}"
            out.add(Breaking(old, caller, path, imp.line, f"imports '{found}', which {where}"))
    return out


def _importable_from(name: str, old: str, importer: str) -> bool:
    """Whether ``import name`` in ``importer`` found the file ``old``: not where the standard
    library has a module of that name, and, for a file outside the repository's roots
    (``test/ext/mypy/files/inspect.py``, data for a tool's tests), only from its own
    directory tree, which a script or test run there has on its path."""
    if name.partition(".")[0] in sys.stdlib_module_names:
        return False
    parts = old.split("/")
    if parts[-1].startswith("__init__."):
        parts.pop()
    root = "/".join(parts[: max(len(parts) - len(name.split(".")), 0)])
    return root in ("", "src", "lib") or importer.startswith(root + "/")


def _still_a_namespace(old: str, now: ModuleIndex) -> bool:
    directory = old.rpartition("/")[0]
    return old.endswith(("/__init__.py", "/__init__.pyi")) and any(p.startswith(directory + "/") for p in now.name_of)


def _gone_module(path: str, imp: Import, gone: Mapping[str, str], now: ModuleIndex,
                 head_facts: Mapping[str, FileFacts]) -> str | None:
    """The gone module an import asks for: the one it names, or the submodule
    ``from pkg import old`` takes when pkg binds no such name itself."""
    module = now.absolute(path, imp.module, imp.level)
    if module is None:
        return None
    if module in gone:
        return module
    sub = f"{module}.{imp.name}" if imp.name not in (None, "*") else None
    if sub is None or sub not in gone:
        return None
    for init in now.paths(module, path):
        names = _module_names(init, head_facts[init]) if init in head_facts else set()
        if names is None or imp.name in names:
            return None  # the package binds that name (or may: a star import, a __getattr__)
    return sub


def _stale_names(base: SymbolGraph, changed: tuple[ChangedSymbol, ...], head_facts: Mapping[str, FileFacts],
                 base_facts: Mapping[str, FileFacts], indexes: _Modules) -> tuple[set[Breaking], set[Breaking]]:
    """Names a module no longer binds (a def removed or moved away, a constant dropped),
    still used in head: ``from m import helper`` fails on import, ``m.helper`` where
    it is read, and ``from m import *`` where m's ``__all__`` still lists it. The
    imports, then the reads and ``__all__`` entries."""
    paths = {c.symbol.path for c in changed} | {c.old_id.split("::", 1)[0] for c in changed if c.old_id}
    paths &= head_facts.keys() & base_facts.keys()
    lost: dict[str, set[str]] = {}
    for path in sorted(paths):
        before, now = _module_names(path, base_facts[path]), _module_names(path, head_facts[path])
        # a star import: expanded where it imports a module of the repository (the
        # indexes that needs are built only then)
        before = _bound_names(path, base_facts, indexes.base) if before is None else before
        now = _bound_names(path, head_facts, indexes.head) if now is None else now
        if before is not None and now is not None and before - now:
            lost[path] = before - now
    if not lost:
        return set(), set()
    modules, was = indexes.head, indexes.base
    _reexported(lost, head_facts, base_facts, modules, was)
    stale = _Stale(base, lost, {c.old_id: c.symbol.path for c in changed if c.change == "renamed" and c.old_id},
                   modules, base_facts, was)
    imports: set[Breaking] = set()
    reads: set[Breaking] = set()
    for path, facts in head_facts.items():
        imports.update(stale.imports(path, facts))
        reads.update(stale.reads(path, facts))
    for path in lost:
        reads.update(stale.exports(path, head_facts[path]))
    return imports, reads


def _reexported(lost: dict[str, set[str]], head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts],
                modules: ModuleIndex, before: ModuleIndex) -> None:
    """Add to ``lost`` the modules that star-import what a module of it lost (a package
    ``__init__`` with ``from .util import *``). ``modules`` and ``before`` index head and base."""
    for path, sources in sorted(_star_importers(list(lost), head_facts, modules).items()):
        if path in lost or path not in base_facts:
            continue
        was, now = _bound_names(path, base_facts, before), _bound_names(path, head_facts, modules)
        if was is None or now is None:
            continue
        gone = {name for name in was - now if any(name in lost[source] for source in sources)}
        if gone:
            lost[path] = gone


def _home(path: str, name: str, facts: Mapping[str, FileFacts], modules: ModuleIndex,
          seen: frozenset[str] = frozenset()) -> str | None:
    """The module whose own code binds ``name`` for ``path``: itself, or one it star-imports."""
    own = _module_names(path, facts[path], stars=False)
    if own is not None and name in own:
        return path
    for imp in facts[path].imports:
        if imp.scope or imp.name != "*":
            continue
        module = modules.absolute(path, imp.module, imp.level)
        for source in modules.paths(module, path) if module else ():
            found = _home(source, name, facts, modules, seen | {path}) \
                if source in facts and source not in seen else None
            if found is not None:
                return found
    return None


@dataclass(frozen=True)
class _Stale:
    """What head still asks of modules that lost names (see :func:`_stale_names`)."""

    base: SymbolGraph
    lost: Mapping[str, set[str]]  # module path -> the names it no longer binds
    moved: Mapping[str, str]  # old id -> the path its symbol moved to
    modules: ModuleIndex  # head's
    base_facts: Mapping[str, FileFacts]
    base_modules: ModuleIndex

    def imports(self, path: str, facts: FileFacts) -> Iterator[Breaking]:
        """``from m import NAME``, unguarded, where ``m`` no longer binds NAME."""
        gone = set().union(*self.lost.values())
        for imp in facts.imports:
            if imp.name not in gone or imp.type_only or imp.conditional:
                continue
            module = self.modules.absolute(path, imp.module, imp.level)
            if module is None or self.modules.is_module(f"{module}.{imp.name}"):
                continue  # a submodule, not a name the module binds
            caller = path if not imp.scope else f"{path}::{imp.scope}"
            yield from self._breaking(module, imp.name, path, caller, imp.line, "imports")

    def exports(self, path: str, facts: FileFacts) -> Iterator[Breaking]:
        """``__all__`` entries of a module naming what it no longer binds: ``from m
        import *`` raises AttributeError, here and in every other project importing it."""
        listed = {b.value.strip("'\""): b.line for b in facts.bindings
                  if not b.scope and b.target == "__all__[]" and b.value}
        for name in sorted(set(facts.all_names or ()) & self.lost[path]):
            target = f"{path}::{name}"
            where = f"was moved to {self.moved[target]}" if target in self.moved else f"{path} no longer defines"
            yield Breaking(target if target in self.base.symbols else path, path, path, listed.get(name, 1),
                           f"__all__ lists '{name}', which {where}: a star import of the module fails")

    def reads(self, path: str, facts: FileFacts) -> Iterator[Breaking]:
        """``m.NAME`` read (not called: calls are checked as calls) where ``m`` is a module
        imported unguarded that no longer binds NAME. An annotation that never runs (of a
        local variable, or any under ``from __future__ import annotations``) is not read."""
        imported, rebound = _module_scope(facts)
        names = {name for _, name in imported}
        annotations = {(b.line, b.value.removesuffix("()")): b.scope for b in facts.bindings
                       if b.kind == "annotation" and b.value}
        for site in facts.calls:
            if site.kind != "attribute" or not site.callee or site.callee.split(".", 1)[0] not in names:
                continue
            where = annotations.get((site.line, site.callee))
            never_runs = facts.postponed_annotations or (where == site.scope and _is_function(facts, where))
            if where is not None and never_runs:
                continue
            found = _module_read(self.modules, path, site, imported, rebound)
            if found is not None:
                caller = path if not site.scope else f"{path}::{site.scope}"
                yield from self._breaking(*found, path, caller, site.line, "reads")

    def _breaking(self, module: str, name: str, path: str, caller: str, line: int, verb: str) -> Iterator[Breaking]:
        for source in self.modules.paths(module, path):
            if name not in self.lost.get(source, ()):
                continue
            # re-exported by a star import: the module that defined it is the one to name
            home = (_home(source, name, self.base_facts, self.base_modules) if source in self.base_facts
                    else None) or source
            target = f"{home}::{name}"
            where = f"was moved to {self.moved[target]}" if target in self.moved else f"{home} no longer defines"
            yield Breaking(target if target in self.base.symbols else home, caller, path, line,
                           f"{verb} '{name}', which {where}")


def _stale_class_reads(head: SymbolGraph, changed: tuple[ChangedSymbol, ...], head_facts: Mapping[str, FileFacts],
                       base_facts: Mapping[str, FileFacts]) -> Iterator[Breaking]:
    """``Color.GREEN`` or ``Settings.TIMEOUT`` where the class's body no longer binds the
    name and nothing else gives it one: AttributeError where it is read."""
    for c in changed:
        if c.symbol.kind != "class" or c.change != "modified" or not c.names or c.symbol.id not in head.class_reads:
            continue
        reads = head.class_reads[c.symbol.id]
        stored = _stored_from_outside(c.symbol, {c.symbol.path} | {_path_of(head, r.reader) for r in reads},
                                      head_facts)
        if stored is None:
            continue
        lost = _class_names_lost(c.symbol, head, head_facts, base_facts) - stored
        for read in reads:
            if read.name in lost:
                yield Breaking(c.symbol.id, read.reader, _path_of(head, read.reader), read.line,
                               f"reads '{read.name}', which {c.symbol.id} no longer defines")


# bases from outside the repository that give their subclasses no names a class body
# could have bound (but their own methods, which a class-level name shadowed)
_NAMELESS_BASES = frozenset({"object", "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"})
_ENUM_TYPES = (enum.IntFlag, getattr(enum, "StrEnum", enum.Enum))  # what those give (str's from 3.11)


def _class_names_lost(cls: Symbol, head: SymbolGraph, head_facts: Mapping[str, FileFacts],
                      base_facts: Mapping[str, FileFacts]) -> set[str]:
    """Names the class's body bound in base (not by a def) that neither it nor any base
    binds in head; none when a base from outside the repository or a metaclass may."""
    old, new = base_facts.get(cls.path), head_facts.get(cls.path)
    if old is None or new is None:
        return set()
    lost = {b.target for b in old.bindings if b.scope == cls.qualname and b.kind != "annotation"
            and b.target.isidentifier() and not b.target.startswith("__")}
    for ancestor in _class_and_bases(head, cls.id):
        facts = head_facts.get(ancestor.path)
        definition = _definition_of(ancestor, head_facts)
        if facts is None or definition is None or definition.metaclass is not None:
            return set()
        if any(b.rsplit(".", 1)[-1] not in _NAMELESS_BASES for b in _outside_bases(head, ancestor, definition)):
            return set()
        lost -= {b.target for b in facts.bindings if b.scope == ancestor.qualname}
        lost -= {d.name for d in facts.definitions if d.parent == ancestor.qualname}
    return {name for name in lost if not any(hasattr(base, name) for base in _ENUM_TYPES)}


def _stored_from_outside(cls: Symbol, paths: Iterable[str], head_facts: Mapping[str, FileFacts]) -> set[str] | None:
    """Names set on the class from elsewhere (``Settings.TIMEOUT = 5``) in these files;
    None (any name) when its module calls ``setattr``."""
    name = cls.qualname.rsplit("::", 1)[-1]
    out: set[str] = set()
    for path in paths:
        facts = head_facts.get(path)
        for site in facts.calls if facts is not None else ():
            callee = site.callee or ""
            if site.kind == "store" and callee.rpartition(".")[0].rsplit(".", 1)[-1] == name:
                out.add(callee.rpartition(".")[2])
            elif path == cls.path and site.kind == "call" and callee.rsplit(".", 1)[-1] == "setattr":
                return None
    return out


def _left_abstract(head: SymbolGraph, base: SymbolGraph, changed: tuple[ChangedSymbol, ...],
                   head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts]) -> Iterator[Breaking]:
    """A method made abstract (``@abstractmethod`` added, or a new abstract method) on
    a class under ``ABCMeta``: making a subclass that does not implement it raises
    TypeError. Listed where such a subclass is made."""
    constructions: dict[str, list[ResolvedCall]] | None = None  # class id -> where it is made
    for c in changed:
        if c.symbol.kind != "method" or c.change not in ("added", "modified"):
            continue
        if not _is_abstract(_definition_of(c.symbol, head_facts)) \
                or _is_abstract(_definition_of(base.symbols.get(c.symbol.id), base_facts)):
            continue
        owner = f"{c.symbol.path}::{c.symbol.qualname.rpartition('::')[0]}"
        if owner not in base.symbols or not _under_abcmeta(head, owner, head_facts):
            continue  # a new class says what it is from the start
        if constructions is None:
            constructions = defaultdict(list)
            for call in head.linked.calls:
                if call.site.kind == "call" and not call.guess:
                    constructions[call.target].append(call)
        name = c.symbol.qualname.rsplit("::", 1)[-1]
        for sub in _left_without(head, owner, name, head_facts):
            made = sub.qualname.rsplit("::", 1)[-1]
            reason = f"makes a {made}, whose method '{name}' is abstract now" if sub.id == owner \
                else f"makes a {made}, which does not implement the abstract method '{name}'"
            for call in constructions.get(sub.id, ()):
                # by its name: `source_type(...)` with `source_type: type[Source]` makes a subclass
                if (call.site.callee or "").rsplit(".", 1)[-1] == made:
                    yield Breaking(c.symbol.id, call.caller, _path_of(head, call.caller), call.line, reason)


def _is_abstract(definition: Definition | None) -> bool:
    return definition is not None and any(
        d.removesuffix("()").rsplit(".", 1)[-1] == "abstractmethod" for d in definition.decorators)


def _under_abcmeta(head: SymbolGraph, class_id: str, head_facts: Mapping[str, FileFacts]) -> bool:
    """Whether the class is made by ``ABCMeta``, the metaclass that enforces abstract methods."""
    for cls in _class_and_bases(head, class_id):
        definition, facts = _definition_of(cls, head_facts), head_facts.get(cls.path)
        if definition is None or facts is None:
            continue
        if definition.metaclass is not None and definition.metaclass.rsplit(".", 1)[-1] == "ABCMeta":
            return True
        if any(isinstance(_standard_class(_imported_as(e, facts)), abc.ABCMeta)
               for e in _outside_bases(head, cls, definition)):
            return True
    return False


def _left_without(head: SymbolGraph, owner: str, name: str, head_facts: Mapping[str, FileFacts]) -> Iterator[Symbol]:
    """``owner`` and those of its subclasses that neither they nor a class between them
    and it (or beside it) implement ``name`` in."""
    above = {cls.id for cls in _class_and_bases(head, owner)}
    if owner in head.symbols:
        yield head.symbols[owner]
    seen, todo = {owner}, deque(head.subclasses(owner))
    while todo:
        sub = todo.popleft()
        if sub in seen:
            continue
        seen.add(sub)
        if any(_binds(cls, name, head_facts) for cls in _class_and_bases(head, sub) if cls.id not in above):
            continue  # implemented here (or by a mixin): its own subclasses inherit that
        symbol = head.symbols.get(sub)
        if symbol is not None:
            yield symbol
        todo.extend(head.subclasses(sub))


def _binds(cls: Symbol, name: str, head_facts: Mapping[str, FileFacts]) -> bool:
    facts = head_facts.get(cls.path)
    if facts is None:
        return True  # not known: assume it does
    return any(b.scope == cls.qualname and b.target == name for b in facts.bindings) or any(
        d.parent == cls.qualname and d.name == name and not _is_abstract(d) for d in facts.definitions)


def _module_read(modules: ModuleIndex, path: str, site: CallSite, imported: Mapping[tuple[str, str], Import],
             rebound: set[tuple[str, str]]) -> tuple[str, str] | None:
    """(module, name) when the site reads a name of a repository module: the first
    part of its expr an import's name in scope, then submodules, then the name."""
    parts = (site.callee or "").split(".")
    if len(parts) < 2 or not all(p.isidentifier() for p in parts):
        return None
    imp = _import_in_scope(site.scope, parts[0], imported, rebound)
    if imp is None:
        return None
    if imp.name is not None:
        base = modules.absolute(path, imp.module, imp.level)
        module = None if base is None else f"{base}.{imp.name}"
        rest = parts[1:]
    elif imp.alias or (site.callee or "").startswith(imp.module + "."):
        # `import a.b as m` reads m.NAME, `import a.b` reads a.b.NAME: module a.b
        module, rest = imp.module, parts[1 if imp.alias else imp.module.count(".") + 1:]
    else:
        module, rest = parts[0], parts[1:]
    if module is None or not rest:
        return None
    while len(rest) > 1 and modules.is_module(f"{module}.{rest[0]}"):
        module, rest = f"{module}.{rest[0]}", rest[1:]
    if not modules.is_module(module) or modules.is_module(f"{module}.{rest[0]}"):
        return None  # not a module of the repository, or a submodule read
    return module, rest[0]


def _module_scope(facts: FileFacts) -> tuple[dict[tuple[str, str], Import], set[tuple[str, str]]]:
    """The unguarded imports of a file by (scope, name bound), and the (scope, name) it
    binds otherwise: what :func:`_module_read` looks names up in."""
    imported = {(i.scope, i.bound_name): i for i in facts.imports if not (i.type_only or i.conditional)}
    return imported, _names_bound(facts)


def _names_bound(facts: FileFacts) -> set[tuple[str, str]]:
    """(scope, name) of each name a scope binds other than by an import: assigned, a
    parameter, a def or class."""
    out = {(b.scope, b.target) for b in facts.bindings if b.target.isidentifier()}
    for d in facts.definitions:
        scope, _, name = d.qualname.rpartition("::")
        out.add((scope, name))
        out.update((d.qualname, p.name) for p in (d.signature.params if d.signature else ()))
    return out


def _import_in_scope(scope: str, name: str, imported: Mapping[tuple[str, str], Import],
                     rebound: set[tuple[str, str]]) -> Import | None:
    """The import ``name`` refers to in ``scope``, innermost scope first; None when a scope
    on the way binds it otherwise (a parameter, a local of that name)."""
    parts = scope.split("::") if scope else []
    for i in range(len(parts), -1, -1):
        inner = "::".join(parts[:i])
        if (inner, name) in imported:
            return imported[(inner, name)]
        if (inner, name) in rebound:
            return None
    return None


def _is_function(facts: FileFacts, qualname: str) -> bool:
    definition = facts.definition(qualname) if qualname else None
    return definition is not None and definition.kind in ("function", "method")


_DECLARED = re.compile(r"([A-Za-z_]\w*)(?:[\[(].*)?")  # the name an annotation declares (`PI` of `PI[]`)


def _module_names(path: str, facts: FileFacts, stars: bool = True) -> set[str] | None:
    """The names a module binds at its top level; None when it may bind names no fact
    shows (a star import, a module ``__getattr__``, writes through ``globals()``).
    Without ``stars``, star imports are left for the caller to expand.

    An annotation alone (``TIMEOUT: int``) binds nothing when the module runs; in a
    stub (``.pyi``), which never runs, it is how a module declares the name."""
    if facts.unread:
        return None  # (a blob not read binds what it binds)
    stub = path.endswith(".pyi")
    names = {d.qualname for d in facts.definitions if "::" not in d.qualname}
    if any(site.callee == "globals" for site in facts.calls):
        return None
    for imp in facts.imports:
        if imp.scope == "" and imp.name == "*":
            if stars:
                return None
            continue
        if imp.scope == "":
            names.add(imp.bound_name)
    for b in facts.bindings:
        if b.kind == "annotation" and not b.scope:
            declared = _DECLARED.fullmatch(b.target)
            if stub and declared is not None:
                names.add(declared.group(1))  # (`PI: Callable[..., E]` binds `PI()` to an E)
        elif b.kind == "global" or (b.scope == "" and b.target.isidentifier()):
            names.add(b.target)
    # a module __getattr__, defined or assigned (`__getattr__ = getattr_migration(__name__)`)
    return None if "__getattr__" in names else names


def _bound_names(path: str, facts: Mapping[str, FileFacts], modules: ModuleIndex,
                 seen: frozenset[str] = frozenset()) -> set[str] | None:
    """:func:`_module_names` with the star imports of repository modules expanded:
    ``from .util import *`` binds what util exports, its ``__all__`` (where known) or
    its public names. None where a star import reaches outside the repository, or a
    module that may bind names no fact shows."""
    names = _module_names(path, facts[path], stars=False)
    if names is None:
        return None
    for imp in facts[path].imports:
        if imp.scope or imp.name != "*":
            continue
        module = modules.absolute(path, imp.module, imp.level)
        sources = [p for p in modules.paths(module, path) if p in facts] if module else []
        if not sources or seen & set(sources):
            return None
        for source in sources:
            exported = _bound_names(source, facts, modules, seen | {path})
            if exported is None:
                return None
            listed = facts[source].all_names
            names.update(exported & set(listed) if listed is not None else
                         {n for n in exported if not n.startswith("_")})
    return names


def _star_importers(lost: Iterable[str], facts: Mapping[str, FileFacts], modules: ModuleIndex) -> dict[str, set[str]]:
    """Modules that star-import, directly or through others, a module of ``lost``: path ->
    the modules of ``lost`` it reaches."""
    direct: dict[str, set[str]] = defaultdict(set)
    for path, found in facts.items():
        for imp in found.imports:
            if not imp.scope and imp.name == "*":
                module = modules.absolute(path, imp.module, imp.level)
                direct[path].update(modules.paths(module, path) if module else ())
    reached: dict[str, set[str]] = {}
    frontier = {p: {p} for p in lost}
    while frontier:
        step: dict[str, set[str]] = defaultdict(set)
        for importer, sources in direct.items():
            for source in sources & frontier.keys():
                new = frontier[source] - reached.get(importer, set())
                if new:
                    step[importer] |= new
        for importer, origins in step.items():
            reached.setdefault(importer, set()).update(origins)
        frontier = dict(step)
    return reached


def _sites_reaching(graph: SymbolGraph, facts: Mapping[str, FileFacts], target: str,
                    kind: str) -> Iterator[tuple[str, CallSite]]:
    """(caller, site) for each site of ``kind`` on a line where the caller reaches ``target``."""
    if target not in graph.graph:
        return
    for caller in sorted(graph.graph.pred[target]):
        symbol = graph.symbols.get(caller)
        found = facts.get(symbol.path) if symbol is not None else None
        lines = set(graph.lines(caller, target))
        if symbol is None or found is None or not lines:
            continue
        scope = "" if symbol.kind == "module" else symbol.qualname
        for site in found.calls:
            if site.kind == kind and site.line in lines and site.scope == scope:
                yield caller, site


def _definition_of(symbol: Symbol | None, facts: Mapping[str, FileFacts]) -> Definition | None:
    found = facts.get(symbol.path) if symbol is not None else None
    return found.definition(symbol.qualname) if found is not None and symbol is not None else None


def _plain(definition: Definition) -> bool:
    """No decorator but those that leave the def a def (no wrapper, no descriptor)."""
    return all(d.removesuffix("()").rsplit(".", 1)[-1] in _PLAIN_DECORATORS for d in definition.decorators)


def _is_property(definition: Definition) -> bool:
    return any(map(makes_property, definition.decorators))


def _path_of(graph: SymbolGraph, sid: str) -> str:
    symbol = graph.symbols.get(sid)
    return symbol.path if symbol is not None else ""


EXPECTED_FAILURES = frozenset({"xfail", "expectedFailure"})  # test decorators: the test may fail


def _expected_to_fail(b: Breaking, head_facts: Mapping[str, FileFacts]) -> bool:
    """A call inside ``with pytest.raises(...)`` (or ``assertRaises``), or in a test marked
    ``xfail`` / ``expectedFailure``, may fail on purpose: a test checking that a wrong call
    is refused is not broken by the refusal."""
    facts = head_facts.get(b.file) if b.file else None
    if facts is None:
        return False
    if any(first <= b.line <= last for first, last in facts.expected_errors):
        return True
    qualname = b.caller.split("::", 1)[1] if "::" in b.caller else ""
    definition = facts.definition(qualname) if qualname else None
    return definition is not None and any(
        d.removesuffix("()").rsplit(".", 1)[-1] in EXPECTED_FAILURES for d in definition.decorators)


def _alternatives(head: SymbolGraph) -> dict[tuple[str, int, CallSite], list[ResolvedCall]]:
    """The targets of each call site of head (a receiver that may be of several classes)."""
    out: dict[tuple[str, int, CallSite], list[ResolvedCall]] = {}
    for call in head.linked.calls:
        out.setdefault((call.caller, call.line, call.site), []).append(call)
    return out


def _fits_an_override(call: ResolvedCall, alternatives: Mapping[tuple[str, int, CallSite], list[ResolvedCall]],
                      head: SymbolGraph) -> bool:
    """Whether the site may reach another class's method of the same name that accepts it
    (``response.follow_all(css=...)`` where the response may be a TextResponse): the call
    was written for that one. So for the same method bound, when the callee may be
    either the method read from a class or from an instance."""
    name = call.target.rsplit("::", 1)[-1]
    for other in alternatives.get((call.caller, call.line, call.site), ()):
        sym = head.symbols.get(other.target)
        if sym is None or sym.signature is None or sym.kind != "method":
            continue
        if other.target == call.target:
            if other.bound != call.bound and _fits_none(sym, other.site, other.bound) is None:
                return True
            continue
        if other.target.rsplit("::", 1)[-1] == name and _fits_none(sym, other.site, other.bound) is None:
            return True
    return False


def _fits_another_callable(call: ResolvedCall, alternatives: Mapping[tuple[str, int, CallSite], list[ResolvedCall]],
                           head: SymbolGraph) -> bool:
    """Whether the site calls a value that may be one of several functions of other names
    (a callback or a stored converter, fed by every call that passes one), another of
    which accepts the call: which one this call gets is not known, and code that guards
    the call by the callee's kind (attrs' `Converter`, calling `self.converter(value)`
    only for one-argument converters) is written for those."""
    name = call.target.rsplit("::", 1)[-1]
    for other in alternatives.get((call.caller, call.line, call.site), ()):
        sym = head.symbols.get(other.target)
        if sym is None or sym.signature is None or other.target.rsplit("::", 1)[-1] == name:
            continue
        if head.graph.has_edge(call.target, other.target) or head.graph.has_edge(other.target, call.target):
            continue  # a wrapper and what it wraps: the call runs both
        if _fits_none(sym, other.site, other.bound) is None:
            return True
    return False


def _through_a_pass_through(call: ResolvedCall, head: SymbolGraph, head_facts: Mapping[str, FileFacts]) -> bool:
    """Whether the callee is a name bound from a call of a function that returns its own
    argument (``cls = load_object(path)``, where ``load_object`` returns ``path`` when it is
    callable): the link gives such a call every argument any caller passed, so which one
    this call got is not known."""
    callee, sym = call.site.callee, head.symbols.get(call.caller)
    facts = head_facts.get(sym.path) if sym is not None and callee and callee.isidentifier() else None
    if facts is None or sym is None:
        return False
    lines = {b.line for b in facts.bindings if b.scope == sym.qualname and b.target == callee}
    if not lines:
        return False
    for target, data in head.graph.succ[call.caller].items():
        if "calls" in data["kinds"] and lines.intersection(head.lines(call.caller, target)):
            func = head.symbols.get(target)
            if func is not None and func.kind in ("function", "method") and _returns_an_argument(func, head_facts):
                return True
    return False


def _returns_an_argument(func: Symbol, head_facts: Mapping[str, FileFacts]) -> bool:
    facts = head_facts.get(func.path)
    definition = facts.definition(func.qualname) if facts is not None else None
    if facts is None or definition is None or definition.signature is None:
        return False
    params = {p.name for p in definition.signature.params}
    return any(b.scope == func.qualname and b.target == "<return>" and b.value
               and parse_expr(b.value)[0] in params for b in facts.bindings)


def _fits_none(target: Symbol, site: CallSite, bound: bool) -> str | None:
    """Why a call fits no signature the target may have when it runs (the one it is
    reported with first), or None when it may fit one."""
    assert target.signature is not None
    reason = misfit(target.signature, site, bound)
    if reason is None or any(misfit(v, site, bound) is None for v in target.variants):
        return None
    return reason


def _takes_call_arguments(target: Symbol, head: SymbolGraph, head_facts: Mapping[str, FileFacts]) -> bool:
    """Whether the calls that reach ``target`` pass it their own arguments (see
    :func:`impactbot.link.receives_call_arguments`): also so under the one decorator of
    the repository whose wrapper hands ``target`` what it was given, untouched."""
    definition = _definition_of(target, head_facts)
    if definition is None or receives_call_arguments(definition):
        return True
    if sum(not keeps_signature(d, definition) for d in definition.decorators) != 1:
        return False  # stacked wrappers: each hands the next one something
    return any(head.forwards(wrapper, target.id) for wrapper, _ in head.callers(target.id))


def _declared_by_interface(target: Symbol, head: SymbolGraph, head_facts: Mapping[str, FileFacts]) -> bool:
    """A method of a zope.interface ``Interface`` (``def requestAvatarId(credentials):``,
    no ``self``): a declaration, whose calls run the classes that implement it."""
    if target.kind != "method":
        return False
    for cls in _class_and_bases(head, f"{target.path}::{target.qualname.rpartition('::')[0]}"):
        definition = _definition_of(cls, head_facts)
        if definition is not None and any(base.rsplit(".", 1)[-1] == "Interface" and _from_zope(base, cls, head_facts)
                                          for base in definition.bases):
            return True
    return False


def _class_and_bases(head: SymbolGraph, class_id: str) -> Iterator[Symbol]:
    """The class and every class of the repository it inherits from, nearest first."""
    seen, todo = {class_id}, deque([class_id])
    while todo:
        cls = head.symbols.get(todo.popleft())
        if cls is None or cls.kind != "class":
            continue
        yield cls
        for base in head.bases(cls.id):
            if base not in seen:
                seen.add(base)
                todo.append(base)


def _from_zope(base: str, cls: Symbol, head_facts: Mapping[str, FileFacts]) -> bool:
    facts = head_facts.get(cls.path)
    first = base.split(".", 1)[0]
    return facts is not None and any(imp.bound_name == first and imp.module.startswith("zope")
                                     for imp in facts.imports)


MAX_REEXPORTS = 5  # modules a name is followed through when telling where it comes from

# Calling a class runs __new__ and __init__, calling an instance runs __call__:
# with the call's own arguments, so those calls are checked like any other.
_CALL_DUNDERS = frozenset({"__init__", "__new__", "__call__"})


def _implied(callee: str | None, target: Symbol) -> bool:
    """A protocol method reached through a builtin or syntax, not called by name."""
    name = target.qualname.rsplit("::", 1)[-1]
    if not (name.startswith("__") and name.endswith("__")) or name in _CALL_DUNDERS:
        return False
    return (callee or "").rsplit(".", 1)[-1] != name


# What every class gets from object, callable with the same arguments (``__init__``
# and ``__new__`` are not: object's take none)
_OBJECT_DUNDERS = frozenset({
    "__eq__", "__ne__", "__hash__", "__repr__", "__str__", "__format__", "__dir__", "__sizeof__",
    "__reduce__", "__reduce_ex__", "__getattribute__", "__setattr__", "__delattr__", "__init_subclass__",
    "__subclasshook__", "__getstate__",
})


def _still_called(head: SymbolGraph, base: SymbolGraph, removed: Symbol, head_facts: Mapping[str, FileFacts],
                  base_facts: Mapping[str, FileFacts], callees: Mapping[tuple[str, str], set[str]],
                  left: _LeftBehind, moved_to: Symbol | None = None) -> Iterable[Breaking]:
    """Callers in head that still name a removed (or moved) symbol and reach nothing in its place."""
    if removed.id not in base.graph or _still_an_attribute(removed, head, head_facts, left) \
            or _given_by_a_standard_base(removed, head, head_facts):
        return
    name = removed.qualname.rsplit("::", 1)[-1]
    if "::" in removed.qualname and name in _OBJECT_DUNDERS:
        return  # `a == b`, `repr(a)` without a method of the class's own run object's
    # a caller base linked by the name alone guessed; with that name still a method of the
    # repository (now on two classes, so no longer guessed), the guess says nothing more
    named_still = name in head.method_names()
    owner = base.symbols.get(f"{removed.path}::{removed.qualname.rpartition('::')[0]}")
    # gone, or its name now stands for something else (`def TestLibrary(name)`, a factory
    # making other classes' objects): no object of that class is made any more
    class_gone = owner is not None and owner.kind == "class" and (
        owner.id not in head.symbols or head.symbols[owner.id].kind != "class")
    if class_gone and owner is not None and "::" not in owner.qualname and removed.path in head_facts:
        bound = left.binds(removed.path)
        if bound is None or owner.qualname in bound:
            return  # `Future = asyncio.Future` in its place: objects of that name have their own methods
    inherited = _inherited_in_head(removed, head, head_facts)
    if inherited is not None and (inherited.kind not in ("function", "method") or inherited.signature is None):
        return  # an override gone: its class's objects find the name on a base (`expected = set()`)
    if inherited is None and owner is not None and not class_gone and _handed_on(removed, base_facts):
        return  # it ended in `super().NAME(...)`: a base (another project's, maybe) has NAME
    # a subclass still has NAME (its own def, class attribute, or a store on self): an
    # object that reached the removed one may be of that subclass (`item.message` where
    # every item passed stores its message)
    below = owner is not None and not class_gone and _bound_below(head, owner.id, name, head_facts)
    # a def inside a function is named only inside it: elsewhere it was reached through a
    # value (`self.schema_for_object = schema_for_object`), which may now be another
    local = owner is not None and owner.kind in ("function", "method")
    for caller, conf in base.callers(removed.id):
        sym = head.symbols.get(caller)
        if sym is None:
            continue
        if local and owner is not None and not _within(sym, owner):
            continue
        if _still_reaches(head, caller, removed, conf) or (conf == "name_match" and named_still):
            continue  # still reaches a symbol of that name: moved, not gone
        receiver_passed = {c.site.callee: c.bound for c in base.calls_of(caller) if c.target == removed.id}
        others = _other_targets(base, head, caller, removed)
        if conf in ("inferred", "name_match") and class_gone:
            # no object of that class is made any more: what `obj.m()` may hold is another
            # (twisted's fallback `_keys_pynacl` keys gone with their module, jupyter_client's
            # `tzUTC`: `dt.tzinfo.utcoffset()` was guessed by its name alone); the class's
            # own removal, and an import of a deleted module, are listed as such
            continue
        # the calls written as in base: `logging.info()` in place of the removed `util.info()`
        # is another function, not the old call left behind
        written = callees.get((caller, removed.id))
        facts = head_facts.get(sym.path)
        sites = [site for site in (facts.calls if facts else ())
                 if site.scope == sym.qualname and site.callee and _last(site.callee) == name]
        # the read of a name that is called or applied there (`@util.memoized_property`)
        # is the call's own expr: the call says whether it still resolves
        called = {(site.line, site.callee) for site in sites if site.kind != "attribute"}
        for site in sites:
            if site.kind == "attribute" and (site.line, site.callee) in called:
                continue
            if _own_class_binds(head, head_facts, sym, site.callee or "", name):
                continue
            if conf == "resolved" and class_gone and owner is not None \
                    and _receiver(site.callee or "") != owner.qualname.rsplit("::", 1)[-1]:
                continue  # `obj.m()` where no object of the gone class is made: obj holds another
            if not left.stale(site, sym, removed):
                continue
            if below and owner is not None and not _constructs(site.callee or "", owner):
                continue
            if _probed(facts, site, name):
                continue  # `if hasattr(ctx, "load_default_certs"): ctx.load_default_certs()`
            if conf == "name_match" and _guess_misfits(removed, site, receiver_passed.get(site.callee, True)):
                continue  # guessed by its name alone, and the call never fitted it: another object's method
            if _fits_another(others.get(site.callee or "", ()), site, receiver_passed.get(site.callee, True)):
                continue  # the receiver may be of another class, whose method of that name takes the call
            if written is not None and site.callee not in written:
                continue
            if inherited is not None:
                # the override is gone: the method its class inherits runs, if the call fits it
                reason = _fits_none(inherited, site, receiver_passed.get(site.callee, True))
                if reason is not None:
                    yield Breaking(removed.id, caller, sym.path, site.line,
                                   f"{reason} (the override was removed: {inherited.qualname} runs)")
                continue
            gone = f"moved to {moved_to.path}" if moved_to is not None else "removed"
            verb = "reads" if site.kind == "attribute" else "calls"
            yield Breaking(removed.id, caller, sym.path, site.line, f"{verb} '{name}', which was {gone}")


def _within(sym: Symbol, outer: Symbol) -> bool:
    """Whether ``sym`` is ``outer`` or defined inside it."""
    return sym.path == outer.path and (sym.qualname == outer.qualname or sym.qualname.startswith(outer.qualname + "::"))


def _guess_misfits(removed: Symbol, site: CallSite, bound: bool) -> bool:
    """Whether a call linked to ``removed`` by its name alone did not fit its signature
    (``dbapi_conn.set_client_encoding(enc)`` against a dialect's ``set_client_encoding(self,
    connection, client_encoding)``): the guess was another object's method."""
    return site.kind == "call" and removed.kind in ("function", "method") and removed.signature is not None \
        and _fits_none(removed, site, bound) is not None


def _probed(facts: FileFacts | None, site: CallSite, name: str) -> bool:
    """Whether the site stands under ``if hasattr(obj, "NAME"):`` for its own receiver."""
    receiver = (site.callee or "").rpartition(".")[0]
    return facts is not None and bool(receiver) and any(
        scope == site.scope and obj == receiver and attr == name and first <= site.line <= last
        for scope, obj, attr, first, last in facts.probes)


def _constructs(callee: str, cls: Symbol) -> bool:
    """Whether the receiver of ``callee`` is made right there by the class's name (``Box().size()``)."""
    receiver = _receiver(callee)
    return receiver.endswith(")") and receiver.partition("(")[0].rsplit(".", 1)[-1] == cls.qualname.rsplit("::", 1)[-1]


def _handed_on(removed: Symbol, base_facts: Mapping[str, FileFacts]) -> bool:
    """Whether a removed method called the method of the same name next in its class's
    MRO (``super().render_to_response(context)``): the class still has one there."""
    facts = base_facts.get(removed.path)
    name = removed.qualname.rsplit("::", 1)[-1]
    return facts is not None and any(
        site.scope == removed.qualname and site.callee is not None and site.callee.startswith("super(")
        and site.callee.endswith(")." + name) for site in facts.calls)


def _inherited_in_head(removed: Symbol, head: SymbolGraph, head_facts: Mapping[str, FileFacts]) -> Symbol | None:
    """What the class of a removed method or property, still there in head, finds under
    its name on a base of the repository (the method, or the class binding it otherwise):
    the removed one was an override, and its objects still have the attribute."""
    owner, _, name = removed.qualname.rpartition("::")
    owner_id = f"{removed.path}::{owner}"
    cls = head.symbols.get(owner_id) if owner else None
    if cls is None or cls.kind != "class":
        return None
    for base in _class_and_bases(head, owner_id):
        if base.id != owner_id and _binds(base, name, head_facts):
            return head.symbols.get(f"{base.id}::{name}", base)
    return None


def _other_targets(base: SymbolGraph, head: SymbolGraph, caller: str, removed: Symbol) -> dict[str, list[Symbol]]:
    """By callee expr: the other targets, still there in head, that base linked the
    caller's calls of ``removed`` to (``self.ch.put(1)`` reaching ``Mem.put`` and
    ``Fs.put``: the channel may be a Mem)."""
    calls = base.calls_of(caller)
    sites = {(c.line, c.site.callee) for c in calls if c.target == removed.id}
    out: dict[str, list[Symbol]] = defaultdict(list)
    for c in calls:
        if c.target != removed.id and (c.line, c.site.callee) in sites and c.target in head.symbols:
            out[c.site.callee or ""].append(head.symbols[c.target])
    return out


def _fits_another(others: Sequence[Symbol], site: CallSite, bound: bool) -> bool:
    """Whether one of these targets may take the call (a read fits any)."""
    return any(site.kind == "attribute" or t.signature is None or _fits_none(t, site, bound) is None
               for t in others if t.kind in ("function", "method", "class"))


def _own_class_binds(head: SymbolGraph, head_facts: Mapping[str, FileFacts], caller: Symbol, callee: str,
                     name: str) -> bool:
    """``self.NAME`` in a method whose class, or one of its bases, binds NAME in head
    in its body (a def too) or on its instances (``_label_style: Style = NONE`` in place
    of a property elsewhere), or gets it from a builtin or standard-library base: the
    read reaches that. ``super().NAME`` looks past the method's own class (a mixin's
    ``tearDown`` gone, ``unittest.TestCase``'s is next)."""
    if caller.kind != "method":
        return False
    owner = f"{caller.path}::{caller.qualname.rpartition('::')[0]}"
    if callee in (f"self.{name}", f"cls.{name}"):
        skip = None
    elif callee == f"super().{name}" or (callee.startswith("super(") and callee.endswith(f").{name}")):
        skip = owner
    else:
        return False
    for cls in _class_and_bases(head, owner):
        facts, definition = head_facts.get(cls.path), _definition_of(cls, head_facts)
        if facts is None or definition is None:
            continue
        inside = cls.qualname + "::"
        if cls.id != skip and (_binds(cls, name, head_facts) or any(
                b.scope.startswith(inside) and b.target == f"self.{name}" for b in facts.bindings)):
            return True
        if any(_standard_has(_imported_as(e, facts), name) for e in _outside_bases(head, cls, definition)):
            return True
    # `self` may be of a subclass that has NAME: the link reaches those (or, past the
    # number of targets it lists, says nothing), whatever the class's own lacks
    return skip is None and _bound_below(head, owner, name, head_facts)


def _bound_below(head: SymbolGraph, class_id: str, name: str, head_facts: Mapping[str, FileFacts]) -> bool:
    """Whether a subclass of ``class_id`` in head binds ``name``: a def, a class attribute,
    or a store on ``self``."""
    return any(_binds_on_itself(sub, name, head_facts) or _binds(sub, name, head_facts)
               for sub in _subclasses_below(head, class_id))


def _subclasses_below(head: SymbolGraph, class_id: str) -> Iterator[Symbol]:
    """Every class of the repository deriving from ``class_id`` in head."""
    seen, todo = {class_id}, deque(head.subclasses(class_id))
    while todo:
        sub = todo.popleft()
        if sub in seen:
            continue
        seen.add(sub)
        symbol = head.symbols.get(sub)
        if symbol is not None:
            yield symbol
        todo.extend(head.subclasses(sub))


def _still_an_attribute(removed: Symbol, head: SymbolGraph, head_facts: Mapping[str, FileFacts],
                        left: _LeftBehind) -> bool:
    """A removed method or property whose class, in head, still binds the name another
    way: in its body (``validator: SchemaValidator``) or on its instances
    (``self.validator = ...``), or may answer it from a ``__getattr__`` (SQLAlchemy's
    memoized ``_memoized_attr_NAME``); a removed module-level def whose module still
    binds the name (``OrderedDict = dict``, an import). Reading or calling it reaches that."""
    owner, _, name = removed.qualname.rpartition("::")
    if not owner and removed.path in head_facts:  # `OrderedDict = dict` in place of `class OrderedDict`
        names = left.binds(removed.path)
        return names is None or name in names
    # the class and its bases (`self.url = url` in a base's __init__ gives every instance one)
    return any(_binds_on_itself(cls, name, head_facts) or _answers_any_name(cls, head)
               for cls in _class_and_bases(head, f"{removed.path}::{owner}"))


def _answers_any_name(cls: Symbol, head: SymbolGraph) -> bool:
    """Whether a class defines ``__getattr__`` (or ``__getattribute__``): a name it lacks
    may still be read on its instances."""
    return any(f"{cls.id}::{hook}" in head.symbols for hook in ("__getattr__", "__getattribute__"))


def _binds_on_itself(cls: Symbol, name: str, head_facts: Mapping[str, FileFacts]) -> bool:
    """Whether a class binds ``name`` in its body, or its methods store it on ``self``."""
    facts = head_facts.get(cls.path)
    if facts is None:
        return False
    inside = cls.qualname + "::"
    element = name + "["  # `by_key: Mapping[Key, "Asset"]` declares by_key through its elements' class
    return any(
        (b.scope == cls.qualname and (b.target == name or b.target.startswith(element)))
        or (b.scope.startswith(inside) and b.target.count(".") == 1 and b.target.endswith("." + name))
        for b in facts.bindings
    )


def _given_by_a_standard_base(removed: Symbol, head: SymbolGraph, head_facts: Mapping[str, FileFacts]) -> bool:
    """A removed method its class, in head, still gets from a standard-library base
    (Django's backport of ``assertNoLogs`` gone, ``unittest.TestCase`` has it; a
    Python 2 ``write`` gone, ``io.TextIOWrapper`` has it), or may get from a base
    made by a call (a ``namedtuple(...)``'s fields)."""
    owner, _, name = removed.qualname.rpartition("::")
    if not owner:
        return False
    for cls in _class_and_bases(head, f"{removed.path}::{owner}"):
        definition, facts = _definition_of(cls, head_facts), head_facts.get(cls.path)
        if definition is None or facts is None:
            continue
        for expr in _outside_bases(head, cls, definition):
            if expr.endswith(")"):
                return True  # a class made by a call (`namedtuple("URL", [..., "password"])`): it may have it
            if _standard_has(_imported_as(expr, facts), name):
                return True
    return False


def _outside_bases(head: SymbolGraph, cls: Symbol, definition: Definition) -> list[str]:
    """The bases a class names that are no class of the repository, each without its
    subscript (``typing.MutableMapping[str, str]`` is ``typing.MutableMapping``)."""
    resolved = {b.rsplit("::", 1)[-1] for b in head.bases(cls.id)}
    exprs = (b.split("[", 1)[0] for b in definition.bases)
    return [e for e in exprs if e.endswith(")") or e.rsplit(".", 1)[-1] not in resolved]


def _imported_as(expr: str, facts: FileFacts) -> str | None:
    """The dotted path a name read at module level stands for through the module's
    imports (``TextIOWrapper`` from ``from io import TextIOWrapper`` is io.TextIOWrapper),
    or among the builtins (``dict``) when nothing imports it."""
    first, _, rest = expr.partition(".")
    imp = next((i for i in facts.imports if not i.scope and i.bound_name == first and not i.level), None)
    if imp is None:
        return None if rest else f"builtins.{expr}"
    if imp.name is not None:
        found = f"{imp.module}.{imp.name}"
    elif imp.alias:
        found = imp.module
    else:
        return expr  # `import a.b` binds a: the expr is the path
    return f"{found}.{rest}" if rest else found


# modules that act when imported (open a browser, print)
_NOT_IMPORTED = frozenset({"antigravity", "this", "__hello__", "__phello__", "__main__", "idlelib", "turtledemo"})


def _standard_has(dotted: str | None, name: str) -> bool:
    """Whether the builtin or standard-library class at ``dotted`` has ``name``."""
    found = _standard_class(dotted)
    return found is not None and hasattr(found, name)


@lru_cache(maxsize=256)
def _standard_class(dotted: str | None) -> type | None:
    """The standard library's class at a dotted path, or None."""
    parts = (dotted or "").split(".")
    if parts[0] not in sys.stdlib_module_names or parts[0] in _NOT_IMPORTED:
        return None
    for k in range(len(parts) - 1, 0, -1):
        try:
            with warnings.catch_warnings():  # a deprecated module says so when imported
                warnings.simplefilter("ignore")
                found: object = importlib.import_module(".".join(parts[:k]))
            for attr in parts[k:]:
                found = getattr(found, attr)
        except Exception:  # a module of another platform, or no such name
            continue
        found = found if isinstance(found, type) else typing.get_origin(found)  # typing.MutableMapping
        return found if isinstance(found, type) else None
    return None


@dataclass(frozen=True)
class _LeftBehind:
    """What head says of the call sites that still name a removed def."""

    resolved: set[tuple[str, CallSite]]  # (caller, site) that resolve to a symbol of head
    undefined: set[tuple[str, str, int]]  # (caller, callee, line) naming nothing in scope
    facts: Mapping[str, FileFacts] = field(default_factory=dict)  # head's, by path
    modules: ModuleIndex | None = None  # head's
    decorated: set[tuple[str, int]] = field(default_factory=set)  # (caller, line) of decorators that resolve
    # path -> its imports and other names by scope, read once per file
    scopes: dict[str, tuple[dict[tuple[str, str], Import], set[tuple[str, str]]]] = field(default_factory=dict)
    bound: dict[str, set[str] | None] = field(default_factory=dict)  # path -> the names it binds, read once

    @classmethod
    def of(cls, head: SymbolGraph, facts: Mapping[str, FileFacts], modules: ModuleIndex) -> _LeftBehind:
        # decorators are not kept as calls (nothing checks their arguments); one stands
        # alone on its line, so an edge from that line is its own
        lines = {(e.source, line) for e in head.linked.edges
                 if e.kind == "calls" and e.confidence != "name_match" for line in e.lines}
        decorated = {(symbol_id(path, site.scope), site.line) for path, found in facts.items()
                     for site in found.calls if site.kind == "decorator"}
        return cls({(c.caller, c.site) for c in head.linked.calls}, set(head.linked.dangling), facts,
                   modules, decorated & lines)

    def stale(self, site: CallSite, caller: Symbol, removed: Symbol) -> bool:
        """Whether the site still calls the removed def: it resolves to nothing in head.

        One that resolves to a symbol calls that (`set_class = OrderedSet` in place of
        a removed `def set_class`); a plain name of the removed def's own file that is
        defined in head is bound to something else there (a local `def itemgetter`
        gone, the imported `operator.itemgetter` left).
        """
        if (caller.id, site) in self.resolved or self._imported_from_outside(site, caller):
            return False
        if site.kind == "decorator" and (caller.id, site.line) in self.decorated:
            return False
        if self._module_still_binds(site, caller):
            return False
        if caller.path == removed.path and site.callee and "." not in site.callee:
            return (caller.id, site.callee, site.line) in self.undefined
        return True

    def _module_still_binds(self, site: CallSite, caller: Symbol) -> bool:
        """The site reads the name through a module of the repository that, in head,
        still binds it (re-exported from where it went: ``util.immutabledict``)."""
        facts = self.facts.get(caller.path)
        if facts is None or self.modules is None or not site.callee or "." not in site.callee:
            return False
        if caller.path not in self.scopes:
            self.scopes[caller.path] = _module_scope(facts)
        found = _module_read(self.modules, caller.path, site, *self.scopes[caller.path])
        if found is None or not site.callee.endswith("." + found[1]):
            return False
        module, name = found
        for path in self.modules.paths(module, caller.path):
            names = self.binds(path) if path in self.facts else set()
            if names is None or name in names:
                return True
        return False

    def binds(self, path: str) -> set[str] | None:
        """The names the module at ``path`` binds in head (see :func:`_bound_names`)."""
        if path not in self.bound:
            self.bound[path] = _bound_names(path, self.facts, self.modules or ModuleIndex.build(self.facts))
        return self.bound[path]

    def _imported_from_outside(self, site: CallSite, caller: Symbol) -> bool:
        """The site's first name is imported, in head, from outside the repository
        (``from typing_extensions import get_origin`` in place of the project's own), or
        bound to what such a name holds, here or in a module it reads the name from."""
        facts = self.facts.get(caller.path)
        if facts is None or self.modules is None or not site.callee:
            return False
        first = parse_expr(site.callee)[0]
        parts = caller.qualname.split("::")
        scopes = {"", *("::".join(parts[: i + 1]) for i in range(len(parts)))}
        if self._outside(first, caller.path, scopes, 0):
            return True
        # through a module of the repository: `keys.Key.generate()` where keys binds Key so
        if caller.path not in self.scopes:
            self.scopes[caller.path] = _module_scope(facts)
        found = _module_read(self.modules, caller.path, site, *self.scopes[caller.path])
        return found is not None and any(
            self._outside(found[1], p, {""}, 1) for p in self.modules.paths(found[0], caller.path))

    def _outside(self, name: str, path: str, scopes: set[str], depth: int) -> bool:
        """Whether ``name``, in these scopes of ``path``, is imported from outside the
        repository, directly or re-exported by its modules (``from .helpers import reify``
        where helpers does ``from propcache.api import ... as reify``)."""
        facts = self.facts.get(path)
        if facts is None or self.modules is None or depth > MAX_REEXPORTS:
            return False
        for imp in facts.imports:
            bound = imp.alias or imp.name or imp.module.split(".", 1)[0]
            if imp.name == "*" or imp.scope not in scopes or bound != name:
                continue
            module = self.modules.absolute(path, imp.module, imp.level)
            if module is None or imp.name is None:
                return module is not None and not self.modules.is_module(module.split(".", 1)[0])
            if self.modules.is_module(f"{module}.{imp.name}"):
                return False  # a module of the repository
            if not self.modules.is_module(module):
                # a package of another project; a module gone from one of ours is not that
                return not self.modules.is_module(module.split(".", 1)[0])
            found = self.modules.paths(module, path)
            if any(d.qualname == imp.name for p in found if p in self.facts for d in self.facts[p].definitions):
                return False  # defined there
            return any(self._outside(imp.name, p, {""}, depth + 1) for p in found)
        # a name bound, once, to what another name holds: `Key = ed25519.Key`
        values = {b.value for b in facts.bindings if b.scope in scopes and b.target == name and b.kind == "assign"}
        if len(values) == 1 and (value := values.pop()) and not value.startswith("<"):
            root = parse_expr(value)[0]
            return root != name and root.isidentifier() and self._outside(root, path, scopes, depth + 1)
        return False


def _callees_of(base: SymbolGraph, targets: set[str],
                base_facts: Mapping[str, FileFacts]) -> dict[tuple[str, str], set[str]]:
    """(caller, target) -> the callee exprs of the caller's base calls that resolved to
    one of ``targets`` (a caller that reached it by a name match alone has none).

    Reads of a property and operators (``d[k]``) are not checked calls: their exprs come
    from the base facts, at the lines of the edge (``CoreMetadataHandler(m).metadata``
    is not ``m.metadata``)."""
    out: dict[tuple[str, str], set[str]] = {}
    for call in base.linked.calls:
        if call.target in targets and call.site.callee:
            out.setdefault((call.caller, call.target), set()).add(call.site.callee)
    for target in targets & base.graph.nodes:
        name = target.rsplit("::", 1)[-1]
        for caller, data in base.graph.pred[target].items():
            kinds, sym = data["kinds"], base.symbols.get(caller)
            if (caller, target) in out or kinds.get("calls", "name_match") == "name_match" or sym is None:
                continue
            facts = base_facts.get(sym.path)
            lines = base.lines(caller, target)
            read = {s.callee for s in (facts.calls if facts else ()) if s.callee
                    and s.scope == sym.qualname and s.line in lines and _last(s.callee) == name}
            if read:
                out[(caller, target)] = read
    return out


def _still_reaches(head: SymbolGraph, caller: str, removed: Symbol, confidence: Confidence) -> bool:
    """``caller`` still reaches a symbol named like ``removed`` in head: by resolution or
    inference, or by name alone when that is all base knew too. A name match does not
    stand in for a call that resolved (``util.helper()`` matched to the one ``helper``
    left in the repository after ``util.helper`` moved away)."""
    name = removed.qualname.rsplit("::", 1)[-1]
    for target, data in head.graph.succ[caller].items():
        if head.symbols.get(target, removed).qualname.rsplit("::", 1)[-1] != name:
            continue
        if any(c != "name_match" or confidence == "name_match" for c in data["kinds"].values()):
            return True
    return False


def _receiver(callee: str) -> str:
    """The last name before the called one: ``Key`` of ``keys.Key.generate``."""
    parts = callee.rsplit(".", 2)
    return parts[-2] if len(parts) > 1 else ""


def _last(callee: str) -> str:
    return callee.replace("()", "").replace("[]", "").rsplit(".", 1)[-1]
