"""Shared state of one Python extraction: the parsed file, its scopes and what the passes share.

``FileState`` parses the file, runs the query and builds the byte-range indexes
(scopes, dead code, branches). The passes in ``_pycalls``, ``_pybindings`` and
``_pydefs`` extend it; the helpers here (``_bind``, ``_op``, ``__all__``) are the
few things more than one pass produces.
"""

from __future__ import annotations

import ast
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

from tree_sitter import Node, QueryCursor

from impactbot.extract._pyexpr import Expressions, string_body
from impactbot.extract._pyfingerprint import Fingerprinter
from impactbot.extract._pygrammar import Grammar, grammar
from impactbot.extract._records import binding
from impactbot.model import Binding, BindingKind, CallSite, SymbolKind

if TYPE_CHECKING:
    from impactbot.extract._pykeyed import KeyedLiteral

_T = TypeVar("_T")

# Sort key of a fact: (start << 32) | (END - end), that is source order with an
# outer node before the nodes inside it. Capture lists come back in an order
# that varies from run to run, so every output is sorted by this key (a stable
# sort keeps the facts of one node in the order they were made). The hot loops
# inline it.
END = 0xFFFFFFFF


class Engine:
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
        self.branching = g.kinds(
            "if_statement",
            "for_statement",
            "while_statement",
            "try_statement",
            "with_statement",
            "match_statement",
            "case_clause",
        )
        self.looping = g.kinds("for_statement", "while_statement")
        self.with_clause = g.kinds("with_clause")
        self.parenthesized = g.kinds("parenthesized_expression")
        self.sequence_literal = g.kinds("list", "tuple")
        self.container_literal = g.kinds("dictionary", "list", "tuple", "expression_list")
        self.nonlocal_statement = g.kinds("nonlocal_statement")
        self.import_statement = g.kinds("import_statement")
        self.aliased_import = g.kinds("aliased_import")
        self.relative_import = g.kinds("relative_import")
        self.wildcard_import = g.kinds("wildcard_import")
        self.import_prefix = g.kinds("import_prefix")
        self.async_token = g.token_kinds("async")
        self.from_token = g.token_kinds("from")
        self.typed = g.kinds("typed_parameter", "typed_default_parameter")
        self.defaulted = g.kinds("default_parameter", "typed_default_parameter")
        self.splat_pattern = g.kinds("list_splat_pattern")
        self.dict_splat_pattern = g.kinds("dictionary_splat_pattern")
        self.positional_separator = g.kinds("positional_separator")
        self.keyword_separator = g.kinds("keyword_separator")


_ENGINE: list[Engine] = []


def engine() -> Engine:
    """The process-wide engine, built on first use."""
    if not _ENGINE:
        _ENGINE.append(Engine(grammar()))
    return _ENGINE[0]


class Ranges:
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
    def of(cls, spans: Iterable[tuple[int, int]]) -> Ranges | None:
        ranges = cls(spans)
        return ranges if ranges._starts else None

    def __contains__(self, pos: int) -> bool:
        i = bisect_right(self._starts, pos) - 1
        return i >= 0 and pos < self._ends[i]


class Innermost(Generic[_T]):
    """A value per byte offset: that of the innermost range around it.

    Built once from properly nested ranges sorted by start, then one bisect per
    lookup; the scope of a node and the branch around it are found this way.
    """

    __slots__ = ("bounds", "values")

    def __init__(self, ranges: Sequence[tuple[int, int, _T]], outside: _T) -> None:
        # values[i] holds from bounds[i] up to bounds[i + 1]
        self.bounds = [0]
        self.values = [outside]
        stack: list[tuple[_T, int]] = [(outside, 1 << 62)]
        for start, end, value in ranges:
            self._close(stack, start)
            stack.append((value, end))
            self.bounds.append(start)
            self.values.append(value)
        self._close(stack, 1 << 62)

    def _close(self, stack: list[tuple[_T, int]], upto: int) -> None:
        while len(stack) > 1 and stack[-1][1] <= upto:
            end = stack.pop()[1]
            self.bounds.append(end)
            self.values.append(stack[-1][0])

    def at(self, pos: int) -> _T:
        return self.values[bisect_right(self.bounds, pos) - 1]


class Def:
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


class FileState:
    """One file being extracted: its tree, captures, definitions and indexes."""

    def __init__(self, engine: Engine, data: bytes) -> None:
        self.e = engine
        self.x = engine.x
        self.data = data
        self.type_comments = b"# type:" in data  # asked per definition: scanning each time is quadratic
        self.tree = engine.g.parser.parse(data)
        self.caps: dict[str, list[Node]] = QueryCursor(engine.g.query).captures(self.tree.root_node)
        self.defs = self._definitions()
        # scope: the innermost definition body around a node ("" = the module)
        self.scopes = Innermost(
            sorted((d.body.start_byte, d.body.end_byte, d.qualname) for d in self.defs if d.body), ""
        )
        self.scope_at = self.scopes.at
        # the start of the innermost branch or loop, and of the innermost def/class, around a node
        self.branches = Innermost(
            sorted(
                (n.start_byte, n.end_byte, n.start_byte)
                for n in self._caps("compound")
                if n.kind_id in engine.branching
            ),
            -1,
        )
        self.owners = Innermost(sorted((d.node.start_byte, d.node.end_byte, d.node.start_byte) for d in self.defs), -1)
        # None when empty: the hot loops test `dead is not None` first
        self.dead = Ranges.of(self._dead_spans())
        self.types = Ranges.of((n.start_byte, n.end_byte) for n in self._caps("type"))
        self.sites: list[tuple[int, CallSite]] = []
        self.callees: dict[int, str | None] = {}  # call node key -> callee, for `x = f()`
        self.first_ops: dict[tuple[str, str], tuple[int, Node]] = {}
        self.bindings: list[tuple[int, Binding]] = []
        self.attr_stores: set[int] = set()
        self.attr_writes: set[int] = set()  # stored attributes: they run a property's setter
        self.sub_stores: set[int] = set()
        self.sub_deletes: set[int] = set()
        self.sub_updates: set[int] = set()
        self.all_events: list[tuple[int, str, list[str] | None]] = []
        self.plugins: list[str] = []  # module names a module-level `pytest_plugins` lists
        # literal containers and tuple returns, for the keyed element pass (``_pykeyed``)
        self.literal_names: list[KeyedLiteral] = []
        self.tuple_returns: defaultdict[str, list[tuple[Node, Node]]] = defaultdict(list)
        self.other_returns: set[str] = set()

    def _caps(self, name: str) -> list[Node]:
        return self.caps.get(name, [])

    def _conditional(self, pos: int) -> bool:
        """Whether a binding at ``pos`` sits in a branch or loop of its scope (it may not run)."""
        return self.branches.at(pos) > self.owners.at(pos)

    def _live(self, node: Node) -> bool:
        return self.dead is None or node.start_byte not in self.dead

    def _definitions(self) -> list[Def]:
        e = self.e
        f_name, f_body = e.f["name"], e.f["body"]
        decorators = {}  # def start -> the decorated_definition around it (Node.parent costs more)
        for wrapper in self._caps("decorated"):
            inner = wrapper.child_by_field_id(e.f["definition"])
            if inner is not None:
                decorators[inner.start_byte] = wrapper
        stack: list[tuple[int, Def]] = []
        out: list[Def] = []
        for node in sorted(self._caps("def"), key=start_of):
            name_node = node.child_by_field_id(f_name)
            if name_node is None:
                continue
            while stack and stack[-1][0] <= node.start_byte:
                stack.pop()
            outer = stack[-1][1] if stack else None
            name = text_of(name_node)
            kind: SymbolKind = "function"
            if node.kind_id == e.class_definition:
                kind = "class"
            elif outer is not None and outer.kind == "class":
                kind = "method"
            decorated = decorators.get(node.start_byte)
            qualname = f"{outer.qualname}::{name}" if outer else name
            d = Def(node, decorated, qualname, kind, node.child_by_field_id(f_body))
            stack.append((node.end_byte, d))
            out.append(d)
        return out

    def _dead_spans(self) -> list[tuple[int, int]]:
        """Bodies of ``if TYPE_CHECKING:``, ``if typing.TYPE_CHECKING:``, ``if False:``
        and ``if 0:`` (the query's predicate picks them; ``else`` stays live)."""
        return [(n.start_byte, n.end_byte) for n in self._caps("dead")]

    # ------------------------------------------------------------ shared facts

    def _bind(self, node: Node, scope: str, pairs: Iterable[tuple[str, str | None]], kind: BindingKind) -> None:
        key, line = (node.start_byte << 32) | (END - node.end_byte), node.start_point.row + 1
        conditional = kind == "assign" and self._conditional(node.start_byte)
        self.bindings.extend([(key, binding(scope, target, value, line, kind, conditional)) for target, value in pairs])

    def _mark_targets(self, node: Node) -> None:
        """Remember attribute and subscript store targets (they are not reads)."""
        kind = node.kind_id
        if kind == self.e.attribute:
            self.attr_stores.add(node.end_byte)
            self.attr_writes.add(node.end_byte)
        elif kind == self.e.subscript:
            self.sub_stores.add(node.end_byte)
        elif kind in self.e.targets:
            for child in node.named_children:
                self._mark_targets(child)

    def _op(self, pos: int, operand: Node, dunder: str, line_node: Node) -> None:
        base = self.x.expr(operand)
        if base is None:
            return
        key = (self.scope_at(pos), f"{base}.{dunder}")
        known = self.first_ops.get(key)
        # the first site wins; on a tie the smaller node, so that capture order never matters
        if known is None or (pos, line_node.end_byte) < (known[0], known[1].end_byte):
            self.first_ops[key] = (pos, line_node)

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
        names = [string_value(n) if n.kind_id in self.e.string else None for n in items]
        return None if None in names else names  # type: ignore[return-value]


# -------------------------------------------------------------------- helpers


def start_of(node: Node) -> int:
    return node.start_byte


def child(node: Node, index: int) -> Node | None:
    """``node.child(index)``, or None when error recovery left the node short."""
    return node.child(index) if 0 <= index < node.child_count else None


def named_child(node: Node, index: int) -> Node | None:
    return node.named_child(index) if 0 <= index < node.named_child_count else None


def first_of(item: tuple[int, object]) -> int:
    return item[0]


def node_key(node: Node) -> int:
    return (node.start_byte << 32) | (END - node.end_byte)


def line_of(node: Node) -> int:
    return node.start_point.row + 1


def text_of(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def dotted_text(node: Node) -> str:
    return "".join(text_of(node).split())


def line_count(data: bytes) -> int:
    return max(1, data.count(b"\n") + (0 if data.endswith(b"\n") else 1))


def string_value(node: Node) -> str | None:
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
