"""Fingerprints of Python definitions that ignore formatting but no real token.

A fingerprint hashes a definition's own code: its decorators, header and body,
with each nested def/class replaced by a placeholder naming it. Tokenizing every
file in Python would cost more than parsing it, so the text is normalised with
byte-level operations that run in C, guided by the few node kinds that carry
meaning beyond their tokens:

- comments and parentheses that change nothing (``RedundantParens``: those
  reformatters add or remove) become blanks;
- statement starts get a marker byte that encodes their block depth (relative to
  the definition), which replaces indentation and significant newlines;
- string contents are escaped (whitespace, ``,`` and ``;`` become control bytes)
  and their delimiters unified, so only code whitespace is normalised; docstring
  contents stay unescaped, so their whitespace is normalised like code;
- a one-element tuple keeps a marker, because there the trailing comma matters;
- a literal with other spellings of its value (escapes, implicit concatenation,
  ``0x1F``) is rewritten as the value's one spelling (``_pyspelling``).

Then whitespace goes except between two word characters, ``;`` goes
(statement markers already separate statements), and a comma before a closing
bracket goes. That runs once over the whole file, cut at definition boundaries,
and the pieces are then handed to their owners.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from hashlib import blake2b
from itertools import pairwise
from operator import attrgetter

from tree_sitter import Node

from impactbot.extract._pygrammar import Grammar
from impactbot.extract._pyspelling import is_formatted, needs_reading, respell_integers, spelled, string_value

_DEPTH0 = 0x14  # statement start at relative depth d is byte _DEPTH0 + d
_MAX_DEPTH = 11
_STRING_OPEN, _STRING_CLOSE = 0x0E, 0x0F
_DOC_OPEN, _DOC_CLOSE = 0x10, 0x11
_ONE_TUPLE, _ONE_INDEX = 0x12, 0x13
_WORD_SPACE = 0x7F
_SPACES = frozenset(b" \t\r\n\x0b\x0c;")
_QUOTE_BYTES = frozenset(b"'\"")

# Inside a string literal: whitespace, ',' and ';' become control bytes so that
# the code-level normalisation below cannot touch them.
_IN_STRING = bytes.maketrans(b" \t\n\r\x0b\x0c,;", bytes(range(1, 9)))
_IN_DOCSTRING = bytes.maketrans(b",;", b"\x07\x08")
_WHITESPACE = bytes.maketrans(b"\t\n\r\x0b\x0c", b"     ")
# Per base depth: depth markers made relative to the definition's body.
_RELATIVE = [
    bytes.maketrans(
        bytes(range(_DEPTH0, _DEPTH0 + _MAX_DEPTH + 1)),
        bytes(_DEPTH0 + max(d - base, 0) for d in range(_MAX_DEPTH + 1)),
    )
    for base in range(_MAX_DEPTH + 1)
]
_START, _END = attrgetter("start_byte"), attrgetter("end_byte")
_CUT = b"\x00"  # separates pieces of different owners while normalising
_NEEDED_SPACE = re.compile(rb" (?<=[\w\x80-\xff] ) *(?=[\w\x80-\xff])")

# A parenthesized expression directly under one of these only groups what the
# context already groups (black adds such parens when it wraps long lines).
_PAREN_SAFE_PARENTS = (
    "return_statement",
    "expression_statement",
    "assignment",
    "augmented_assignment",
    "if_statement",
    "elif_clause",
    "while_statement",
    "argument_list",
    "keyword_argument",
    "default_parameter",
    "typed_default_parameter",
    "list",
    "set",
    "tuple",
    "expression_list",
    "pair",
    "parenthesized_expression",
    "assert_statement",
    "delete_statement",
    "for_statement",
    "for_in_clause",
    "with_item",
    "yield",
    "decorator",
    "type",  # an annotation is one expression (`node: (A | B)`)
    "lambda",  # its body is one expression
    "list_comprehension",  # the element of a comprehension (black 24 wraps conditional ones)
    "set_comprehension",
    "generator_expression",
    "if_clause",
)
# What parentheses around these never change: they are atoms of an expression, so
# `x + (y)`, `(obj).attr` or `(f)(x)` read as `x + y`, `obj.attr`, `f(x)`.
_ATOMS = (
    "identifier", "attribute", "subscript", "call", "string", "concatenated_string", "integer", "float",
    "true", "false", "none", "ellipsis", "list", "dictionary", "set", "tuple",
    "list_comprehension", "dictionary_comprehension", "set_comprehension", "generator_expression",
)  # (a pair inside a pair groups nothing more: the inner goes, the outer is judged by what it holds)
# Where `(a, b)` is the same tuple as a bare `a, b` (`return (b, a)`, `x = (1, 2)`)
_TUPLE_PARENTS = ("assignment", "augmented_assignment", "return_statement", "expression_statement",
                  "for_statement", "yield")
# Where `(a, b)` unpacks as a bare `a, b` does (`for (k, v) in ...`, `(a, b) = p`), and
# `(x)` binds x (`on = (off) = False`)
_PATTERN_PARENTS = ("assignment", "for_statement", "for_in_clause")


class RedundantParens:
    """Which parentheses Python reads as nothing: those of a parenthesized expression
    whose context groups it anyway or that holds an atom, and those of a tuple (or an
    unpacking target) where the bare form means the same. Reformatters add and remove
    exactly these, and the definitions around them do not change."""

    def __init__(self, g: Grammar) -> None:
        self.paren = g.kind("parenthesized_expression")
        self._safe_parents = g.kinds(*_PAREN_SAFE_PARENTS)
        self._atoms = g.kinds(*_ATOMS)
        self._tuple = g.kinds("tuple")
        self._tuple_parents = g.kinds(*_TUPLE_PARENTS)
        self._pattern = g.kinds("tuple_pattern")
        self._pattern_parents = g.kinds(*_PATTERN_PARENTS)
        self._subscript = g.kind("subscript")
        self._comment = g.kind("comment")
        self._comma = g.token_kinds(",")
        self._f_value = g.fields["value"]
        self.kinds = frozenset({self.paren}) | self._tuple | self._pattern

    def __call__(self, node: Node) -> bool:
        """Whether ``node``'s own ``(`` and ``)`` can go (a parenthesized expression, a
        tuple or a tuple pattern; anything else: no)."""
        parent = node.parent
        if parent is None:
            return False
        kind = node.kind_id
        if kind == self.paren:
            return self._grouping_only(node, parent)
        if kind in self._tuple:
            return parent.kind_id in self._tuple_parents and self._elements(node) >= 2
        if kind in self._pattern and parent.kind_id in self._pattern_parents:
            count = self._elements(node)
            return count >= 2 or (count == 1 and not any(c.kind_id in self._comma for c in node.children))
        return False

    def _grouping_only(self, node: Node, parent: Node) -> bool:
        inner = self._content(node)
        while inner is not None and inner.kind_id == self.paren:
            inner = self._content(inner)  # `((a and b))`: what the innermost pair holds
        if inner is not None and inner.kind_id in self._atoms:
            return True
        if parent.kind_id == self._subscript:  # `(a + b)[0]` is not `a + b[0]`; `a[(i + 1)]` is `a[i + 1]`
            value = parent.child_by_field_id(self._f_value)
            return value is not None and value.start_byte != node.start_byte
        return parent.kind_id in self._safe_parents

    def _content(self, node: Node) -> Node | None:
        """The one expression a pair of parentheses holds."""
        inner = [c for c in node.named_children if c.kind_id != self._comment]
        return inner[0] if len(inner) == 1 else None

    def _elements(self, node: Node) -> int:
        return sum(1 for c in node.named_children if c.kind_id != self._comment)

    def trailing_comma(self, node: Node) -> Node | None:
        """The comma before the ``)`` of a tuple whose parentheses go (``(\n 1,\n 2,\n)``,
        as black splits it): it goes with them. None for anything else."""
        last = node.child(node.child_count - 2) if node.kind_id != self.paren and node.child_count > 2 else None
        return last if last is not None and last.kind_id in self._comma else None


class Span:
    """One definition to fingerprint: its byte range and its placeholder."""

    __slots__ = ("end", "placeholder", "start")

    def __init__(self, start: int, end: int, placeholder: bytes) -> None:
        self.start = start
        self.end = end
        self.placeholder = placeholder


class Fingerprinter:
    """Normalised own-code text of every definition in a file."""

    def __init__(self, g: Grammar) -> None:
        self._definitions = g.kinds("function_definition", "class_definition", "decorated_definition")
        self._redundant = RedundantParens(g)
        self._comma = g.token_kinds(",")
        self._open, self._close = g.token_kinds("("), g.token_kinds(")")

    def texts(
        self,
        data: bytes,
        caps: dict[str, list[Node]],
        spans: Sequence[Span],
        docstrings: set[int],
        decorated: set[int],
    ) -> list[bytes]:
        """Normalised text of the module (index 0) and of each span, in order.

        ``spans`` must be sorted by start; each covers a def or class from its
        first decorator to its end. ``docstrings`` holds the start of each
        docstring, ``decorated`` the start of each def/class node that sits
        under decorators (the decorated_definition is the statement).
        """
        buf = bytearray(data.replace(_CUT, b"\x01") if 0 in data else data)
        for node in caps.get("comment", ()):
            buf[node.start_byte : node.end_byte] = b" " * (node.end_byte - node.start_byte)
        strings = caps.get("string", [])
        self._strings(buf, strings, caps.get("concat", []), docstrings)
        respell_integers(buf, sorted(zip(map(_START, strings), map(_END, strings), strict=True)))
        self._parens(buf, [*caps.get("paren", ()), *caps.get("tuple", ()), *caps.get("tuple_pattern", ())],
                     caps.get("import", ()))
        self._one_element(buf, caps.get("tuple", ()), caps.get("sub", ()))
        depths, leading = self._statements(buf, caps.get("stmt", []), caps.get("compound", []), decorated)
        cuts, owners, children = _pieces(spans, len(buf))
        pieces = _normalise(_CUT.join([buf[a:b] for a, b in pairwise(cuts)])).split(_CUT)
        parts: list[list[bytes]] = [[] for _ in range(len(spans) + 1)]
        if leading:  # the first statement starts at byte 0: no byte to mark
            parts[0].append(bytes((_DEPTH0,)))
        for owner, piece, child in zip(owners, pieces, children, strict=True):
            own = parts[owner]
            own.append(piece)
            if child and owner:  # the module's text leaves definitions out entirely
                span = spans[child - 1]
                depth = min(depths.get(span.start, 0), _MAX_DEPTH)
                own.append(bytes((_DEPTH0 + depth,)) + span.placeholder)
        bases = [0] + [min(depths.get(span.start, 0) + 1, _MAX_DEPTH) for span in spans]
        return [b"".join(own).translate(_RELATIVE[base]) for own, base in zip(parts, bases, strict=True)]

    # ------------------------------------------------------------ in place

    def _strings(self, buf: bytearray, strings: list[Node], runs: list[Node], docstrings: set[int]) -> None:
        covered = -1
        # a run of adjacent strings sorts before its first string, which it covers
        spans = sorted([(n.start_byte, -n.end_byte, True) for n in runs if n.start_byte not in docstrings]
                       + [(n.start_byte, -n.end_byte, False) for n in strings])
        for start, negative_end, joined in spans:
            end = -negative_end
            if start < covered:
                continue  # a string inside an f-string replacement field, or a part of a run
            if joined:
                value = string_value(bytes(buf[start:end]))
                if value is not None and _respell(buf, start, end, value, 1):
                    covered = end
                continue
            covered = end
            quote = start
            if buf[quote] not in _QUOTE_BYTES:
                while quote < end and buf[quote] not in _QUOTE_BYTES:
                    quote += 1
                if quote >= end:
                    continue
                # black lowercases prefixes and drops 'u'
                buf[start:quote] = bytes(buf[start:quote]).lower().replace(b"u", b" ")
            q = buf[quote]
            width = 3 if end - quote >= 6 and buf[quote + 1] == q == buf[quote + 2] else 1
            if end - quote < 2 * width or buf[end - 1] != q:
                continue  # unterminated: leave it as code
            if start in docstrings:
                _mark_docstring(buf, quote, end, width)
                continue
            if needs_reading(buf, quote, end) and not is_formatted(buf, start, end):
                value = string_value(bytes(buf[start:end]))
                if value is not None and _respell(buf, start, end, value, width):
                    continue
            inner = slice(quote + width, end - width)
            buf[inner] = bytes(buf[inner]).translate(_IN_STRING)
            buf[quote] = _STRING_OPEN
            buf[end - 1] = _STRING_CLOSE
            if width == 3:
                buf[quote + 1] = buf[quote + 2] = buf[end - 3] = buf[end - 2] = 0x22

    def _parens(self, buf: bytearray, nodes: Sequence[Node], imports: Sequence[Node]) -> None:
        redundant = self._redundant
        for node in nodes:
            start, end = node.start_byte, node.end_byte - 1
            if buf[start] == 0x28 and buf[end] == 0x29 and redundant(node):
                buf[start] = buf[end] = 0x20
                comma = redundant.trailing_comma(node)
                if comma is not None:
                    buf[comma.start_byte] = 0x20
        for node in imports:  # `from os import (\n    path,\n    sep,\n)` imports `path, sep`
            last = node.child(node.child_count - 1)
            if last is None or last.kind_id not in self._close or buf[last.start_byte] != 0x29:
                continue
            opening = next((c for c in node.children if c.kind_id in self._open), None)
            comma = node.child(node.child_count - 2)
            if opening is not None:
                buf[opening.start_byte] = buf[last.start_byte] = 0x20
                if comma is not None and comma.kind_id in self._comma:
                    buf[comma.start_byte] = 0x20

    def _one_element(self, buf: bytearray, tuples: Sequence[Node], subs: Sequence[Node]) -> None:
        for node in tuples:
            if node.named_child_count == 1 and buf[node.start_byte] == 0x28:
                buf[node.start_byte] = _ONE_TUPLE
        for node in subs:
            if node.named_child_count != 2 or node.child_count < 4:
                continue
            comma = node.child(node.child_count - 2)
            value = node.named_child(0)
            if comma is not None and comma.kind_id in self._comma and value is not None:
                bracket = buf.find(b"[", value.end_byte)
                if bracket != -1:
                    buf[bracket] = _ONE_INDEX

    def _statements(
        self, buf: bytearray, simple: list[Node], compound: list[Node], decorated: set[int]
    ) -> tuple[dict[int, int], bool]:
        """Mark each statement start with its depth; return def depths by start.

        A statement's depth is the number of compound statements around it
        (each block belongs to exactly one). The marker replaces the byte
        before the statement: a newline, an indent or a ``;``. Definitions get
        no marker: their placeholder carries it.
        """
        definitions = self._definitions
        depths: dict[int, int] = {}
        # Depth as a step function of the byte offset, built from the compound
        # statements; simple statements (most of them) then need one bisect.
        bounds, levels = [0], [0]
        open_ends: list[int] = []
        starts = []
        for start, end, kind in sorted([(n.start_byte, n.end_byte, n.kind_id) for n in compound]):
            if start in decorated:
                continue  # the decorated_definition around it is the statement
            while open_ends and open_ends[-1] <= start:
                bounds.append(open_ends.pop())
                levels.append(len(open_ends))
            depth = len(open_ends)
            if kind in definitions:
                depths[start] = depth
            else:
                starts.append((start, depth))
            open_ends.append(end)
            bounds.append(start)
            levels.append(depth + 1)
        while open_ends:
            bounds.append(open_ends.pop())
            levels.append(len(open_ends))
        starts.extend((start, levels[bisect_right(bounds, start) - 1]) for start in [n.start_byte for n in simple])
        leading = False
        for start, depth in starts:
            if start == 0:
                leading = True
            elif buf[start - 1] in _SPACES:
                buf[start - 1] = _DEPTH0 + min(depth, _MAX_DEPTH)
        return depths, leading


def fingerprint(texts: Sequence[bytes]) -> str:
    """The short stable hash of one symbol's normalised text(s)."""
    return blake2b(b"\x00".join(texts), digest_size=16).hexdigest()


def _pieces(spans: Sequence[Span], size: int) -> tuple[list[int], list[int], list[int]]:
    """Cut [0, size) at every span start and end.

    Returns the cut points, the owner of each piece (0 is the module, i is
    ``spans[i - 1]``) and, per piece, the span that starts right after it (0
    for none), whose placeholder the owner gets.
    """
    cuts, owners, children = [0], [], []
    stack = [(0, size)]  # (owner, end)
    for index, span in enumerate(spans, 1):
        while len(stack) > 1 and stack[-1][1] <= span.start:
            owner, end = stack.pop()
            cuts.append(end)
            owners.append(owner)
            children.append(0)
        cuts.append(span.start)
        owners.append(stack[-1][0])
        children.append(index)
        stack.append((index, span.end))
    while stack:
        owner, end = stack.pop()
        cuts.append(end)
        owners.append(owner)
        children.append(0)
    return cuts, owners, children


def _respell(buf: bytearray, start: int, end: int, value: str | bytes, width: int) -> bool:
    """Write ``value``'s one spelling over ``buf[start:end]`` as the string marking
    does (a ``b`` for bytes, the quotes unified, blanks after); False when it does
    not fit."""
    quotes = b'""' if width == 3 else b""
    text = b"".join((
        b"b" if isinstance(value, bytes) else b"",
        bytes((_STRING_OPEN,)), quotes, spelled(value).translate(_IN_STRING), quotes, bytes((_STRING_CLOSE,)),
    ))
    if len(text) > end - start:
        return False
    buf[start:end] = text + b" " * (end - start - len(text))
    return True


def _mark_docstring(buf: bytearray, quote: int, end: int, width: int) -> None:
    """Docstring content keeps its whitespace unescaped, so it is normalised."""
    inner = slice(quote + width, end - width)
    buf[inner] = bytes(buf[inner]).translate(_IN_DOCSTRING)
    buf[quote] = _DOC_OPEN
    buf[end - 1] = _DOC_CLOSE
    if width == 3:  # a docstring in triple quotes equals the same one in single quotes
        buf[quote + 1] = buf[quote + 2] = buf[end - 3] = buf[end - 2] = 0x20


def _normalise(text: bytes) -> bytes:
    if 0x5C in text:  # a backslash: maybe a line continuation
        text = text.replace(b"\\\r\n", b" ").replace(b"\\\n", b" ")
    text = text.translate(_WHITESPACE, b";")
    text = _NEEDED_SPACE.sub(bytes((_WORD_SPACE,)), text).translate(None, b" ")
    return text.replace(b",)", b")").replace(b",]", b"]").replace(b",}", b"}")
