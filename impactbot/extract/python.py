"""Facts about one Python file: definitions, call sites, imports and bindings.

The file is parsed once and one tree-sitter query collects every node of
interest in a single pass in C; each capture list then goes through one handler
below. Scopes are byte ranges (definition bodies), so the scope of a node is one
bisect away, and decorators, default values and annotations, which sit outside
the body, land in the enclosing scope just as Python evaluates them.

Longer than the house limit on purpose: the handlers share per-file state
(scopes, dead ranges, store targets), and the hot loops (calls, attributes,
assignments) are written out with local variables because they run about a
million times on a Django-sized tree.
"""

from __future__ import annotations

import ast
from bisect import bisect_right
from collections.abc import Iterable, Sequence

from tree_sitter import Node, QueryCursor

from impactbot.extract._pyexpr import Expressions, Values, elements, string_body
from impactbot.extract._pyfingerprint import Fingerprinter, Span, fingerprint
from impactbot.extract._pygrammar import Grammar, grammar
from impactbot.extract._records import binding, call_site
from impactbot.model import (
    Binding,
    BindingKind,
    CallSite,
    Definition,
    FileFacts,
    Import,
    Param,
    ParamKind,
    Signature,
    SymbolKind,
)

_BINARY = {
    "+": "__add__", "-": "__sub__", "*": "__mul__", "/": "__truediv__", "//": "__floordiv__",
    "%": "__mod__", "**": "__pow__", "@": "__matmul__", "<<": "__lshift__", ">>": "__rshift__",
    "&": "__and__", "|": "__or__", "^": "__xor__",
}  # fmt: skip
_AUGMENTED = {op + "=": "__i" + dunder[2:] for op, dunder in _BINARY.items()}
_COMPARE = {
    "==": "__eq__", "!=": "__ne__", "<>": "__ne__", "<": "__lt__", "<=": "__le__",
    ">": "__gt__", ">=": "__ge__",
}  # fmt: skip
_CONTAINS = frozenset({"in", "not in"})
_UNARY = {"-": "__neg__", "+": "__pos__", "~": "__invert__"}
_DEAD_CONDITIONS = frozenset({b"TYPE_CHECKING", b"False", b"0"})
_CONTAINER_METHODS = (".append", ".add", ".extend")

# (node, name, kind, annotation, default) of one parameter
_Parameter = tuple[Node, str, ParamKind, "Node | None", "Node | None"]


def extract_python(data: bytes) -> FileFacts:
    """FileFacts of one Python source blob. Pure; never raises on bad source."""
    return _FileExtraction(_engine(), data).run()


# ------------------------------------------------------------------ per process


class _Engine:
    """Grammar, renderers and node kind ids, built once per process."""

    def __init__(self, g: Grammar) -> None:
        self.g = g
        self.x = Expressions(g)
        self.fingerprinter = Fingerprinter(g)
        self.f = g.fields
        self.identifier = g.kind("identifier")
        self.attribute = g.kind("attribute")
        self.subscript = g.kind("subscript")
        self.call = g.kind("call")
        self.comment = g.kind("comment")
        self.argument_list = g.kind("argument_list")
        self.keyword_argument = g.kind("keyword_argument")
        self.list_splat = g.kinds("list_splat", "parenthesized_list_splat")
        self.dict_splat = g.kinds("dictionary_splat")
        self.class_definition = g.kind("class_definition")
        self.decorated = g.kinds("decorated_definition")
        self.decorator = g.kinds("decorator")
        self.binary = g.kinds("binary_operator")
        self.unary = g.kinds("unary_operator")
        self.string = g.kinds("string")
        self.simple_values = g.kinds(
            "identifier", "attribute", "call", "subscript", "string", "integer", "float",
            "true", "false", "none", "concatenated_string", "binary_operator", "unary_operator",
            "not_operator", "comparison_operator", "await",
        )  # fmt: skip
        self.tuple_like = g.kinds("tuple", "expression_list", "pattern_list", "tuple_pattern")
        self.targets = g.kinds(
            "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list",
            "list_splat_pattern", "list_splat", "parenthesized_expression", "as_pattern_target",
        )  # fmt: skip
        self.assign_token = g.token_kinds("=")
        self.as_pattern = g.kinds("as_pattern")
        self.with_clause = g.kinds("with_clause")
        self.parenthesized = g.kinds("parenthesized_expression")
        self.sequence_literal = g.kinds("list", "tuple")
        self.nonlocal_statement = g.kinds("nonlocal_statement")
        self.import_statement = g.kinds("import_statement")
        self.aliased_import = g.kinds("aliased_import")
        self.relative_import = g.kinds("relative_import")
        self.wildcard_import = g.kinds("wildcard_import")
        self.import_prefix = g.kinds("import_prefix")
        self.async_token = g.token_kinds("async")
        self.from_token = g.token_kinds("from")
        self.false = g.kinds("false")
        self.integer = g.kinds("integer")
        self.typed = g.kinds("typed_parameter", "typed_default_parameter")
        self.defaulted = g.kinds("default_parameter", "typed_default_parameter")
        self.splat_pattern = g.kinds("list_splat_pattern")
        self.dict_splat_pattern = g.kinds("dictionary_splat_pattern")
        self.positional_separator = g.kinds("positional_separator")
        self.keyword_separator = g.kinds("keyword_separator")


_ENGINE: list[_Engine] = []


def _engine() -> _Engine:
    if not _ENGINE:
        _ENGINE.append(_Engine(grammar()))
    return _ENGINE[0]


# ---------------------------------------------------------------- byte ranges


class _Ranges:
    """A set of byte ranges with a fast membership test."""

    __slots__ = ("_ends", "_starts")

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []
        for start, end in sorted(spans):
            if self._ends and start <= self._ends[-1]:
                self._ends[-1] = max(self._ends[-1], end)
            else:
                self._starts.append(start)
                self._ends.append(end)

    def __bool__(self) -> bool:
        return bool(self._starts)

    def __contains__(self, pos: int) -> bool:
        i = bisect_right(self._starts, pos) - 1
        return i >= 0 and pos < self._ends[i]


class _Scopes:
    """The innermost definition body around a byte offset ("" = module)."""

    __slots__ = ("bounds", "names")

    def __init__(self, bodies: Sequence[tuple[int, int, str]]) -> None:
        # names[i] is the scope from bounds[i] up to bounds[i + 1]
        self.bounds = [0]
        self.names = [""]
        stack: list[tuple[str, int]] = [("", 1 << 62)]
        for start, end, name in bodies:  # sorted by start, properly nested
            self._close(stack, start)
            stack.append((name, end))
            self.bounds.append(start)
            self.names.append(name)
        self._close(stack, 1 << 62)

    def _close(self, stack: list[tuple[str, int]], upto: int) -> None:
        while len(stack) > 1 and stack[-1][1] <= upto:
            end = stack.pop()[1]
            self.bounds.append(end)
            self.names.append(stack[-1][0])

    def at(self, pos: int) -> str:
        return self.names[bisect_right(self.bounds, pos) - 1]


class _Def:
    """A def or class node with what the handlers need to know about it."""

    __slots__ = ("body", "decorated", "kind", "name", "node", "qualname", "start")

    def __init__(self, node: Node, decorated: Node | None, qualname: str, kind: SymbolKind,
                 body: Node | None) -> None:  # fmt: skip
        self.node = node
        self.decorated = decorated
        self.qualname = qualname
        self.name = qualname.rpartition("::")[2]
        self.kind = kind
        self.start = (decorated or node).start_byte
        self.body = body


# --------------------------------------------------------------------- per file


class _FileExtraction:
    """The state of extracting one file; ``run()`` once."""

    def __init__(self, engine: _Engine, data: bytes) -> None:
        self.e = engine
        self.x = engine.x
        self.data = data
        self.tree = engine.g.parser.parse(data)
        self.caps: dict[str, list[Node]] = QueryCursor(engine.g.query).captures(
            self.tree.root_node
        )
        self.defs = self._definitions()
        self.scopes = _Scopes(sorted(
            (d.body.start_byte, d.body.end_byte, d.qualname) for d in self.defs if d.body
        ))  # fmt: skip
        self.scope_at = self.scopes.at
        self.dead = _Ranges(self._dead_spans())
        self.types = _Ranges((n.start_byte, n.end_byte) for n in self._caps("type"))
        self.sites: list[tuple[int, CallSite]] = []
        self.first_ops: dict[tuple[str, str], tuple[int, Node]] = {}
        self.bindings: list[tuple[int, Binding]] = []
        self.attr_stores: set[int] = set()
        self.sub_stores: set[int] = set()
        self.sub_deletes: set[int] = set()
        self.sub_updates: set[int] = set()
        self.all_events: list[tuple[int, str, Node]] = []

    def _caps(self, name: str) -> list[Node]:
        return self.caps.get(name, [])

    def run(self) -> FileFacts:
        self._assignments()
        self._augmented()
        self._loops()
        self._withs()
        self._deletes()
        self._returns()
        self._small_bindings()
        self._calls()
        self._subscripts()
        self._operators()
        definitions = self._definition_facts()
        sites = self.sites + self._op_sites() + self._attributes()
        sites.sort(key=_first)
        self.bindings.sort(key=_first)
        return FileFacts(
            language="python",
            definitions=definitions,
            calls=tuple([site for _, site in sites]),
            imports=self._imports(),
            bindings=tuple([b for _, b in self.bindings]),
            all_names=self._all_names(),
            error=self._error(),
        )

    def _live(self, node: Node) -> bool:
        return not (self.dead and node.start_byte in self.dead)

    # ------------------------------------------------------------ structure

    def _definitions(self) -> list[_Def]:
        e = self.e
        f_name, f_body = e.f["name"], e.f["body"]
        stack: list[tuple[int, _Def]] = []
        out: list[_Def] = []
        for node in sorted(self._caps("def"), key=_start):
            name_node = node.child_by_field_id(f_name)
            if name_node is None:
                continue
            while stack and stack[-1][0] <= node.start_byte:
                stack.pop()
            outer = stack[-1][1] if stack else None
            name = _text(name_node)
            kind: SymbolKind = "function"
            if node.kind_id == e.class_definition:
                kind = "class"
            elif outer is not None and outer.kind == "class":
                kind = "method"
            parent = node.parent
            decorated = parent if parent is not None and parent.kind_id in e.decorated else None
            qualname = f"{outer.qualname}::{name}" if outer else name
            d = _Def(node, decorated, qualname, kind, node.child_by_field_id(f_body))
            stack.append((node.end_byte, d))
            out.append(d)
        return out

    def _dead_spans(self) -> list[tuple[int, int]]:
        """Consequence blocks of ``if TYPE_CHECKING:``, ``if False:`` and ``if 0:``."""
        f = self.e.f
        spans = []
        for node in self._caps("if"):
            condition = node.child_by_field_id(f["condition"])
            block = node.child_by_field_id(f["consequence"])
            if condition is not None and block is not None and self._is_dead(condition):
                spans.append((block.start_byte, block.end_byte))
        return spans

    def _is_dead(self, condition: Node) -> bool:
        text = condition.text or b""
        kind = condition.kind_id
        if kind == self.e.identifier or kind in self.e.false or kind in self.e.integer:
            return text in _DEAD_CONDITIONS
        return kind == self.e.attribute and text.endswith(b".TYPE_CHECKING")

    # ------------------------------------------------------------- bindings

    def _bind(self, pos: int, scope: str, pairs: Iterable[tuple[str, str | None]],
              line: int, kind: BindingKind) -> None:  # fmt: skip
        self.bindings.extend(
            [(pos, binding(scope, target, value, line, kind)) for target, value in pairs]
        )

    def _mark_targets(self, node: Node) -> None:
        """Remember attribute and subscript store targets (they are not reads)."""
        kind = node.kind_id
        if kind == self.e.attribute:
            self.attr_stores.add(node.end_byte)
        elif kind == self.e.subscript:
            self.sub_stores.add(node.end_byte)
        elif kind in self.e.targets:
            for child in node.named_children:
                self._mark_targets(child)

    def _assignments(self) -> None:
        e, x = self.e, self.x
        f_right = e.f["right"]
        identifier, simple, assign_token = e.identifier, e.simple_values, e.assign_token
        expr, bounds, names, dead = x.expr, self.scopes.bounds, self.scopes.names, self.dead
        out = self.bindings
        for node in self._caps("assign"):
            left = node.child(0)
            if left is None:
                continue
            if left.kind_id != identifier:
                self._mark_targets(left)
            pos = node.start_byte
            if dead and pos in dead:
                continue
            scope = names[bisect_right(bounds, pos) - 1]
            line = node.start_point.row + 1
            second = node.child(1)
            if second is not None and second.kind_id in assign_token:
                value = node.child(2)
            else:
                self._annotated(node, left, pos, scope, line)
                value = node.child_by_field_id(f_right)
            while value is not None and value.kind_id == node.kind_id:  # a = b = v
                value = value.child_by_field_id(f_right)
            if value is None:
                continue
            if left.kind_id == identifier and value.kind_id in simple:
                out.append((pos, binding(scope, _text(left), expr(value), line, "assign")))
            else:
                self._bind(pos, scope, x.bind_value(left, value), line, "assign")
            if not scope and left.text == b"__all__":
                self.all_events.append((pos, "set", value))

    def _annotated(self, node: Node, left: Node, pos: int, scope: str, line: int) -> None:
        annotation = node.child_by_field_id(self.e.f["type"])
        if annotation is not None:
            pairs = self.x.bind(left, list(self.x.instances(annotation)))  # type: ignore[arg-type]
            self._bind(pos, scope, pairs, line, "annotation")

    def _augmented(self) -> None:
        f, x = self.e.f, self.x
        for node in self._caps("aug"):
            left = node.child_by_field_id(f["left"])
            right = node.child_by_field_id(f["right"])
            operator = node.child_by_field_id(f["operator"])
            if left is None or right is None or operator is None or not self._live(node):
                continue
            if left.kind_id == self.e.subscript:
                self.sub_updates.add(left.end_byte)
            dunder = _AUGMENTED.get(operator.type)
            if dunder:
                self._op(node.start_byte, left, dunder, node)
            scope = self.scope_at(node.start_byte)
            added = [(s, v) for s, v in x.values(right) if s]
            if added and operator.type in ("+=", "|="):
                self._bind(node.start_byte, scope, x.bind(left, added), _line(node), "assign")
            if scope == "" and left.text == b"__all__":
                self.all_events.append((node.start_byte, "extend", right))

    def _loops(self) -> None:
        f, x = self.e.f, self.x
        for node in self._caps("for"):
            left = node.child_by_field_id(f["left"])
            right = node.child_by_field_id(f["right"])
            if left is None or right is None:
                continue
            self._mark_targets(left)
            if not self._live(node):
                continue
            first = node.child(0)
            is_async = first is not None and first.kind_id in self.e.async_token
            self._op(node.start_byte, right, "__aiter__" if is_async else "__iter__", node)
            pairs = x.bind(left, elements(x.values(right)))
            self._bind(node.start_byte, self.scope_at(node.start_byte), pairs, _line(node), "for")

    def _withs(self) -> None:
        for node in self._caps("with"):
            first = node.child(0)
            is_async = first is not None and first.kind_id in self.e.async_token
            enter, leave = ("__aenter__", "__aexit__") if is_async else ("__enter__", "__exit__")
            for clause in node.named_children:
                if clause.kind_id in self.e.with_clause:
                    for item in self.x.named(clause):
                        self._with_item(node, item, enter, leave)

    def _with_item(self, statement: Node, item: Node, enter: str, leave: str) -> None:
        value = item.child_by_field_id(self.e.f["value"])
        if value is None:
            return
        alias = None
        if value.kind_id in self.e.as_pattern:
            alias = value.child_by_field_id(self.e.f["alias"])
            value = value.named_child(0)
            if alias is not None:
                self._mark_targets(alias)
        if value is None or not self._live(statement):
            return
        self._op(item.start_byte, value, enter, item)
        self._op(item.start_byte, value, leave, item)
        if alias is not None:
            base = self.x.expr(value)
            entered = None if base is None else f"{base}.{enter}()"
            self._bind(item.start_byte, self.scope_at(item.start_byte),
                       self.x.bind(alias, [("", entered)]), _line(item), "with")  # fmt: skip

    def _deletes(self) -> None:
        for node in self._caps("del"):
            for target in self.x.named(node):
                self._mark_deleted(target)

    def _mark_deleted(self, node: Node) -> None:
        kind = node.kind_id
        if kind == self.e.subscript:
            self.sub_deletes.add(node.end_byte)
        elif kind == self.e.attribute:
            self.attr_stores.add(node.end_byte)
        elif kind in self.e.targets:
            for child in self.x.named(node):
                self._mark_deleted(child)

    def _returns(self) -> None:
        x = self.x
        for node in self._caps("return"):
            value = x.named(node)
            if value and self._live(node):
                pairs = [("<return>" + s, v) for s, v in x.values(value[0])]
                self._bind(node.start_byte, self.scope_at(node.start_byte), pairs, _line(node),
                           "return")  # fmt: skip
        for node in self._caps("yield"):
            value = x.named(node)
            if not value or not self._live(node):
                continue
            second = node.child(1)
            values = x.values(value[-1])
            if second is not None and second.kind_id in self.e.from_token:
                values = elements(values)
            pairs = [("<return>[]" + s, v) for s, v in values]
            self._bind(node.start_byte, self.scope_at(node.start_byte), pairs, _line(node),
                       "return")  # fmt: skip

    def _small_bindings(self) -> None:
        """``except E as e``, ``(x := v)``, ``global x`` and ``nonlocal x``."""
        f, x = self.e.f, self.x
        for node in self._caps("except"):
            value = node.child_by_field_id(f["value"])
            if value is None or value.kind_id not in self.e.as_pattern or not self._live(node):
                continue
            alias = value.child_by_field_id(f["alias"])
            types = value.named_child(0)
            if alias is None or types is None:
                continue
            members = x.named(types) if types.kind_id in self.e.tuple_like else [types]
            exprs = [x.expr(t) for t in members]
            pairs = x.bind(alias, [("", None if t is None else t + "()") for t in exprs])
            self._bind(node.start_byte, self.scope_at(node.start_byte), pairs, _line(node),
                       "except")  # fmt: skip
        for node in self._caps("walrus"):
            name = node.child_by_field_id(f["name"])
            value = node.child_by_field_id(f["value"])
            if name is not None and value is not None and self._live(node):
                self._bind(node.start_byte, self.scope_at(node.start_byte),
                           x.bind(name, x.values(value)), _line(node), "assign")  # fmt: skip
        for node in self._caps("scopedecl"):
            if not self._live(node):
                continue
            kind: BindingKind = "nonlocal" if node.kind_id in self.e.nonlocal_statement else "global"
            names = [(_text(n), None) for n in x.named(node) if n.kind_id == self.e.identifier]
            self._bind(node.start_byte, self.scope_at(node.start_byte), names, _line(node), kind)

    # ---------------------------------------------------------------- calls

    def _calls(self) -> None:
        e = self.e
        expr, bounds, names, dead = self.x.expr, self.scopes.bounds, self.scopes.names, self.dead
        attribute, argument_list, keyword_argument, comment = (
            e.attribute, e.argument_list, e.keyword_argument, e.comment)  # fmt: skip
        list_splat, dict_splat = e.list_splat, e.dict_splat
        attr_stores, sites = self.attr_stores, self.sites
        for node in self._caps("call"):
            function = node.child(0)
            arguments = node.child(node.child_count - 1)
            if function is None or arguments is None or arguments is function:
                continue
            if function.kind_id == attribute:
                attr_stores.add(function.end_byte)  # a method call, not an attribute read
            start = node.start_byte
            if dead and start in dead:
                continue
            callee = expr(function)
            star = starstar = False
            positional: list[str | None] = []
            keywords: list[str] = []
            kwargs: list[tuple[str, str | None]] = []
            if arguments.kind_id != argument_list:
                positional.append(None)  # f(x for x in y)
            elif arguments.named_child_count:
                for arg in arguments.named_children:
                    kind = arg.kind_id
                    if kind == keyword_argument:
                        keyword = _text(arg.child(0))  # type: ignore[arg-type]
                        value = arg.child(arg.child_count - 1)
                        keywords.append(keyword)
                        kwargs.append((keyword, None if value is None else expr(value)))
                    elif kind in list_splat:
                        star = True
                    elif kind in dict_splat:
                        starstar = True
                    elif kind != comment:
                        positional.append(expr(arg))
            scope = names[bisect_right(bounds, start) - 1]
            args = tuple(positional)
            sites.append((start, call_site(
                scope, callee, node.start_point.row + 1, "call", len(args), tuple(keywords),
                star, starstar, args, tuple(kwargs),
            )))  # fmt: skip
            if callee is not None and callee.endswith(_CONTAINER_METHODS):
                self._container_call(node, scope, callee, args, keywords)

    def _container_call(self, node: Node, scope: str, callee: str,
                        args: tuple[str | None, ...], keywords: list[str]) -> None:  # fmt: skip
        """``x.append(f)`` / ``x.add(f)`` bind ``x[]``; ``__all__`` may grow."""
        owner, _, method = callee.rpartition(".")
        if method in ("append", "add") and len(args) == 1 and not keywords and args[0]:
            self._bind(node.start_byte, scope, [(owner + "[]", args[0])], _line(node), "assign")
        if owner == "__all__" and scope == "" and method in ("append", "extend"):
            values = self.x.named(node.child(node.child_count - 1))  # type: ignore[arg-type]
            event = method if len(values) == 1 else "unknown"
            self.all_events.append((node.start_byte, event, values[0] if values else node))

    # ------------------------------------------------------------ operators

    def _op(self, pos: int, operand: Node, dunder: str, line_node: Node) -> None:
        base = self.x.expr(operand)
        if base is None:
            return
        key = (self.scope_at(pos), f"{base}.{dunder}")
        known = self.first_ops.get(key)
        if known is None or pos < known[0]:
            self.first_ops[key] = (pos, line_node)

    def _op_sites(self) -> list[tuple[int, CallSite]]:
        return [
            (pos, call_site(scope, callee, _line(node), "operator"))
            for (scope, callee), (pos, node) in self.first_ops.items()
        ]

    def _subscripts(self) -> None:
        value_field = self.e.f["value"]
        for node in self._caps("sub"):
            start, end = node.start_byte, node.end_byte
            if (self.types and start in self.types) or not self._live(node):
                continue
            value = node.child_by_field_id(value_field)
            if value is None:
                continue
            if end in self.sub_stores:
                self._op(start, value, "__setitem__", node)
            elif end in self.sub_deletes:
                self._op(start, value, "__delitem__", node)
            else:
                self._op(start, value, "__getitem__", node)
                if end in self.sub_updates:
                    self._op(start, value, "__setitem__", node)

    def _operators(self) -> None:
        e = self.e
        f_left, f_operator, f_argument = e.f["left"], e.f["operator"], e.f["argument"]
        for node in self._caps("op"):
            start = node.start_byte
            if (self.types and start in self.types) or not self._live(node):
                continue
            kind = node.kind_id
            if kind in e.binary or kind in e.unary:
                operator = node.child_by_field_id(f_operator)
                operand = node.child_by_field_id(f_left if kind in e.binary else f_argument)
                table = _BINARY if kind in e.binary else _UNARY
                dunder = None if operator is None else table.get(operator.type)
                if dunder is not None and operand is not None:
                    self._op(start, operand, dunder, node)
            else:
                self._comparison(node)

    def _comparison(self, node: Node) -> None:
        previous: Node | None = None
        pending: str | None = None
        for child in node.children:
            if child.kind_id == self.e.comment:
                continue
            if not child.is_named or child.type in _CONTAINS or child.type == "is not":
                pending = child.type
                continue
            if pending in _CONTAINS:
                self._op(node.start_byte, child, "__contains__", node)
            elif pending in _COMPARE and previous is not None:
                self._op(node.start_byte, previous, _COMPARE[pending], node)
            previous, pending = child, None

    def _attributes(self) -> list[tuple[int, CallSite]]:
        """Attribute reads that are not call targets, first per (scope, expr)."""
        expr, bounds, names, dead = self.x.expr, self.scopes.bounds, self.scopes.names, self.dead
        skip = self.attr_stores
        first: dict[tuple[str, str], tuple[int, Node]] = {}
        for node in self._caps("attr"):
            if node.end_byte in skip:
                continue
            start = node.start_byte
            if dead and start in dead:
                continue
            callee = expr(node)
            if callee is None:
                continue
            key = (names[bisect_right(bounds, start) - 1], callee)
            known = first.get(key)
            if known is None or start < known[0]:
                first[key] = (start, node)
        return [
            (pos, call_site(scope, callee, node.start_point.row + 1, "attribute"))
            for (scope, callee), (pos, node) in first.items()
        ]

    # ---------------------------------------------------------- definitions

    def _definition_facts(self) -> tuple[Definition, ...]:
        defs = self.defs
        spans = [Span(d.start, d.node.end_byte, self._placeholder(d)) for d in defs]
        texts = self.e.fingerprinter.texts(self.data, self.caps, spans)
        comment_ends = {n.end_byte for n in self._caps("comment")}
        merged: dict[str, list[int]] = {}
        for i, d in enumerate(defs):
            merged.setdefault(d.qualname, []).append(i)
        out = [Definition("", "module", 1, _line_count(self.data), fingerprint(texts[:1]))]
        for members in merged.values():
            first = defs[members[0]]
            params = self._definition_calls_and_bindings(defs, members)
            end_line = max(self._end_line(defs[i].node, comment_ends) for i in members)
            out.append(Definition(
                first.qualname, first.kind, _line(first.decorated or first.node), end_line,
                fingerprint([texts[i + 1] for i in members]),
                None if first.kind == "class" else self._signature(first, params),
                self._decorators(first), self._bases(first), self._is_async(first.node),
            ))  # fmt: skip
        return tuple(out)

    def _definition_calls_and_bindings(self, defs: list[_Def],
                                       members: list[int]) -> list[_Parameter]:  # fmt: skip
        """Decorator sites and parameter bindings of each member; the first's parameters."""
        first_params: list[_Parameter] = []
        for n, i in enumerate(members):
            d = defs[i]
            self._decorator_sites(d)
            if d.kind != "class":
                params = self._parameters(d)
                if self._live(d.node):
                    self._parameter_bindings(d, params)
                if n == 0:
                    first_params = params
        return first_params

    def _placeholder(self, d: _Def) -> bytes:
        word = b"$class:" if d.kind == "class" else b"$def:"
        return word + d.name.encode("utf-8", "replace") + b"$"

    def _end_line(self, node: Node, comment_ends: set[int]) -> int:
        """The last line with code: a trailing comment inside the body does not count."""
        while node.end_byte in comment_ends and node.child_count:
            i = node.child_count - 1
            child = node.child(i)
            while child is not None and child.kind_id == self.e.comment and i > 0:
                i -= 1
                child = node.child(i)
            if child is None or child.kind_id == self.e.comment:
                break
            node = child
        return node.end_point.row + 1

    def _decorator_nodes(self, d: _Def) -> list[Node]:
        if d.decorated is None:
            return []
        return [c for c in d.decorated.children if c.kind_id in self.e.decorator]

    def _decorator_expr(self, node: Node) -> str | None:
        inner = self.x.named(node)
        return self.x.expr(inner[0]) if inner else None

    def _decorators(self, d: _Def) -> tuple[str, ...]:
        exprs = [self._decorator_expr(node) for node in self._decorator_nodes(d)]
        return tuple(text for text in exprs if text is not None)

    def _decorator_sites(self, d: _Def) -> None:
        for node in self._decorator_nodes(d):
            if self._live(node):
                site = call_site(self.scope_at(node.start_byte), self._decorator_expr(node),
                                 _line(node), "decorator", 1, args=(d.name,))  # fmt: skip
                self.sites.append((node.start_byte, site))

    def _bases(self, d: _Def) -> tuple[str, ...]:
        if d.kind != "class":
            return ()
        superclasses = d.node.child_by_field_id(self.e.f["superclasses"])
        if superclasses is None:
            return ()
        e = self.e
        skip = {e.keyword_argument, *e.list_splat, *e.dict_splat}
        bases = [self.x.expr(n) for n in self.x.named(superclasses) if n.kind_id not in skip]
        return tuple(b for b in bases if b is not None)

    def _is_async(self, node: Node) -> bool:
        first = node.child(0)
        return first is not None and first.kind_id in self.e.async_token

    # ------------------------------------------------------------ signature

    def _parameters(self, d: _Def) -> list[_Parameter]:
        """(node, name, kind, annotation, default) of each parameter, in order."""
        e = self.e
        params_node = d.node.child_by_field_id(e.f["parameters"])
        out: list[_Parameter] = []
        keyword_only = False
        for node in [] if params_node is None else self.x.named(params_node):
            kind_id = node.kind_id
            if kind_id in e.positional_separator:
                out = [(n, s, "positional_only" if k == "positional" else k, a, v)
                       for n, s, k, a, v in out]  # fmt: skip
                continue
            if kind_id in e.keyword_separator:
                keyword_only = True
                continue
            name, kind, annotation, default = self._parameter(node)
            if kind == "var_positional":
                keyword_only = True
            elif kind == "positional" and keyword_only:
                kind = "keyword_only"
            out.append((node, name, kind, annotation, default))
        return out

    def _parameter(self, node: Node) -> tuple[str, ParamKind, Node | None, Node | None]:
        e, f = self.e, self.e.f
        kind_id = node.kind_id
        if kind_id == e.identifier:
            return _text(node), "positional", None, None
        annotation = node.child_by_field_id(f["type"]) if kind_id in e.typed else None
        default = node.child_by_field_id(f["value"]) if kind_id in e.defaulted else None
        name_node: Node | None = node
        if kind_id in e.defaulted:
            name_node = node.child_by_field_id(f["name"])
        elif kind_id in e.typed:
            name_node = node.named_child(0)
        kind: ParamKind = "positional"
        if name_node is not None and name_node.kind_id in e.splat_pattern:
            kind = "var_positional"
        elif name_node is not None and name_node.kind_id in e.dict_splat_pattern:
            kind = "var_keyword"
        if kind != "positional" and name_node is not None:
            inner = self.x.named(name_node)
            name_node = inner[0] if inner else name_node
        return ("" if name_node is None else _text(name_node)), kind, annotation, default

    def _signature(self, d: _Def, params: list[_Parameter]) -> Signature:
        returns = d.node.child_by_field_id(self.e.f["return_type"])
        return Signature(
            tuple(
                Param(name, kind, default is not None,
                      None if ann is None else _annotation_text(ann))  # fmt: skip
                for _, name, kind, ann, default in params
            ),
            None if returns is None else _annotation_text(returns),
        )

    def _parameter_bindings(self, d: _Def, params: list[_Parameter]) -> None:
        x, scope = self.x, d.qualname
        for node, name, kind, annotation, default in params:
            if annotation is None and default is None:
                continue
            line = _line(node)
            target = name + ("[]" if kind in ("var_positional", "var_keyword") else "")
            if annotation is not None:
                pairs = [(target + s, v) for s, v in x.instances(annotation)]
                self._bind(node.start_byte, scope, pairs, line, "annotation")
            if default is not None:
                defaults: Values = [(name + s, v) for s, v in x.values(default) if v is not None]
                self._bind(node.start_byte, scope, defaults, line, "assign")
        returns = d.node.child_by_field_id(self.e.f["return_type"])
        if returns is not None:
            pairs = [("<return>" + s, v) for s, v in x.instances(returns)]
            self._bind(returns.start_byte, scope, pairs, _line(returns), "annotation")

    # -------------------------------------------------------------- imports

    def _imports(self) -> tuple[Import, ...]:
        found: list[tuple[int, Import]] = []
        for node in self._caps("import"):
            scope = self.scope_at(node.start_byte)
            type_only = not self._live(node)
            line = _line(node)
            for module, name, alias, level in self._imported(node):
                found.append(
                    (node.start_byte, Import(scope, module, name, alias, level, line, type_only))
                )
        found.sort(key=_first)
        return tuple(i for _, i in found)

    def _imported(self, node: Node) -> list[tuple[str, str | None, str | None, int]]:
        e, f = self.e, self.e.f
        names = node.children_by_field_id(f["name"])
        if node.kind_id in e.import_statement:
            return [(module, None, alias, 0) for module, alias in map(self._dotted, names)]
        module_node = node.child_by_field_id(f["module_name"])
        module, level = "", 0
        if module_node is not None and module_node.kind_id in e.relative_import:
            for part in module_node.named_children:
                if part.kind_id in e.import_prefix:
                    level = (part.text or b"").count(b".")
                else:
                    module = _dotted_text(part)
        elif module_node is not None:
            module = _dotted_text(module_node)
        if any(c.kind_id in e.wildcard_import for c in node.named_children):
            return [(module, "*", None, level)]
        return [(module, name, alias, level) for name, alias in map(self._dotted, names)]

    def _dotted(self, node: Node) -> tuple[str, str | None]:
        if node.kind_id in self.e.aliased_import:
            name = node.child_by_field_id(self.e.f["name"])
            alias = node.child_by_field_id(self.e.f["alias"])
            return ("" if name is None else _dotted_text(name)), (
                None if alias is None else _text(alias)
            )
        return _dotted_text(node), None

    # -------------------------------------------------------------- __all__

    def _all_names(self) -> tuple[str, ...] | None:
        names: list[str] | None = None
        for _, event, node in sorted(self.all_events, key=_first):
            found = None if event == "unknown" else self._static_names(node, event == "append")
            if found is None or (event != "set" and names is None):
                return None
            names = found if event == "set" else [*(names or ()), *found]
        return None if names is None else tuple(names)

    def _static_names(self, node: Node, single: bool) -> list[str] | None:
        x = self.x
        while node.kind_id in self.e.parenthesized and len(x.named(node)) == 1:
            node = x.named(node)[0]
        if single:
            items = [node]
        elif node.kind_id in self.e.sequence_literal:
            items = x.named(node)
        else:
            return None
        names = [_string_value(n) if n.kind_id in self.e.string else None for n in items]
        return None if None in names else names  # type: ignore[return-value]

    # ---------------------------------------------------------------- error

    def _error(self) -> str | None:
        root = self.tree.root_node
        if not root.has_error:
            return None
        node = root
        while True:
            for child in node.children:
                if child.is_error or child.is_missing:
                    return f"syntax error at line {child.start_point.row + 1}"
                if child.has_error:
                    node = child
                    break
            else:
                return f"syntax error at line {node.start_point.row + 1}"


# -------------------------------------------------------------------- helpers


def _start(node: Node) -> int:
    return node.start_byte


def _first(item: tuple[int, object]) -> int:
    return item[0]


def _line(node: Node) -> int:
    return node.start_point.row + 1


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _dotted_text(node: Node) -> str:
    return "".join(_text(node).split())


def _line_count(data: bytes) -> int:
    return max(1, data.count(b"\n") + (0 if data.endswith(b"\n") else 1))


def _annotation_text(node: Node) -> str:
    """Annotation source with whitespace collapsed (black may wrap it)."""
    text = " ".join(_text(node).split())
    for opening in "([{":
        text = text.replace(opening + " ", opening)
    for closing in ")]}":
        text = text.replace(" " + closing, closing).replace("," + closing, closing)
    return text


def _string_value(node: Node) -> str | None:
    """The value of a plain string literal; None for f-strings and bytes."""
    text = node.text or b""
    split = string_body(text)
    if split is None or b"f" in split[0] or b"b" in split[0]:
        return None
    if b"\\" not in split[1]:
        return split[1].decode("utf-8", "replace")
    try:
        value = ast.literal_eval(text.decode("utf-8", "replace"))
    except (SyntaxError, ValueError):
        return None
    return value if isinstance(value, str) else None
