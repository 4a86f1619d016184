"""Django's ORM: what a model's manager, its querysets and its relation fields give.

``Order.objects.get(pk=1)`` is an ``Order``; ``Order.objects.filter(...)`` is a
queryset whose elements are orders; ``order.customer`` (a ``ForeignKey`` to
``Customer``) is a ``Customer`` and ``order.items`` (a ``ManyToManyField``) a queryset
of items. Django builds all of these at run time (a metaclass adds the manager,
descriptors stand for the fields), so without these rules every method called on
them reads as a call to code outside the repository.

The resolver's values for them: ``("Q", model)`` a manager or queryset of a model of
the repository, ``("QM", model, method)`` one of its methods, ``("QC", model,
method_id)`` a method of the model's own manager or queryset class, ``("QT", model)``
the ``(instance, created)`` pair of ``get_or_create``. This module holds the tables and,
in :class:`DjangoModels`, the resolver's rules that read models, their relation fields
and their managers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from impactbot.model import Binding, FileFacts

if TYPE_CHECKING:
    from impactbot.link.python import Scope, Value, Values

# where a model class gets its default manager
MANAGERS = frozenset({"objects", "_default_manager", "_base_manager"})

# Django's own model base and queryset, in a checkout of Django itself
OWN_MODEL = "django/db/models/base.py::Model"
OWN_QUERYSET = "django/db/models/query.py::QuerySet"
OWN_OPTIONS = "django/db/models/options.py::Options"

# the base a model class names: `models.Model` (from django.db import models), or Model
MODEL_BASES = frozenset({"models.Model", "Model", "django.db.models.Model", "db.models.Model"})

# queryset methods giving a queryset of the same model
_QUERYSETS = frozenset({
    "all", "filter", "exclude", "order_by", "select_related", "prefetch_related", "annotate", "alias",
    "distinct", "using", "only", "defer", "none", "reverse", "select_for_update", "union", "intersection",
    "difference", "extra", "complex_filter", "get_queryset", "iterator",
})
# ... giving one instance of it
_INSTANCES = frozenset({
    "get", "create", "first", "last", "latest", "earliest",
    "aget", "acreate", "afirst", "alast", "alatest", "aearliest",
})
# ... giving (instance, created)
_PAIRS = frozenset({"get_or_create", "update_or_create", "aget_or_create", "aupdate_or_create"})
# ... making an instance from their keywords and saving it (not bulk_create: it calls no save())
SAVING = frozenset({"create", "acreate", *_PAIRS})

# a generic view's methods giving rows of its model, as the queryset method they stand for
VIEW_ROWS = {"get_object": "get", "get_queryset": "all"}
# ... and the attributes its get() stores them in (a row; rows)
VIEW_ATTRIBUTES = {"object": "I", "object_list": "Q", "object_list[]": "I"}
# relation fields, by what reading them through an instance gives
_TO_ONE = frozenset({"ForeignKey", "OneToOneField", "ForeignObject", "ParentalKey"})
_TO_MANY = frozenset({"ManyToManyField", "ParentalManyToManyField"})

Result = Literal["Q", "I", "QT"]


def method_result(method: str) -> Result | None:
    """What calling a manager's or queryset's method gives: a queryset (``Q``), an
    instance (``I``), an (instance, created) pair (``QT``); None for anything else
    (counts, values, updates)."""
    if method in _QUERYSETS:
        return "Q"
    if method in _INSTANCES:
        return "I"
    if method in _PAIRS:
        return "QT"
    return None


def relation_kind(field_call: str) -> Literal["I", "Q"] | None:
    """What a class attribute bound to ``models.ForeignKey()`` (the rendered call) gives
    when read through an instance: an instance (``I``) or a queryset (``Q``)."""
    if not field_call.endswith("()"):
        return None
    name = field_call[:-2].rpartition(".")[2]
    if name in _TO_ONE:
        return "I"
    if name in _TO_MANY:
        return "Q"
    return None


def reverse_kind(field_call: str) -> Literal["I", "Q"] | None:
    """What the related model reads back through its reverse accessor: one instance for
    a ``OneToOneField``, a queryset for the rest."""
    if relation_kind(field_call) is None:
        return None
    return "I" if field_call[:-2].rpartition(".")[2] == "OneToOneField" else "Q"


def reverse_accessor(model_name: str, field_call: str, related_name: str | None) -> str | None:
    """The attribute a related model reads a relation back by: ``related_name=``, else
    ``order_set`` (``order`` for a ``OneToOneField``); None when ``related_name`` ends
    with ``+`` (no accessor)."""
    if related_name is not None:
        return None if related_name.endswith("+") else related_name
    return model_name.lower() + ("" if reverse_kind(field_call) == "I" else "_set")


def model_reference(arg: str) -> tuple[str, bool] | None:
    """The model a relation field's first argument names, and whether it is given by
    name (a string: ``"Customer"``, ``"shop.Customer"``, ``"self"``) rather than as an
    expression to resolve."""
    if arg.startswith('"') and arg.endswith('"') and len(arg) > 2:
        return arg[1:-1].rpartition(".")[2], True
    return (arg, False) if arg else None


class DjangoModels:
    """The resolver's rules for Django models (mixed into ``Resolver``): which classes
    are models, what their relation fields, reverse accessors and own managers give."""

    if TYPE_CHECKING:  # what the resolver provides
        scopes: dict[str, Scope]
        facts: Mapping[str, FileFacts]
        by_name: dict[str, list[str]]
        _reverse: dict[str, dict[str, Value]] | None
        _own_classes: dict[str, str] | None

        def mro(self, class_id: str) -> tuple[str, ...]: ...

        def class_member(self, class_id: str, attr: str, start: int = 0) -> tuple[Values, str | None] | None: ...

        def base_values(self, class_id: str) -> list[Values]: ...

        def _note(self, read: tuple[str, str]) -> None: ...

        def resolve(self, expr: str | None, scope_id: str) -> Values | None: ...

        def subclasses(self) -> dict[str, list[str]]: ...

        def call_results(self, vals: Values, scope_id: str) -> Values: ...

        def _members(self, vals: Values, attr: str) -> Values: ...

    def models(self, vals: Values) -> set[str]:
        """The Django models among values: instances, and managers or querysets of them."""
        return {v[1] for v in vals if (v[0] in ("I", "IS") and self._is_model(v[1])) or v[0] in ("Q", "QM")}

    def own_queryset(self, class_id: str) -> str | None:
        """In Django's own source, the ``QuerySet`` class a model's ``objects`` hands its
        methods on from (the manager class is made at run time from the queryset's methods,
        and the model's metaclass adds it); None for any other class or repository."""
        return self._own_class(class_id, OWN_QUERYSET)

    def own_options(self, class_id: str) -> str | None:
        """In Django's own source, the ``Options`` class of a model's ``_meta`` (its
        metaclass sets it)."""
        return self._own_class(class_id, OWN_OPTIONS)

    def _own_class(self, class_id: str, wanted: str) -> str | None:
        if self._own_classes is None:
            self._own_classes = {
                suffix: next((sid for sid in self.scopes if sid.endswith(suffix)), "")
                for suffix in (OWN_MODEL, OWN_QUERYSET, OWN_OPTIONS)
            }
        model, found = self._own_classes[OWN_MODEL], self._own_classes[wanted]
        for sid, suffix in ((model, OWN_MODEL), (found, wanted)):  # (for derived graphs)
            path, _, name = (sid or suffix).rpartition("::")
            self._note((path, name) if sid else ("<module>", path[:-3].replace("/", ".")))
        return found if model and found and class_id != model and model in self.mro(class_id) else None

    def _is_model(self, class_id: str) -> bool:
        """Whether a class of the repository is a Django model: it, or a class of the
        repository it derives from, names ``models.Model`` from outside as a base (in
        Django's own source, the manager and querysets are classes to follow instead)."""
        seen: set[str] = set()
        stack = [class_id]
        while stack:
            cls = stack.pop()
            scope = self.scopes.get(cls)
            if cls in seen or scope is None or scope.kind != "class" or scope.definition is None:
                continue
            seen.add(cls)
            for expr, vals in zip(scope.definition.bases, self.base_values(cls), strict=False):
                if expr in MODEL_BASES and ("X", "") in vals:  # a base from outside the repository
                    return True
                stack.extend(v[1] for v in vals if v[0] == "S")
        return False

    def _related(self, owner: str, attr: str, cls: str) -> Value | None:
        """What a relation field of a model's body gives read through an instance:
        ``("I", model)`` for a ForeignKey, ``("Q", model)`` for a ManyToManyField (the
        extractor binds ``<model:attr>`` to the model the field names)."""
        scope = self.scopes[owner]
        for src in scope.names.get(attr, ()):
            kind = relation_kind(src.value) if isinstance(src, Binding) and src.value else None
            if kind is None or not self._is_model(owner):
                continue
            self._note((owner, f"<model:{attr}>"))
            named = [b.value for b in scope.names.get(f"<model:{attr}>", ()) if isinstance(b, Binding) and b.value]
            model = self._model_named(named[0], scope, cls) if len(named) == 1 else None
            return (kind, model) if model is not None else None
        return None

    def _reverse_relation(self, model: str, attr: str) -> Value | None:
        """``customer.order_set`` or ``customer.orders`` (``related_name="orders"``): the
        queryset (one instance for a ``OneToOneField``) of the model whose field points here."""
        self._note(("<related>", attr))  # a relation declared or changed in another file
        self._note(("<subclasses>", ""))  # a model class come or gone, which fields may name
        table = self._reverse_relations()
        found = table.get(model, {}).get(attr)
        # code of an abstract model (`self.lines` in AbstractBasket) reads what its
        # concrete subclass gets
        for sub in self.subclasses().get(model, ()) if found is None else ():
            found = found or table.get(sub, {}).get(attr)
        return found

    def _reverse_relations(self) -> dict[str, dict[str, Value]]:
        """model -> accessor -> what it gives, for every relation field of the repository's
        models (built once: which model a field names does not change within a revision)."""
        if self._reverse is not None:
            return self._reverse
        self._reverse = {}
        table: dict[str, dict[str, Value]] = defaultdict(dict)
        for sid, scope in self.scopes.items():
            if scope.kind != "class":
                continue
            fields = [n[len("<model:") : -1] for n in scope.names if n.startswith("<model:")]
            if not fields or scope.definition is None or not self._is_model(sid):
                continue
            for attr in fields:
                call = next((b.value for b in scope.names.get(attr, ()) if isinstance(b, Binding) and b.value), None)
                named = [b.value for b in scope.names[f"<model:{attr}>"] if isinstance(b, Binding) and b.value]
                related = [b.value.strip('"') for b in scope.names.get(f"<related:{attr}>", ())
                           if isinstance(b, Binding) and b.value]
                kind = reverse_kind(call) if call else None
                model = self._model_named(named[0], scope, sid) if len(named) == 1 and kind else None
                accessor = reverse_accessor(scope.definition.name, call, related[0] if related else None) \
                    if call and model else None
                if model is not None and kind is not None and accessor is not None:
                    table[model][accessor] = (kind, sid)
        self._reverse = dict(table)
        return self._reverse

    def _custom_methods(self, model: str, attr: str) -> list[str]:
        """The methods named ``attr`` of a model's own manager and queryset classes."""
        found = []
        for cls in self._custom_classes(model):
            hit = self.class_member(cls, attr)
            found += [v[1] for v in (hit[0] if hit else {}) if v[0] == "S" and self.scopes[v[1]].kind == "method"]
        return sorted(set(found))

    def _custom_classes(self, model: str) -> list[str]:
        """The repository's classes a model's managers are made of: ``objects =
        OrderManager()``, ``OrderQuerySet.as_manager()``, ``OrderManager.from_queryset(
        OrderQuerySet)()``, and the queryset class a manager's ``get_queryset`` returns."""
        out: list[str] = []
        for name in sorted(MANAGERS):
            hit = self.class_member(model, name)
            if hit is None or hit[1] is None:
                continue
            out += [v[1] for v in hit[0] if v[0] in ("I", "IS")]
            owner = self.scopes[hit[1]]
            for src in owner.names.get(name, ()):
                if isinstance(src, Binding) and src.value:
                    out += self._manager_made_of(src, owner)
        for cls in list(out):
            made = self.call_results(self._members({("I", cls): False}, "get_queryset"), model)
            out += [v[1] for v in made if v[0] in ("I", "IS")]
        return [c for c in dict.fromkeys(out) if c in self.scopes and self.scopes[c].kind == "class"]

    def _manager_made_of(self, src: Binding, owner: Scope) -> list[str]:
        """Classes of the repository in ``X.as_manager()`` or ``M.from_queryset(Q)()``."""
        assert src.value is not None
        exprs = []
        if src.value.endswith(".as_manager()"):
            exprs.append(src.value[: -len(".as_manager()")])
        elif src.value.endswith(".from_queryset()()") and owner.definition is not None:
            exprs.append(src.value[: -len(".from_queryset()()")])
            self._note((owner.id, "<calls>"))  # the queryset class is the call's argument
            exprs += [site.args[0] for site in self.facts[owner.path].calls
                      if site.line == src.line and site.callee is not None and site.callee.endswith(".from_queryset")
                      and site.args and site.args[0]]
        return [v[1] for e in exprs for v in (self.resolve(e, owner.id) or {}) if v[0] == "S"]

    def view_rows(self, class_id: str, attr: str) -> Values:
        """``self.get_object()`` / ``self.get_queryset()`` in a generic view (Django's or REST
        framework's, from outside the repository): a row, or rows, of the model its
        ``model`` or ``queryset`` attribute names; ``self.object`` and ``self.object_list``
        (what its ``get()`` stored) the same."""
        models: set[str] = set()
        for name in ("model", "queryset"):
            hit = self.class_member(class_id, name)
            vals = hit[0] if hit is not None and hit[1] is not None else {}
            models |= {v[1] for v in vals if v[0] == "S" and self._is_model(v[1])} | self.models(vals)
        if attr in VIEW_ATTRIBUTES:  # (an element of the object list: a row)
            return {(VIEW_ATTRIBUTES[attr], model): True for model in sorted(models)}
        return {("QM", model, VIEW_ROWS[attr]): True for model in sorted(models)}

    def models_named(self, label: str) -> list[str]:
        """The model classes ``apps.get_model`` gives for ``app_label.Name`` (or ``Name``):
        those of that name, and of those the ones in a directory named like the app when
        any is."""
        self._note(("<subclasses>", ""))  # a model added or gone elsewhere may be the one
        app, _, name = label.rpartition(".")
        found = [c for c in self.by_name.get(name, ()) if self.scopes[c].kind == "class" and self._is_model(c)]
        in_app = [c for c in found if app and f"/{app}/" in "/" + c.split("::", 1)[0]]
        return sorted(in_app or found)

    def _model_named(self, arg: str, scope: Scope, cls: str) -> str | None:
        """The model class a relation field names: a class, ``"self"``, ``"Customer"`` or
        ``"app_label.Customer"`` (a model of that name, when only one has it)."""
        ref = model_reference(arg)
        if ref is None:
            return None
        name, by_name = ref
        if by_name and name == "self":
            return cls
        found = self.resolve(name, scope.parent or scope.path) or {}
        classes = [v[1] for v in found if v[0] == "S" and self.scopes[v[1]].kind == "class"]
        if not classes and by_name:
            self._note(("<subclasses>", ""))  # a model added or gone elsewhere may be the one
            classes = [c for c in self.by_name.get(name, ()) if self.scopes[c].kind == "class" and self._is_model(c)]
        return classes[0] if len(classes) == 1 else None

