"""Django's ORM: what a model's manager, its querysets and its relation fields give.

``Order.objects.get(pk=1)`` is an ``Order``; ``Order.objects.filter(...)`` is a
queryset whose elements are orders; ``order.customer`` (a ``ForeignKey`` to
``Customer``) is a ``Customer`` and ``order.items`` (a ``ManyToManyField``) a queryset
of items. Django builds all of these at run time (a metaclass adds the manager,
descriptors stand for the fields), so without these rules every method called on
them reads as a call to code outside the repository.

The resolver's values for them: ``("Q", model)`` a manager or queryset of a model of
the repository, ``("QM", model, method)`` one of its methods, ``("QT", model)`` the
``(instance, created)`` pair of ``get_or_create``.
"""

from __future__ import annotations

from typing import Literal

# where a model class gets its default manager
MANAGERS = frozenset({"objects", "_default_manager", "_base_manager"})

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
