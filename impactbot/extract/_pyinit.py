"""The ``__init__`` a class decorator or base writes for a class: dataclasses,
attrs classes and typing.NamedTuple.

Adding a field without a default to ``@dataclass class Point`` breaks every
``Point(1, 2)``, though no ``def`` changed; with the generated signature the
class itself has one, so such calls are checked like any other. Only classes
whose fields are all in their own body get one here (no bases besides
``NamedTuple``, ``Generic[...]`` or ``object``): a base's fields would come
first, and a signature missing them would flag calls that are right. A
dataclass also records its own fields (:func:`dataclass_fields`), from which
the linker, which knows the bases, builds the ``__init__`` of a dataclass
inheriting from other dataclasses.
"""

from __future__ import annotations

from tree_sitter import Node

from impactbot.extract._pyexpr import DEFAULT_KEYWORDS
from impactbot.extract._pystate import dotted_text, text_of
from impactbot.model import DataclassFields, Param, ParamKind, Signature

# Decorators that generate __init__ from annotated fields (last dotted part, and
# for `define`-style names the attrs module they come from).
_DATACLASS = frozenset({"dataclass", "dataclasses.dataclass", "pydantic.dataclasses.dataclass"})
_ATTRS = frozenset({"attr.s", "attr.attrs", "attrs", "attr.define", "attr.frozen", "attr.mutable", "attrs.define",
                    "attrs.frozen", "attrs.mutable", "define", "frozen", "mutable"})
_NAMED_TUPLE = frozenset({"NamedTuple", "typing.NamedTuple"})
_HARMLESS_BASES = frozenset({"object", "Generic", "typing.Generic"})
_FIELD_CALLS = frozenset({"field", "dataclasses.field", "attr.ib", "attr.attrib", "attrs.field", "attr.field"})
_ATTRIB_CALLS = frozenset({"field", "attr.ib", "attr.attrib", "attrib", "attrs.field", "attr.field"})
_POSITIONAL_DEFAULT = frozenset({"attr.ib", "attr.attrib", "attrib"})  # attr.ib(default, validator, ...)
_CLASSIC_ATTRS = frozenset({"attr.s", "attr.attrs", "attrs"})  # auto_attribs is False unless said


def generated_init(decorators: list[tuple[str, dict[str, str]]], bases: tuple[str, ...],
                   body: Node | None) -> Signature | None:
    """The signature of the ``__init__`` generated for a class (without ``self``), or None.

    ``decorators`` holds each decorator's expr with its keyword arguments' source
    text (``("dataclass()", {"kw_only": "True"})``).
    """
    found = _generator(decorators, bases)
    if found is None or body is None or _defines_init(body):
        return None
    family, options = found
    if options.get("init") == "False" or "these" in options:  # attr.s(these={...}): fields from elsewhere
        return None
    fields = _fields(family, options, body)
    if fields is None:
        return None
    return Signature(tuple(param for _, param in fields if param is not None))


def dataclass_fields(decorators: list[tuple[str, dict[str, str]]], body: Node | None) -> DataclassFields | None:
    """The fields a dataclass declares in its own body, whatever its bases; None for
    anything else (attrs classes too: they order inherited fields another way)."""
    for expr, options in decorators:
        name = expr[:-2] if expr.endswith("()") else expr
        if name not in _DATACLASS:
            continue
        fields = _fields("dataclass", options, body) if body is not None else None
        if fields is None:
            return None
        writes = options.get("init") != "False" and body is not None and not _defines_init(body)
        return DataclassFields(tuple(fields), writes)
    return None


def _fields(family: str, options: dict[str, str], body: Node) -> list[tuple[str, Param | None]] | None:
    """Each annotated name of the body with the parameter __init__ takes for it (None for
    none); None when the fields cannot be told."""
    if family == "attrs" and not _auto_attribs(options, body):
        return _attrib_fields(options, body)
    fields = _annotated_fields(body)
    keyword_only = options.get("kw_only") == "True"
    out: list[tuple[str, Param | None]] = []
    for name, annotation, value in fields:
        plain = annotation.split("[", 1)[0]
        if plain in ("ClassVar", "typing.ClassVar"):
            out.append((name, None))
            continue
        if plain in ("KW_ONLY", "dataclasses.KW_ONLY"):
            keyword_only = True
            continue  # a marker, not a field
        field = _field_options(value) if value is not None else None
        if field is not None and field.get("init") == "False":
            out.append((name, None))
            continue
        has_default = value is not None and (field is None or bool(field.keys() & DEFAULT_KEYWORDS))
        kind: ParamKind = "keyword_only" if keyword_only or (field or {}).get("kw_only") == "True" else "positional"
        # attrs takes `_x` as `x`
        out.append((name, Param(name.lstrip("_") if family == "attrs" else name, kind, has_default, annotation)))
    return out


def writes_init(decorator: str) -> bool:
    """Whether a class decorator (its expr) is one of those that write ``__init__``."""
    name = decorator[:-2] if decorator.endswith("()") else decorator
    return name in _DATACLASS or name in _ATTRS


def _generator(decorators: list[tuple[str, dict[str, str]]],
               bases: tuple[str, ...]) -> tuple[str, dict[str, str]] | None:
    """Which family writes the class's __init__ (dataclass, attrs, namedtuple), with
    the decorator's keyword arguments; None when none does or bases may add fields."""
    plain = [b.split("[", 1)[0] for b in bases]
    for expr, options in decorators:
        name = expr[:-2] if expr.endswith("()") else expr
        family = "dataclass" if name in _DATACLASS else "attrs" if name in _ATTRS else None
        if family is None:
            continue
        if family == "attrs" and name in _CLASSIC_ATTRS and "auto_attribs" not in options:
            options = {**options, "auto_attribs": "False"}
        return (family, options) if all(b in _HARMLESS_BASES for b in plain) else None
    if any(b in _NAMED_TUPLE for b in plain) and all(b in _NAMED_TUPLE or b in _HARMLESS_BASES for b in plain):
        return "namedtuple", {}
    return None


def _auto_attribs(options: dict[str, str], body: Node) -> bool:
    """Whether attrs takes every annotated name as a field (``auto_attribs``); left
    unsaid (``define``), it does unless some ``x = attr.ib()`` has no annotation."""
    said = options.get("auto_attribs")
    if said is not None:
        return said == "True"
    return not _unannotated_fields(body)


def _attrib_fields(options: dict[str, str], body: Node) -> list[tuple[str, Param | None]]:
    """The ``x = attr.ib()`` fields of an attrs class without auto_attribs, in the order
    the ``attr.ib()`` calls run (the body's): annotations alone make no field there."""
    out: list[tuple[str, Param | None]] = []
    for name, annotation, value in _assigned_fields(body):
        function = value.child_by_field_name("function") if value.type == "call" else None
        called = dotted_text(function) if function is not None else ""
        if called not in _ATTRIB_CALLS:
            continue
        field = keyword_arguments(value)
        if field.get("init") == "False":
            out.append((name, None))
            continue
        has_default = bool(field.keys() & DEFAULT_KEYWORDS) or (
            called in _POSITIONAL_DEFAULT and _positional_count(value) > 0)
        keyword_only = options.get("kw_only") == "True" or field.get("kw_only") == "True"
        alias = field.get("alias", "").strip("\"'") or name.lstrip("_")
        out.append((name, Param(alias, "keyword_only" if keyword_only else "positional", has_default, annotation)))
    return out


def _assigned_fields(body: Node) -> list[tuple[str, str | None, Node]]:
    """(name, annotation or None, value) of each ``name [: annotation] = value`` in the body."""
    return [(name, annotation, value) for name, annotation, value in _body_assignments(body) if value is not None]


def _body_assignments(body: Node) -> list[tuple[str, str | None, Node | None]]:
    """(name, annotation or None, value or None) of each ``name: annotation``, ``name = value``
    and ``name: annotation = value`` statement directly in a class body."""
    out = []
    for statement in body.named_children:
        if statement.type != "expression_statement" or statement.named_child_count != 1:
            continue
        assignment = statement.named_children[0]
        if assignment.type != "assignment":
            continue
        left = assignment.child_by_field_name("left")
        if left is None or left.type != "identifier":
            continue
        annotation = assignment.child_by_field_name("type")
        text = " ".join(_text(annotation).split()) if annotation is not None else None
        out.append((_text(left), text, assignment.child_by_field_name("right")))
    return out


def _positional_count(call: Node) -> int:
    arguments = call.child_by_field_name("arguments")
    return sum(1 for a in arguments.named_children if a.type not in ("keyword_argument", "comment")) \
        if arguments is not None else 0


def _defines_init(body: Node) -> bool:
    for statement in body.named_children:
        node = statement
        if node.type == "decorated_definition":
            node = node.child_by_field_name("definition") or node
        if node.type == "function_definition" and _text(node.child_by_field_name("name")) == "__init__":
            return True
    return False


def _annotated_fields(body: Node) -> list[tuple[str, str, Node | None]]:
    """(name, annotation, value) of each ``name: annotation [= value]`` in the class body."""
    return [(name, annotation, value) for name, annotation, value in _body_assignments(body) if annotation is not None]


def _unannotated_fields(body: Node) -> bool:
    """``x = attr.ib()`` / ``x = field()`` without an annotation somewhere in the body."""
    return any(annotation is None and value is not None and _field_options(value) is not None
               for _, annotation, value in _body_assignments(body))


def _field_options(value: Node) -> dict[str, str] | None:
    """The keyword arguments of ``field(...)`` / ``attr.ib(...)``; None for a plain default."""
    if value.type != "call":
        return None
    function = value.child_by_field_name("function")
    if function is None or dotted_text(function) not in _FIELD_CALLS:
        return None
    return keyword_arguments(value)


def keyword_arguments(call: Node) -> dict[str, str]:
    """keyword -> value source text of a call's keyword arguments."""
    out = {}
    arguments = call.child_by_field_name("arguments")
    for argument in arguments.named_children if arguments is not None else ():
        if argument.type == "keyword_argument":
            out[_text(argument.child_by_field_name("name"))] = _text(argument.child_by_field_name("value"))
    return out


def _text(node: Node | None) -> str:
    return text_of(node) if node is not None else ""
