"""One spelling per literal value, for fingerprints.

``"\\xe4"`` and ``"ä"``, ``'it\\'s'`` and ``"it's"``, ``"ab" "cd"`` and ``"abcd"``,
``0x1F`` and ``31``, ``1_000`` and ``1000`` are the same constant: a change from one
to the other changes no behaviour, and formatters make some of them (ruff joins
implicit concatenations that fit on a line). The fingerprint works on the file's
bytes in place, so a literal is rewritten over its own bytes: the value's one
spelling, then blanks that the normalisation removes. A spelling that would not
fit in the bytes it replaces (``"\\1"`` spelled ``"\\x01"``) stays as written.

Only literals that can have another spelling are read: strings holding a
backslash or joined with others, integers with a base prefix or underscores. A
string's value is what Python reads (``ast.literal_eval``); f-strings are left
alone, as their parts are code.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from collections.abc import Sequence

_WHITESPACE = frozenset(" \t\n\r\x0b\x0c")
_ESCAPED = {"\\": "\\\\"}
# An integer Python reads as another spelling of a decimal: a base prefix, or
# underscores between digits; `\b` keeps suffixed forms out (`1_0j` is imaginary).
_RESPELLED_INT = re.compile(rb"0[xXoObB]_?[0-9a-fA-F]+(?:_[0-9a-fA-F]+)*\b|[1-9][0-9]*(?:_[0-9]+)+\b")
# Scanning a file with the pattern costs ten times more than finding where one
# could start with patterns that begin with a literal byte
_BASE_PREFIX = re.compile(rb"0[xXoObB]")
_DIGIT_SEPARATOR = re.compile(rb"_[0-9]")
_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_DIGITS = frozenset(b"0123456789_")
_PREFIX_END = re.compile(rb"[^'\"]*")


def string_value(text: bytes) -> str | bytes | None:
    """The value of one string literal or a run of adjacent ones; None for an
    f-string, invalid text, or anything that is not a plain constant."""
    try:
        source = text.decode("utf-8")
    except UnicodeDecodeError:
        return None
    try:
        # parentheses let a run split over lines, with blanked comments, parse as one
        value = ast.literal_eval(f"({source})")
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None
    return value if isinstance(value, str | bytes) else None


def spelled(value: str | bytes) -> bytes:
    """The one spelling of a string value's contents, before the fingerprint's
    in-string escaping: printable characters and whitespace as themselves, a
    backslash doubled, anything else as its escape."""
    if isinstance(value, bytes):
        return b"".join(_spelled_byte(b) for b in value)
    if value.isprintable() and "\\" not in value:
        return value.encode("utf-8")
    return "".join(_spelled_char(c) for c in value).encode("utf-8", "backslashreplace")


def _spelled_char(c: str) -> str:
    if c in _ESCAPED:
        return _ESCAPED[c]
    if c.isprintable() or c in _WHITESPACE:
        return c
    return c.encode("unicode_escape").decode("ascii")


def _spelled_byte(b: int) -> bytes:
    if b == 0x5C:
        return b"\\\\"
    if 0x20 <= b < 0x7F or b in b" \t\n\r\x0b\x0c":
        return bytes((b,))
    return b"\\x%02x" % b


def needs_reading(buf: bytearray, start: int, end: int) -> bool:
    """Whether a single string literal might have another spelling of its value."""
    return buf.find(b"\\", start, end) != -1


def prefix_length(buf: bytearray, start: int, end: int) -> int:
    """How many bytes of ``buf[start:end]`` come before the opening quote."""
    found = _PREFIX_END.match(buf, start, end)
    return 0 if found is None else found.end() - start


def is_formatted(buf: bytearray, start: int, end: int) -> bool:
    """An f-string (or a t-string): its parts are code, not a constant."""
    return any(c in b"fFtT" for c in buf[start : start + prefix_length(buf, start, end)])


def respell_integers(buf: bytearray, strings: Sequence[tuple[int, int]]) -> None:
    """Rewrite every integer with a base prefix or underscores as its decimal
    spelling, padded with blanks, outside the string literals ``strings`` (sorted
    (start, end) byte ranges; comments must already be blank)."""
    starts = [start for start, _ in strings]
    for start in sorted(_integer_starts(buf)):
        index = bisect_right(starts, start) - 1
        if index >= 0 and start < strings[index][1]:
            continue
        found = _RESPELLED_INT.match(buf, start)
        if found is None:
            continue
        end = found.end()
        try:
            decimal = str(int(found.group().replace(b"_", b""), 0)).encode("ascii")
        except ValueError:
            continue
        if len(decimal) <= end - start:
            buf[start:end] = decimal + b" " * (end - start - len(decimal))


def _integer_starts(buf: bytearray) -> set[int]:
    """Where an integer with a base prefix or an underscore may start: a token start
    (no word character before it) of a ``0x``, or of the digits before a ``_1``."""
    found = {at for at in map(_start_of, _BASE_PREFIX.finditer(buf)) if at == 0 or buf[at - 1] not in _WORD}
    for at in map(_start_of, _DIGIT_SEPARATOR.finditer(buf)):
        start = at
        while start > 0 and buf[start - 1] in _DIGITS:
            start -= 1
        if start < at and (start == 0 or buf[start - 1] not in _WORD):
            found.add(start)
    return found


def _start_of(found: re.Match[bytes]) -> int:
    return found.start()
