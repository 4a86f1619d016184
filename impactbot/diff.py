"""Stage `diff`: base graph vs head graph -> the symbols a change touched.

Symbols are compared by fingerprint, which ignores formatting and comments, so
a reformat is not a change. A file moved or renamed (git's rename detection)
keeps its symbols: they are reported as ``renamed`` with their old id. So does
a symbol moved to another file unchanged (same qualified name, kind and
fingerprint, and no other candidate): moving ``slugify`` from ``utils.py`` to
``text.py`` is one rename, not a removal and an unrelated addition.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from impactbot.extract import class_names, module_names
from impactbot.model import AsyncTurn, ChangedSymbol, ChangeSet, LinkedGraph, Signature, Symbol, symbol_id


def _by_path(symbols: Iterable[Symbol], paths: set[str]) -> dict[str, dict[str, Symbol]]:
    out: dict[str, dict[str, Symbol]] = defaultdict(dict)
    for s in symbols:
        if s.path in paths:
            out[s.path][s.qualname] = s
    return out


def signature_changed(old: Signature | None, new: Signature | None) -> bool:
    """The parameter list (names, kinds, defaults, annotations) or return annotation differ."""
    return old != new


def _signatures_changed(old: Symbol, new: Symbol) -> bool:
    """The signature differs, or one of those a redefinition in a branch gives the name.

    The catch-all variant (a branch binding the name to something without a signature
    of ours) is not a signature anyone wrote: it coming or going is not a change.
    """
    if signature_changed(old.signature, new.signature):
        return True
    return _written(old.variants) != _written(new.variants)


def _async_turn(old: Symbol, new: Symbol) -> AsyncTurn | None:
    """``def`` became ``async def`` or the other way: a call now gives a coroutine, or
    gives the result itself to code that awaits it."""
    if old.is_async == new.is_async:
        return None
    return "now_async" if new.is_async else "no_longer_async"


def _written(variants: tuple[Signature, ...]) -> set[Signature]:
    return {v for v in variants if not _accepts_anything(v)}


def _accepts_anything(sig: Signature) -> bool:
    return [p.kind for p in sig.params] == ["var_positional", "var_keyword"]


def changed_symbols(changes: ChangeSet, base: LinkedGraph, head: LinkedGraph) -> tuple[ChangedSymbol, ...]:
    """Every added, modified, removed or renamed symbol, in file then line order."""
    old_paths = {f.old_path or f.path for f in changes.files if f.status != "added"}
    new_paths = {f.path for f in changes.files if f.status != "deleted"}
    before = _by_path(base.symbols, old_paths)
    after = _by_path(head.symbols, new_paths)
    out: list[ChangedSymbol] = []
    for f in changes.files:
        old = before.get(f.old_path or f.path, {}) if f.status != "added" else {}
        new = after.get(f.path, {}) if f.status != "deleted" else {}
        out.extend(_compare_file(old, new, renamed_from=f.old_path if f.status == "renamed" else None))
    out.extend(_changed_inits(base, head, old_paths | new_paths))
    return tuple(_moves(out, head))


def _changed_inits(base: LinkedGraph, head: LinkedGraph, touched: set[str]) -> list[ChangedSymbol]:
    """Classes of files the change left alone whose __init__ changed all the same: a
    dataclass inheriting fields from a dataclass that gained or lost one."""
    before = {s.id: s for s in base.symbols if s.kind == "class" and s.path not in touched}
    out = []
    for sym in head.symbols:
        prev = before.get(sym.id) if sym.kind == "class" else None
        if prev is not None and prev.signature != sym.signature:
            out.append(ChangedSymbol(sym, "modified", signature_changed=True, old_signature=prev.signature))
    return sorted(out, key=lambda c: (c.symbol.path, c.symbol.line))


def _moves(changed: list[ChangedSymbol], head: LinkedGraph) -> list[ChangedSymbol]:
    """Pair a removed symbol with an added one in another file when exactly one of
    each has the same qualified name, kind and fingerprint; the pair becomes one
    ``renamed`` entry where the added one was. A method that left a class, still
    there in head, for a subclass of it (of the same name, in another module) did not
    move: the subclass overrides what the class no longer has."""
    removed: dict[tuple[str, str, str], list[Symbol]] = defaultdict(list)
    added: dict[tuple[str, str, str], list[Symbol]] = defaultdict(list)
    for c in changed:
        if c.change in ("removed", "added"):
            side = removed if c.change == "removed" else added
            side[(c.symbol.qualname, c.symbol.kind, c.symbol.fingerprint)].append(c.symbol)
    moved_from: dict[str, Symbol] = {}
    bases: dict[str, list[str]] | None = None  # class -> its bases in head, read if a method may move
    for key, gone in removed.items():
        new = added.get(key, [])
        if len(gone) != 1 or len(new) != 1 or gone[0].path == new[0].path or not key[0]:
            continue
        if "::" in key[0] and bases is None:
            bases = defaultdict(list)
            for e in head.edges:
                if e.kind == "inherits":
                    bases[e.source].append(e.target)
        if bases is None or not _moved_down(gone[0], new[0], bases):
            moved_from[new[0].id] = gone[0]
    if not moved_from:
        return changed
    old_ids = {s.id for s in moved_from.values()}
    out = []
    for c in changed:
        if c.change == "removed" and c.symbol.id in old_ids:
            continue
        prev = moved_from.get(c.symbol.id) if c.change == "added" else None
        if prev is None:
            out.append(c)
        else:
            out.append(ChangedSymbol(c.symbol, "renamed", old_id=prev.id, old_signature=prev.signature,
                                     signature_changed=_signatures_changed(prev, c.symbol),
                                     async_turn=_async_turn(prev, c.symbol)))
    return out


def _moved_down(old: Symbol, new: Symbol, bases: Mapping[str, list[str]]) -> bool:
    """Whether ``new`` sits in a subclass of the class ``old`` sat in (``bases``: head's)."""
    holder = old.qualname.rpartition("::")[0]
    if not holder:
        return False
    old_class, new_class = symbol_id(old.path, holder), symbol_id(new.path, new.qualname.rpartition("::")[0])
    seen, todo = {new_class}, [new_class]
    while todo:
        for base in bases.get(todo.pop(), ()):
            if base == old_class:
                return True
            if base not in seen:
                seen.add(base)
                todo.append(base)
    return False


def _compare_file(
    old: dict[str, Symbol], new: dict[str, Symbol], renamed_from: str | None
) -> list[ChangedSymbol]:
    out: list[ChangedSymbol] = []
    for qualname, sym in sorted(new.items(), key=lambda kv: (kv[1].line, kv[0])):
        prev = old.get(qualname)
        if prev is None:
            out.append(ChangedSymbol(sym, "added"))
            continue
        sig = _signatures_changed(prev, sym)
        if renamed_from is not None:
            out.append(
                ChangedSymbol(
                    sym,
                    "renamed",
                    signature_changed=sig,
                    old_id=symbol_id(renamed_from, qualname),
                    old_signature=prev.signature,
                    async_turn=_async_turn(prev, sym),
                )
            )
        elif prev.fingerprint != sym.fingerprint or sig:
            out.append(ChangedSymbol(sym, "modified", signature_changed=sig, old_signature=prev.signature,
                                     async_turn=_async_turn(prev, sym)))
    for qualname, sym in sorted(old.items(), key=lambda kv: (kv[1].line, kv[0])):
        if qualname not in new:
            out.append(ChangedSymbol(sym, "removed"))
    return out


def changed_names(old: bytes | None, new: bytes | None) -> tuple[str, ...]:
    """The module-level names bound differently in two versions of a file (added,
    removed, or given another value or import); layout and comments do not count."""
    before = module_names(old) if old is not None else {}
    after = module_names(new) if new is not None else {}
    return tuple(sorted(n for n in before.keys() | after.keys() if before.get(n) != after.get(n)))


def changed_class_names(old: bytes, new: bytes) -> dict[str, tuple[str, ...]]:
    """class qualname -> the names its own body binds differently in two versions of a file."""
    before, after = class_names(old), class_names(new)
    out = {}
    for qualname in before.keys() & after.keys():
        a, b = before[qualname], after[qualname]
        names = tuple(sorted(n for n in a.keys() | b.keys() if a.get(n) != b.get(n)))
        if names:
            out[qualname] = names
    return out
