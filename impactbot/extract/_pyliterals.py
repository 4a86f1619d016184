"""Constant keys and the members of literal containers, for ``x["a"]`` and ``x[0]``.

A subscript with a constant string or int renders as ``x["a"]`` or ``x[0]`` (the
linker reads the element at that key when the container is a literal it can trust),
and a subscript of a literal itself (``{"on": f}["on"]``, ``[f, g][1]``) is the member
it selects. Keys are kept to a few plain characters, so that a key never holds what
the ``expr`` syntax splits on (dots, brackets, quotes, commas).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from impactbot.extract._pygrammar import Grammar

# String keys of these characters only; any other key reads as "some element".
_KEY = re.compile(rb"[A-Za-z0-9_\-]*")
_INT = re.compile(rb"-?\s*[0-9][0-9_]*")
# Literals with more members than this are data, not dispatch tables: their elements
# stay one bag.
MAX_MEMBERS = 64

Members = list[tuple[str, Node]]  # (key suffix such as '["a"]' or "[0]", member node)
StringParts = Callable[[bytes], "tuple[bytes, bytes] | None"]  # a literal's (prefix, body)


class Literals:
    """Keys and members of literal containers in one grammar (built once per process)."""

    def __init__(self, g: Grammar, string_parts: StringParts) -> None:
        self._string_parts = string_parts
        self._strings = g.kinds("string")
        self._integer = g.kinds("integer")
        self._unary = g.kinds("unary_operator")
        self._dictionary = g.kinds("dictionary")
        self._sequences = g.kinds("list", "tuple", "expression_list")
        self._tuples = g.kinds("tuple", "expression_list")
        self._pair = g.kinds("pair")
        self._constants = g.kinds("string", "concatenated_string", "integer", "float", "true", "false", "none")
        self._splats = g.kinds("list_splat", "parenthesized_list_splat", "dictionary_splat")
        self._comment = g.kind("comment")
        self._wrappers = g.kinds("parenthesized_expression")
        self._call = g.kind("call")
        self._subscript = g.kind("subscript")
        self._identifier = g.kind("identifier")
        self._keyword = g.kind("keyword_argument")
        self._f_value = g.fields["value"]
        self._f_function = g.fields["function"]
        self._f_arguments = g.fields["arguments"]
        self._f_name = g.fields["name"]

    def key(self, node: Node) -> str | None:
        """``["a"]`` or ``[0]`` for a constant plain string or decimal int; None otherwise.

        Only str and int: ``True`` equals ``1`` and ``1.0`` equals ``1`` as keys, so those
        stay unknown rather than be told apart from the int.
        """
        kind = node.kind_id
        if kind in self._strings:
            split = self._string_parts(node.text or b"")
            if split is None or split[0] not in (b"", b"r", b"u") or not _KEY.fullmatch(split[1]):
                return None
            return '["' + split[1].decode("ascii") + '"]'
        if kind in self._integer or kind in self._unary:
            text = node.text or b""
            if _INT.fullmatch(text):
                return f"[{int(text.replace(b'_', b'').replace(b' ', b''))}]"
        return None

    def unwrap(self, node: Node) -> Node:
        """The expression inside parentheses."""
        while node.kind_id in self._wrappers:
            inner = [c for c in node.named_children if c.kind_id != self._comment]
            if len(inner) != 1:
                break
            node = inner[0]
        return node

    def members(self, node: Node, code_only: bool = False) -> Members | None:
        """Each member of a literal dict, list or tuple (or ``dict(k=v)``) under its key;
        None when a key is not constant or a splat leaves the keys open, and with
        ``code_only`` when every member is a plain constant (data, which calls nothing).

        A list or tuple member is under its index from both ends (``[0]`` and ``[-2]``);
        a dict key given twice keeps its last value, as Python does.
        """
        kind = node.kind_id
        if kind in self._dictionary:
            pairs = [c for c in node.named_children if c.kind_id != self._comment]
            if len(pairs) > MAX_MEMBERS or any(c.kind_id not in self._pair for c in pairs):
                return None  # a ** splat or a comprehension's clause
            values = [c.child_by_field_id(self._f_value) for c in pairs]
            if code_only and all(v is None or v.kind_id in self._constants for v in values):
                return None
            found: dict[str, Node] = {}
            for pair, value in zip(pairs, values, strict=True):
                key = pair.named_child(0)
                suffix = None if key is None else self.key(key)
                if suffix is None or value is None:
                    return None
                found.pop(suffix, None)
                found[suffix] = value
            return list(found.items())
        if kind in self._sequences:
            items = [c for c in node.named_children if c.kind_id != self._comment]
            if len(items) > MAX_MEMBERS or any(c.kind_id in self._splats for c in items):
                return None
            if code_only and all(c.kind_id in self._constants for c in items):
                return None
            count = len(items)
            return [(f"[{i}]", c) for i, c in enumerate(items)] + [(f"[{i - count}]", c) for i, c in enumerate(items)]
        if kind == self._call:
            return self._dict_call(node)
        return None

    def _dict_call(self, node: Node) -> Members | None:
        """``dict(a=f, b=g)``: keyword arguments only (the builtin is assumed, as for getattr)."""
        function = node.child_by_field_id(self._f_function)
        arguments = node.child_by_field_id(self._f_arguments)
        if function is None or function.kind_id != self._identifier or function.text != b"dict" or arguments is None:
            return None
        found = self._keywords(arguments.named_children)
        return found if found else None

    def _keywords(self, args: list[Node]) -> Members | None:
        """Keyword arguments as the keys they put in a dict; None for anything else among them."""
        found: dict[str, Node] = {}
        for arg in args:
            if arg.kind_id == self._comment:
                continue
            name = arg.child_by_field_id(self._f_name) if arg.kind_id == self._keyword else None
            value = arg.child_by_field_id(self._f_value) if name is not None else None
            if name is None or value is None or not _KEY.fullmatch(name.text or b"-"):
                return None
            found['["' + (name.text or b"").decode("ascii") + '"]'] = value
        return list(found.items()) if len(found) <= MAX_MEMBERS else None

    def updated(self, arguments: Node) -> Members | None:
        """What ``d.update(...)`` stores, key by key, given its argument list: a dict
        literal (or ``dict(k=v)``) and then keyword arguments, each replacing what the
        key held; None when a key is not constant (``d.update(other)``, a list of pairs)."""
        args = [c for c in arguments.named_children if c.kind_id != self._comment]
        first: Members = []
        if args and args[0].kind_id != self._keyword:
            literal = self.unwrap(args[0])
            if literal.kind_id not in self._dictionary and literal.kind_id != self._call:
                return None
            found = self.members(literal)
            if found is None:
                return None
            first, args = found, args[1:]
        keywords = self._keywords(args)
        if keywords is None:
            return None
        merged = dict(first)
        for key, value in keywords:
            merged.pop(key, None)
            merged[key] = value
        return list(merged.items()) if 0 < len(merged) <= MAX_MEMBERS else None

    def spread(self, node: Node) -> list[Node] | None:
        """The positional arguments ``*node`` stands for when ``node`` is a literal list or
        tuple without splats of its own; None when the count or order is open."""
        node = self.unwrap(node)
        if node.kind_id not in self._sequences:
            return None
        items = [c for c in node.named_children if c.kind_id != self._comment]
        return None if any(c.kind_id in self._splats for c in items) else items

    def spread_keywords(self, node: Node) -> list[tuple[str, Node]] | None:
        """The keyword arguments ``**node`` stands for when ``node`` is a dict literal with
        constant string keys or ``dict(k=v)``; None when a key is open or not a string."""
        node = self.unwrap(node)
        if node.kind_id not in self._dictionary and node.kind_id != self._call:
            return None
        found = self.members(node)
        if found is None or any(not suffix.startswith('["') for suffix, _ in found):
            return None  # an int key is a TypeError at the call, not a keyword
        return [(suffix[2:-2], value) for suffix, value in found]

    def is_tuple(self, node: Node) -> bool:
        return node.kind_id in self._tuples

    def selected(self, node: Node) -> Node | None:
        """The member a constant subscript of a literal selects: ``[f, g][1]`` is ``g``,
        ``{"h": {"on": f}}["h"]["on"]`` is ``f``; None for anything else."""
        value = node.child_by_field_id(self._f_value)
        children = node.named_children
        if value is None or len(children) != 2:
            return None
        key = self.key(children[1])
        if key is None:
            return None
        value = self.unwrap(value)
        if value.kind_id == self._subscript:
            inner = self.selected(value)
            if inner is None:
                return None
            value = self.unwrap(inner)
        found = self.members(value)
        for suffix, member in found or ():
            if suffix == key:
                return member
        return None
