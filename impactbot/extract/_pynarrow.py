"""Where ``isinstance`` tells a name's class: the narrowings of a Python file.

``if isinstance(x, C):`` holds in its body (also when and-ed with other tests),
``assert isinstance(x, C)`` for the rest of the block, and so does
``if not isinstance(x, C):`` whose body always leaves (return, raise, continue,
break) and that has no ``else``. Or-ed tests of one name (``x is None or
isinstance(x, str)``) hold for any of their classes (``None`` for the ``is None``).
A name or a dotted name (``self.backend``) is narrowed, by classes written as names
or dotted names, until the code assigns it.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from tree_sitter import Node

from impactbot.extract._pyexpr import DOTTED_NAME
from impactbot.extract._pygrammar import Grammar
from impactbot.extract._pystate import FileState, string_value, text_of
from impactbot.model import Narrowing


class _Kinds:
    def __init__(self, g: Grammar) -> None:
        self.if_statement = g.kind("if_statement")
        self.elif_clause = g.kinds("elif_clause")
        self.else_clause = g.kinds("else_clause")
        self.assert_statement = g.kind("assert_statement")
        self.not_operator = g.kind("not_operator")
        self.boolean_operator = g.kind("boolean_operator")
        self.call = g.kind("call")
        self.identifier = g.kind("identifier")
        self.classes = g.kinds("identifier", "attribute")
        self.tuple = g.kinds("tuple")
        self.comment = g.kind("comment")
        self.leaving = g.kinds("return_statement", "raise_statement", "continue_statement", "break_statement")
        self.case_clause = g.kind("case_clause")
        self.match_statement = g.kind("match_statement")
        self.case_pattern = g.kinds("case_pattern")
        self.class_pattern = g.kinds("class_pattern")
        self.union_pattern = g.kinds("union_pattern")
        self.as_pattern = g.kinds("as_pattern")


@cache
def _kinds(g: Grammar) -> _Kinds:
    return _Kinds(g)


class NarrowingFacts(FileState):
    """The pass that finds isinstance narrowings."""

    def _narrowings(self) -> tuple[Narrowing, ...]:
        k = _kinds(self.e.g)
        out: list[Narrowing] = []
        for node in self._caps("compound"):
            if node.kind_id == k.if_statement and self._live(node):
                self._if_narrowings(node, k, out)
            elif node.kind_id == k.case_clause and self._live(node):
                self._case_narrowings(node, k, out)
        for node in self._caps("stmt"):
            if node.kind_id == k.assert_statement and self._live(node):
                tested = self.x.named(node)
                if tested:
                    self._after(node, self._tests(tested[0], k), out)
        out = self._until_rebound(out)
        out.sort(key=lambda n: (n.start, n.end, n.scope, n.name))
        return tuple(out)

    def _until_rebound(self, narrowings: list[Narrowing]) -> list[Narrowing]:
        """Each narrowing ends at the first assignment of its name within it (``if
        isinstance(self.t, str): self.t = Template(self.t)``: a Template from there on)."""
        if not narrowings:
            return narrowings
        wanted = {(n.scope, n.name) for n in narrowings}
        stores: dict[tuple[str, str], list[int]] = {}
        for _, binding in self.bindings:
            if (binding.scope, binding.target) in wanted:
                stores.setdefault((binding.scope, binding.target), []).append(binding.line)
        out = []
        for n in narrowings:
            lines = [line for line in stores.get((n.scope, n.name), ()) if n.start <= line <= n.end]
            out.append(replace(n, end=min(lines)) if lines else n)
        return out

    def _if_narrowings(self, node: Node, k: _Kinds, out: list[Narrowing]) -> None:
        f = self.e.f
        branches = [node, *(c for c in node.named_children if c.kind_id in k.elif_clause)]
        for branch in branches:
            condition = branch.child_by_field_id(f["condition"])
            body = branch.child_by_field_id(f["consequence"])
            if condition is None or body is None:
                continue
            for name, classes in self._tests(condition, k):
                out.append(self._narrowing(node, name, classes, body.start_point.row + 1, _end_line(body)))
        condition = node.child_by_field_id(f["condition"])
        body = node.child_by_field_id(f["consequence"])
        if condition is None or body is None or len(branches) > 1:
            return
        if any(c.kind_id in k.else_clause for c in node.named_children):
            return
        condition = self.x.unwrapped(condition)
        statements = [c for c in body.named_children if c.kind_id != k.comment]
        if condition.kind_id != k.not_operator or not statements or statements[-1].kind_id not in k.leaving:
            return
        argument = condition.child_by_field_id(f["argument"])
        test = None if argument is None else self._isinstance(self.x.unwrapped(argument), k)
        if test is not None:
            self._after(node, [test], out)

    def _case_narrowings(self, clause: Node, k: _Kinds, out: list[Narrowing]) -> None:
        """``case C():`` in ``match subject:``: the subject (and an ``as`` name) is a C in the body."""
        block = clause.parent
        match = None if block is None else block.parent
        body = clause.child_by_field_id(self.e.f["consequence"])
        patterns = [c for c in clause.named_children if c.kind_id in k.case_pattern]
        if match is None or match.kind_id != k.match_statement or body is None or len(patterns) != 1:
            return
        subject = match.child_by_field_id(self.e.f["subject"])
        name = None if subject is None or subject.kind_id not in k.classes else self.x.expr(subject)
        names = [] if name is None or not DOTTED_NAME.fullmatch(name.encode()) else [name]
        classes = self._pattern_classes(patterns[0], k, names)
        start, end = body.start_point.row + 1, _end_line(body)
        for narrowed in names if classes else ():
            out.append(self._narrowing(clause, narrowed, classes, start, end))

    def _pattern_classes(self, pattern: Node, k: _Kinds, names: list[str]) -> tuple[str, ...]:
        """The classes a class pattern (or a union of them) matches; none for any other pattern.
        An ``as`` name is added to ``names``."""
        kind = pattern.kind_id
        if kind in k.case_pattern:
            inner = self.x.named(pattern)
            return self._pattern_classes(inner[0], k, names) if len(inner) == 1 else ()
        if kind in k.as_pattern:
            parts = self.x.named(pattern)
            if len(parts) != 2 or parts[1].kind_id != k.identifier:
                return ()
            names.append(text_of(parts[1]))
            return self._pattern_classes(parts[0], k, names)
        if kind in k.union_pattern:
            found = [self._pattern_classes(p, k, names) for p in self.x.named(pattern)]
            return () if not found or not all(found) else tuple(c for f in found for c in f)
        if kind in k.class_pattern:
            parts = self.x.named(pattern)
            return (text_of(parts[0]),) if parts else ()
        return ()

    def _after(self, statement: Node, tests: list[tuple[str, tuple[str, ...]]], out: list[Narrowing]) -> None:
        """Narrowings from the line after ``statement`` to the end of its block."""
        block = statement.parent
        if block is None:
            return
        start, end = _end_line(statement) + 1, _end_line(block)
        if start > end:
            return
        for name, classes in tests:
            out.append(self._narrowing(statement, name, classes, start, end))

    def _narrowing(self, node: Node, name: str, classes: tuple[str, ...], start: int, end: int) -> Narrowing:
        return Narrowing(self.scope_at(node.start_byte), name, classes, start, end)

    def _tests(self, condition: Node, k: _Kinds) -> list[tuple[str, tuple[str, ...]]]:
        """The isinstance tests that hold when ``condition`` is true: itself, or and-ed ones.
        (``x is None`` alone tells nothing worth keeping: the body mostly assigns x.)"""
        return [test for part in self._conjuncts(condition, k)
                if (test := self._alternatives(part, k)) is not None and test[1] != ("None",)]

    def _alternatives(self, node: Node, k: _Kinds) -> tuple[str, tuple[str, ...]] | None:
        """An isinstance test, or or-ed tests of one name: ``x is None or isinstance(x, str)``
        holds for a None (class expr ``None``) or a str."""
        node = self.x.unwrapped(node)
        operator = node.child_by_field_id(self.e.f["operator"]) if node.kind_id == k.boolean_operator else None
        if operator is None:
            return self._isinstance(node, k) or self._is_none(node, k)
        if operator.type != "or":
            return None
        tests: list[tuple[str, tuple[str, ...]]] = []
        for side in (node.child_by_field_id(self.e.f["left"]), node.child_by_field_id(self.e.f["right"])):
            test = None if side is None else self._alternatives(side, k)
            if test is None or (tests and test[0] != tests[0][0]):
                return None
            tests.append(test)
        return tests[0][0], tuple(c for _name, classes in tests for c in classes)

    def _is_none(self, node: Node, k: _Kinds) -> tuple[str, tuple[str, ...]] | None:
        """``name is None``: the name, of class ``None``."""
        parts = node.children if node.type == "comparison_operator" else []
        if len(parts) != 3 or parts[1].type != "is" or parts[2].type != "none" or parts[0].kind_id not in k.classes:
            return None
        name = self.x.expr(parts[0])
        return (name, ("None",)) if name is not None and DOTTED_NAME.fullmatch(name.encode()) else None

    def _conjuncts(self, condition: Node, k: _Kinds) -> list[Node]:
        """What holds when ``condition`` is true: itself (an ``or`` as a whole), or each
        side of an ``and``."""
        condition = self.x.unwrapped(condition)
        if condition.kind_id != k.boolean_operator:
            return [condition]
        operator = condition.child_by_field_id(self.e.f["operator"])
        if operator is None or operator.type != "and":
            return [condition] if operator is not None and operator.type == "or" else []
        sides = (condition.child_by_field_id(self.e.f[side]) for side in ("left", "right"))
        return [part for side in sides if side is not None for part in self._conjuncts(side, k)]

    def _probes(self) -> tuple[tuple[str, str, str, int, int], ...]:
        """(scope, object, attribute, first line, last line) of each body of ``if
        hasattr(obj, "name"):`` (also and-ed): code there runs only on an object that has it."""
        k = _kinds(self.e.g)
        f = self.e.f
        out: list[tuple[str, str, str, int, int]] = []
        for node in self._caps("compound"):
            if node.kind_id != k.if_statement or not self._live(node):
                continue
            for branch in [node, *(c for c in node.named_children if c.kind_id in k.elif_clause)]:
                condition = branch.child_by_field_id(f["condition"])
                body = branch.child_by_field_id(f["consequence"])
                for part in self._conjuncts(condition, k) if condition is not None and body is not None else ():
                    probe = self._hasattr(part, k)
                    if probe is not None and body is not None:
                        out.append((self.scope_at(node.start_byte), *probe, body.start_point.row + 1, _end_line(body)))
        return tuple(sorted(out))

    def _hasattr(self, node: Node, k: _Kinds) -> tuple[str, str] | None:
        """``hasattr(obj, "name")`` with a name or dotted name: the object and the attribute."""
        if node.kind_id != k.call:
            return None
        function = node.child_by_field_id(self.e.f["function"])
        arguments = node.child_by_field_id(self.e.f["arguments"])
        if function is None or function.text != b"hasattr" or arguments is None:
            return None
        args = [a for a in arguments.named_children if a.kind_id != k.comment]
        if len(args) != 2 or args[0].kind_id not in k.classes or args[1].type != "string":
            return None
        obj, attr = self.x.expr(args[0]), string_value(args[1])
        if obj is None or attr is None or not DOTTED_NAME.fullmatch(obj.encode()) or not attr.isidentifier():
            return None
        return obj, attr

    def _isinstance(self, node: Node, k: _Kinds) -> tuple[str, tuple[str, ...]] | None:
        """``isinstance(name, C)`` or ``isinstance(name, (C, D))``: the name and the class exprs."""
        if node.kind_id != k.call:
            return None
        function = node.child_by_field_id(self.e.f["function"])
        arguments = node.child_by_field_id(self.e.f["arguments"])
        if function is None or function.text != b"isinstance" or arguments is None:
            return None
        args = [a for a in arguments.named_children if a.kind_id != k.comment]
        if len(args) != 2 or args[0].kind_id not in k.classes:  # a name or a dotted name
            return None
        members = self.x.named(args[1]) if args[1].kind_id in k.tuple else [args[1]]
        if not members or any(m.kind_id not in k.classes for m in members):
            return None
        classes = tuple(self.x.expr(m) for m in members)
        name = self.x.expr(args[0])
        if name is None or not DOTTED_NAME.fullmatch(name.encode()) or any(c is None for c in classes):
            return None
        return name, tuple(c for c in classes if c is not None)


def _end_line(node: Node) -> int:
    return node.end_point.row + 1
