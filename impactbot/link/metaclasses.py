"""Metaclasses of the repository: which classes a metaclass makes, and what it gives them.

A class statement (or ``type(name, bases, attrs)``) runs its metaclass's ``__new__``
and ``__init__``; a class reads the metaclass's methods it lacks, and syntax on a
class object runs the metaclass's protocol methods. Inside the metaclass's own
methods, ``cls`` (and what ``super().__new__(mcs, ...)`` gives in its ``__new__``)
is a class it makes: one whose statement names it (or a subclass of it) as
``metaclass=``, or a subclass of one. :class:`Metaclasses` holds these rules of
the resolver (mixed into ``Resolver``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

    from impactbot.link.python import Scope, Target, Value, Values


# what a class finds on ``object`` before its metaclass is looked at
OBJECT_ATTRIBUTES = frozenset(dir(object))


class Metaclasses:
    """The resolver's rules for metaclasses (mixed into ``Resolver``)."""

    if TYPE_CHECKING:  # what the resolver provides
        scopes: dict[str, Scope]
        _active: set[tuple[str, str]]
        _metaclass_users: dict[str, list[str]] | None

        def _note(self, read: tuple[str, str]) -> None: ...

        def met_cycle(self) -> None: ...

        def resolve(self, expr: str | None, scope_id: str) -> Values | None: ...

        def resolve_at(self, expr: str, scope_id: str, line: int) -> Values | None: ...

        def mro(self, class_id: str) -> tuple[str, ...]: ...

        def class_member(self, class_id: str, attr: str, start: int = 0) -> tuple[Values, str | None] | None: ...

        def _dunder_targets(self, class_id: str, dunder: str, inferred: bool) -> Iterator[Target]: ...

    def metaclass_users(self, meta_id: str) -> list[str]:
        """The classes whose own statement names ``meta_id`` (or a subclass of it) as their
        metaclass: they and their subclasses are what an instance of it may be."""
        self._note(("<subclasses>", ""))  # a class's metaclass= is part of the hierarchy
        if self._metaclass_users is None:
            if ("<metaclass-users>", "") in self._active:
                return []
            self._active.add(("<metaclass-users>", ""))
            users: dict[str, list[str]] = defaultdict(list)
            try:
                for sid, scope in self.scopes.items():
                    d = scope.definition
                    if scope.kind != "class" or d is None or not d.metaclass:
                        continue
                    for val in self.resolve(d.metaclass, scope.parent or sid) or {}:
                        if val[0] == "S" and self.scopes[val[1]].kind == "class":
                            for cls in self.mro(val[1]):
                                users[cls].append(sid)
            finally:
                self._active.discard(("<metaclass-users>", ""))
            self._metaclass_users = dict(users)
        return self._metaclass_users.get(meta_id, [])

    def _made_by(self, meta_id: str) -> Values:
        """A class a metaclass makes (or an instance of it): one of its users, or a subclass."""
        return {("CS", cls): True for cls in self.metaclass_users(meta_id)}

    def metaclasses(self, class_id: str) -> list[str]:
        """The repository classes a class's metaclass may be: what its own statement's
        ``metaclass=`` names, or else the first class along its MRO that names one (a
        metaclass is inherited; Python's pick of the most derived one is not modelled)."""
        key = ("<metaclass>", class_id)
        if key in self._active:
            self.met_cycle()
            return []
        self._active.add(key)
        try:
            for cls in self.mro(class_id):
                scope = self.scopes.get(cls)
                if scope is None or scope.definition is None or not scope.definition.metaclass:
                    continue
                vals = self.resolve(scope.definition.metaclass, scope.parent or cls) or {}
                found = sorted(v[1] for v in vals if v[0] == "S" and self.scopes[v[1]].kind == "class")
                if found:
                    return found
            return []
        finally:
            self._active.discard(key)

    def _metaclass_member(self, class_id: str, attr: str) -> tuple[Values, str | None] | None:
        """``attr`` read on a class that does not have it: its metaclass's, if one gives it.
        Not what every class has from ``object`` (``Model.__new__`` is ``object.__new__``,
        not the metaclass's ``__new__``)."""
        if attr in OBJECT_ATTRIBUTES:
            return None
        for meta in self.metaclasses(class_id):
            hit = self.class_member(meta, attr)
            if hit is not None and hit[1] is not None:
                return hit
        return None

    def _class_making(self, base: str, ops: tuple[str, ...], scope_id: str) -> tuple[Values, int] | None:
        """``super().__new__(mcs, ...)`` (or ``type.__new__(mcs, ...)``) in a metaclass's
        ``__new__`` gives the class being made: one the metaclass makes. (Its value, and how
        many ops it takes; None for anything else.)"""
        if base == "super" and ops[:3] == ("()", ".__new__", "()"):
            taken = 3
        elif base == "type" and ops[:2] == (".__new__", "()"):
            taken = 2
        else:
            return None
        scope = self.scopes.get(scope_id)
        d = scope.definition if scope is not None else None
        if scope is None or d is None or d.name != "__new__" or not scope.owner_class:
            return None
        made = self._made_by(scope.owner_class)
        return (made, taken) if made else None

    def metaclass_dunders(self, expr: str, dunder: str, scope_id: str, line: int) -> list[Target]:
        """What syntax on a class object (``for x in C``, ``C[int]``, ``C == D``) runs: its
        metaclass's protocol method."""
        out: list[Target] = []
        for val, inferred in (self.resolve_at(expr, scope_id, line) or {}).items():
            for meta in self._class_metaclasses(val):
                out.extend(self._dunder_targets(meta, dunder, inferred))
        return out

    def _class_metaclasses(self, val: Value) -> list[str]:
        return self.metaclasses(val[1]) if val[0] in ("S", "CS") and self.scopes[val[1]].kind == "class" else []
