"""The tree-sitter side of the Python extractor: parser, query and node kinds.

Everything here is built once per process (``grammar()``): creating a Language,
a Parser and a Query costs far more than parsing a small file. Node kinds and
field names are resolved to the grammar's integer ids up front, because
comparing ints is much cheaper than building ``node.type`` strings, and the
extractor looks at about a million captured nodes on a Django-sized tree.
"""

from __future__ import annotations

from tree_sitter import Language, Parser, Query
from tree_sitter_python import language as _python_language

# One query, one pass over the tree in C. Each capture name feeds one handler of
# a pass (_pycalls, _pybindings, _pydefs); the fingerprint uses comment through
# compound. Capture lists come back grouped by name but NOT in source order (the
# order even varies from run to run), so every consumer sorts or keys by
# position. Single-node patterns where possible: a nested pattern such as
# (block (_) @stmt) costs as much as three plain ones; the dead-code pattern is
# the exception, since its predicate keeps thousands of ordinary ifs out.
QUERY_SOURCE = """
[(function_definition) (class_definition)] @def
(decorated_definition) @decorated
(call) @call
(attribute) @attr
(subscript) @sub
[(binary_operator) (comparison_operator) (unary_operator)] @op
[(interpolation) (format_expression)] @interp
(augmented_assignment) @aug
(with_statement) @with
[(for_statement) (for_in_clause)] @for
(assignment) @assign
(return_statement) @return
(yield) @yield
[(import_statement) (import_from_statement)] @import
[(global_statement) (nonlocal_statement)] @scopedecl
(except_clause) @except
(raise_statement) @raise
(named_expression) @walrus
(lambda) @lambda
(if_statement
  condition: [(identifier) (attribute) (false) (integer)] @dead.condition
  consequence: (block) @dead
  (#match? @dead.condition "^(TYPE_CHECKING|False|0|[A-Za-z_][A-Za-z0-9_.]*[.]TYPE_CHECKING)$"))
(delete_statement) @del
(type) @type
(comment) @comment
(string) @string
(concatenated_string) @concat
(parenthesized_expression) @paren
(tuple) @tuple
(tuple_pattern) @tuple_pattern
[
  (expression_statement) (return_statement) (pass_statement) (import_statement)
  (import_from_statement) (future_import_statement) (raise_statement) (assert_statement)
  (delete_statement) (break_statement) (continue_statement) (global_statement)
  (nonlocal_statement) (print_statement) (exec_statement) (type_alias_statement)
] @stmt
[
  (if_statement) (for_statement) (while_statement) (try_statement) (with_statement)
  (match_statement) (case_clause) (function_definition) (class_definition)
  (decorated_definition)
] @compound
"""

_FIELDS = (
    "alias",
    "argument",
    "arguments",
    "attribute",
    "body",
    "condition",
    "consequence",
    "definition",
    "function",
    "left",
    "module_name",
    "name",
    "object",
    "operator",
    "parameters",
    "return_type",
    "right",
    "subject",
    "superclasses",
    "type",
    "value",
)


class Grammar:
    """The Python language, a parser, the extraction query and id lookups."""

    def __init__(self) -> None:
        self.language = Language(_python_language())
        self.parser = Parser(self.language)
        self.query = Query(self.language, QUERY_SOURCE)
        self._named: dict[str, set[int]] = {}
        self._anonymous: dict[str, set[int]] = {}
        for kind_id in range(self.language.node_kind_count):
            name = self.language.node_kind_for_id(kind_id)
            if name is None:
                continue
            table = self._named if self.language.node_kind_is_named(kind_id) else self._anonymous
            table.setdefault(name, set()).add(kind_id)
        self.fields = {name: self._field_id(name) for name in _FIELDS}

    def kinds(self, *names: str) -> frozenset[int]:
        """All ids of the named node kinds ``names`` (a kind may have aliases)."""
        return frozenset(i for name in names for i in self._named.get(name, ()))

    def kind(self, name: str) -> int:
        """The id of a named node kind that has exactly one id in the grammar."""
        (kind_id,) = self._named[name]
        return kind_id

    def token_kinds(self, *texts: str) -> frozenset[int]:
        """All ids of anonymous tokens such as ``async`` or ``+=``."""
        return frozenset(i for text in texts for i in self._anonymous.get(text, ()))

    def _field_id(self, name: str) -> int:
        field_id = self.language.field_id_for_name(name)
        if field_id is None:
            raise LookupError(f"tree-sitter-python has no field {name!r}")
        return field_id


_GRAMMAR: list[Grammar] = []


def grammar() -> Grammar:
    """The process-wide grammar, created on first use."""
    if not _GRAMMAR:
        _GRAMMAR.append(Grammar())
    return _GRAMMAR[0]
