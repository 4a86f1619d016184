"""Python nodes rendered in the ``expr`` mini-syntax of :mod:`impactbot.model`.

``expr`` turns an expression node into ``a.b``, ``f()``, ``x[]``, ``x["k"]``,
``x[0]``, ``d.get("k",e)``, ``getattr(o,"m",e)``, ``<lambda>`` or None (a constant subscript of a literal
is the member it selects). ``values`` expands what an assigned value may be (both
arms of ``a if c else b``, the elements of a literal list), ``instances`` reads an
annotation as "an instance of", and ``bind`` pairs assignment targets with values
(``a, b = v`` binds ``v[0]`` and ``v[1]``). The linker turns these strings into
types; nothing here resolves a name.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from impactbot.extract._pygrammar import Grammar
from impactbot.extract._pyliterals import Literals

Values = list[tuple[str, "str | None"]]  # (suffix such as "" or "[]", expr)

DOTTED_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_QUOTES = frozenset(b"'\"")
_IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_NAME_PART = re.compile(rb"[A-Za-z0-9_]*")
_PERCENT_SPEC = re.compile(rb"(?:\([^)]*\))?[-#0 +]*[0-9]*(?:\.[0-9]+)?[sdirfx]")
_KEYED_OP = re.compile(r"\[[^\[\]()]+\]")

# Annotation heads, by their last dotted component (``typing.Optional`` too).
_UNIONS = frozenset({"Optional", "Union"})
_SEQUENCES = frozenset(
    {
        "list",
        "List",
        "set",
        "Set",
        "frozenset",
        "FrozenSet",
        "AbstractSet",
        "MutableSet",
        "Sequence",
        "MutableSequence",
        "Iterable",
        "Iterator",
        "Collection",
        "Container",
        "Reversible",
        "Generator",
        "AsyncIterable",
        "AsyncIterator",
        "AsyncGenerator",
        "deque",
        "Deque",
        "KeysView",
        "ValuesView",
        "tuple",
        "Tuple",
    }
)
_MAPPINGS = frozenset(
    {
        "dict",
        "Dict",
        "Mapping",
        "MutableMapping",
        "defaultdict",
        "DefaultDict",
        "OrderedDict",
        "ChainMap",
    }
)
_CLASS_OF = frozenset({"type", "Type"})
_WRAPPERS = frozenset({"Annotated", "ClassVar", "Final", "Required", "NotRequired", "ReadOnly", "InitVar"})
_OPAQUE = frozenset({"Literal", "Concatenate", "TypeGuard", "TypeIs", "Unpack", "LiteralString"})
_CALLABLES = frozenset({"Callable"})  # `Callable[[A], R]`: calling one gives an R


# The method an operator calls on its (left) operand.
BINARY_DUNDERS = {
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
UNARY_DUNDERS = {"-": "__neg__", "+": "__pos__", "~": "__invert__"}


def display_name(node: Node) -> str:
    """The name a list, tuple, set or dict display handed to a call is bound under
    (``<arg@line:column>``): the callee's parameter reads its elements through it."""
    return f"<arg@{node.start_point.row + 1}:{node.start_point.column}>"


DEFAULT_DICTS = frozenset({b"defaultdict", b"collections.defaultdict"})
# `x: T = field(default_factory=K)`: dataclasses', attrs' and pydantic's field declarations
FIELD_CALLS = frozenset({b"field", b"Field", b"ib", b"attrib"})
DEFAULT_KEYWORDS = frozenset({"default", "default_factory", "factory"})  # a field's default


def lambda_name(node: Node) -> str:
    """A lambda's value: ``<lambda@row:col>`` for one taking no parameters, whose call
    gives what its body does (the scope binds ``<lambda@row:col>()`` to the body, see
    BindingFacts._lambda_returns); ``<lambda>`` for the others, whose body reads names
    the call binds."""
    if node.child_by_field_name("parameters") is not None:
        return "<lambda>"
    return f"<lambda@{node.start_point.row + 1}:{node.start_point.column}>"


def string_body(text: bytes) -> tuple[bytes, bytes] | None:
    """Split a string literal into (prefix, body); None when it is malformed."""
    start = 0
    while start < len(text) and text[start] not in _QUOTES:
        start += 1
    quote = text[start : start + 1]
    if not quote:
        return None
    width = 3 if len(text) - start >= 6 and text[start : start + 3] == quote * 3 else 1
    end = len(text) - width
    if end < start + width or text[end:] != quote * width:
        return None
    return text[:start].lower(), text[start + width : end]


# Containers made by a call of their class, whose elements are those it is given.
QUEUES = frozenset({b"deque", b"collections.deque"})


def elements(values: Values) -> Values:
    """What an element of each value may be (``x`` -> ``x[]``)."""
    out: Values = []
    for suffix, value in values:
        if suffix:
            out.append((suffix[2:], value))
        elif value is not None:
            out.append(("", value + "[]"))
    return out or [("", None)]


def bagged(expr: str) -> str:
    """``d["a"][0]`` -> ``d[][]``: a store through an element adds to the bags only; keyed
    bindings hold what a literal put there (and constant-key stores into the name itself)."""
    return _KEYED_OP.sub("[]", expr) if "[" in expr else expr


def element_at(values: Values, index: int) -> Values:
    """What the element at ``index`` of each value may be (``x`` -> ``x[0]``); a literal's
    elements stay all of them (``bind_value`` pairs literals itself)."""
    out: Values = []
    for suffix, value in values:
        if suffix:
            out.append((suffix[2:], value))
        elif value is not None:
            out.append(("", f"{value}[{index}]"))
    return out or [("", None)]


def _root(node: Node) -> bytes | None:
    """The name an attribute or subscript chain starts from (``xs`` of ``xs.a[1:]``)."""
    while node.type in ("attribute", "subscript", "call"):
        first = node.named_child(0)
        if first is None:
            return None
        node = first
    return node.text if node.type == "identifier" else None


def _slice_bounds(index: Node) -> tuple[int, int | None] | None:
    """(start, stop) of ``a:b`` with constant non-negative bounds (start 0 when left out,
    stop None); None with a step or any other bound."""
    parts: list[list[Node]] = [[]]
    for child in index.children:
        if child.type == ":":
            parts.append([])
        elif child.is_named and child.type != "comment":
            parts[-1].append(child)
    if len(parts) > 3 or (len(parts) == 3 and parts[2]) or any(len(p) > 1 for p in parts):
        return None
    bounds: list[int | None] = []
    for part in parts[:2]:
        if not part:
            bounds.append(None)
        elif part[0].type == "integer" and (part[0].text or b"").isdigit():
            bounds.append(int(part[0].text or b"0"))
        else:
            return None
    return bounds[0] or 0, bounds[1] if len(bounds) > 1 else None


MAX_SLICE_POSITIONS = 8  # places of a slice bound to the source's places (`rest[0]` is `xs[1]`)
# builtins iterating several iterables in step (see ``Expressions.bind_iteration``)
_ZIPPING = frozenset({b"enumerate", b"zip"})
_MAPPING = frozenset({b"map"})
COUNT: Values = [("", "<builtin:int>()")]  # what enumerate counts with


def _prefixed(prefix: str, values: Values) -> Values:
    return [(prefix + suffix, value) for suffix, value in values]


class Expressions:
    """Renders nodes of one grammar; build once per process (see ``expressions()``)."""

    def __init__(self, g: Grammar) -> None:
        self._g = g
        self.literals = Literals(g, string_body)
        self.expr = _make_expr(g, self.literals)
        f = g.fields
        self._f_left, self._f_right = f["left"], f["right"]
        self._f_value, self._f_body, self._f_name = f["value"], f["body"], f["name"]
        self._identifier = g.kind("identifier")
        self._attribute = g.kind("attribute")
        self._subscript = g.kind("subscript")
        self._slice = g.kind("slice")
        self._comment = g.kind("comment")
        self._wrappers = g.kinds("parenthesized_expression", "as_pattern_target")
        self._awaits = g.kinds("await")
        self._call = g.kind("call")
        self._keyword = g.kinds("keyword_argument")
        self._f_function, self._f_arguments = g.fields["function"], g.fields["arguments"]
        self._walrus = g.kinds("named_expression")
        self._conditional = g.kinds("conditional_expression")
        self._boolean = g.kinds("boolean_operator")
        self._sequences = g.kinds("list", "tuple", "set", "expression_list")
        self._ordered = g.kinds("list", "tuple", "expression_list")
        self._comprehensions = g.kinds("list_comprehension", "set_comprehension", "generator_expression")
        self._dictionary = g.kinds("dictionary")
        self._dict_comprehension = g.kinds("dictionary_comprehension")
        # what a display stored on an attribute is, for the methods read on it (`self.seen.add(x)`)
        self._display_types = {g.kind(k): f"<builtin:{t}>()" for k, t in (
            ("list", "list"), ("tuple", "tuple"), ("expression_list", "tuple"), ("set", "set"),
            ("dictionary", "dict"), ("list_comprehension", "list"), ("set_comprehension", "set"),
            ("dictionary_comprehension", "dict"))}
        self._pair = g.kinds("pair")
        self._splat = g.kinds("list_splat", "list_splat_pattern")
        self._dict_splat = g.kinds("dictionary_splat")
        self._lambda = g.kinds("lambda")
        self._unpack = g.kinds("pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list")
        self._type = g.kinds("type")
        self._union = g.kinds("union_type", "binary_operator")
        self._generic = g.kinds("generic_type")
        self._type_parameter = g.kinds("type_parameter")
        self._strings = g.kinds("string")
        self._concatenated = g.kinds("concatenated_string")
        self._none = g.kinds("none")
        self._ellipsis = g.kinds("ellipsis")
        self._call = g.kind("call")
        self._keyword_kinds = g.kinds("keyword_argument", "list_splat", "dictionary_splat")
        self._f_function, self._f_arguments = f["function"], f["arguments"]
        self._keyword = g.kinds("keyword_argument")

    # ----------------------------------------------------------------- values

    def named(self, node: Node) -> list[Node]:
        """Named children without comments."""
        comment = self._comment
        return [c for c in node.named_children if c.kind_id != comment]

    def values(self, node: Node) -> Values:
        """Each thing ``node`` may evaluate to, with element suffixes for literals."""
        kind = node.kind_id
        if kind in self._conditional:
            parts = self.named(node)
            if len(parts) == 3:
                return self.values(parts[0]) + self.values(parts[2])
        elif kind in self._boolean:
            return self._both(node)
        elif kind in self._wrappers or kind in self._walrus:
            inner = node.child_by_field_id(self._f_value) if kind in self._walrus else None
            parts = [inner] if inner is not None else self.named(node)
            return self.values(parts[0]) if len(parts) == 1 else [("", None)]
        elif kind in self._sequences or kind in self._dictionary:
            return [("", None), *self._members(node)]
        elif kind == self._call and (row := self._param_row(node)) is not None:
            return [("", None), *self._members(row, skip=self._keyword)]
        elif kind == self._call and (made := self.call_elements(node)) is not None:
            return [("", self.expr(node)), *made]
        elif kind in self._comprehensions or kind in self._dict_comprehension:
            body = node.child_by_field_id(self._f_body)
            if body is not None and body.kind_id in self._pair:
                body = body.child_by_field_id(self._f_value)
            return [("", None)] + ([] if body is None else _prefixed("[]", self.values(body)))
        return [("", self.expr(node))]

    def call_elements(self, call: Node) -> Values | None:
        """The elements of the container a call makes, where the call tells them: a
        ``defaultdict(Node)``'s are what the factory makes for a missing key,
        ``dict(zip(keys, values))``'s are the values; None for any other call."""
        made = self.default_factory(call)
        if made is not None:
            return [("[]", made)]
        function = call.child_by_field_id(self._f_function)
        arguments = call.child_by_field_id(self._f_arguments)
        args = self.named(arguments) if arguments is not None else []
        if function is not None and function.text in QUEUES:
            return self._queued(args)
        if function is None or function.text != b"dict" or len(args) != 1 or args[0].kind_id != self._call:
            return None
        inner = args[0].child_by_field_id(self._f_function)
        pair = args[0].child_by_field_id(self._f_arguments)
        zipped = self.named(pair) if pair is not None else []
        if inner is None or inner.text != b"zip" or len(zipped) != 2:
            return None
        found = [(suffix, v) for suffix, v in self.values(zipped[1]) if suffix.startswith("[]")]
        if found:  # a display: its elements
            return found
        values = self.expr(zipped[1])
        return None if values is None else [("[]", values + "[]")]

    def _queued(self, args: list[Node]) -> Values:
        """``deque([root])`` holds root, ``deque(nodes)`` the elements of nodes: a work
        list, whose ``popleft()`` gives them back."""
        given = [a for a in args if a.kind_id not in self._keyword_kinds]
        if len(given) != 1:
            return []
        found = [(suffix, v) for suffix, v in self.values(given[0]) if suffix.startswith("[]")]
        if found:  # a display: its elements
            return found
        source = self.expr(given[0])
        return [] if source is None else [("[]", source + "[]")]

    def default_factory(self, call: Node) -> str | None:
        """What ``defaultdict(factory, ...)`` makes for a missing key (``factory()``); None
        for any other call, or a factory it cannot name."""
        function = call.child_by_field_id(self._f_function)
        if function is None or function.text not in DEFAULT_DICTS:
            return None
        arguments = call.child_by_field_id(self._f_arguments)
        args = self.named(arguments) if arguments is not None else []
        if not args or args[0].kind_id in self._keyword_kinds:
            return None
        first = args[0]
        factory = self.expr(first)
        return None if factory is None else factory + "()"

    def field_default(self, call: Node) -> str | None:
        """What a dataclass (attrs, pydantic) field declared by ``field(default_factory=K)``
        holds on an instance: ``K()``, or the ``default=`` value; None for any other call."""
        function = call.child_by_field_id(self._f_function)
        arguments = call.child_by_field_id(self._f_arguments)
        if function is None or arguments is None or (function.text or b"").rpartition(b".")[2] not in FIELD_CALLS:
            return None
        for arg in self.named(arguments):
            name = arg.child_by_field_id(self._f_name) if arg.kind_id in self._keyword else None
            value = arg.child_by_field_id(self._f_value) if name is not None else None
            if name is None or value is None or (name.text or b"").decode() not in DEFAULT_KEYWORDS:
                continue
            found = self.expr(value)
            return None if found is None else found + ("()" if name.text != b"default" else "")
        return None

    def display_values(self, node: Node) -> Values | None:
        """``values`` of a list, tuple, set or dict display that holds something to resolve
        (a name, an attribute, a call); None for anything else (constants only, not a display)."""
        if node.kind_id not in self._sequences and node.kind_id not in self._dictionary:
            return None
        values = self.values(node)
        return values if any(suffix and value is not None for suffix, value in values) else None

    def _both(self, node: Node) -> Values:
        left = node.child_by_field_id(self._f_left)
        right = node.child_by_field_id(self._f_right)
        return [v for side in (left, right) if side is not None for v in self.values(side)]

    def _param_row(self, call: Node) -> Node | None:
        """The arguments of ``pytest.param(a, b, id=...)`` (or ``pytest.param(*case)``), one
        row of a parametrize list, as a tuple of its values; None for one plain value (it
        stands for that value: see ``COPIES``) and for any other call."""
        function = call.child_by_field_id(self._f_function)
        if function is None or function.text != b"pytest.param":
            return None
        arguments = call.child_by_field_id(self._f_arguments)
        values = [a for a in self.named(arguments) if a.kind_id not in self._keyword] if arguments is not None else []
        return arguments if len(values) != 1 or values[0].kind_id in self._splat else None

    def _members(self, node: Node, skip: frozenset[int] = frozenset()) -> Values:
        out: Values = []
        for child in self.named(node):
            kind = child.kind_id
            if kind in skip:
                continue
            if kind in self._splat or kind in self._dict_splat:
                inner = self.named(child)
                source = self.expr(inner[0]) if inner else None
                out.append(("[]", None if source is None else source + "[]"))
            elif kind in self._pair:
                value = child.child_by_field_id(self._f_value)
                if value is not None:
                    out.extend(_prefixed("[]", self.values(value)))
            else:
                out.extend(_prefixed("[]", self.values(child)))
        return out

    # ---------------------------------------------------------------- targets

    def target_name(self, node: Node) -> str | None:
        """``x``, ``self.repo`` or ``d[]`` for a simple assignment target."""
        kind = node.kind_id
        if kind == self._identifier or kind == self._attribute:
            return self.expr(node)
        if kind == self._subscript:
            value = node.child_by_field_id(self._f_value)
            base = None if value is None else self.expr(value)
            return None if base is None else bagged(base) + "[]"
        return None

    def bind(self, target: Node, values: Values) -> Values:
        """(target expr, value) pairs for ``target = <values>``."""
        name = self.target_name(target)
        if name is not None:
            return [(name + suffix, value) for suffix, value in values]
        kind = target.kind_id
        if kind in self._unpack:
            return self._unpacked(self.named(target), values)
        if kind in self._splat or kind in self._wrappers:
            inner = self.named(target)
            return self.bind(inner[0], values) if len(inner) == 1 else []
        return []

    def bind_iteration(self, target: Node, iterable: Node) -> Values:
        """(target expr, value) pairs for ``for target in iterable``.

        ``enumerate(xs)`` and ``zip(xs, ys)`` give tuples whose items are a count and
        the elements of their arguments, in order: ``for i, x in enumerate(xs)`` binds
        ``x`` to an element of ``xs`` (and ``i`` to an int), as ``for x in xs`` would;
        ``map(f, xs)`` gives what ``f`` returns.
        """
        iterable = self.unwrapped(iterable)
        mapped = self._mapped(iterable)
        if mapped is not None:
            return self.bind(target, [("", f"{mapped}()")])
        items = self._zipped(iterable)
        if items is not None and target.kind_id in self._unpack:
            parts = self.named(target)
            if len(parts) == len(items) and not any(part.kind_id in self._splat for part in parts):
                out: Values = []
                for part, item in zip(parts, items, strict=True):
                    # each item is iterated in turn: `enumerate(zip(xs, ys))` pairs up again
                    out.extend(self.bind(part, COUNT) if item is None else self.bind_iteration(part, item))
                return out
        out = self.bind(target, elements(self.values(iterable)))
        if target.kind_id == self._identifier:
            out.extend(self._item_places(self.expr(target) or "", iterable, items))
        return out

    def _item_places(self, name: str, iterable: Node, items: list[Node | None] | None) -> Values:
        """``for pair in zip(xs, ys)``, ``enumerate(xs)``, ``d.items()``: the places of each
        item, as unpacking it would bind them (``pair[0]`` an element of xs, ``kv[1]`` a value)."""
        out: Values = []
        if items is not None:
            for i, item in enumerate(items):
                got = COUNT if item is None else elements(self.values(self.unwrapped(item)))
                out.extend((f"{name}[{i}]" + suffix, value) for suffix, value in got)
        elif self._items_view(iterable):
            got = elements(self.values(iterable))
            out.extend((f"{name}[{i}]" + suffix, value) for i in (0, 1) for suffix, value in element_at(got, i))
        return out

    def _items_view(self, node: Node) -> bool:
        """``d.items()``: its items are (key, value) pairs."""
        function = node.child_by_field_id(self._f_function) if node.kind_id == self._call else None
        arguments = node.child_by_field_id(self._f_arguments) if function is not None else None
        return function is not None and function.kind_id == self._attribute and \
            (function.text or b"").endswith(b".items") and arguments is not None and not self.named(arguments)

    def _mapped(self, node: Node) -> str | None:
        """``f`` of ``map(f, xs)`` when it is a name or an attribute; None otherwise."""
        called = self._builtin_call(node, _MAPPING)
        if called is None:
            return None
        args = called[1]
        if len(args) < 2 or args[0].kind_id not in (self._identifier, self._attribute):
            return None
        return self.expr(args[0])

    def _zipped(self, node: Node) -> list[Node | None] | None:
        """The iterables of ``zip(a, b)``, or ``[None, a]`` for ``enumerate(a)`` (None for
        the count); None for any other expression."""
        called = self._builtin_call(node, _ZIPPING)
        if called is None:
            return None
        name, args = called
        if any(a.kind_id in self._splat or a.kind_id in self._dict_splat for a in args):
            return None
        positional = [a for a in args if a.kind_id not in self._keyword]
        if name == b"zip":
            return list(positional) or None
        return [None, positional[0]] if positional and positional[0] is args[0] else None

    def _builtin_call(self, node: Node, names: frozenset[bytes]) -> tuple[bytes, list[Node]] | None:
        """The name and the arguments of a call of one of ``names``; None for anything else."""
        if node.kind_id != self._call:
            return None
        function = node.child_by_field_id(self._f_function)
        arguments = node.child_by_field_id(self._f_arguments)
        if function is None or arguments is None or function.text not in names:
            return None
        return function.text or b"", self.named(arguments)

    def _unpacked(self, parts: list[Node], values: Values) -> Values:
        """``a, *rest, z = v``: ``a`` is ``v[0]``, ``z`` is ``v[-1]``, ``rest`` a new list of the others."""
        stars = [i for i, part in enumerate(parts) if part.kind_id in self._splat]
        if len(stars) > 1:
            return []
        star = stars[0] if stars else len(parts)
        out: Values = []
        for i, part in enumerate(parts):
            if i == star:
                out.extend(self.bind(part, [("", None), *_prefixed("[]", elements(values))]))
            else:
                out.extend(self.bind(part, element_at(values, i if i < star else i - len(parts))))
        return out

    def starred(self, target: Node, value: Node) -> tuple[Node, list[Node]] | None:
        """For ``first, *rest = f, g, h``: the starred target and the literal's members it gets."""
        if target.kind_id not in self._unpack or value.kind_id not in self._ordered:
            return None
        targets, sources = self.named(target), self.named(value)
        stars = [i for i, t in enumerate(targets) if t.kind_id in self._splat]
        if len(stars) != 1 or any(s.kind_id in self._splat for s in sources) or len(sources) < len(targets) - 1:
            return None
        after = len(targets) - stars[0] - 1
        return targets[stars[0]], sources[stars[0] : len(sources) - after]

    def unwrapped(self, value: Node) -> Node:
        """``value`` without the parentheses around it."""
        while value.kind_id in self._wrappers:
            inner = self.named(value)
            if len(inner) != 1:
                break
            value = inner[0]
        return value

    def iterates(self, target: Node, value: Node) -> bool:
        """Whether ``target = value`` iterates the value: unpacking anything but a literal."""
        return target.kind_id in self._unpack and self.unwrapped(value).kind_id not in self._sequences

    def text_type(self, literal: Node) -> str:
        """``FMT = "..."`` binds a str (``b"..."`` bytes), whose methods are the builtin
        type's: a name bound to text is no reference to what the text names."""
        first = literal.child(0) if literal.kind_id in self._concatenated else literal
        parts = string_body(first.text or b"") if first is not None else None
        return "<builtin:bytes>()" if parts is not None and b"b" in parts[0] else "<builtin:str>()"

    def bind_value(self, target: Node, value: Node) -> Values:
        """Like ``bind``, pairing ``a, b = f, g`` element by element."""
        value = self.unwrapped(value)
        if (gathered := self.gathered(value)) is not None:
            if target.kind_id == self._identifier:  # `results = await gather(...)`: a list of them
                return self.bind(target, self._gathered_list(gathered))
            targets = self.named(target) if target.kind_id in self._unpack else []
            if len(targets) == len(gathered) and not any(n.kind_id in self._splat for n in targets):
                return [p for t, v in zip(targets, gathered, strict=True) for p in self.bind_value(t, v)]
        if target.kind_id in self._unpack and value.kind_id in self._sequences:
            targets, sources = self.named(target), self.named(value)
            starred = self._splat
            if len(targets) == len(sources) and not any(n.kind_id in starred for n in (*targets, *sources)):
                return [p for t, v in zip(targets, sources, strict=True) for p in self.bind_value(t, v)]
            found = self.starred(target, value)
            if found is not None:
                return self._starred_pairs(targets, sources, found)
        if value.kind_id in self._strings or value.kind_id in self._concatenated:
            return self.bind(target, [("", self.text_type(value))])
        # `args = args[1:]` rebinds the name it slices: its places would read themselves
        if target.kind_id == self._identifier and (shifted := self.slice_positions(value)) is not None \
                and _root(value) != target.text:
            return self.bind(target, [*self.values(value), *shifted])
        values = self.values(value)
        held = self._display_types.get(value.kind_id) if target.kind_id == self._attribute else None
        if held is not None:  # `self.seen = set()` and `self.seen = {...}` alike: a builtin container
            values = [("", held) if pair == ("", None) else pair for pair in values]
        elif target.kind_id == self._identifier and value.kind_id in self._display_types and not self.named(value):
            # `parts = []`: a display still, with no element yet (a linker reads a name with
            # elements as the container, whose methods are the builtin type's)
            values = [*values, ("[]", None)]
        return self.bind(target, values)

    def slice_positions(self, value: Node) -> Values | None:
        """``rest = xs[1:3]``: ``rest[0]`` is ``xs[1]``, ``rest[-1]`` is ``xs[2]``; with bounds
        that are not constants, or a step, a place of the slice is any element of ``xs``.
        None for anything but a slice, and for ``xs[:]`` (the same places)."""
        if value.kind_id != self._subscript or value.named_child_count != 2:
            return None
        index, head = value.named_child(1), value.named_child(0)
        base = self.expr(head) if head is not None and index is not None and index.kind_id == self._slice else None
        if base is None or index is None:
            return None
        bounds = _slice_bounds(index)
        places = range(MAX_SLICE_POSITIONS)
        out: Values = []
        if bounds is None:
            out.extend((f"[{i}]", f"{base}[]") for i in places)
            out.extend((f"[{-i - 1}]", f"{base}[]") for i in places)
            return out
        start, stop = bounds
        if stop is None:  # to the end: the same last elements
            if not start:
                return None
            out.extend((f"[{i}]", f"{base}[{start + i}]") for i in places)
            out.extend((f"[{-i - 1}]", f"{base}[{-i - 1}]") for i in places)
            return out
        count = max(0, min(stop - start, MAX_SLICE_POSITIONS))
        for i in range(count):
            out += [(f"[{i}]", f"{base}[{start + i}]"), (f"[{i - count}]", f"{base}[{start + i}]")]
        return out

    def gathered(self, value: Node) -> list[Node] | None:
        """The awaitables of ``await asyncio.gather(a(), b())``, whose results come back
        in their order (None for anything else, or when an argument is starred)."""
        if value.kind_id not in self._awaits or not value.named_child_count:
            return None
        call = self.unwrapped(value.named_children[0])
        function = call.child_by_field_id(self._f_function) if call.kind_id == self._call else None
        if function is None or function.text not in GATHER_CALLS:
            return None
        arguments = call.child_by_field_id(self._f_arguments)
        found = self.named(arguments) if arguments is not None else []
        positional = [n for n in found if n.kind_id not in self._keyword]
        if any(n.kind_id in self._splat or n.kind_id in self._dict_splat for n in positional):
            return None
        return positional

    def _gathered_list(self, awaitables: list[Node]) -> Values:
        """The list ``gather`` gives: each result at its place (from either end), and as an
        element."""
        out: Values = [("", None)]
        for i, node in enumerate(awaitables):
            values = self.values(node)
            for at in (f"[{i}]", f"[{i - len(awaitables)}]", "[]"):
                out.extend(_prefixed(at, values))
        return out

    def _starred_pairs(self, targets: list[Node], sources: list[Node], found: tuple[Node, list[Node]]) -> Values:
        """Targets around the star take the members at their place; the star a list of the rest."""
        star, middle = found
        at = targets.index(star)
        after = len(targets) - at - 1
        out: Values = []
        for t, v in zip(targets[:at], sources[:at], strict=True):
            out.extend(self.bind_value(t, v))
        rest: Values = [("", None)] + [p for m in middle for p in _prefixed("[]", self.values(m))]
        out.extend(self.bind(star, rest))
        for t, v in zip(targets[at + 1 :], sources[len(sources) - after :], strict=True):
            out.extend(self.bind_value(t, v))
        return out

    # ------------------------------------------------------------ annotations

    def instances(self, node: Node) -> list[tuple[str, str]]:
        """An annotation read as "an instance of": ``Optional[Repo]`` -> ``Repo()``."""
        kind = node.kind_id
        if kind in self._type or kind in self._wrappers:
            inner = self.named(node)
            return self.instances(inner[0]) if len(inner) == 1 else []
        if kind == self._identifier or kind == self._attribute:
            name = self.expr(node)
            return [] if name is None else [("", name + "()")]
        if kind in self._union:
            return [v for part in self.named(node) for v in self.instances(part)]
        if kind in self._generic:
            parts = self.named(node)
            params = [p for q in parts[1:] if q.kind_id in self._type_parameter for p in self.named(q)]
            return self._generic_instances(parts[0], params) if parts else []
        if kind == self._subscript:
            head = node.child_by_field_id(self._f_value)
            params = [p for p in self.named(node)[1:]]
            return [] if head is None else self._generic_instances(head, params)
        if kind in self._strings:
            return self._string_instances(node)
        return []

    def _generic_instances(self, head: Node, params: list[Node]) -> list[tuple[str, str]]:
        name = self.expr(head)
        if name is None:
            return []
        last = name.rpartition(".")[2]
        if last in _OPAQUE:
            return []
        if last in _UNIONS:
            return [v for p in params for v in self.instances(p)]
        if last in _WRAPPERS:
            return self.instances(params[0]) if params else []
        if last in _CALLABLES:
            return [("()" + s, v) for s, v in self.instances(params[-1])] if len(params) == 2 else []
        if last in _CLASS_OF:
            found = self.instances(params[0]) if params else []
            return [(s, v[:-2]) for s, v in found if not s and v.endswith("()")]
        if last in _SEQUENCES or last in _MAPPINGS:
            members = params[-1:] if last in _MAPPINGS else params
            if last not in ("tuple", "Tuple"):
                members = members[:1]
            return [("[]" + s, v) for p in members if p.kind_id not in self._ellipsis for s, v in self.instances(p)]
        return [("", name + "()")]

    def _string_instances(self, node: Node) -> list[tuple[str, str]]:
        split = string_body(node.text or b"")
        if split is None or 0x66 in split[0] or not split[1].strip():  # 0x66: an f-string
            return []
        expression = self.parse_type(split[1])
        return [] if expression is None else self.instances(expression)

    def parse_type(self, text: bytes) -> Node | None:
        """A type written as text (a string annotation, a ``# type:`` comment) as an
        expression node; None when it is no single expression."""
        tree = self._g.parser.parse(text.strip())
        root = tree.root_node
        if root.has_error or root.named_child_count != 1:
            return None
        statement = root.named_child(0)
        if statement is None or statement.named_child_count != 1:
            return None
        return statement.named_child(0)

    def type_comment(self, comment: Node | None) -> bytes | None:
        """What a ``# type: T`` comment says (not ``# type: ignore``)."""
        if comment is None or comment.kind_id != self._comment:
            return None
        text = (comment.text or b"").lstrip(b"#").strip()
        if not text.startswith(b"type:"):
            return None
        said = text[5:].split(b"#", 1)[0].strip()
        return None if not said or said.startswith(b"ignore") else said


# Library functions that return a copy of their first argument (``from copy import
# deepcopy`` is common enough to trust the bare name); ``pytest.param(x, id=...)``, one
# case of a parametrize list, stands for its (first) value the same way, and so does
# ``functools.update_wrapper(wrapper, func)``, which returns the wrapper it updated.
COPIES = frozenset({"copy.copy", "copy.deepcopy", "deepcopy", "dataclasses.replace", "copy.replace", "pytest.param",
                    "functools.update_wrapper", "update_wrapper"})
_COPIES = frozenset(name.encode() for name in COPIES)
# ``pickle.loads(pickle.dumps(obj))``, a round trip (tests of pickling do it), is a copy of obj
ROUND_TRIPS = {"pickle.loads": "pickle.dumps"}
_ROUND_TRIPS = {k.encode(): v.encode() for k, v in ROUND_TRIPS.items()}
# Django's app registry: ``apps.get_model("shop", "Order")`` (or ``"shop.Order"``, or a
# project's own ``get_model`` helper) gives the model class of that name
MODEL_LOOKUPS = frozenset({"get_model"})
# Django's shortcuts giving one row of the model (or queryset) they are handed:
# ``get_object_or_404(Product, pk=1)`` is a Product, as ``Product.objects.get(pk=1)`` is
FETCHES = frozenset({"get_object_or_404", "shortcuts.get_object_or_404", "aget_object_or_404"})
# `importlib.import_module("pkg.mod")` is that module; `import_string("pkg.mod.Name")` (Django) that name
IMPORTS = frozenset({"importlib.import_module", "import_module", "module_loading.import_string", "import_string"})
_IMPORTS = frozenset(name.encode() for name in IMPORTS)
_FETCHES = frozenset(name.encode() for name in FETCHES)
# Builtins that make a new sequence of what iterating their argument gives: ``list(xs)``,
# ``sorted(xs, key=k)`` stand for ``xs.__iter__()`` (not for xs: the sequence is a list,
# whatever class xs is of).
ITERATING = frozenset({"list", "tuple", "sorted", "reversed", "set", "frozenset"})
_ITERATING = frozenset(name.encode() for name in ITERATING)
# Callables that call the function they hold with arguments no call site shows in full:
# ``partial(f, x)``, and ``staticmethod(f)``/``classmethod(f)`` stored in a class body
# (read through an instance, whether it gets the receiver is not the plain function's rule).
PARTIALS = frozenset({"partial", "functools.partial", "staticmethod", "classmethod"})
_PARTIALS = frozenset(name.encode() for name in PARTIALS)
# Builtins that call one protocol method of their only argument and give what it returns.
_STEPS = {b"iter": "__iter__", b"next": "__next__"}
# Calls whose value ``expr`` renders as what they stand for (``getattr(o, "name")`` reads
# o.name, ``type(o)`` is o.__class__, ``iter(x)`` is x.__iter__(), a copy is its
# argument, a partial the function it holds), not as the call's result.
# Running a coroutine gives what it returns: `asyncio.run(main())`, `asyncio.wait_for(fetch(), 5)`,
# `loop.run_until_complete(connect())` stand for their first argument.
AWAITING = frozenset({"asyncio.run", "asyncio.wait_for", "asyncio.shield"})
AWAITING_METHODS = frozenset({"run_until_complete"})
# calls whose awaited result lists their arguments' results, in order
GATHER_CALLS = frozenset({b"asyncio.gather", b"gather"})
# `stack.enter_context(cm)` (contextlib's ExitStack) enters cm as `with cm` does: it gives
# what `with cm as x` binds to x, runs cm's __enter__ now and its __exit__ when the stack closes
ENTERING_METHODS = {b"enter_context": ("__enter__", "__exit__"), b"enter_async_context": ("__aenter__", "__aexit__")}
_AWAITING = frozenset(name.encode() for name in AWAITING)
_AWAITING_METHODS = frozenset(name.encode() for name in AWAITING_METHODS)
# ``typing.cast(T, v)``: an instance of T (or of a subclass), as an annotation says
CASTS = frozenset({"cast", "typing.cast", "t.cast", "typing_extensions.cast"})
_CASTS = frozenset(name.encode() for name in CASTS)
RENDERED_CALLS = (frozenset({"getattr", "type"} | {n.decode() for n in _STEPS}) | COPIES | PARTIALS | ITERATING
                  | FETCHES | AWAITING | IMPORTS | CASTS | {"object.__new__"} | frozenset(ROUND_TRIPS))


MAX_OPERATOR_CHAIN = 32  # binary operations rendered before an operand: longer chains render as unknown
# calls and attribute reads rendered in one expression: every call site of a chain
# renders the chain below it, so a generated `x.a().a()...` of thousands took minutes
# (and overflowed the stack); past this, the outer ones render as unknown
MAX_CHAIN = 128
MAX_NAMED_CALLEE = 64  # longer than any callee expr names below (`importlib.import_module`, ...)
MAX_DOTTED = 512  # a longer attribute read renders link by link (the same text, without a copy per link)


def _make_expr(g: Grammar, literals: Literals) -> Callable[[Node], str | None]:
    """Build ``expr`` as a closure: it runs for every call site and argument."""
    identifier = g.kind("identifier")
    attribute = g.kind("attribute")
    call = g.kind("call")
    subscript = g.kind("subscript")
    slice_ = g.kind("slice")
    comment = g.kind("comment")
    lambdas = g.kinds("lambda")
    wrappers = g.kinds("parenthesized_expression")
    walrus = g.kinds("named_expression")
    awaits = g.kinds("await")
    yields = g.kinds("yield")
    concatenated = g.kinds("concatenated_string")
    # (a builtin by a name of its own: a module may bind `list` or `str` to something else)
    literal_types = {g.kind(k): f"<builtin:{t}>()" for k, t in (
        ("integer", "int"), ("float", "float"), ("list", "list"), ("dictionary", "dict"), ("set", "set"),
        ("tuple", "tuple"), ("list_comprehension", "list"), ("dictionary_comprehension", "dict"),
        ("set_comprehension", "set"))}
    f_object, f_attribute = g.fields["object"], g.fields["attribute"]
    f_function, f_value, f_arguments = g.fields["function"], g.fields["value"], g.fields["arguments"]
    strings = g.kinds("string")
    not_positional = g.kinds("keyword_argument", "list_splat", "parenthesized_list_splat", "dictionary_splat")
    argument_list = g.kind("argument_list")
    key = literals.key
    operands = frozenset({identifier, attribute, call, subscript}) | wrappers
    tuple_ = g.kind("tuple")
    dotted = DOTTED_NAME.fullmatch
    binary, unary = g.kind("binary_operator"), g.kind("unary_operator")
    f_left, f_operator, f_argument = g.fields["left"], g.fields["operator"], g.fields["argument"]
    f_right = g.fields["right"]

    def expr(node: Node) -> str | None:
        kind = node.kind_id
        if kind == identifier:
            return (node.text or b"").decode("utf-8", "replace")
        if kind == attribute:
            text = (node.text or b"") if node.end_byte - node.start_byte <= MAX_DOTTED else b""
            if text and dotted(text) is not None:
                return text.decode("ascii")
            return _suffixed(node.child_by_field_id(f_object), node.child_by_field_id(f_attribute))
        if kind == call:
            function = node.child_by_field_id(f_function)
            if function is None:
                return None
            # the names below are short: a long callee (a chain) is never one of them, and
            # copying its text for each call of the chain was quadratic
            short = function.end_byte - function.start_byte <= MAX_NAMED_CALLEE
            ftext = (function.text or b"") if short else b""
            fkind = function.kind_id
            # the name called last (`get_model` of `apps.get_model`)
            last = ftext if fkind != attribute else ftext.rpartition(b".")[2] if short else _read_name(function)
            if fkind == identifier and ftext == b"getattr":
                return _getattr(node)
            if fkind == identifier and ftext == b"type":
                return _type_of(node)
            if fkind == identifier and ftext == b"super":
                return _super(node)
            if fkind == identifier and ftext in _STEPS:
                stepped = _stepped(node, _STEPS[ftext])
                if stepped is not None:
                    return stepped
            if ftext in _PARTIALS:
                held = _partial(node)
                if held is not None:
                    return held
            if fkind in (identifier, attribute) and last.decode("utf-8", "replace") in MODEL_LOOKUPS:
                named = _named_model(node)
                if named is not None:
                    return named
            if ftext in _IMPORTS:
                imported = _imported(node, ftext.endswith(b"import_string"))
                if imported is not None:
                    return imported
            if ftext in _CASTS:
                cast = _cast(node)
                if cast is not None:
                    return cast
            if ftext == b"object.__new__":
                made = _new(node)
                if made is not None:
                    return made
            if ftext in _FETCHES:
                fetched = _fetched(node)
                if fetched is not None:
                    return fetched
            if ftext in _ROUND_TRIPS and (kept := _round_trip(node, _ROUND_TRIPS[ftext])) is not None:
                return kept
            if ftext in _COPIES or ftext in _AWAITING or (fkind == attribute and last in _AWAITING_METHODS):
                copied = _copied(node)
                if copied is not None:
                    return copied
            if fkind == attribute and (entered := _entered(node, last)) is not None:
                return entered
            if fkind == identifier and ftext in _ITERATING:
                copied = _iterated(node)
                if copied is not None:
                    return copied
            called = _suffixed(function, "()")
            if called is not None and called.endswith(".get()"):
                return _get(node, called[:-2])
            return called
        if kind == subscript:
            value = node.child_by_field_id(f_value)
            head = None if value is None else expr(value)
            if head is None or head == "dict()":  # a literal: the member a constant key selects
                member = literals.selected(node)
                if member is not None:
                    return expr(member)
                if head is None:
                    return None
            index = node.named_child(1) if node.named_child_count == 2 else None
            if index is not None and index.kind_id == slice_:
                return head  # `xs[1:]`: a sequence of the same elements, of the same kind
            if value is not None and _sliced(value):
                return head + "[]"  # `xs[1:][0]` is not `xs[0]`: any of them
            return head + ((index is not None and key(index)) or "[]")
        if kind in lambdas:
            return lambda_name(node)
        if kind in walrus:
            value = node.child_by_field_id(f_value)
            return None if value is None else expr(value)
        if kind in awaits:
            # `await fetch()` is what the coroutine returns: the value of `fetch()`, as a call
            # of an async def stands for what its body returns
            inner = [c for c in node.named_children if c.kind_id != comment]
            return expr(inner[0]) if len(inner) == 1 else None
        if kind in yields:
            # `x = yield from gen()` is what gen returns, and so is `x = yield fetch()` in a
            # coroutine a library drives (tornado's @gen.coroutine, twisted's
            # inlineCallbacks): what is sent back is the yielded call's result (see the
            # linker's `<sent>`: only a repository function's is known)
            inner = [c for c in node.named_children if c.kind_id != comment]
            sent = expr(inner[0]) if len(inner) == 1 else None
            return None if sent is None else f"<sent>({sent})"
        if kind in wrappers:
            inner = [c for c in node.named_children if c.kind_id != comment]
            return expr(inner[0]) if len(inner) == 1 else None
        if kind in (binary, unary):
            return _operated(node, kind == binary)
        return None

    def _sliced(node: Node) -> bool:
        if node.kind_id != subscript or node.named_child_count != 2:
            return False
        index = node.named_child(1)
        return index is not None and index.kind_id == slice_

    def _operated(node: Node, is_binary: bool) -> str | None:
        # `a + b` is `a.__add__(b)`: what it gives is what that method returns
        operator = node.child_by_field_id(f_operator)
        dunder = None if operator is None else (BINARY_DUNDERS if is_binary else UNARY_DUNDERS).get(operator.type)
        operand = node.child_by_field_id(f_left if is_binary else f_argument)
        if dunder is None or operand is None or (is_binary and _long_chain(operand)):
            return None
        head = expr(operand)
        return None if head is None else f"{head}.{dunder}()"

    def _long_chain(operand: Node) -> bool:
        # `"a" + "b" + ...` of generated code, hundreds of terms: each operation would render
        # all those before it again, and what the chain makes is no object of the repository
        for _ in range(MAX_OPERATOR_CHAIN):
            if operand.kind_id != binary:
                return False
            left = operand.child_by_field_id(f_left)
            if left is None:
                return False
            operand = left
        return True

    def _getattr(node: Node) -> str | None:
        # `getattr(obj, "name")` reads obj.name; `getattr(obj, "name", d)` is obj.name or d,
        # kept whole (`getattr(obj,"name",d)`) for the linker to read both; a computed name
        # keeps its constant ends (`obj.visit_*`), or stays opaque
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        if len(args) not in (2, 3) or any(a.kind_id in not_positional for a in args):
            return "getattr()"
        name = _attribute_name(args[1])
        if name is None:
            return "getattr()"
        head = expr(args[0])
        default = expr(args[2]) if len(args) == 3 else None
        if head is None:
            return "getattr()" if len(args) == 3 else None
        # a default the syntax cannot express (None, a number) calls nothing: obj.name alone
        return f"{head}.{name}" if default is None else f'getattr({head},"{name}",{default})'

    def _attribute_name(node: Node) -> str | None:
        # a constant name, or the constant ends of a computed one (`"visit_" + kind`,
        # `"has_%s_permission" % perm`, `f"do_{verb}"`, `"on_{}".format(event)`):
        # `visit_*`, `has_*_permission`, one of the attributes so named, as a visitor or
        # a form's field cleaning dispatches
        kind = node.kind_id
        if kind in strings:
            parts = string_body(node.text or b"")
            if parts is None:
                return None
            if not parts[0]:
                return parts[1].decode("ascii") if _IDENTIFIER.fullmatch(parts[1]) else None
            return _pattern(parts[1], b"{", b"}") if parts[0] == b"f" else None
        if kind == binary:
            operator = node.child_by_field_id(f_operator)
            if operator is not None and operator.type == "%":
                left = node.child_by_field_id(f_left)
                parts = None if left is None or left.kind_id not in strings else string_body(left.text or b"")
                return _pattern(parts[1], b"%", b"s") if parts is not None and not parts[0] else None
            return _joined(node)
        if kind == call:
            function = node.child_by_field_id(f_function)
            target = None if function is None else function.child_by_field_id(f_object)
            if function is None or function.kind_id != attribute or target is None or target.kind_id not in strings:
                return None
            parts = string_body(target.text or b"")
            if (function.text or b"").rpartition(b".")[2] != b"format" or parts is None or parts[0]:
                return None
            return _pattern(parts[1], b"{", b"}")
        return None

    def _joined(node: Node) -> str | None:
        # `"get_" + field + "_display"`: the first and last operands, when constant
        operands: list[Node] = []
        while node.kind_id == binary:
            operator, right = node.child_by_field_id(f_operator), node.child_by_field_id(f_right)
            left = node.child_by_field_id(f_left)
            if operator is None or operator.type != "+" or left is None or right is None:
                return None
            operands.append(right)
            node = left
        operands.append(node)
        first, last = operands[-1], operands[0]
        head = string_body(first.text or b"") if first.kind_id in strings else None
        tail = string_body(last.text or b"") if last.kind_id in strings and len(operands) > 2 else None
        if head is None or head[0] or (tail is not None and tail[0]):
            return None
        return _glob(head[1], b"" if tail is None else tail[1])

    def _pattern(text: bytes, opener: bytes, closer: bytes) -> str | None:
        # the text before the first placeholder and after the last one
        if opener not in text:
            return None
        head, rest = text.split(opener, 1)
        if opener == b"%":
            spec = _PERCENT_SPEC.match(rest)
            tail = rest[spec.end():] if spec is not None and b"%" not in rest[spec.end():] else b""
        else:
            tail = rest.rsplit(closer, 1)[1] if closer in rest else b""
        return _glob(head, tail if _NAME_PART.fullmatch(tail) else b"")

    def _glob(head: bytes, tail: bytes) -> str | None:
        if not _IDENTIFIER.fullmatch(head) or not _NAME_PART.fullmatch(tail):
            return None
        return f"{head.decode('ascii')}*{tail.decode('ascii')}"

    def _partial(node: Node) -> str | None:
        # `partial(f, x)` calls f when called, with arguments no call site shows in full:
        # `<partial:f>` (dots as slashes, so that the linker reads it as one name)
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        held = expr(args[0]) if args and args[0].kind_id in (identifier, attribute) else None
        if held is None or dotted(held.encode()) is None:
            return None
        return f"<partial:{held.replace('.', '/')}>"

    def _stepped(node: Node, dunder: str) -> str | None:
        # `iter(x)` is `x.__iter__()`, `next(it)` is `it.__next__()`: what the protocol
        # method returns (the two-argument forms are something else)
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        if len(args) != 1 or args[0].kind_id not in operands:
            return None
        head = expr(args[0])
        return None if head is None else f"{head}.{dunder}()"

    def _cast(node: Node) -> str | None:
        # `cast(Order, row)`, `cast("Order", row)`: `<cast:cast|Order>`, the callee kept for the
        # linker to tell typing's cast from another (SQLAlchemy's builds SQL); dots as
        # slashes, so that it reads as one name. A type it cannot name stays `cast()`
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        if len(args) != 2:
            return None
        kind = args[0].kind_id
        if kind in (identifier, attribute):
            name = args[0].text or b""
        elif kind in strings:
            split = string_body(args[0].text or b"")
            name = split[1].strip() if split is not None and not split[0] else b""
        else:
            return None
        if not dotted(name):
            return None
        function = node.child_by_field_id(f_function)
        callee = b"cast" if function is None else function.text or b"cast"
        return f"<cast:{callee.decode('ascii')}|{name.decode('ascii')}>".replace(".", "/")

    def _new(node: Node) -> str | None:
        # `object.__new__(cls)`: an instance of the class named, not initialised; `<new:cls>`,
        # dots as slashes (see _cast). A class it cannot name stays `object.__new__()`
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        if not args or args[0].kind_id not in (identifier, attribute) or not dotted(args[0].text or b""):
            return None
        return f"<new:{(args[0].text or b'').decode('ascii')}>".replace(".", "/")

    def _entered(node: Node, method: bytes) -> str | None:
        # `stack.enter_context(Conn())` gives what the context manager's `__enter__` returns
        enter = ENTERING_METHODS.get(method)
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        if enter is None or len(args) != 1 or args[0].kind_id in not_positional:
            return None
        held = expr(args[0])
        return None if held is None else f"{held}.{enter[0]}()"

    def _copied(node: Node) -> str | None:
        # `copy.copy(obj)` is an object of obj's class (a class or a function copies as
        # itself): the same value for what it calls
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        if not args or (args[0].kind_id not in operands and args[0].kind_id not in lambdas):
            return None  # (a lambda: `pytest.param(lambda text: ..., id="wrap")`, one case's callable)
        return expr(args[0])

    def _round_trip(node: Node, inner: bytes) -> str | None:
        # `pickle.loads(pickle.dumps(obj, protocol))`: obj, as `copy.deepcopy(obj)` is
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        if len(args) != 1 or args[0].kind_id != call:
            return None
        function = args[0].child_by_field_id(f_function)
        if function is None or function.text != inner:
            return None
        return _copied(args[0])

    def _named_model(node: Node) -> str | None:
        # `<model-named:shop/Order>`: the resolver finds the model class of that name (a
        # slash for the dot, as the name is one base of an expression)
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        texts: list[str] = []
        for arg in args[:2]:
            split = string_body(arg.text or b"") if arg.kind_id in strings else None
            if split is None or split[0] not in (b"", b"r", b"u"):
                break
            texts.append(split[1].decode("utf-8", "replace"))
        app, _, name = ".".join(texts).rpartition(".")
        return f"<model-named:{app}/{name}>" if texts and name.isidentifier() else None

    def _imported(node: Node, attribute: bool) -> str | None:
        # `<module:pkg/mod>` (a slash for the dot, as the name is one base of an
        # expression), then the attribute `import_string` reads from it
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        if len(args) != 1 or args[0].kind_id not in strings:
            return None  # a relative name needs its `package=`; a computed one is not known
        split = string_body(args[0].text or b"")
        if split is None or split[0] not in (b"", b"r", b"u"):
            return None
        dotted = split[1].decode("utf-8", "replace")
        if not dotted or not all(part.isidentifier() for part in dotted.split(".")):
            return None
        module, _, name = dotted.rpartition(".") if attribute else (dotted, "", "")
        if not module:
            return None
        return f"<module:{module.replace('.', '/')}>" + (f".{name}" if name else "")

    def _fetched(node: Node) -> str | None:
        # a model class (a name) gives one of its instances; a manager or queryset its `get()`
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        if not args or args[0].kind_id not in operands:
            return None
        held = expr(args[0])
        if held is None:
            return None
        named = args[0].kind_id in (identifier, attribute) or held.startswith("<model-named:")
        return held + ("()" if named else ".get()")

    def _iterated(node: Node) -> str | None:
        # `list(xs)`, `sorted(xs, key=k)`: one positional argument, keywords only beside it
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        positional = [a for a in args if a.kind_id not in not_positional]
        if len(positional) != 1 or positional[0] is not args[0] or positional[0].kind_id not in operands:
            return None
        head = expr(positional[0])
        return None if head is None else f"{head}.__iter__()"

    def _super(node: Node) -> str:
        # `super(B, self)` keeps its class: it may name a base to skip the enclosing class's
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        if len(args) != 2 or any(a.kind_id not in (identifier, attribute) for a in args):
            return "super()"
        cls, obj = expr(args[0]), expr(args[1])
        return "super()" if cls is None or obj is None else f"super({cls},{obj})"

    def _type_of(node: Node) -> str | None:
        # `type(obj)` is obj's class, as `obj.__class__` reads it; `type(name, (Base,), ns)`
        # a new class deriving from Base alone, read as Base (what it adds is mostly
        # data: marshmallow's `Schema.from_dict`); other bases make a class the linker
        # cannot follow
        arguments = node.child_by_field_id(f_arguments)
        args = [] if arguments is None else [c for c in arguments.named_children if c.kind_id != comment]
        if len(args) == 3 and args[1].kind_id == tuple_:
            bases = [c for c in args[1].named_children if c.kind_id != comment]
            base = expr(bases[0]) if len(bases) == 1 and bases[0].kind_id in operands else None
            return "type()" if base is None else base
        if len(args) != 1 or args[0].kind_id not in operands:
            return "type()"
        head = expr(args[0])
        return "type()" if head is None else f"{head}.__class__"

    def _get(node: Node, head: str) -> str:
        # `d.get("a", h)` keeps its constant key and its default (`d.get("a",h)`), a computed
        # key with a default is `d.get(,h)`: read as a container, d["a"] or h
        arguments = node.child_by_field_id(f_arguments)
        if arguments is None or arguments.kind_id != argument_list:
            return head + "()"
        args = [c for c in arguments.named_children if c.kind_id != comment]
        if not 0 < len(args) <= 2 or any(a.kind_id in not_positional for a in args):
            return head + "()"
        found = key(args[0])
        default = expr(args[1]) if len(args) == 2 else None
        if found is None and default is None:
            return head + "()"
        return f"{head}({'' if found is None else found[1:-1]}{'' if default is None else ',' + default})"

    links = 0  # of the chain rendered now: `a.b().c` is four

    def _suffixed(base: Node | None, suffix: Node | str | None) -> str | None:
        nonlocal links
        if base is None or suffix is None or links >= MAX_CHAIN:
            return None
        links += 1
        try:
            head = expr(base)
        finally:
            links -= 1
        if head is None and not isinstance(suffix, str):
            head = _literal_type(base)  # `", ".join(parts)`: a method of str
        if head is None:
            return None
        if isinstance(suffix, str):
            return head + suffix
        return head + "." + (suffix.text or b"").decode("utf-8", "replace")

    def _read_name(node: Node) -> bytes:
        """The name an attribute node reads (`c` of `a.b().c`)."""
        name = node.child_by_field_id(f_attribute)
        return (name.text or b"") if name is not None else b""

    def _literal_type(node: Node) -> str | None:
        """``str()`` for a string literal and the like: what an attribute read on a literal
        reads (a builtin type's method, never the repository's)."""
        kind = node.kind_id
        if kind in wrappers:
            inner = [c for c in node.named_children if c.kind_id != comment]
            return _literal_type(inner[0]) if len(inner) == 1 else None
        if kind in strings or kind in concatenated:
            return "<builtin:bytes>()" if (node.text or b"")[:2].lower() in (b'b"', b"b'", b"rb", b"br") \
                else "<builtin:str>()"
        return literal_types.get(kind)

    return expr
