"""``signals`` edges: code that sends a signal -> the functions connected to it.

``order_paid.send(sender=Order)`` runs every receiver of ``order_paid``; saving or
deleting a Django model (``order.save()``, ``Order.objects.create(...)``,
``order.delete()``) sends ``pre_save``/``post_save`` or ``pre_delete``/``post_delete``,
which run the receivers connected for that model (``@receiver(post_save,
sender=Order)``) or for every model. A signal is known by the dotted name it is
defined under, whichever way a module imports it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping

from impactbot.link.python import Resolver
from impactbot.model import FileFacts, symbol_id

SENDS = frozenset({"send", "send_robust", "asend", "asend_robust"})
MODEL_SIGNALS = "django.db.models.signals."
# what a call sends, by its method: saving and creating save, deleting deletes
_SAVES = frozenset({"save", "asave", "create", "acreate", "get_or_create", "aget_or_create", "update_or_create",
                    "aupdate_or_create"})
_DELETES = frozenset({"delete", "adelete"})

Table = dict[str, list[tuple[str | None, str]]]  # signal -> (sender class or None, receiver id)


def signal_edges(facts: Mapping[str, FileFacts], resolver: Resolver) -> Iterator[tuple[str, str, int]]:
    """(sending scope id, receiver id, line) for every call that sends a connected signal."""
    table = _receivers(facts, resolver)
    if not table:
        return
    for path in sorted(facts):
        for site in facts[path].calls:
            if site.kind != "call" or not site.callee:
                continue
            obj, _, method = site.callee.rpartition(".")
            if not obj:
                continue
            scope = symbol_id(path, site.scope)
            for receiver in _received(table, resolver, obj, method, scope, site.line):
                yield scope, receiver, site.line


def _received(table: Table, resolver: Resolver, obj: str, method: str, scope: str, line: int) -> list[str]:
    if method in SENDS:
        key = resolver.global_name(obj, scope)
        return [receiver for _, receiver in table.get(key, ())] if key else []
    if method not in _SAVES and method not in _DELETES:
        return []
    names = ("pre_save", "post_save") if method in _SAVES else ("pre_delete", "post_delete")
    if not any(MODEL_SIGNALS + name in table for name in names):
        return []
    models = resolver.models(resolver.resolve_at(obj, scope, line) or {})
    return [receiver for name in names for sender, receiver in table.get(MODEL_SIGNALS + name, ())
            if models and (sender is None or sender in models)]


def _receivers(facts: Mapping[str, FileFacts], resolver: Resolver) -> Table:
    table: Table = defaultdict(list)
    for path in sorted(facts):
        for r in facts[path].receivers:
            scope = symbol_id(path, r.scope)
            key = resolver.global_name(r.signal, scope)
            if key is None:
                continue
            if r.decorated:
                handlers = [h for h in [symbol_id(path, r.handler)] if h in resolver.scopes]
            else:
                found = resolver.resolve(r.handler, scope) or {}
                handlers = sorted(v[1] for v in found if v[0] == "S" and resolver.scopes[v[1]].kind != "class")
            senders: list[str | None] = [None]
            if r.sender is not None:  # a sender outside the repository is no model of it
                found = resolver.resolve(r.sender, scope) or {}
                senders = [v[1] for v in sorted(found, key=repr) if v[0] == "S"] or ["<outside>"]
            table[key].extend((sender, handler) for handler in handlers for sender in senders)
    return table
