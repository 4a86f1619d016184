"""Call sites of a Python file: calls, decorators' calls, operators and attribute reads."""

from __future__ import annotations

import _string
import itertools
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import replace

from tree_sitter import Node

from impactbot.extract._pyexpr import (
    BINARY_DUNDERS,
    DOTTED_NAME,
    ENTERING_METHODS,
    UNARY_DUNDERS,
    bagged,
    display_name,
    string_body,
)
from impactbot.extract._pystate import END, FileState, line_of, node_key, text_of
from impactbot.extract._records import call_site
from impactbot.model import CallKind, CallSite

AUGMENTED = {op + "=": "__i" + dunder[2:] for op, dunder in BINARY_DUNDERS.items()}
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
_CONTAINER_METHODS = (".append", ".add", ".extend", ".insert", ".setdefault", ".update", ".appendleft", ".extendleft")

# A call whose callee is a (dotted) name and whose arguments are names, dotted
# names, numbers or plain strings, optionally as keyword=value: two calls in
# three. Their facts are read off the text; everything else goes through the
# tree. The pattern is unambiguous (no nested choice can split the same text
# two ways), so a near miss fails in linear time.
_SIMPLE_CALL = re.compile(
    rb"([A-Za-z_][A-Za-z0-9_.]*)\(([A-Za-z0-9_.,=\s]*(?:(?:\"[^\"\\\n]*\"|'[^'\\\n]*')[A-Za-z0-9_.,=\s]*)*)\)"
)
_STRINGS = re.compile(rb"\"[^\"]*\"|'[^']*'")
_WORDS_APART = re.compile(rb"[A-Za-z0-9_.]\s+[A-Za-z0-9_.]").search
_ArgumentFacts = tuple[tuple["str | None", ...], tuple[str, ...], tuple[tuple[str, "str | None"], ...]]
# Argument lists repeat a lot ("()", "(self)", "(request)"); results are immutable.
_ARGUMENTS_SEEN: dict[bytes, _ArgumentFacts | None] = {}
# calls that run a command line: `[sys.executable, "-m", "pkg.mod"]` runs a module of the repository
SUBPROCESS_CALLS = frozenset({
    "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen",
    "asyncio.create_subprocess_exec", "check_call", "check_output", "Popen", "create_subprocess_exec",
})
# builtins that run the code of a string in the caller's namespace
EVALUATING = frozenset({"eval", "exec"})
MAX_EVALUATED = 4096  # bytes of code read from a string given to eval or exec
_REBINDS_EVALUATING = re.compile(
    rb"\b(?:def|class)\s+(?:eval|exec)\b|^\s*(?:eval|exec)\s*[:=][^=]|\bimport\b[^\n]*\b(?:eval|exec)\b",
    re.MULTILINE,
).search
# a printf-style conversion: flags, width, precision, length, type (or `%%`)
_PERCENT = re.compile(rb"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?[diouxXeEfFgGcrsa%]")
# what a conversion (`!r`, `%s`) runs of the value; a field without one runs __format__
_CONVERSIONS = {"s": "__str__", "r": "__repr__", "a": "__repr__"}
_CALLERS_NAMESPACE = frozenset({b"globals()", b"locals()", b"vars()"})
_NAME_STARTS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_IDENTIFIER_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789.")


def _identifier_byte(byte: int) -> bool:
    return byte in _IDENTIFIER_BYTES
_LITERAL_NAMES = frozenset({"True", "False", "None"})


def _code_of(prefix: bytes, body: bytes) -> bytes | None:
    """The code a plain or raw string literal holds; None when not read (escapes in
    text that is not ASCII, which the literal's own decoding would have to redo)."""
    if prefix == b"r" or b"\\" not in body:
        return body
    if not body.isascii():
        return None
    try:
        return body.decode("unicode_escape").encode("utf-8")
    except UnicodeDecodeError:
        return None


def _namespace_of(arg: Node) -> bytes:
    """The text of a namespace given to eval or exec (``globals=`` dropped)."""
    value = arg.child_by_field_name("value") if arg.type == "keyword_argument" else arg
    return b"".join((value.text or b"").split()) if value is not None else b""


class CallFacts(FileState):
    """The passes that produce CallSites (and the bindings of ``x.append(f)``)."""

    def _calls(self) -> None:
        data, sites, attr_stores = self.data, self.sites, self.attr_stores
        bounds, names, dead = self.scopes.bounds, self.scopes.values, self.dead
        simple, seen = _SIMPLE_CALL.fullmatch, _ARGUMENTS_SEEN
        for node in self._caps("call"):
            start, end = node.start_byte, node.end_byte
            shape = simple(data, start, end)
            if shape is not None:
                inner = shape[2]
                arguments = seen[inner] if inner in seen else _simple_arguments(inner)
            if shape is None or arguments is None or shape[1] == b"setattr":  # (it binds: read in full)
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
            key = (start << 32) | (END - end)
            sites.append((key, site))
            self.callees[key] = callee
            if callee.endswith(_CONTAINER_METHODS):
                self._container_call(node, scope, callee, args, keywords, kwargs)
            elif callee in SUBPROCESS_CALLS and (listed := node.child_by_field_id(self.e.f["arguments"])) is not None:
                self._runs_module(node, scope, listed)
            elif callee in EVALUATING and (given := node.child_by_field_id(self.e.f["arguments"])) is not None:
                self._evaluated(node, scope, given)

    def _discarded(self) -> tuple[tuple[int, str], ...]:
        """(line, callee) of each call standing alone as a statement: its value is dropped,
        so a coroutine it gives is never awaited."""
        out: list[tuple[int, str]] = []
        statement, call, callees = self.e.expression_statement, self.e.call, self.callees
        for node in self._caps("stmt"):
            if node.kind_id != statement or node.named_child_count != 1:
                continue
            child = node.named_children[0]
            callee = callees.get(node_key(child)) if child.kind_id == call else None
            if callee is not None:
                out.append((child.start_point.row + 1, callee))
        return tuple(sorted(set(out)))

    def _awaited(self) -> tuple[tuple[int, str], ...]:
        """(line, callee) of each call whose value is awaited (``await store.load()``)."""
        data = self.data
        if b"await" not in data:
            return ()
        out: list[tuple[int, str]] = []
        callees = self.callees
        for node in self._caps("call"):
            start = node.start_byte
            end = start
            while end > 0 and data[end - 1] in b" \t\\\r\n(":
                end -= 1
            if data[end - 5:end] != b"await" or (end > 5 and _identifier_byte(data[end - 6])):
                continue
            callee = callees.get(node_key(node))
            if callee is not None:
                out.append((node.start_point.row + 1, callee))
        return tuple(sorted(set(out)))

    def _setattr(self, node: Node, scope: str, arguments: Node, args: list[str | None]) -> None:
        """``setattr(obj, "name", value)`` stores as ``obj.name = value`` does."""
        target, value = args[0], args[2]
        named = [c for c in arguments.named_children if c.kind_id != self.e.comment]
        parts = string_body(named[1].text or b"") if len(named) == 3 and named[1].kind_id in self.e.string else None
        if target is None or parts is None or parts[0] or not DOTTED_NAME.fullmatch(target.encode()):
            return
        name = parts[1].decode("utf-8", "replace")
        if name.isidentifier():
            self._bind(node, scope, [(f"{target}.{name}", value)], "assign")

    def _call(self, node: Node) -> None:
        """A call site read from the tree (nested calls, subscripts, splats, ...)."""
        e = self.e
        expr = self.x.expr
        children = node.children
        if len(children) < 2:
            return
        function, arguments = children[0], children[1]
        if arguments.kind_id != e.argument_list and arguments.kind_id not in e.generator:
            found = node.child_by_field_id(e.f["arguments"])  # a comment in between
            if found is None:
                return
            arguments = found
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
        unpacked: list[tuple[str, str | None]] = []  # ("*", expr) / ("**", expr)
        star_at = -1
        scope = self.scope_at(start)
        if arguments.kind_id != e.argument_list:
            positional.append(None)  # f(x for x in y)
        else:
            for arg in arguments.named_children:
                kind = arg.kind_id
                if kind == e.keyword_argument:
                    parts = arg.children
                    keyword = text_of(parts[0])
                    keywords.append(keyword)
                    value = (expr(parts[-1]) or self._displayed(parts[-1], scope)) if len(parts) > 2 else None
                    kwargs.append((keyword, value))
                elif kind in e.list_splat:
                    if not self._spread(arg, positional):
                        star_at = -2 if star else len(positional)  # a second one: positions open
                        star = True
                        unpacked.append(("*", self._unpacked(arg)))
                        self._splatted(arg, node)
                elif kind in e.dict_splat:
                    if not self._spread_keywords(arg, keywords, kwargs):
                        starstar = True
                        unpacked.append(("**", self._unpacked(arg)))
                elif kind != e.comment:
                    positional.append(expr(arg) or self._displayed(arg, scope))
        # `f(a, *xs)`: the elements of xs take the positions after a; with a positional
        # argument after the star (or two stars) no element's position is known
        kwargs.extend((k, v) for k, v in unpacked if v is not None and (k == "**" or star_at == len(positional)))
        self.callees[node_key(node)] = callee
        if callee == "setattr" and len(positional) == 3 and not star and not keywords:
            self._setattr(node, scope, arguments, positional)
        if function.kind_id == e.attribute and len(positional) == 1 and not star and not keywords:
            self._enters(node, function, arguments)
        if function.kind_id == e.attribute and callee is not None and callee.endswith(".format") and \
                arguments.kind_id == e.argument_list and not star and not starstar:
            self._str_formatted(node, function, arguments)
        if callee in SUBPROCESS_CALLS and arguments.kind_id == e.argument_list:
            self._runs_module(node, scope, arguments)
        if callee in EVALUATING and positional and arguments.kind_id == e.argument_list:
            self._evaluated(node, scope, arguments)
        args = tuple(positional)
        self.sites.append(
            (
                node_key(node),
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
            self._container_call(node, scope, callee, args, keywords, kwargs)

    def _runs_module(self, node: Node, scope: str, arguments: Node) -> None:
        """``subprocess.run([sys.executable, "-m", "app.main", ...])`` runs the module
        ``app.main`` as a script, and ``[sys.executable, "scripts/build.py"]`` that file: a
        call site the linker reads as running that module's code (``<script:app.main>``,
        ``<script:scripts/build.py>``), so a test doing so reaches what it runs."""
        skipped = (self.e.comment, self.e.keyword_argument)
        args = [c for c in arguments.named_children if c.kind_id not in skipped]
        if not args:
            return
        words = self.x.named(args[0]) if args[0].kind_id in self.e.sequence_literal else args  # argv, or exec's
        texts = [string_body(w.text or b"") if w.kind_id in self.e.string else None for w in words]
        run = None
        for before, after in itertools.pairwise([None, *texts[:3]]):
            if after is None or after[0]:
                continue
            if before is not None and before[1] == b"-m":
                run = after[1] if DOTTED_NAME.fullmatch(after[1]) else None
                break
            if after[1].endswith(b".py") and (before is None or before[1] != b"-c"):
                run = after[1].removeprefix(b"./")  # the interpreter's first argument: a file it runs
                break
        if run is not None:
            site = call_site(scope, f"<script:{run.decode('utf-8', 'replace')}>", node.start_point.row + 1, "call",
                             0, (), False, False, (), ())
            self.sites.append((node_key(args[0]), site))

    def _evaluated(self, node: Node, scope: str, arguments: Node) -> None:
        """``eval("render(page)")``, ``exec("setup()")``: the code of a plain string literal
        runs in the caller's namespace, so its calls (those of its top level) are the
        caller's, at the line of the ``eval``. Not when the file binds ``eval`` or ``exec``
        itself, nor for a string whose text is not all there (an f-string, escapes beyond
        ASCII), nor with namespaces other than the caller's own (``globals()``, ``locals()``)."""
        given = [c for c in arguments.named_children if c.kind_id != self.e.comment]
        if not given or any(_namespace_of(c) not in _CALLERS_NAMESPACE for c in given[1:]):
            return  # names looked up in a dict of the caller's making: not told here
        first = given[0]
        split = string_body(first.text or b"") if first.kind_id in self.e.string else None
        if split is None or split[0] not in (b"", b"r") or len(split[1]) > MAX_EVALUATED:
            return
        code = _code_of(*split)
        if code is None or _REBINDS_EVALUATING(self.data):
            return
        from impactbot.extract.python import extract_python  # the same extractor, on the string's code

        found = extract_python(code)
        if found.error:  # not code (a string that merely looks like some): nothing is run
            return
        line = node.start_point.row + 1
        for site in found.calls:
            if site.scope == "":
                self.sites.append((node_key(first), replace(site, scope=scope, line=line)))

    def _enters(self, node: Node, function: Node, arguments: Node) -> None:
        """``stack.enter_context(cm)`` calls cm's ``__enter__``, and its ``__exit__`` when
        the stack closes, as ``with cm:`` does (an ExitStack's, or any such method's)."""
        name = function.child_by_field_id(self.e.f["attribute"])
        dunders = ENTERING_METHODS.get(name.text or b"") if name is not None else None
        if dunders is None:
            return
        held = [c for c in arguments.named_children if c.kind_id != self.e.comment]
        for dunder in dunders:
            self._op(node.start_byte, held[0], dunder, node)

    def _displayed(self, arg: Node, scope: str) -> str | None:
        """``f([g, h])``: a name for the display, bound to its elements as ``x = [g, h]`` binds
        ``x``, so that ``for task in tasks: task()`` in ``f`` finds g and h; and to each
        member under its constant key (``tasks[1]``, ``tasks[-1]``, ``handlers["a"]``)."""
        x = self.x
        values = x.display_values(arg)
        if values is None:
            return None
        name = display_name(arg)
        pairs = [(name + suffix, value) for suffix, value in values]
        for key, member in x.literals.members(arg) or ():
            pairs += [(name + key, value) for suffix, value in x.values(member) if not suffix and value is not None]
        self._bind(arg, scope, pairs, "assign")
        return name

    def _spread(self, splat: Node, positional: list[str | None]) -> bool:
        """``*[f, g]`` passes ``f`` and ``g`` as if written out: add them; False for a splat
        whose count is open (a name, a comprehension, a literal holding ``*xs``)."""
        inner = self.x.named(splat)
        items = self.x.literals.spread(inner[0]) if len(inner) == 1 else None
        if items is None:
            return False
        positional.extend(self.x.expr(item) for item in items)
        return True

    def _splatted(self, splat: Node, call: Node) -> None:
        """``f(*xs)`` iterates ``xs``: its ``__iter__`` runs, as unpacking runs it."""
        inner = self.x.named(splat)
        if len(inner) == 1:
            self._op(splat.start_byte, inner[0], "__iter__", call)

    def _unpacked(self, splat: Node) -> str | None:
        """``xs`` of ``*xs`` or ``**xs``: what the call unpacks (None for other than a name or attribute)."""
        inner = self.x.named(splat)
        return self.x.expr(inner[0]) if len(inner) == 1 else None

    def _spread_keywords(
        self, splat: Node, keywords: list[str], kwargs: list[tuple[str, str | None]]
    ) -> bool:
        """``**{"cb": f}`` and ``**dict(cb=f)`` pass ``cb=f``: add it; False when the keys are open."""
        inner = self.x.named(splat)
        pairs = self.x.literals.spread_keywords(inner[0]) if len(inner) == 1 else None
        if pairs is None:
            return False
        for keyword, value in pairs:
            keywords.append(keyword)
            kwargs.append((keyword, self.x.expr(value)))
        return True

    def _raises(self) -> None:
        """``raise E`` (a name, not a call): when ``E`` is a class, raising it constructs
        it without arguments; the linker keeps only class targets (``raise err`` of a
        caught instance calls nothing)."""
        e = self.e
        for node in self._caps("raise"):
            children = node.children
            if len(children) < 2 or not self._live(node):
                continue
            raised = children[1]
            if raised.kind_id != e.identifier and raised.kind_id != e.attribute:
                continue
            callee = self.x.expr(raised)
            if callee is not None:
                site = call_site(self.scope_at(raised.start_byte), callee, line_of(raised), "raise")
                self.sites.append((node_key(raised), site))

    def _container_call(
        self, node: Node, scope: str, callee: str, args: tuple[str | None, ...], keywords: Sequence[str],
        kwargs: Sequence[tuple[str, str | None]],
    ) -> None:
        """``x.append(f)`` / ``x.add(f)`` bind ``x[]``, and so do the other calls that put
        elements in a list, set or dict; ``__all__`` may grow."""
        owner, _, method = callee.rpartition(".")
        added = _added_elements(method, args, keywords, kwargs)
        if added and owner and owner != "__all__":
            self._bind(node, scope, [(bagged(owner) + "[]", value) for value in added], "assign")
        if owner == "__all__" and scope == "" and method in ("append", "extend"):
            arguments = node.child_by_field_id(self.e.f["arguments"])
            values = [] if arguments is None else self.x.named(arguments)
            if len(values) == 1:
                self._dunder_all(node, values[0], method)
            else:
                self.all_events.append((node.start_byte, method, None))

    def _op_sites(self) -> list[tuple[int, CallSite]]:
        # One node may imply several operator sites: order them by callee, since
        # the dict's own order follows the capture order, which varies.
        found = sorted((node_key(node), callee, scope, node) for (scope, callee), (_, node) in self.first_ops.items())
        return [(key, call_site(scope, callee, line_of(node), "operator")) for key, callee, scope, node in found]

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

    def _interpolations(self) -> None:
        """``f"{total}"`` formats the value: its ``__format__`` runs (object's calls its
        ``__str__``, see the linker's fallbacks); ``{total!r}``, ``{total!a}`` and
        ``{total=}`` its ``__repr__``, ``{total!s}`` its ``__str__``."""
        for node in self._caps("interp"):
            if not self._live(node):
                continue
            value = node.child_by_field_name("expression")
            if value is None and node.type == "format_expression" and node.named_child_count:
                value = node.named_children[0]  # `{total:{width}}`: the width is formatted too
            if value is None:
                continue
            conversion = node.child_by_field_name("type_conversion")
            shown = conversion.text if conversion is not None else None
            if shown is None and node.child_by_field_name("format_specifier") is None and \
                    any(c.type == "=" for c in node.children):
                shown = b"!r"  # `{x=}` shows repr(x) unless a format is given
            dunder = _CONVERSIONS.get((shown or b"").decode()[1:], "__format__")
            self._op(node.start_byte, value, dunder, node)

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
                table = BINARY_DUNDERS if kind in e.binary else UNARY_DUNDERS
                dunder = None if operator is None else table.get(operator.type)
                if dunder is not None and operand is not None:
                    self._op(start, operand, dunder, node)
                if dunder == "__mod__" and operand is not None and operand.kind_id in e.string:
                    self._percent_formatted(node, operand)
            else:
                self._comparison(node)

    def _str_formatted(self, node: Node, function: Node, arguments: Node) -> None:
        """``"{}: {!r}".format(name, value)`` formats each argument a field names: its
        ``__format__`` (``__str__`` through object's), ``__repr__`` for ``!r`` and ``!a``,
        ``__str__`` for ``!s``. A field reading an attribute or an item of its argument
        (``{0.name}``) formats that, which is not told here."""
        template = function.child_by_field_id(self.e.f["object"])
        split = string_body(template.text or b"") if template is not None and template.kind_id in self.e.string \
            else None
        if split is None or split[0] not in (b"", b"r") or b"\\" in split[1]:
            return
        try:
            fields = list(_string.formatter_parser(split[1].decode("utf-8")))
        except ValueError:
            return  # not a template str.format accepts: the call raises
        given = [c for c in arguments.named_children if c.kind_id != self.e.comment]
        positional = [c for c in given if c.kind_id != self.e.keyword_argument]
        named = {text_of(k): c.child_by_field_id(self.e.f["value"]) for c in given
                 if c.kind_id == self.e.keyword_argument and (k := c.child_by_field_id(self.e.f["name"])) is not None}
        auto = 0
        for _literal, field_name, spec, conversion in fields:
            if field_name is None:
                continue
            if field_name == "":
                index: int | str = auto
                auto += 1
            elif field_name.isdigit():
                index = int(field_name)
            elif field_name.isidentifier():
                index = field_name
            else:
                continue
            value = named.get(index) if isinstance(index, str) else \
                positional[index] if index < len(positional) else None
            if value is None or (spec and "{" in spec):
                continue
            dunder = _CONVERSIONS.get(conversion or "", "__format__")
            self._op(value.start_byte, value, dunder, node)

    def _percent_formatted(self, node: Node, template: Node) -> None:
        """``"%s: %r" % (name, value)`` runs ``__str__`` of each value a ``%s`` takes and
        ``__repr__`` of each a ``%r`` or ``%a`` takes, matched by position (one value
        not in a tuple: the only one). Mapping keys (``%(name)s``), a ``*`` width, or
        a count that does not match leave the values unread."""
        split = string_body(template.text or b"")
        right = node.child_by_field_id(self.e.f["right"])
        if split is None or b"f" in split[0] or b"b" in split[0] or right is None:
            return
        found = _PERCENT.findall(split[1])
        if any(b"(" in spec or b"*" in spec for spec in found):
            return
        wanted = [spec[-1:] for spec in found if not spec.endswith(b"%")]
        if right.type in ("list", "dictionary", "set", "list_comprehension", "dictionary_comprehension"):
            return  # one value whose own __str__ is a builtin's (or a mapping the keys read)
        values = self.x.named(right) if right.type == "tuple" else [right]
        if len(values) != len(wanted) or any(v.type in ("list_splat", "parenthesized_list_splat") for v in values):
            return
        for value, conversion in zip(values, wanted, strict=True):
            dunder = _CONVERSIONS.get(conversion.decode())
            if dunder is not None:
                self._op(value.start_byte, value, dunder, node)

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
        """Attribute reads that are not call targets, first per (scope, expr).

        An assigned attribute counts too: assigning a property runs its setter,
        which is the same symbol as the getter.
        """
        expr, bounds, names, dead = self.x.expr, self.scopes.bounds, self.scopes.values, self.dead
        skip, writes, dotted, data = self.attr_stores, self.attr_writes, DOTTED_NAME.fullmatch, self.data
        first: dict[tuple[str, str, CallKind], tuple[int, Node]] = {}
        for node in self._caps("attr"):
            end = node.end_byte
            if end in skip and end not in writes:
                continue
            start = node.start_byte
            if dead is not None and start in dead:
                continue
            callee = data[start:end].decode("ascii") if dotted(data, start, end) else expr(node)
            if callee is None:
                continue
            kind: CallKind = "store" if end in writes else "attribute"
            key = (names[bisect_right(bounds, start) - 1], callee, kind)
            known = first.get(key)
            if known is None or start < known[0]:
                first[key] = (start, node)
        return [
            ((start << 32) | (END - node.end_byte), call_site(scope, callee, node.start_point.row + 1, kind))
            for (scope, callee, kind), (start, node) in first.items()
        ]


def _simple_arguments(inner: bytes) -> _ArgumentFacts | None:
    """(args, keywords, kwargs) of an argument list matched by _SIMPLE_CALL.

    None when the text only looks simple: ``a == b``, ``not x`` or ``x for x
    in y`` are expressions, which the tree renders.
    """
    if len(_ARGUMENTS_SEEN) > 16384:
        _ARGUMENTS_SEEN.clear()
    text = inner
    # `int in bytes` and .find(): `bytes in bytes` first tries the needle as an
    # int and raises internally, which costs more than the search
    if 0x22 in text or 0x27 in text:
        if text.find(b'""') >= 0 or text.find(b"''") >= 0:
            return None  # triple quotes or adjacent strings: the pattern may have split them wrongly
        text = _STRINGS.sub(b"\x01", text)  # a literal (a prefix may stay in front): its expr is None
    result: _ArgumentFacts | None = None
    if text.find(b"==") < 0 and not _WORDS_APART(text):
        args: list[str | None] = []
        keywords: list[str] = []
        kwargs: list[tuple[str, str | None]] = []
        for item in text.decode("ascii").split(","):
            keyword, equals, atom = item.partition("=")
            atom = (atom if equals else keyword).strip()
            name = atom[:1] in _NAME_STARTS and "\x01" not in atom and atom not in _LITERAL_NAMES
            value = atom if name else None
            if equals:
                keywords.append(keyword.strip())
                kwargs.append((keywords[-1], value))
            elif atom:
                args.append(value)
        result = tuple(args), tuple(keywords), tuple(kwargs)
    _ARGUMENTS_SEEN[inner] = result
    return result


def _added_elements(
    method: str, args: tuple[str | None, ...], keywords: Sequence[str], kwargs: Sequence[tuple[str, str | None]]
) -> list[str]:
    """What ``x.<method>(...)`` puts in ``x`` when x is a list, set or dict: ``append(f)``,
    ``insert(0, f)``, ``setdefault(k, f)`` the argument; ``extend(fs)`` and
    ``update(table)`` the elements of theirs, ``update(k=f)`` each keyword's value."""
    if method in ("append", "add", "appendleft"):
        return [args[0]] if len(args) == 1 and not keywords and args[0] else []
    if method in ("insert", "setdefault"):
        return [args[1]] if len(args) == 2 and not keywords and args[1] else []
    if method in ("extend", "extendleft"):
        return [args[0] + "[]"] if len(args) == 1 and not keywords and args[0] else []
    if method == "update" and len(args) <= 1 and all(a for a in args):
        named = [value for name, value in kwargs if name in keywords and value]
        spread = [f"{value}[]" for name, value in kwargs if name == "**" and value]
        return [f"{a}[]" for a in args if a] + named + spread
    return []
