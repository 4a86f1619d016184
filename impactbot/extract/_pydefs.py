"""Definitions of a Python file: qualnames, lines, signatures, decorators, bases, fingerprints."""

from __future__ import annotations

import re

from tree_sitter import Node

from impactbot.extract._pyexpr import Values, display_name, string_body
from impactbot.extract._pyfingerprint import Span, fingerprint
from impactbot.extract._pyinit import dataclass_fields, generated_init, keyword_arguments
from impactbot.extract._pystate import Def, FileState, child, line_count, line_of, named_child, node_key, text_of
from impactbot.extract._records import call_site
from impactbot.model import DataclassFields, Definition, Param, ParamKind, Signature

_NEEDS_TIDY = re.compile(r"\s|,[)\]}]")

# (node, name, kind, annotation, default) of one parameter
_Parameter = tuple[Node, str, ParamKind, "Node | None", "Node | None"]


class DefinitionFacts(FileState):
    """The pass that produces Definitions, with their decorator sites and parameter bindings."""

    def _definition_facts(self) -> tuple[Definition, ...]:
        """One Definition per qualname; emits decorator sites and parameter bindings."""
        defs = self.defs
        texts = self._fingerprint_texts()
        comment_ends = {n.end_byte for n in self._caps("comment")}
        rows: dict[str, _Row] = {}
        for i, d in enumerate(defs, 1):
            decorators = self._decorators(d)
            params = None if d.kind == "class" else self._parameters(d)
            live = self._live(d.node)
            if params is not None and live:  # a def without parameters may still annotate its return
                self._parameter_bindings(d, params)
            end_line = self._end_line(d.node, comment_ends)
            row = rows.get(d.qualname)
            if row is None:
                row = rows[d.qualname] = _Row(d, end_line, [texts[i]], params, decorators)
            else:  # defined again in the same scope: one symbol, spanning all of them
                row.end_line = max(row.end_line, end_line)
                row.texts.append(texts[i])
                # the last real definition is what callers get; a stub that never runs is not
                if _binds_name(decorators) and (live or not self._live(row.signed.node)):
                    row.signed, row.params, row.decorators = d, params, decorators
            if live and _binds_name(decorators):
                scope = self.owners.at(d.start - 1) if d.start else -1
                row.bind(_Bound(d, params, scope), branch=self.branches.at(d.start) > scope)
        marks = self._pytestmarks()
        lines = line_count(self.data)
        out = [Definition("", "module", 1, lines, fingerprint(texts[:1]), uses_fixtures=marks.get("", ()))]
        for row in rows.values():
            d = row.first
            parent = rows.get(d.qualname.rpartition("::")[0]) if "::" in d.qualname else None
            signature, init, variants, fields = self._signatures(row, parent)
            out.append(
                Definition(
                    d.qualname,
                    d.kind,
                    line_of(d.decorated or d.node),
                    row.end_line,
                    fingerprint(row.texts),
                    signature,
                    row.decorators,
                    self._bases(d),
                    self._is_async(d.node),
                    init,
                    variants,
                    fields,
                    self._in_branch(d),
                    self._metaclass(d),
                    *self._pytest_marks(row.first, marks.get(d.qualname, ())),
                )
            )
        return tuple(out)

    def _pytestmarks(self) -> dict[str, tuple[str, ...]]:
        """scope qualname -> the fixtures it asks for without a parameter: those a
        ``pytestmark = pytest.mark.usefixtures(...)`` (or a list of marks holding one) of
        that module or class body names, and those its ``getfixturevalue`` calls name."""
        out: dict[str, tuple[str, ...]] = self._fixture_lookups()
        if b"pytestmark" not in self.data:
            return out
        for node in self._caps("assign"):
            left, value = node.child(0), node.child_by_field_id(self.e.f["right"])
            if left is None or left.text != b"pytestmark" or value is None or not self._live(node):
                continue
            calls = self.x.named(value) if value.type in ("list", "tuple") else [value]
            names = [n for call in calls if call.type == "call" for n in self._usefixtures(call)]
            if names:
                scope = self.scope_at(node.start_byte)
                out[scope] = (*out.get(scope, ()), *names)
        return out

    def _fixture_lookups(self) -> dict[str, tuple[str, ...]]:
        """scope qualname -> the fixtures its ``request.getfixturevalue("name")`` calls ask
        for by name: pytest runs them for the test, as for a parameter."""
        if b"getfixturevalue" not in self.data:
            return {}
        out: dict[str, list[str]] = {}
        for call in self._caps("call"):
            function = call.child_by_field_id(self.e.f["function"])
            if function is None or function.type != "attribute" or not self._live(call):
                continue
            attribute = function.child_by_field_id(self.e.f["attribute"])
            if attribute is None or attribute.text != b"getfixturevalue":
                continue
            arguments = call.child_by_field_id(self.e.f["arguments"])
            args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
            name = _string(args[0]) if args else None
            if name:
                out.setdefault(self.scope_at(call.start_byte), []).append(name)
        return {scope: tuple(sorted(set(names))) for scope, names in out.items()}

    def _usefixtures(self, call: Node) -> list[str]:
        """The fixture names of a ``pytest.mark.usefixtures(...)`` call (none for another call)."""
        function = call.child_by_field_id(self.e.f["function"])
        if function is None or (self.x.expr(function) or "").rpartition(".")[2] != "usefixtures":
            return []
        arguments = call.child_by_field_id(self.e.f["arguments"])
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
        return [n for n in map(_string, args) if n is not None]

    def _in_branch(self, d: Def) -> bool:
        """Whether a definition sits in a branch or loop of its scope (it may not run)."""
        scope = self.owners.at(d.start - 1) if d.start else -1
        return self.branches.at(d.start) > scope

    def _signatures(
        self, row: _Row, parent: _Row | None
    ) -> tuple[Signature | None, Signature | None, tuple[Signature, ...], DataclassFields | None]:
        """A name's signature (a def's), generated __init__ (a class's), the other signatures
        its definitions that can be live give it, and a dataclass's own fields."""
        signed = row.signed
        bound, open_ended = row.live_in(parent)
        if row.first.kind == "class":
            signature = None
            init, fields = self._class_init(signed)
            variants = _variants(init, [self._class_init(b.d)[0] for b in bound if b.d is not signed])
            fields = fields if len(bound) <= 1 else None  # which body holds the fields is not known
        else:
            signature = None if row.params is None else self._signature(signed, row.params)
            init, fields = None, None
            variants = _variants(signature, [
                self._signature(b.d, b.params) for b in bound if b.d is not signed and b.params is not None])
        return signature, init, (*variants, _ANY_CALL) if open_ended else variants, fields

    def _class_init(self, d: Def) -> tuple[Signature | None, DataclassFields | None]:
        """The __init__ a decorator or base writes for a class, and a dataclass's own fields."""
        if d.decorated is None and d.node.child_by_field_id(self.e.f["superclasses"]) is None:
            return None, None  # neither a decorator nor a base can write it
        decorators = []
        for node in d.decorated.children if d.decorated is not None else ():
            inner = named_child(node, 0) if node.kind_id in self.e.decorator else None
            expr = None if inner is None else self.x.expr(inner)
            if inner is not None and expr is not None:
                decorators.append((expr, keyword_arguments(inner) if inner.type == "call" else {}))
        return generated_init(decorators, self._bases(d), d.body), dataclass_fields(decorators, d.body)

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
            first = None if block is None else named_child(block, 0)
            while first is not None and first.kind_id == e.comment:
                first = first.next_named_sibling
            if first is None or first.kind_id != e.expression_statement:
                continue
            if first.named_child_count == 1:
                string = named_child(first, 0)
                if string is not None and string.kind_id in e.string:
                    found.add(string.start_byte)
        return found

    def _placeholder(self, d: Def) -> bytes:
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

    def _decorators(self, d: Def) -> tuple[str, ...]:
        """The decorator exprs of ``d``; each decorator is also a call site."""
        if d.decorated is None:
            return ()
        found: list[str] = []
        live: list[tuple[Node, str | None, int]] = []
        for node in d.decorated.children:
            if node.kind_id not in self.e.decorator:
                continue
            inner = named_child(node, 0)
            callee = None if inner is None else self.x.expr(inner)
            if callee is not None:
                found.append(callee)
            if self._live(node):
                live.append((node, callee, len(found)))
        for node, callee, below in live:
            # a decorator gets the function itself, or, above others, what those made of it:
            # `name@k` names the decorators from the k-th down (see link's site_flows)
            arg = d.name if below == len(found) else f"{d.name}@{below}"
            site = call_site(self.scope_at(node.start_byte), callee, line_of(node), "decorator", 1, args=(arg,))
            self.sites.append((node_key(node), site))
        return tuple(found)

    def _pytest_marks(
        self, d: Def, marked: tuple[str, ...] = ()
    ) -> tuple[tuple[str, ...], bool, tuple[tuple[str, str, str], ...], str | None]:
        """What pytest decorators on ``d`` say: the fixture names of its
        ``@pytest.mark.usefixtures(...)``, whether ``@pytest.fixture(autouse=True)``
        decorates it, what ``@pytest.mark.parametrize`` passes each parameter, and the
        name ``@pytest.fixture(name=...)`` gives the fixture."""
        if d.decorated is None:
            return marked, False, (), None
        used: list[str] = list(marked)  # a class body's pytestmark
        autouse = False
        alias: str | None = None
        values: list[tuple[str, str, str]] = []
        for node in d.decorated.children:
            inner = named_child(node, 0) if node.kind_id in self.e.decorator else None
            if inner is None or inner.type != "call":
                continue
            callee = (self.x.expr(inner.child_by_field_id(self.e.f["function"]) or inner) or "").rpartition(".")[2]
            arguments = inner.child_by_field_id(self.e.f["arguments"])
            args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
            if callee == "usefixtures":
                used.extend(self._usefixtures(inner))
            elif callee == "fixture":
                autouse = autouse or keyword_arguments(inner).get("autouse") == "True"
                named = [a.child_by_field_id(self.e.f["value"]) for a in args if a.type == "keyword_argument"
                         and text_of(a.child_by_field_id(self.e.f["name"]) or a) == "name"]
                alias = next((n for n in (_string(v) for v in named if v is not None) if n), alias)
                values.extend(self._fixture_params(inner, args))
            elif callee == "parametrize":
                values.extend(self._parametrized(inner, args))
        return tuple(used), autouse, tuple(values), alias

    def _fixture_params(self, call: Node, args: list[Node]) -> list[tuple[str, str, str]]:
        """``@pytest.fixture(params=[A, B])``: the fixture reads each element as
        ``request.param``, which is what the pair's first part names."""
        held = None
        for a in args:
            name, value = a.child_by_field_id(self.e.f["name"]), a.child_by_field_id(self.e.f["value"])
            if a.type == "keyword_argument" and name is not None and value is not None and text_of(name) == "params":
                held = self.x.expr(value)
                if held is None and self.x.display_values(value) is not None:
                    held = display_name(value)
        return [("request.param", f"{held}[]", self.scope_at(call.start_byte))] if held else []

    def _parametrized(self, call: Node, args: list[Node]) -> list[tuple[str, str, str]]:
        """(parameter, value expr, scope) for ``@pytest.mark.parametrize("a, b", CASES)``:
        ``a`` gets ``CASES[][0]``, a single name ``CASES[]``; a literal list is the name
        the calls pass binds for it (``<arg@line:column>``)."""
        positional = [a for a in args if a.type != "keyword_argument"]
        keywords = {text_of(k.child_by_field_id(self.e.f["name"]) or k): k.child_by_field_id(self.e.f["value"])
                    for k in args if k.type == "keyword_argument"}
        names_node = positional[0] if positional else keywords.get("argnames")
        values_node = positional[1] if len(positional) > 1 else keywords.get("argvalues")
        if names_node is None or values_node is None or "indirect" in keywords:
            return []  # indirect: the values go to the fixtures of those names, not to the test
        while names_node.type == "parenthesized_expression" and names_node.named_child_count == 1:
            names_node = names_node.named_children[0]  # `("a, b")` is the string itself
        if names_node.type in ("list", "tuple"):
            names = [n for n in map(_string, self.x.named(names_node)) if n is not None]
        else:
            text = _string(names_node)
            names = [n.strip() for n in text.split(",") if n.strip()] if text is not None else []
        held = self.x.expr(values_node)
        if held is None and self.x.display_values(values_node) is not None:
            held = display_name(values_node)
        if held is None or not names:
            return []
        scope = self.scope_at(call.start_byte)
        if len(names) == 1:
            return [(names[0], f"{held}[]", scope)]
        return [(name, f"{held}[][{i}]", scope) for i, name in enumerate(names)]

    def _bases(self, d: Def) -> tuple[str, ...]:
        if d.kind != "class":
            return ()
        superclasses = d.node.child_by_field_id(self.e.f["superclasses"])
        if superclasses is None:
            return ()
        e = self.e
        skip = {e.keyword_argument, *e.list_splat, *e.dict_splat}
        bases = [self.x.expr(self._generic_origin(n)) for n in self.x.named(superclasses) if n.kind_id not in skip]
        return tuple(b for b in bases if b is not None)

    def _generic_origin(self, node: Node) -> Node:
        """``Base[K, V]`` in a class's bases is the generic class ``Base`` (its alias's
        ``__mro_entries__``), not an element read from a container."""
        while node.kind_id == self.e.subscript:
            value = node.child_by_field_id(self.e.f["value"])
            if value is None:
                break
            node = value
        return node

    def _metaclass(self, d: Def) -> str | None:
        """The expr of a class statement's ``metaclass=`` keyword."""
        superclasses = d.node.child_by_field_id(self.e.f["superclasses"]) if d.kind == "class" else None
        if superclasses is None:
            return None
        for n in self.x.named(superclasses):
            if n.kind_id == self.e.keyword_argument:
                name, value = n.child_by_field_name("name"), n.child_by_field_name("value")
                if name is not None and value is not None and name.text == b"metaclass":
                    return self.x.expr(value)
        return None

    def _is_async(self, node: Node) -> bool:
        first = child(node, 0)
        return first is not None and first.kind_id in self.e.async_token

    # ------------------------------------------------------------ signature

    def _parameters(self, d: Def) -> list[_Parameter]:
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
                out.append((node, text_of(node), "keyword_only" if keyword_only else "positional", None, None))
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
        name_node = child(node, 0) if kind_id in e.typed or kind_id in e.defaulted else node
        kind: ParamKind = "positional"
        if name_node is not None and name_node.kind_id in e.splat_pattern:
            kind = "var_positional"
        elif name_node is not None and name_node.kind_id in e.dict_splat_pattern:
            kind = "var_keyword"
        if kind != "positional" and name_node is not None:
            name_node = child(name_node, name_node.child_count - 1)
        return ("" if name_node is None else text_of(name_node)), kind, annotation, default

    def _signature(self, d: Def, params: list[_Parameter]) -> Signature:
        returns = d.node.child_by_field_id(self.e.f["return_type"])
        params_out = tuple(
            Param(name, kind, default is not None, None if ann is None else _annotation_text(ann),
                  None if default is None else _annotation_text(default))
            for _, name, kind, ann, default in params
        )
        return Signature(params_out, None if returns is None else _annotation_text(returns))

    def _parameter_bindings(self, d: Def, params: list[_Parameter]) -> None:
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
                self._bind(node, scope, defaults, "default")
        returns = d.node.child_by_field_id(self.e.f["return_type"])
        if returns is not None:
            pairs = [("<return>" + s, v) for s, v in x.instances(returns)]
            self._bind(returns, scope, pairs, "annotation")
        elif self.type_comments and not any(p[3] is not None for p in params):
            self._signature_comment(d, params)

    def _signature_comment(self, d: Def, params: list[_Parameter]) -> None:
        """``def f(a, b):`` with ``# type: (A, B) -> R`` after its colon: the annotations
        it stands for (the receiver of a method may be left out of the comment)."""
        x, scope = self.x, d.qualname
        said = next((t for c in d.node.children if (t := x.type_comment(c)) is not None), None)
        if said is None or b"->" not in said:
            return
        types, _, returned = said.rpartition(b"->")
        call = x.parse_type(b"_" + types.strip())
        arguments = call.child_by_field_id(self.e.f["arguments"]) if call is not None else None
        if call is None or call.kind_id != self.e.call or arguments is None:
            return
        given = [a for a in arguments.named_children if a.kind_id != self.e.comment]
        if len(given) == len(params) - 1 and params and params[0][1] in ("self", "cls"):
            params = params[1:]
        if len(given) == len(params):
            for (node, name, kind, _, _), annotation in zip(params, given, strict=True):
                if annotation.kind_id in self.e.list_splat or annotation.kind_id in self.e.dict_splat:
                    annotation = named_child(annotation, 0) or annotation
                target = name + ("[]" if kind in ("var_positional", "var_keyword") else "")
                self._bind(node, scope, [(target + s, v) for s, v in x.instances(annotation)], "annotation")
        result = x.parse_type(returned)
        if result is not None:
            self._bind(d.node, scope, [("<return>" + s, v) for s, v in x.instances(result)], "annotation")


class _Bound:
    """A definition that binds its name when it runs, and the scope statement around it."""

    __slots__ = ("d", "params", "scope")

    def __init__(self, d: Def, params: list[_Parameter] | None, scope: int) -> None:
        self.d = d
        self.params = params
        self.scope = scope  # start of the enclosing def or class node, -1 for the module


class _Row:
    """One qualname's definitions while they are being merged."""

    __slots__ = ("bound", "decorators", "end_line", "first", "params", "signed", "texts")

    def __init__(
        self,
        first: Def,
        end_line: int,
        texts: list[bytes],
        params: list[_Parameter] | None,
        decorators: tuple[str, ...],
    ) -> None:
        self.first = first
        self.signed = first  # the definition whose signature callers see
        self.end_line = end_line
        self.texts = texts
        self.params = params
        self.decorators = decorators
        self.bound: list[_Bound] = []  # the definitions the name may be bound to when code runs

    def bind(self, b: _Bound, branch: bool) -> None:
        """One more definition of the name; outside a branch of its scope it always runs,
        and what the scope bound to the name before it is gone."""
        if not branch:
            self.bound = [old for old in self.bound if old.scope != b.scope]
        self.bound.append(b)

    def live_in(self, parent: _Row | None) -> tuple[list[_Bound], bool]:
        """The definitions that can be live inside the live definitions of the enclosing
        name, and whether some of those enclosing definitions lack this name (a class
        defined in an if and in its else, with a method in one of them only)."""
        if parent is None or len(parent.bound) < 2:
            return self.bound, False
        scopes = {b.d.node.start_byte for b in parent.bound}
        live = [b for b in self.bound if b.scope in scopes]
        return live or self.bound, bool(live) and not scopes <= {b.scope for b in live}


# A signature every call fits: where a name may be bound to something with no signature
# of ours, no call to it can be said not to fit.
_ANY_CALL = Signature((Param("args", "var_positional", False), Param("kwargs", "var_keyword", False)))


def _variants(main: Signature | None, others: list[Signature | None]) -> tuple[Signature, ...]:
    """The signatures other than ``main`` that the name can have when it is called."""
    found = tuple(dict.fromkeys(s for s in others if s is not None and s != main))
    if main is not None and None in others:
        # a definition that gets no signature of ours (a plain class, an unknown base): any call may fit it
        found = (*found, _ANY_CALL)
    return found


def _binds_name(decorators: tuple[str, ...]) -> bool:
    """A redefinition that replaces the name's signature: not an ``@overload`` stub,
    not a property's ``@x.setter``/``@x.deleter`` (the getter stays the signature)."""
    for decorator in decorators:
        name = decorator[:-2] if decorator.endswith("()") else decorator
        if name.rsplit(".", 1)[-1] in ("overload", "setter", "deleter", "getter"):
            return False
    return True


def _annotation_text(node: Node) -> str:
    """Annotation (or default) source with whitespace collapsed (black may wrap it),
    without parentheses around the whole (`node: (A | B)` is `node: A | B`), and its
    plain string literals in double quotes, as black writes them (`a=''` is `a=""`)."""
    text = _quoted_alike(_unwrapped(node))
    if not _NEEDS_TIDY.search(text):
        return text
    text = " ".join(text.split())
    for opening in "([{":
        text = text.replace(opening + " ", opening)
    for closing in ")]}":
        text = text.replace(" " + closing, closing).replace("," + closing, closing)
    return text


def _quoted_alike(node: Node) -> str:
    """The node's source with each string literal that holds no quote, backslash or
    replacement field written ``"..."``, its prefix lower-cased and without ``u``."""
    data = node.text or b""
    strings = [n for n in _descendants(node) if n.type == "string" and n.child_count >= 2]
    if not strings:
        return data.decode("utf-8", "replace")
    out, at, base = [], 0, node.start_byte
    for string in strings:
        opening, closing = string.children[0], string.children[-1]
        body = data[opening.end_byte - base : closing.start_byte - base]
        start = opening.text or b""
        prefix = start.rstrip(b"'\"")
        quote = start[len(prefix) :]
        if b"f" in prefix.lower() or any(c in body for c in _QUOTES) or quote not in _OPENINGS:
            continue
        doubled = b'"' * len(quote)
        out.append(data[at : string.start_byte - base])
        out.append(prefix.lower().replace(b"u", b"") + doubled + body + doubled)
        at = string.end_byte - base
    out.append(data[at:])
    return b"".join(out).decode("utf-8", "replace")


_QUOTES = frozenset(b"'\"\\")  # in a literal's body: its quotes may not be swapped as they stand
_OPENINGS = (b"'", b'"', b"'''", b'"""')


def _descendants(node: Node) -> list[Node]:
    """Every node under ``node`` (itself included), in source order."""
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(reversed(current.children))
    return out


def _unwrapped(node: Node) -> Node:
    """The one expression inside an annotation's ``type`` node and the parentheses around
    it (but those a walrus needs: ``sentinel=(marker := object())``)."""
    while node.type in ("type", "parenthesized_expression"):
        inner = [c for c in node.named_children if c.type != "comment"]
        if len(inner) != 1 or inner[0].type == "named_expression":
            break
        node = inner[0]
    return node


def _string(node: Node) -> str | None:
    """The text of a plain string literal."""
    parts = string_body(node.text or b"") if node.type == "string" else None
    return parts[1].decode("utf-8", "replace") if parts is not None and not parts[0] else None
