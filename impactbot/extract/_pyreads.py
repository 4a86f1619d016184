"""Module-level names of a Python file: what binds them, and where code reads them.

Only a change to module-level code needs these (``TIMEOUT = 30`` becoming
``60``), so they are not part of FileFacts: the few files involved are parsed
again on demand, and a file is parsed at all only when its bytes contain one of
the names looked for.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterator
from hashlib import blake2b

from tree_sitter import Node, Query, QueryCursor

from impactbot.extract._pyfingerprint import RedundantParens
from impactbot.extract._pygrammar import grammar
from impactbot.extract._pystate import dotted_text, text_of

# Blocks a module-level binding can sit in (`try: import x`, `if PY2: X = 1`).
_NESTING = frozenset({
    "if_statement", "elif_clause", "else_clause", "try_statement", "except_clause", "finally_clause",
    "with_statement", "for_statement", "while_statement", "block", "match_statement", "case_clause",
    "except_group_clause",
})
_PATTERNS = frozenset({"pattern_list", "tuple_pattern", "list_pattern", "parenthesized_expression",
                       "list_splat_pattern", "tuple", "list", "expression_list"})
_IMPORTS = frozenset({"import_statement", "import_from_statement"})
_CLOSERS = frozenset({b")", b"]", b"}"})
# Where an identifier names something instead of reading it: always, or only in
# the one field that holds the name (`f(x=TIMEOUT)` reads TIMEOUT).
_NAMING_PARENTS = frozenset({
    "parameters", "lambda_parameters", "typed_parameter", "list_splat_pattern", "dictionary_splat_pattern",
    "aliased_import", "dotted_name", "global_statement", "nonlocal_statement", "import_from_statement",
    "import_statement",
})
_NAMING_FIELDS = {"function_definition": "name", "class_definition": "name", "default_parameter": "name",
                  "typed_default_parameter": "name", "keyword_argument": "name", "keyword_pattern": "name"}
_STATEMENT_LIKE = frozenset({"block", "module", "expression_statement", "return_statement", "call", "lambda"})
_STORE_FIELDS = {"assignment": "left", "for_statement": "left", "for_in_clause": "left",
                 "named_expression": "name", "as_pattern": "alias"}

# a binding statement, the names it binds, the headers of the blocks around it
_Binding = tuple[Node, list[str], tuple[bytes, ...]]

_QUERY: list[Query] = []


def _identifiers() -> Query:
    if not _QUERY:
        _QUERY.append(Query(grammar().language, "(identifier) @id"))
    return _QUERY[0]


# ------------------------------------------------------------------ bindings


def module_names(data: bytes) -> dict[str, str]:
    """name -> fingerprint of the module-level statements that bind it.

    Assignments (plain, annotated, augmented, chained, unpacking), ``del`` and imports,
    also inside module-level ``if``/``try``/``with`` blocks. An assignment's
    fingerprint is over the statement's tokens, so comments and layout do not
    count; an import's is over what it binds the name to, so regrouping or
    reordering imports does not count either. Both include the headers of the
    blocks the statement sits in (``if sys.platform == "win32":``): a changed
    condition binds the names below it differently.
    """
    return _fingerprints(grammar().parser.parse(data).root_node)


def class_names(data: bytes) -> dict[str, dict[str, str]]:
    """class qualname -> name -> fingerprint of the statements in the class body that
    bind it (``retries = 3``, ``timeout: float = 1.0``), as :func:`module_names` does
    for a module. Methods and nested classes are symbols of their own, not names."""
    out: dict[str, dict[str, str]] = {}
    stack: list[tuple[Node, str]] = [(grammar().parser.parse(data).root_node, "")]
    while stack:
        node, prefix = stack.pop()
        for child in node.named_children:
            definition = child.child_by_field_name("definition") if child.type == "decorated_definition" else child
            if definition is None or definition.type not in ("class_definition", "function_definition"):
                if child.type in _NESTING or child.type == "block":
                    stack.append((child, prefix))
                continue
            name, body = definition.child_by_field_name("name"), definition.child_by_field_name("body")
            if name is None:
                continue
            qualname = prefix + text_of(name)
            if definition.type == "class_definition" and body is not None:
                out[qualname] = _fingerprints(body)
            if body is not None:
                stack.append((body, qualname + "::"))
    return out


def _fingerprints(block: Node) -> dict[str, str]:
    """name -> fingerprint of the statements of ``block`` (a module or class body) binding it."""
    texts: dict[str, list[bytes]] = defaultdict(list)
    for statement, names, context in _binding_statements(block):
        if statement.type in _IMPORTS:
            for name, target in _imported(statement):
                texts[name].append(b" ".join((*context, target.encode())))
            continue
        text = b" ".join((*context, _tokens(statement)))
        for name in names:
            texts[name].append(text)
    # the same binding twice (a duplicated `import sys`) binds nothing new
    return {name: blake2b(b"\n".join(dict.fromkeys(parts)), digest_size=12).hexdigest()
            for name, parts in texts.items()}


def module_assignments(data: bytes) -> list[tuple[int, int, tuple[str, ...]]]:
    """(first line, last line, names) of each module-level assignment or ``del``, and of
    each block header with bindings below it (``if DEBUG:`` decides which ``LEVEL = ...``
    runs), in source order."""
    root = grammar().parser.parse(data).root_node
    out = [
        (statement.start_point.row + 1, statement.end_point.row + 1, tuple(names))
        for statement, names, _ in _binding_statements(root)
        if names
    ]
    out.extend(_guards(root))
    return sorted(out)


def _binding_statements(node: Node, context: tuple[bytes, ...] = ()) -> Iterator[_Binding]:
    """Module-level statements that bind names (imports with an empty list), each with
    the headers of the blocks it sits in."""
    for child in node.named_children:
        kind = child.type
        if kind == "expression_statement":
            names = [n for expr in child.named_children for n in _assigned(expr)]
            if names:
                yield child, names, context
        elif kind == "delete_statement":  # `del os` at the end of a module unbinds it
            names = [n for target in child.named_children for n in _target_names(target)]
            if names:
                yield child, names, context
        elif kind in _IMPORTS:
            yield child, [], context
        elif kind in _NESTING:
            header = _header(child)
            yield from _binding_statements(child, (*context, header) if header else context)


def _guards(node: Node) -> Iterator[tuple[int, int, tuple[str, ...]]]:
    """(first line, last line, names bound below) of each block header in ``node``."""
    for child in node.named_children:
        if child.type not in _NESTING:
            continue
        if child.type != "block":
            bound = [n for statement, names, _ in _binding_statements(child)
                     for n in (names or [name for name, _ in _imported(statement)])]
            if bound:
                yield child.start_point.row + 1, _header_end(child), tuple(dict.fromkeys(bound))
        yield from _guards(child)


def _header(node: Node) -> bytes:
    """A block statement's own tokens (``if DEBUG :``), without its body and clauses."""
    if node.type == "block":
        return b""
    return b" ".join(_tokens(c) for c in node.children if c.type not in _NESTING and c.type != "comment")


def _header_end(node: Node) -> int:
    """The last line of a block statement's header: the one before its body starts."""
    last = node.start_point.row
    for child in node.children:
        if child.type in _NESTING:
            break
        last = child.end_point.row
    return last + 1


def _assigned(expr: Node) -> list[str]:
    if expr.type == "assignment":
        left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
        names = _target_names(left) if left is not None else []
        if right is not None and right.type == "assignment":  # a = b = 1
            names += _assigned(right)
        return names
    if expr.type == "augmented_assignment":
        left = expr.child_by_field_name("left")
        return _target_names(left) if left is not None else []
    return []


def _target_names(target: Node) -> list[str]:
    if target.type == "identifier":
        return [text_of(target)]
    if target.type in _PATTERNS:
        return [n for child in target.named_children for n in _target_names(child)]
    return []  # `obj.attr = ...`, `table[key] = ...` rebind no name


def _imported(statement: Node) -> list[tuple[str, str]]:
    """(bound name, what it is bound to) for each name an import statement binds."""
    out = []
    module_node = statement.child_by_field_name("module_name")
    prefix = ""
    if module_node is not None and statement.type == "import_from_statement":
        prefix = dotted_text(module_node) + ":"
    for child in statement.named_children:
        if child == module_node:
            continue
        if child.type == "aliased_import":
            name, alias = child.child_by_field_name("name"), child.child_by_field_name("alias")
            if name is not None and alias is not None:
                out.append((text_of(alias), prefix + text_of(name) + " as"))
        elif child.type == "dotted_name":
            text = text_of(child)
            out.append((text.rsplit(".", 1)[-1], prefix + text) if prefix else (text.split(".", 1)[0], text))
    return out


def _tokens(node: Node) -> bytes:
    """The statement's tokens, comments, parentheses that change nothing (see
    :class:`RedundantParens`) and a trailing comma before a closing bracket left out."""
    out: list[bytes] = []
    for leaf in _leaves(node, _redundant()):
        if leaf.type == "comment":
            continue
        text = leaf.text or b""
        if text in _CLOSERS and out and out[-1] == b",":
            out.pop()
        out.append(text)
    return b" ".join(out)


def _leaves(node: Node, redundant: RedundantParens) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.child_count == 0 or current.type == "string":
            yield current
        elif current.kind_id in redundant.kinds and redundant(current):
            inner = current.children[1:-1]  # without its own `(` and `)`, and a comma before `)`
            stack.extend(reversed(inner[:-1] if redundant.trailing_comma(current) is not None else inner))
        else:
            stack.extend(reversed(current.children))


_REDUNDANT: list[RedundantParens] = []


def _redundant() -> RedundantParens:
    if not _REDUNDANT:
        _REDUNDANT.append(RedundantParens(grammar()))
    return _REDUNDANT[0]


# ---------------------------------------------------------------------- reads


def name_reads(data: bytes, names: Collection[str]) -> list[tuple[str, int]]:
    """Where ``names`` are read: (``name`` or ``object.name``, 1-based line).

    ``object.name`` is an attribute read whose object is a plain dotted name
    (``conf.TIMEOUT``, ``pkg.conf.TIMEOUT``). Definitions, parameters, keyword
    names, imports and assignment targets are not reads.
    """
    wanted = {n.encode() for n in names}
    if not any(n in data for n in wanted):
        return []
    tree = grammar().parser.parse(data)
    found = QueryCursor(_identifiers()).captures(tree.root_node).get("id", [])
    out = []
    for node in found:
        if node.text not in wanted:
            continue
        parent = node.parent
        if parent is None or parent.type in _NAMING_PARENTS or _is_store(node) or _in_annotation(node):
            continue
        naming = _NAMING_FIELDS.get(parent.type)
        if naming is not None and parent.child_by_field_name(naming) == node:
            continue
        line = node.start_point.row + 1
        if parent.type == "attribute" and parent.child_by_field_name("attribute") == node:
            obj = parent.child_by_field_name("object")
            if obj is not None and obj.type in ("identifier", "attribute") and not _is_store(parent):
                out.append((f"{dotted_text(obj)}.{text_of(node)}", line))
            continue
        out.append((text_of(node), line))
    out.sort(key=lambda use: (use[1], use[0]))
    return out


def _in_annotation(node: Node) -> bool:
    """Inside a parameter, return or variable annotation: typing, not behaviour."""
    parent = node.parent
    while parent is not None and parent.type not in _STATEMENT_LIKE:
        if parent.type == "type":
            return True
        parent = parent.parent
    return False


def _is_store(node: Node) -> bool:
    child, parent = node, node.parent
    while parent is not None and parent.type in _PATTERNS:
        child, parent = parent, parent.parent
    if parent is None:
        return False
    field = _STORE_FIELDS.get(parent.type)
    return field is not None and parent.child_by_field_name(field) == child
