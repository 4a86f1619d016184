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
import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence

from tree_sitter import Node, QueryCursor

from impactbot.extract._pyexpr import _DOTTED, Expressions, Values, elements, string_body
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
    "+": "__add__",
    "-": "__sub__",
    "*": "__mul__",
    "/": "__truediv__",
    "//": "__floordiv__",
    "%": "__mod__",
    "**": "__pow__",
    "@": "__matmul__",
    "<<": "__lshift__",
    ">>": "__rshift__",
    "&": "__and__",
    "|": "__or__",
    "^": "__xor__",
}
_AUGMENTED = {op + "=": "__i" + dunder[2:] for op, dunder in _BINARY.items()}
_COMPARE = {
    "==": "__eq__",
    "!=": "__ne__",
    "<>": "__ne__",
    "<": "__lt__",
    "<=": "__le__",
    ">": "__gt__",
    ">=": "__ge__",
}
_CONTAINS = frozenset({"in", "not in"})
_UNARY = {"-": "__neg__", "+": "__pos__", "~": "__invert__"}
_CONTAINER_METHODS = (".append", ".add", ".extend")

# A call whose callee is a (dotted) name and whose arguments are names, dotted
# names, numbers or plain strings, optionally as keyword=value: two calls in
# three. Their facts are read off the text; everything else goes through the
# tree. The pattern is unambiguous (no nested choice can split the same text
# two ways), so a near miss fails in linear time.
_SIMPLE_CALL = re.compile(
    rb"([A-Za-z_][A-Za-z0-9_.]*)\(([A-Za-z0-9_.,=\s]*(?:(?:\"[^\"\\\n]*\"|'[^'\\\n]*')[A-Za-z0-9_.,=\s]*)*)\)"
)
_STRINGS = re.compile(rb"(?<![A-Za-z0-9_])[rRbBuUfF]{0,2}(?:\"[^\"]*\"|'[^']*')")
_WORDS_APART = re.compile(rb"[A-Za-z0-9_.]\s+[A-Za-z0-9_.]").search
_ArgumentFacts = tuple[tuple["str | None", ...], tuple[str, ...], tuple[tuple[str, "str | None"], ...]]
# Argument lists repeat a lot ("()", "(self)", "(request)"); results are immutable.
_ARGUMENTS_SEEN: dict[bytes, _ArgumentFacts | None] = {}
_NAME_STARTS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_LITERAL_NAMES = frozenset({"True", "False", "None"})
_NEEDS_TIDY = re.compile(r"\s|,[)\]}]")

# (node, name, kind, annotation, default) of one parameter
_Parameter = tuple[Node, str, ParamKind, "Node | None", "Node | None"]


def extract_python(data: bytes) -> FileFacts:
    """FileFacts of one Python source blob. Pure; never raises on bad source.

    Source with syntax errors yields what could be read plus ``error``.
    """
    engine = _engine()
    try:
        return _FileExtraction(engine, data).run()
    except Exception as exc:  # a tree shape no handler expected: report, never abort a run
        return FileFacts(
            language="python",
            definitions=(Definition("", "module", 1, _line_count(data), fingerprint([data])),),
            calls=(),
            imports=(),
            error=f"could not extract facts: {type(exc).__name__}: {exc}",
        )


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
        self.expression_statement = g.kind("expression_statement")
        self.generator = g.kinds("generator_expression")
        self.simple_values = g.kinds(
            "identifier",
            "attribute",
            "call",
            "subscript",
            "string",
            "integer",
            "float",
            "true",
            "false",
            "none",
            "concatenated_string",
            "binary_operator",
            "unary_operator",
            "not_operator",
            "comparison_operator",
            "await",
        )
        self.tuple_like = g.kinds("tuple", "expression_list", "pattern_list", "tuple_pattern")
        self.targets = g.kinds(
            "pattern_list",
            "tuple_pattern",
            "list_pattern",
            "tuple",
            "list",
            "expression_list",
            "list_splat_pattern",
            "list_splat",
            "parenthesized_expression",
            "as_pattern_target",
        )
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

    @classmethod
    def of(cls, spans: Iterable[tuple[int, int]]) -> _Ranges | None:
        ranges = cls(spans)
        return ranges if ranges._starts else None

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

    def __init__(self, node: Node, decorated: Node | None, qualname: str, kind: SymbolKind, body: Node | None) -> None:
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
        self.caps: dict[str, list[Node]] = QueryCursor(engine.g.query).captures(self.tree.root_node)
        self.defs = self._definitions()
        self.scopes = _Scopes(sorted((d.body.start_byte, d.body.end_byte, d.qualname) for d in self.defs if d.body))
        self.scope_at = self.scopes.at
        # None when empty: the hot loops test `dead is not None` first
        self.dead = _Ranges.of(self._dead_spans())
        self.types = _Ranges.of((n.start_byte, n.end_byte) for n in self._caps("type"))
        self.sites: list[tuple[int, CallSite]] = []
        self.callees: dict[int, str | None] = {}  # call node key -> callee, for `x = f()`
        self.first_ops: dict[tuple[str, str], tuple[int, Node]] = {}
        self.bindings: list[tuple[int, Binding]] = []
        self.attr_stores: set[int] = set()
        self.sub_stores: set[int] = set()
        self.sub_deletes: set[int] = set()
        self.sub_updates: set[int] = set()
        self.all_events: list[tuple[int, str, list[str] | None]] = []

    def _caps(self, name: str) -> list[Node]:
        return self.caps.get(name, [])

    def run(self) -> FileFacts:
        self._calls()  # first: assignments reuse the rendered callees
        self._assignments()
        self._augmented()
        self._loops()
        self._withs()
        self._deletes()
        self._returns()
        self._small_bindings()
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
        return self.dead is None or node.start_byte not in self.dead

    # ------------------------------------------------------------ structure

    def _definitions(self) -> list[_Def]:
        e = self.e
        f_name, f_body = e.f["name"], e.f["body"]
        decorators = {}  # def start -> the decorated_definition around it (Node.parent costs more)
        for wrapper in self._caps("decorated"):
            inner = wrapper.child_by_field_id(e.f["definition"])
            if inner is not None:
                decorators[inner.start_byte] = wrapper
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
            decorated = decorators.get(node.start_byte)
            qualname = f"{outer.qualname}::{name}" if outer else name
            d = _Def(node, decorated, qualname, kind, node.child_by_field_id(f_body))
            stack.append((node.end_byte, d))
            out.append(d)
        return out

    def _dead_spans(self) -> list[tuple[int, int]]:
        """Bodies of ``if TYPE_CHECKING:``, ``if typing.TYPE_CHECKING:``, ``if False:``
        and ``if 0:`` (the query's predicate picks them; ``else`` stays live)."""
        return [(n.start_byte, n.end_byte) for n in self._caps("dead")]

    # ------------------------------------------------------------- bindings

    def _bind(self, node: Node, scope: str, pairs: Iterable[tuple[str, str | None]], kind: BindingKind) -> None:
        key, line = (node.start_byte << 32) | (_END - node.end_byte), node.start_point.row + 1
        conditional = kind == "assign" and bool(scope) and _conditional(node)
        self.bindings.extend(
            [(key, binding(scope, target, value, line, kind, conditional)) for target, value in pairs]
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
        identifier, simple, assign_token, call = e.identifier, e.simple_values, e.assign_token, e.call
        expr, bounds, names, dead = x.expr, self.scopes.bounds, self.scopes.names, self.dead
        out, callees = self.bindings, self.callees
        for node in self._caps("assign"):
            count = node.child_count
            if count < 2:
                continue
            left = node.child(0)
            if left.kind_id != identifier:
                self._mark_targets(left)
            pos = node.start_byte
            if dead is not None and pos in dead:
                continue
            scope = names[bisect_right(bounds, pos) - 1]
            line = node.start_point.row + 1
            if count == 3 and node.child(1).kind_id in assign_token:
                value: Node | None = node.child(2)
            else:
                self._annotated(node, left, scope)
                value = node.child_by_field_id(f_right)
            while value is not None and value.kind_id == node.kind_id:  # a = b = v
                value = value.child_by_field_id(f_right)
            if value is None:
                continue
            if not scope and left.text == b"__all__" and self._dunder_all(node, value, "set"):
                continue
            if left.kind_id == identifier and value.kind_id in simple:
                if value.kind_id == call:  # the calls pass already rendered its callee
                    callee = callees.get((value.start_byte << 32) | (_END - value.end_byte), _UNKNOWN)
                    rendered = expr(value) if callee is _UNKNOWN else None if callee is None else callee + "()"
                else:
                    rendered = expr(value)
                record = binding(scope, _text(left), rendered, line, "assign", bool(scope) and _conditional(node))
                out.append(((pos << 32) | (_END - node.end_byte), record))
            else:
                self._bind(node, scope, x.bind_value(left, value), "assign")

    def _annotated(self, node: Node, left: Node, scope: str) -> None:
        annotation = node.child_by_field_id(self.e.f["type"])
        if annotation is not None:
            pairs = self.x.bind(left, list(self.x.instances(annotation)))  # type: ignore[arg-type]
            self._bind(node, scope, pairs, "annotation")

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
            if not scope and left.text == b"__all__" and self._dunder_all(node, right, "extend"):
                continue
            added = [(s, v) for s, v in x.values(right) if s]
            if added and operator.type in ("+=", "|="):
                self._bind(node, scope, x.bind(left, added), "assign")

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
            first = _child(node, 0)
            is_async = first is not None and first.kind_id in self.e.async_token
            self._op(node.start_byte, right, "__aiter__" if is_async else "__iter__", node)
            pairs = x.bind(left, elements(x.values(right)))
            self._bind(node, self.scope_at(node.start_byte), pairs, "for")

    def _withs(self) -> None:
        for node in self._caps("with"):
            first = _child(node, 0)
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
            value = _named_child(value, 0)
            if alias is not None:
                self._mark_targets(alias)
        if value is None or not self._live(statement):
            return
        self._op(item.start_byte, value, enter, item)
        self._op(item.start_byte, value, leave, item)
        if alias is not None:
            base = self.x.expr(value)
            entered = None if base is None else f"{base}.{enter}()"
            pairs = self.x.bind(alias, [("", entered)])
            self._bind(item, self.scope_at(item.start_byte), pairs, "with")

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
                self._bind(node, self.scope_at(node.start_byte), pairs, "return")
        for node in self._caps("yield"):
            value = x.named(node)
            if not value or not self._live(node):
                continue
            second = _child(node, 1)
            values = x.values(value[-1])
            if second is not None and second.kind_id in self.e.from_token:
                values = elements(values)
            pairs = [("<return>[]" + s, v) for s, v in values]
            self._bind(node, self.scope_at(node.start_byte), pairs, "return")

    def _small_bindings(self) -> None:
        """``except E as e``, ``(x := v)``, ``global x`` and ``nonlocal x``."""
        f, x = self.e.f, self.x
        for node in self._caps("except"):
            value = node.child_by_field_id(f["value"])
            if value is None or value.kind_id not in self.e.as_pattern or not self._live(node):
                continue
            alias = value.child_by_field_id(f["alias"])
            types = _named_child(value, 0)
            if alias is None or types is None:
                continue
            members = x.named(types) if types.kind_id in self.e.tuple_like else [types]
            exprs = [x.expr(t) for t in members]
            pairs = x.bind(alias, [("", None if t is None else t + "()") for t in exprs])
            self._bind(node, self.scope_at(node.start_byte), pairs, "except")
        for node in self._caps("walrus"):
            name = node.child_by_field_id(f["name"])
            value = node.child_by_field_id(f["value"])
            if name is not None and value is not None and self._live(node):
                pairs = x.bind(name, x.values(value))
                self._bind(node, self.scope_at(node.start_byte), pairs, "assign")
        for node in self._caps("scopedecl"):
            if not self._live(node):
                continue
            kind: BindingKind = "nonlocal" if node.kind_id in self.e.nonlocal_statement else "global"
            names = [(_text(n), None) for n in x.named(node) if n.kind_id == self.e.identifier]
            self._bind(node, self.scope_at(node.start_byte), names, kind)

    # ---------------------------------------------------------------- calls

    def _calls(self) -> None:
        data, sites, attr_stores = self.data, self.sites, self.attr_stores
        bounds, names, dead = self.scopes.bounds, self.scopes.names, self.dead
        simple, seen = _SIMPLE_CALL.fullmatch, _ARGUMENTS_SEEN
        for node in self._caps("call"):
            start, end = node.start_byte, node.end_byte
            shape = simple(data, start, end)
            if shape is not None:
                inner = shape[2]
                arguments = seen[inner] if inner in seen else _simple_arguments(inner)
            if shape is None or arguments is None:
                self._call(node)
                continue
            callee = shape[1].decode("ascii")
            if "." in callee:
                attr_stores.add(start + len(callee))  # a method call, not an attribute read
            if dead is not None and start in dead:
                continue
            args, keywords, kwargs = arguments
            scope = names[bisect_right(bounds, start) - 1]
            line = node.start_point.row + 1
            site = call_site(scope, callee, line, "call", len(args), keywords, False, False, args, kwargs)
            key = (start << 32) | (_END - end)
            sites.append((key, site))
            self.callees[key] = callee
            if callee.endswith(_CONTAINER_METHODS):
                self._container_call(node, scope, callee, args, keywords)

    def _call(self, node: Node) -> None:
        """A call site read from the tree (nested calls, subscripts, splats, ...)."""
        e = self.e
        expr = self.x.expr
        children = node.children
        if len(children) < 2:
            return
        function = children[0]
        arguments: Node | None = children[1]
        if arguments.kind_id != e.argument_list and arguments.kind_id not in e.generator:
            arguments = node.child_by_field_id(e.f["arguments"])  # a comment in between
            if arguments is None:
                return
        if function.kind_id == e.attribute:
            self.attr_stores.add(function.end_byte)  # a method call, not an attribute read
        start = node.start_byte
        if self.dead is not None and start in self.dead:
            return
        callee = expr(function)
        star = starstar = False
        positional: list[str | None] = []
        keywords: list[str] = []
        kwargs: list[tuple[str, str | None]] = []
        if arguments.kind_id != e.argument_list:
            positional.append(None)  # f(x for x in y)
        else:
            for arg in arguments.named_children:
                kind = arg.kind_id
                if kind == e.keyword_argument:
                    parts = arg.children
                    keyword = _text(parts[0])
                    keywords.append(keyword)
                    kwargs.append((keyword, expr(parts[-1]) if len(parts) > 2 else None))
                elif kind in e.list_splat:
                    star = True
                elif kind in e.dict_splat:
                    starstar = True
                elif kind != e.comment:
                    positional.append(expr(arg))
        scope = self.scope_at(start)
        self.callees[_key(node)] = callee
        args = tuple(positional)
        self.sites.append(
            (
                _key(node),
                call_site(
                    scope,
                    callee,
                    node.start_point.row + 1,
                    "call",
                    len(args),
                    tuple(keywords),
                    star,
                    starstar,
                    args,
                    tuple(kwargs),
                ),
            )
        )
        if callee is not None and callee.endswith(_CONTAINER_METHODS):
            self._container_call(node, scope, callee, args, keywords)

    def _container_call(
        self, node: Node, scope: str, callee: str, args: tuple[str | None, ...], keywords: Sequence[str]
    ) -> None:
        """``x.append(f)`` / ``x.add(f)`` bind ``x[]``; ``__all__`` may grow."""
        owner, _, method = callee.rpartition(".")
        if method in ("append", "add") and len(args) == 1 and not keywords and args[0]:
            self._bind(node, scope, [(owner + "[]", args[0])], "assign")
        if owner == "__all__" and scope == "" and method in ("append", "extend"):
            arguments = node.child_by_field_id(self.e.f["arguments"])
            values = [] if arguments is None else self.x.named(arguments)
            if len(values) == 1:
                self._dunder_all(node, values[0], method)
            else:
                self.all_events.append((node.start_byte, method, None))

    # ------------------------------------------------------------ operators

    def _op(self, pos: int, operand: Node, dunder: str, line_node: Node) -> None:
        base = self.x.expr(operand)
        if base is None:
            return
        key = (self.scope_at(pos), f"{base}.{dunder}")
        known = self.first_ops.get(key)
        if (
            known is None
            or pos < known[0]
            or (
                pos == known[0] and line_node.end_byte < known[1].end_byte  # deterministic tie
            )
        ):
            self.first_ops[key] = (pos, line_node)

    def _op_sites(self) -> list[tuple[int, CallSite]]:
        # One node may imply several operator sites: order them by callee, since
        # the dict's own order follows the capture order, which varies.
        found = sorted((_key(node), callee, scope, node) for (scope, callee), (_, node) in self.first_ops.items())
        return [(key, call_site(scope, callee, _line(node), "operator")) for key, callee, scope, node in found]

    def _subscripts(self) -> None:
        value_field = self.e.f["value"]
        for node in self._caps("sub"):
            start, end = node.start_byte, node.end_byte
            if (self.types is not None and start in self.types) or not self._live(node):
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
            if (self.types is not None and start in self.types) or not self._live(node):
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
        skip, dotted, data = self.attr_stores, _DOTTED.fullmatch, self.data
        first: dict[tuple[str, str], tuple[int, Node]] = {}
        for node in self._caps("attr"):
            end = node.end_byte
            if end in skip:
                continue
            start = node.start_byte
            if dead is not None and start in dead:
                continue
            callee = data[start:end].decode("ascii") if dotted(data, start, end) else expr(node)
            if callee is None:
                continue
            key = (names[bisect_right(bounds, start) - 1], callee)
            known = first.get(key)
            if known is None or start < known[0]:
                first[key] = (start, node)
        return [
            ((start << 32) | (_END - node.end_byte), call_site(scope, callee, node.start_point.row + 1, "attribute"))
            for (scope, callee), (start, node) in first.items()
        ]

    # ---------------------------------------------------------- definitions

    def _definition_facts(self) -> tuple[Definition, ...]:
        """One Definition per qualname; emits decorator sites and parameter bindings."""
        defs = self.defs
        texts = self._fingerprint_texts()
        comment_ends = {n.end_byte for n in self._caps("comment")}
        rows: dict[str, _Row] = {}
        for i, d in enumerate(defs, 1):
            decorators = self._decorators(d)
            params = None if d.kind == "class" else self._parameters(d)
            if params and self._live(d.node):
                self._parameter_bindings(d, params)
            end_line = self._end_line(d.node, comment_ends)
            row = rows.get(d.qualname)
            if row is None:
                rows[d.qualname] = _Row(d, end_line, [texts[i]], params, decorators)
            else:  # defined again in the same scope: one symbol, spanning all of them
                row.end_line = max(row.end_line, end_line)
                row.texts.append(texts[i])
        out = [Definition("", "module", 1, _line_count(self.data), fingerprint(texts[:1]))]
        for row in rows.values():
            d = row.first
            out.append(
                Definition(
                    d.qualname,
                    d.kind,
                    _line(d.decorated or d.node),
                    row.end_line,
                    fingerprint(row.texts),
                    None if row.params is None else self._signature(d, row.params),
                    row.decorators,
                    self._bases(d),
                    self._is_async(d.node),
                )
            )
        return tuple(out)

    def _fingerprint_texts(self) -> list[bytes]:
        defs = self.defs
        spans = [Span(d.start, d.node.end_byte, self._placeholder(d)) for d in defs]
        decorated = {d.node.start_byte for d in defs if d.decorated is not None}
        return self.e.fingerprinter.texts(self.data, self.caps, spans, self._docstrings(), decorated)

    def _docstrings(self) -> set[int]:
        """Start bytes of the docstrings of the module and of each definition."""
        e = self.e
        found = set()
        for block in [self.tree.root_node, *(d.body for d in self.defs)]:
            first = None if block is None else _named_child(block, 0)
            while first is not None and first.kind_id == e.comment:
                first = first.next_named_sibling
            if first is None or first.kind_id != e.expression_statement:
                continue
            if first.named_child_count == 1:
                string = _named_child(first, 0)
                if string is not None and string.kind_id in e.string:
                    found.add(string.start_byte)
        return found

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

    def _decorators(self, d: _Def) -> tuple[str, ...]:
        """The decorator exprs of ``d``; each decorator is also a call site."""
        if d.decorated is None:
            return ()
        found = []
        for node in d.decorated.children:
            if node.kind_id not in self.e.decorator:
                continue
            inner = _named_child(node, 0)
            callee = None if inner is None else self.x.expr(inner)
            if callee is not None:
                found.append(callee)
            if self._live(node):
                site = call_site(self.scope_at(node.start_byte), callee, _line(node), "decorator", 1, args=(d.name,))
                self.sites.append((_key(node), site))
        return tuple(found)

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
        first = _child(node, 0)
        return first is not None and first.kind_id in self.e.async_token

    # ------------------------------------------------------------ signature

    def _parameters(self, d: _Def) -> list[_Parameter]:
        """(node, name, kind, annotation, default) of each parameter, in order."""
        e = self.e
        params_node = d.node.child_by_field_id(e.f["parameters"])
        if params_node is None or not params_node.named_child_count:
            return []
        out: list[_Parameter] = []
        keyword_only = False
        for node in params_node.named_children:
            kind_id = node.kind_id
            if kind_id == e.identifier:
                out.append((node, _text(node), "keyword_only" if keyword_only else "positional", None, None))
            elif kind_id in e.positional_separator:
                out = [(n, s, "positional_only" if k == "positional" else k, a, v) for n, s, k, a, v in out]
            elif kind_id in e.keyword_separator:
                keyword_only = True
            elif kind_id != e.comment:
                name, kind, annotation, default = self._parameter(node)
                if kind == "var_positional":
                    keyword_only = True
                elif kind == "positional" and keyword_only:
                    kind = "keyword_only"
                out.append((node, name, kind, annotation, default))
        return out

    def _parameter(self, node: Node) -> tuple[str, ParamKind, Node | None, Node | None]:
        """Name, kind, annotation and default of one non-plain parameter node."""
        e = self.e
        kind_id = node.kind_id
        annotation = node.child_by_field_id(e.f["type"]) if kind_id in e.typed else None
        default = node.child_by_field_id(e.f["value"]) if kind_id in e.defaulted else None
        name_node = _child(node, 0) if kind_id in e.typed or kind_id in e.defaulted else node
        kind: ParamKind = "positional"
        if name_node is not None and name_node.kind_id in e.splat_pattern:
            kind = "var_positional"
        elif name_node is not None and name_node.kind_id in e.dict_splat_pattern:
            kind = "var_keyword"
        if kind != "positional" and name_node is not None:
            name_node = _child(name_node, name_node.child_count - 1)
        return ("" if name_node is None else _text(name_node)), kind, annotation, default

    def _signature(self, d: _Def, params: list[_Parameter]) -> Signature:
        returns = d.node.child_by_field_id(self.e.f["return_type"])
        params_out = tuple(
            Param(name, kind, default is not None, None if ann is None else _annotation_text(ann))
            for _, name, kind, ann, default in params
        )
        return Signature(params_out, None if returns is None else _annotation_text(returns))

    def _parameter_bindings(self, d: _Def, params: list[_Parameter]) -> None:
        x, scope = self.x, d.qualname
        for node, name, kind, annotation, default in params:
            if annotation is None and default is None:
                continue
            target = name + ("[]" if kind in ("var_positional", "var_keyword") else "")
            if annotation is not None:
                pairs = [(target + s, v) for s, v in x.instances(annotation)]
                self._bind(node, scope, pairs, "annotation")
            if default is not None:
                defaults: Values = [(name + s, v) for s, v in x.values(default) if v is not None]
                self._bind(node, scope, defaults, "assign")
        returns = d.node.child_by_field_id(self.e.f["return_type"])
        if returns is not None:
            pairs = [("<return>" + s, v) for s, v in x.instances(returns)]
            self._bind(returns, scope, pairs, "annotation")

    # -------------------------------------------------------------- imports

    def _imports(self) -> tuple[Import, ...]:
        found: list[tuple[int, Import]] = []
        for node in self._caps("import"):
            scope = self.scope_at(node.start_byte)
            type_only = not self._live(node)
            line = _line(node)
            for module, name, alias, level in self._imported(node):
                found.append((node.start_byte, Import(scope, module, name, alias, level, line, type_only)))
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
            return ("" if name is None else _dotted_text(name)), (None if alias is None else _text(alias))
        return _dotted_text(node), None

    # -------------------------------------------------------------- __all__

    def _dunder_all(self, statement: Node, value: Node, event: str) -> bool:
        """Record a module-level ``__all__`` statement; bind its names if static.

        Element bindings of a static ``__all__`` hold the names as string exprs
        (``"Cart"``); returns False when the value is not static, so that the
        caller binds it like any other value.
        """
        names = self._static_names(value, single=event == "append")
        self.all_events.append((statement.start_byte, event, names))
        if names is None:
            return False
        pairs: list[tuple[str, str | None]] = [("__all__", None)] if event == "set" else []
        pairs.extend(("__all__[]", f'"{name}"') for name in names)
        self._bind(statement, "", pairs, "assign")
        return True

    def _all_names(self) -> tuple[str, ...] | None:
        names: list[str] | None = None
        for _, event, found in sorted(self.all_events, key=_first):
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


def _simple_arguments(inner: bytes) -> _ArgumentFacts | None:
    """(args, keywords, kwargs) of an argument list matched by _SIMPLE_CALL.

    None when the text only looks simple: ``a == b``, ``not x`` or ``x for x
    in y`` are expressions, which the tree renders.
    """
    if len(_ARGUMENTS_SEEN) > 8192:
        _ARGUMENTS_SEEN.clear()
    text = inner
    # `int in bytes` and .find(): `bytes in bytes` first tries the needle as an
    # int and raises internally, which costs more than the search
    if 0x22 in text or 0x27 in text:
        if text.find(b'""') >= 0 or text.find(b"''") >= 0:
            return None  # triple quotes or adjacent strings: the pattern may have split them wrongly
        text = _STRINGS.sub(b"0", text)  # a literal: its expr is None, like a number's
    result: _ArgumentFacts | None = None
    if text.find(b"==") < 0 and not _WORDS_APART(text):
        args: list[str | None] = []
        keywords: list[str] = []
        kwargs: list[tuple[str, str | None]] = []
        for item in text.decode("ascii").split(","):
            keyword, equals, atom = item.partition("=")
            atom = (atom if equals else keyword).strip()
            value = atom if atom[:1] in _NAME_STARTS and atom not in _LITERAL_NAMES else None
            if equals:
                keywords.append(keyword.strip())
                kwargs.append((keywords[-1], value))
            elif atom:
                args.append(value)
        result = tuple(args), tuple(keywords), tuple(kwargs)
    _ARGUMENTS_SEEN[inner] = result
    return result


class _Row:
    """One qualname's definitions while they are being merged."""

    __slots__ = ("decorators", "end_line", "first", "params", "texts")

    def __init__(
        self,
        first: _Def,
        end_line: int,
        texts: list[bytes],
        params: list[_Parameter] | None,
        decorators: tuple[str, ...],
    ) -> None:
        self.first = first
        self.end_line = end_line
        self.texts = texts
        self.params = params
        self.decorators = decorators


# -------------------------------------------------------------------- helpers


def _start(node: Node) -> int:
    return node.start_byte


def _child(node: Node, index: int) -> Node | None:
    """``node.child(index)``, or None when error recovery left the node short."""
    return node.child(index) if 0 <= index < node.child_count else None


def _named_child(node: Node, index: int) -> Node | None:
    return node.named_child(index) if 0 <= index < node.named_child_count else None


def _first(item: tuple[int, object]) -> int:
    return item[0]


# Sort key of a fact: (start << 32) | (_END - end), that is source order with an
# outer node before the nodes inside it. Capture lists come back in an order
# that varies from run to run, so every output is sorted by this key (a stable
# sort keeps the facts of one node in the order they were made). The hot loops
# inline it.
_END = 0xFFFFFFFF
_UNKNOWN = "\x00unknown"  # a sentinel string: dict.get() default that no callee can equal


def _key(node: Node) -> int:
    return (node.start_byte << 32) | (_END - node.end_byte)


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
    text = _text(node)
    if not _NEEDS_TIDY.search(text):
        return text
    text = " ".join(text.split())
    for opening in "([{":
        text = text.replace(opening + " ", opening)
    for closing in ")]}":
        text = text.replace(" " + closing, closing).replace("," + closing, closing)
    return text


def _string_value(node: Node) -> str | None:
    """The value of a plain string literal; None for f-strings and bytes."""
    text = node.text or b""
    split = string_body(text)
    if split is None or 0x66 in split[0] or 0x62 in split[0]:  # f-strings and bytes
        return None
    if 0x5C not in split[1]:  # no backslash escapes
        return split[1].decode("utf-8", "replace")
    try:
        value = ast.literal_eval(text.decode("utf-8", "replace"))
    except (SyntaxError, ValueError):
        return None
    return value if isinstance(value, str) else None


# Statements whose body may not run (or may run several times).
_BRANCHING = frozenset(
    {"if_statement", "for_statement", "while_statement", "try_statement", "with_statement",
     "match_statement", "elif_clause", "else_clause", "except_clause", "finally_clause", "case_clause"}
)
_SCOPES = frozenset({"function_definition", "class_definition", "module", "lambda"})


def _conditional(node: Node) -> bool:
    """Whether an assignment sits in a branch or loop of its function, not straight in its body."""
    parent = node.parent
    while parent is not None:
        kind = parent.type
        if kind in _BRANCHING:
            return True
        if kind in _SCOPES:
            return False
        parent = parent.parent
    return False
