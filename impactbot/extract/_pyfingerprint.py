"""Fingerprints of Python definitions that ignore formatting but no real token.

A fingerprint hashes a definition's own code: its decorators, header and body,
with each nested def/class replaced by a placeholder naming it. Tokenizing every
file in Python would cost more than parsing it, so the text is normalised with
byte-level operations that run in C, guided by the few node kinds that carry
meaning beyond their tokens:

- comments and parentheses that black adds or removes become blanks;
- statement starts get a marker byte that encodes their block depth (relative to
  the definition), which replaces indentation and significant newlines;
- string contents are escaped (whitespace, ``,`` and ``;`` become control bytes)
  and their delimiters unified, so only code whitespace is normalised; docstring
  contents stay unescaped, so their whitespace is normalised like code;
- a one-element tuple keeps a marker, because there the trailing comma matters.

Then, per definition: whitespace goes except between two word characters,
``;`` goes (statement markers already separate statements), and a comma before
a closing bracket goes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from hashlib import blake2b

from tree_sitter import Node

from impactbot.extract._pygrammar import Grammar

_DEPTH0 = 0x14  # statement start at relative depth d is byte _DEPTH0 + d
_MAX_DEPTH = 11
_STRING_OPEN, _STRING_CLOSE = 0x0E, 0x0F
_DOC_OPEN, _DOC_CLOSE = 0x10, 0x11
_ONE_TUPLE, _ONE_INDEX = 0x12, 0x13
_WORD_SPACE = 0x7F
_SPACES = frozenset(b" \t\r\n\x0b\x0c;")

# Inside a string literal: whitespace, ',' and ';' become control bytes so that
# the code-level normalisation below cannot touch them.
_IN_STRING = bytes.maketrans(b" \t\n\r\x0b\x0c,;", bytes(range(1, 9)))
_IN_DOCSTRING = bytes.maketrans(b",;", b"\x07\x08")
# Per base depth: code whitespace -> ' ', depth markers made relative.
_RELATIVE = [
    bytes.maketrans(
        b"\t\n\r\x0b\x0c" + bytes(range(_DEPTH0, _DEPTH0 + _MAX_DEPTH + 1)),
        b"     " + bytes(_DEPTH0 + max(d - base, 0) for d in range(_MAX_DEPTH + 1)),
    )
    for base in range(_MAX_DEPTH + 1)
]
_NEEDED_SPACE = re.compile(rb" (?<=[\w\x80-\xff] ) *(?=[\w\x80-\xff])")

# A parenthesized expression directly under one of these only groups what the
# context already groups (black adds such parens when it wraps long lines).
_PAREN_SAFE_PARENTS = (
    "return_statement", "expression_statement", "assignment", "augmented_assignment",
    "if_statement", "elif_clause", "while_statement", "argument_list", "keyword_argument",
    "default_parameter", "typed_default_parameter", "list", "set", "tuple", "expression_list",
    "pair", "parenthesized_expression", "assert_statement", "delete_statement",
    "for_statement", "for_in_clause", "with_item", "yield", "decorator",
)  # fmt: skip


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
        self._comment = g.kind("comment")
        self._definitions = g.kinds("function_definition", "class_definition",
                                    "decorated_definition")  # fmt: skip
        self._safe_parents = g.kinds(*_PAREN_SAFE_PARENTS)
        self._subscript = g.kind("subscript")
        self._comma = g.token_kinds(",")
        self._f_value = g.fields["value"]

    def texts(self, data: bytes, caps: dict[str, list[Node]], spans: Sequence[Span]) -> list[bytes]:
        """Normalised text of the module (index 0) and of each span, in order.

        ``spans`` must be sorted by start; each covers a def or class from its
        first decorator to its end.
        """
        buf = bytearray(data)
        for node in caps.get("comment", ()):
            buf[node.start_byte : node.end_byte] = b" " * (node.end_byte - node.start_byte)
        self._strings(buf, caps.get("string", []), caps.get("doc", ()))
        self._parens(buf, caps.get("paren", ()))
        self._one_element(buf, caps.get("tuple", ()), caps.get("sub", ()))
        depths, leading = self._statements(buf, caps.get("stmt", []), caps.get("block", []))
        parts = self._own_parts(buf, spans, depths)
        if leading:  # the first statement starts at byte 0: no byte to mark
            parts[0].insert(0, bytes((_DEPTH0,)))
        bases = [0] + [depths.get(span.start, 0) + 1 for span in spans]
        return [_normalise(b"".join(own), base) for own, base in zip(parts, bases)]

    # ------------------------------------------------------------ in place

    def _strings(self, buf: bytearray, strings: list[Node], docs: Sequence[Node]) -> None:
        doc_starts = {node.start_byte for node in docs}
        strings.sort(key=_start)
        covered = -1
        for node in strings:
            start, end = node.start_byte, node.end_byte
            if start < covered:
                continue  # a string inside an f-string replacement field
            covered = end
            _mark_string(buf, start, end, start in doc_starts)

    def _parens(self, buf: bytearray, parens: Sequence[Node]) -> None:
        safe, subscript, f_value = self._safe_parents, self._subscript, self._f_value
        for node in parens:
            parent = node.parent
            if parent is None:
                continue
            kind = parent.kind_id
            if kind == subscript:
                value = parent.child_by_field_id(f_value)
                if value is None or value.start_byte == node.start_byte:
                    continue
            elif kind not in safe:
                continue
            start, end = node.start_byte, node.end_byte - 1
            if buf[start] == 0x28 and buf[end] == 0x29:
                buf[start] = buf[end] = 0x20

    def _one_element(self, buf: bytearray, tuples: Sequence[Node], subs: Sequence[Node]) -> None:
        for node in tuples:
            if node.named_child_count == 1 and buf[node.start_byte] == 0x28:
                buf[node.start_byte] = _ONE_TUPLE
        for node in subs:
            if node.named_child_count != 2 or node.child_count < 4:
                continue
            if node.child(node.child_count - 2).kind_id in self._comma:  # type: ignore[union-attr]
                value = node.named_child(0)
                bracket = buf.find(b"[", value.end_byte if value else node.start_byte)
                if bracket != -1:
                    buf[bracket] = _ONE_INDEX

    def _statements(
        self, buf: bytearray, stmts: list[Node], blocks: list[Node]
    ) -> tuple[dict[int, int], bool]:
        """Mark each statement start with its depth; return def depths by start.

        The marker replaces the byte before the statement (a newline, an indent
        or a ``;``). Definitions get no marker: their placeholder carries it.
        """
        comment, definitions = self._comment, self._definitions
        stmts.sort(key=_start)
        bounds = sorted((b.start_byte, b.end_byte) for b in blocks)
        open_ends: list[int] = []
        depths: dict[int, int] = {}
        leading = False
        i, count = 0, len(bounds)
        for node in stmts:
            kind = node.kind_id
            if kind == comment:
                continue
            start = node.start_byte
            while i < count and bounds[i][0] <= start:
                while open_ends and open_ends[-1] <= bounds[i][0]:
                    open_ends.pop()
                open_ends.append(bounds[i][1])
                i += 1
            while open_ends and open_ends[-1] <= start:
                open_ends.pop()
            depth = len(open_ends)
            if kind in definitions:
                depths[start] = depth
            elif start == 0:
                leading = True
            elif buf[start - 1] in _SPACES:
                buf[start - 1] = _DEPTH0 + min(depth, _MAX_DEPTH)
        return depths, leading

    # ------------------------------------------------------------- assembly

    def _own_parts(
        self, buf: bytearray, spans: Sequence[Span], depths: dict[int, int]
    ) -> list[list[bytes]]:
        """Split the buffer by owner; nested spans leave a placeholder behind.

        The module gets no placeholders: its fingerprint covers only top-level
        statements that are not definitions.
        """
        parts: list[list[bytes]] = [[] for _ in range(len(spans) + 1)]
        stack: list[list[int]] = [[0, len(buf), 0]]  # [owner, end, cursor]
        for owner, span in enumerate(spans, 1):
            while stack[-1][1] <= span.start and len(stack) > 1:
                done = stack.pop()
                parts[done[0]].append(bytes(buf[done[2] : done[1]]))
            top = stack[-1]
            parts[top[0]].append(bytes(buf[top[2] : span.start]))
            if top[0]:
                depth = min(depths.get(span.start, 0), _MAX_DEPTH)
                parts[top[0]].append(bytes((_DEPTH0 + depth,)) + span.placeholder)
            top[2] = max(top[2], span.end)
            stack.append([owner, span.end, span.start])
        while stack:
            done = stack.pop()
            parts[done[0]].append(bytes(buf[done[2] : done[1]]))
        return parts


def fingerprint(texts: Sequence[bytes]) -> str:
    """The short stable hash of one symbol's normalised text(s)."""
    return blake2b(b"\x00".join(texts), digest_size=16).hexdigest()


def _start(node: Node) -> int:
    return node.start_byte


def _mark_string(buf: bytearray, start: int, end: int, docstring: bool) -> None:
    quote = start
    while quote < end and buf[quote] not in (0x22, 0x27):
        quote += 1
    if quote >= end:
        return
    if quote > start:  # black lowercases prefixes and drops 'u'
        prefix = bytes(buf[start:quote]).lower()
        buf[start:quote] = prefix.replace(b"u", b" ")
    q = buf[quote]
    width = 3 if end - quote >= 6 and buf[quote + 1] == q == buf[quote + 2] else 1
    if end - quote < 2 * width or buf[end - 1] != q:
        return  # unterminated: leave it as code
    inner = slice(quote + width, end - width)
    buf[inner] = bytes(buf[inner]).translate(_IN_DOCSTRING if docstring else _IN_STRING)
    buf[quote] = _DOC_OPEN if docstring else _STRING_OPEN
    buf[end - 1] = _DOC_CLOSE if docstring else _STRING_CLOSE
    if width == 3:
        filler = 0x20 if docstring else 0x22
        buf[quote + 1] = buf[quote + 2] = buf[end - 3] = buf[end - 2] = filler


def _normalise(text: bytes, base: int) -> bytes:
    if b"\\" in text:
        text = text.replace(b"\\\r\n", b" ").replace(b"\\\n", b" ")
    text = text.translate(_RELATIVE[min(base, _MAX_DEPTH)], b";")
    text = _NEEDED_SPACE.sub(bytes((_WORD_SPACE,)), text).translate(None, b" ")
    return text.replace(b",)", b")").replace(b",]", b"]").replace(b",}", b"}")
