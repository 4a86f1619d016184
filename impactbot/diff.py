"""Stage `diff`: base graph vs head graph -> the symbols a change touched.

Symbols are compared by fingerprint, which ignores formatting and comments, so
a reformat is not a change. A file moved or renamed (git's rename detection)
keeps its symbols: they are reported as ``renamed`` with their old id.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from impactbot.model import ChangedSymbol, ChangeSet, LinkedGraph, Signature, Symbol, symbol_id


def _by_path(symbols: Iterable[Symbol], paths: set[str]) -> dict[str, dict[str, Symbol]]:
    out: dict[str, dict[str, Symbol]] = defaultdict(dict)
    for s in symbols:
        if s.path in paths:
            out[s.path][s.qualname] = s
    return out


def signature_changed(old: Signature | None, new: Signature | None) -> bool:
    """The parameter list (names, kinds, defaults, annotations) or return annotation differ."""
    return old != new


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
    return tuple(out)


def _compare_file(
    old: dict[str, Symbol], new: dict[str, Symbol], renamed_from: str | None
) -> list[ChangedSymbol]:
    out: list[ChangedSymbol] = []
    for qualname, sym in sorted(new.items(), key=lambda kv: (kv[1].line, kv[0])):
        prev = old.get(qualname)
        if prev is None:
            out.append(ChangedSymbol(sym, "added"))
            continue
        sig = signature_changed(prev.signature, sym.signature)
        if renamed_from is not None:
            out.append(
                ChangedSymbol(
                    sym,
                    "renamed",
                    signature_changed=sig,
                    old_id=symbol_id(renamed_from, qualname),
                    old_signature=prev.signature,
                )
            )
        elif prev.fingerprint != sym.fingerprint or sig:
            out.append(ChangedSymbol(sym, "modified", signature_changed=sig, old_signature=prev.signature))
    for qualname, sym in sorted(old.items(), key=lambda kv: (kv[1].line, kv[0])):
        if qualname not in new:
            out.append(ChangedSymbol(sym, "removed"))
    return out
