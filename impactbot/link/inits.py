"""The ``__init__`` a class gets from its bases' generated ones: dataclass inheritance.

The extractor sees one file, so it gives a dataclass with bases no signature:
the bases' fields come first. With the bases resolved, the generated
``__init__`` follows Python's rule: the field table of each base, taken in
reverse MRO order, then the class's own fields; a name defined again keeps the
place it was first given and takes its latest definition (its default, its
kind, or none at all for a ``ClassVar`` or ``field(init=False)``), and
keyword-only fields go last. Any base that is not an in-repository dataclass
(an outside class, a plain class, an attrs class, a name that may be one of
several classes) leaves the class without a signature: a guessed one would
flag calls that are right.

A class with no decorator, one base and no ``__init__`` or ``__new__`` of its
own runs its base's: subclassing a ``NamedTuple`` or a dataclass without
decorating the subclass keeps the base's signature.
"""

from __future__ import annotations

from collections.abc import Iterable

from impactbot.link.python import Resolver
from impactbot.model import Param, Signature

Fields = dict[str, Param | None]  # name -> the __init__ parameter for it (None: takes none), in order

# Bases that add no fields and no __init__ (as the extractor's own rule has them).
_HARMLESS = frozenset({"object", "Generic", "typing.Generic"})


def inherited_inits(r: Resolver) -> dict[str, Signature]:
    """class id -> the generated __init__ (without ``self``) of each class whose bases decide it."""
    inits = _Inits(r)
    writers: set[str] = set()  # names of classes with a generated __init__: what a plain subclass can inherit
    candidates: list[str] = []
    for sid, scope in sorted(r.scopes.items()):
        d = scope.definition
        if scope.kind != "class" or d is None:
            continue
        if d.generated_init is not None or d.dataclass_fields is not None:
            writers.add(d.name)
        if d.generated_init is None and d.bases and (d.dataclass_fields is not None or not d.decorators):
            candidates.append(sid)
    out: dict[str, Signature] = {}
    while True:  # a plain subclass of a plain subclass inherits too: until nothing new turns up
        found = False
        for sid in candidates:
            d = r.scopes[sid].definition
            if sid in out or d is None or not (d.dataclass_fields is not None or _names_any(d.bases, writers)):
                continue
            signature = inits.init(sid)
            if signature is not None:
                out[sid] = signature
                writers.add(d.name)
                found = True
        if not found:
            return out


def _names_any(bases: Iterable[str], names: set[str]) -> bool:
    return any(b.split("[", 1)[0].rsplit(".", 1)[-1] in names for b in bases)


class _Inits:
    """Field tables and generated signatures of the classes of one revision, computed once."""

    def __init__(self, r: Resolver) -> None:
        self.r = r
        self._fields: dict[str, Fields | None] = {}
        self._inits: dict[str, Signature | None] = {}

    def init(self, class_id: str) -> Signature | None:
        """The signature of the __init__ generated for a class, or None when none is known."""
        if class_id in self._inits:
            return self._inits[class_id]
        self._inits[class_id] = None  # cyclic bases: no answer
        self._inits[class_id] = found = self._init(class_id)
        return found

    def _init(self, class_id: str) -> Signature | None:
        scope = self.r.scopes[class_id]
        d = scope.definition
        if d is None:
            return None
        if d.generated_init is not None:
            return d.generated_init
        if d.dataclass_fields is not None:
            fields = self.fields(class_id) if d.dataclass_fields.writes_init else None
            return None if fields is None else _signature(fields)
        if d.decorators or len(d.bases) != 1 or "__init__" in scope.names or "__new__" in scope.names:
            return None
        bases = self._bases(class_id)
        return self.init(bases[0]) if bases is not None and len(bases) == 1 else None

    def fields(self, class_id: str) -> Fields | None:
        """The field table of a dataclass (``__dataclass_fields__``), or None when not exactly known."""
        if class_id in self._fields:
            return self._fields[class_id]
        self._fields[class_id] = None  # cyclic bases: no answer
        self._fields[class_id] = found = self._table(class_id)
        return found

    def _table(self, class_id: str) -> Fields | None:
        d = self.r.scopes[class_id].definition
        if d is None or d.dataclass_fields is None:
            return None
        bases = self._bases(class_id)
        if bases is None:
            return None
        out: Fields = {}
        if bases:
            # every class of the MRO is one of these bases or one of theirs, checked by fields()
            ancestors = [c for c in self.r.mro(class_id)[1:] if not c.startswith("X:")]
            for base in reversed(ancestors):
                table = self.fields(base)
                if table is None:
                    return None
                out.update(table)  # a name already there keeps its place
        out.update(d.dataclass_fields.fields)
        return out

    def _bases(self, class_id: str) -> list[str] | None:
        """The in-repository classes a class names as bases, harmless ones aside; None when
        some base is anything else or may be one of several things."""
        d = self.r.scopes[class_id].definition
        if d is None:
            return None
        out: list[str] = []
        for expr, vals in zip(d.bases, self.r.base_values(class_id), strict=True):
            if expr.split("[", 1)[0] in _HARMLESS:
                continue
            if len(vals) != 1:
                return None
            (kind, *rest), inferred = next(iter(vals.items()))
            if kind == "B" and rest == ["object"]:
                continue
            if kind != "S" or inferred or self.r.scopes[rest[0]].kind != "class":
                return None
            out.append(rest[0])
        return out


def _signature(fields: Fields) -> Signature | None:
    """The generated __init__ for a field table; None when Python refuses the class
    (a field without a default after one with a default, keyword-only ones aside)."""
    params = [p for p in fields.values() if p is not None]
    positional = [p for p in params if p.kind != "keyword_only"]
    defaults = [p.has_default for p in positional]
    if True in defaults and not all(defaults[defaults.index(True) :]):
        return None
    return Signature(tuple(positional + [p for p in params if p.kind == "keyword_only"]))
