"""Keyed element bindings: ``ops["a"]`` and ``fs[0]`` of literal containers nothing changes.

A literal's elements are bound as one bag (``ops[]``); a read with a constant key
(``ops["a"]``, ``fs[-1]``, ``ops.get("a")``) can do better when the linker knows what
sits under that key. This pass binds ``ops["a"]`` (and ``fs[0]``, ``fs[-2]``, nested
``cfg["h"]["on"]``) only where the file shows the container as written is what every
read sees: the name is bound by that one statement in its scope, and every other use
of the name in the file only reads it (a constant-key read, ``.get``, ``.items()``,
iteration, ``len``, ...). Anything else (a computed-key store, ``.update``, ``.append``,
``+=``, ``del``, being passed to a function, returned, aliased, rebound) leaves the
bag alone, which is what every read gets then. A store under a constant key
(``ops["c"] = h``) adds its value under that key, and one a level down
(``cfg["h"]["on"] = g``) under both keys and among that member's elements.

A function whose every return statement gives a tuple literal binds ``<return>[0]``
and so on: ``a, b = get()`` unpacks by position. A list is not trusted there (the
caller may reorder its copy).

Only literals with at least one member that is not a plain constant get keyed
bindings: the elements of data (strings, numbers) call nothing either way. The
scan over a file runs only when it has such literals, once for all their names.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tree_sitter import Node

from impactbot.extract._pyexpr import Values
from impactbot.extract._pygrammar import Grammar
from impactbot.extract._pyliterals import MAX_MEMBERS, Members
from impactbot.extract._pystate import FileState, text_of

# Methods of a dict, list or tuple that leave it as it is.
_READS = frozenset({"get", "keys", "values", "items", "copy", "index", "count", "__contains__", "__len__"})
# Methods that change a container: called on an element that is itself a literal, its
# own keyed elements are no longer known.
_CHANGES = frozenset(
    {
        "update", "setdefault", "pop", "popitem", "clear", "append", "extend", "insert",
        "remove", "sort", "reverse", "add", "discard", "__setitem__", "__delitem__",
        "__iadd__", "__ior__",
    }
)
# Builtins that only read (or copy) the container passed to them.
_READING_CALLS = frozenset(
    {
        b"len", b"list", b"tuple", b"sorted", b"iter", b"enumerate", b"zip", b"reversed", b"set",
        b"frozenset", b"dict", b"any", b"all", b"isinstance", b"print", b"repr", b"str", b"min",
        b"max", b"sum", b"bool",
    }
)


@dataclass
class KeyedLiteral:
    """A name bound to a literal container with constant keys."""

    name: str
    target: int  # start byte of the bound name: its own occurrence
    statement: Node
    scope: str
    members: Members
    bag: bool = False  # dict(k=v): the element bag is not bound by the assignment itself


@dataclass
class _Uses:
    """What the other occurrences of a name do to it."""

    changed: bool = False  # rebound, changed or let out: no keyed bindings
    nested_open: bool = False  # an element may change or be let out: only the first level is keyed
    # (assignment, keys above the stored one, key suffix, value): `cfg["h"]["on"] = f` is
    # (..., '["h"]', '["h"]["on"]', f)
    stores: list[tuple[Node, str, str, Node]] = field(default_factory=list)


class _Kinds:
    """Node kinds the scan compares against, built once per process."""

    def __init__(self, g: Grammar) -> None:
        self.assignment = g.kind("assignment")
        self.attribute = g.kind("attribute")
        self.subscript = g.kind("subscript")
        self.call = g.kind("call")
        self.identifier = g.kind("identifier")
        self.keyword = g.kind("keyword_argument")
        self.argument_list = g.kind("argument_list")
        self.statement = g.kind("expression_statement")
        self.loops = g.kinds("for_statement", "for_in_clause")
        self.conditions = g.kinds("if_statement", "elif_clause", "while_statement")
        self.tests = g.kinds("boolean_operator", "not_operator", "parenthesized_expression")
        self.containers = g.kinds("dictionary", "list", "tuple", "expression_list")
        self.unpacking = g.kinds("pattern_list", "tuple_pattern", "list_pattern")
        self.constants = g.kinds("string", "concatenated_string", "integer", "float", "true", "false", "none")
        # a name standing here only reads the container (or copies its elements)
        self.reading = g.kinds(
            "comparison_operator", "not_operator", "expression_statement", "assert_statement",
            "list_splat", "parenthesized_list_splat", "dictionary_splat",
        )


_KINDS: list[_Kinds] = []


def _kinds(g: Grammar) -> _Kinds:
    if not _KINDS:
        _KINDS.append(_Kinds(g))
    return _KINDS[0]


def _word(data: bytes, at: int) -> bool:
    """Whether the byte at ``at`` continues an identifier (so a name found next to it is part of another)."""
    return 0 <= at < len(data) and (data[at] == 0x5F or data[at : at + 1].isalnum() or data[at] > 0x7F)


class KeyedFacts(FileState):
    """Keyed element bindings of literal containers and of tuple-returning functions."""

    # ------------------------------------------------------------- candidates

    def _literal(self, statement: Node, left: Node, value: Node, scope: str) -> None:
        """Note ``name = <literal>`` (or ``first, *rest = f, g, h``) for the final pass."""
        k = _kinds(self.e.g)
        if left.kind_id == k.identifier:
            name, target = left, value
            members = self.x.literals.members(value, code_only=True)
        elif left.kind_id in k.unpacking:
            found = self.x.starred(left, value)
            inner = self.x.named(found[0]) if found is not None else []
            if found is None or len(inner) != 1 or inner[0].kind_id != k.identifier or len(found[1]) > MAX_MEMBERS:
                return
            name, target, middle = inner[0], value, found[1]
            members = [(f"[{i}]", m) for i, m in enumerate(middle)]
            members += [(f"[{i - len(middle)}]", m) for i, m in enumerate(middle)]
        else:
            return
        if not members or self._chained(statement):
            return
        bag = target.kind_id == k.call
        self.literal_names.append(KeyedLiteral(text_of(name), name.start_byte, statement, scope, members, bag))

    def _chained(self, statement: Node) -> bool:
        """``a = b = {...}``: two names for one container."""
        assignment = _kinds(self.e.g).assignment
        right = statement.child_by_field_id(self.e.f["right"])
        parent = statement.parent
        return right is None or right.kind_id == assignment or (parent is not None and parent.kind_id == assignment)

    # ------------------------------------------------------------- the pass

    def _keyed_elements(self) -> None:
        self._member_values: dict[tuple[int, int], Values] = {}
        if self.tuple_returns:
            self._keyed_returns()
        if self.literal_names:
            self._keyed_names()

    def _keyed_returns(self) -> None:
        literals, x = self.x.literals, self.x
        for scope, found in self.tuple_returns.items():
            if scope in self.other_returns:  # another return value, or a generator's yields
                continue
            each = [(statement, literals.members(value)) for statement, value in found]
            # `a, b = get()` reads from the front; `*_, last = get()` keeps the bag
            keyed = [
                (statement, [("<return>" + k, v) for k, m in members if k[1] != "-" for s, v in x.values(m) if not s])
                for statement, members in each
                if members is not None
            ]
            if len(keyed) != len(each) or not any(v is not None for _, pairs in keyed for _, v in pairs):
                continue
            for statement, pairs in keyed:
                self._bind(statement, scope, pairs, "return")

    def _keyed_names(self) -> None:
        by_name: dict[str, list[KeyedLiteral]] = defaultdict(list)
        for literal in self.literal_names:
            by_name[literal.name].append(literal)
        wanted: dict[str, list[KeyedLiteral]] = {}
        for name, found in by_name.items():
            scopes = {literal.scope for literal in found}
            # two literals in one scope rebind the name: which one a read sees is not told here
            if len(scopes) == len(found) and name.isascii() and any(self._callable_member(lit) for lit in found):
                wanted[name] = found
        if not wanted:
            return
        uses = self._uses(wanted)
        for name, found in wanted.items():
            use = uses[name]
            if use.changed:
                continue
            for literal in found:
                self._bind_literal(literal, nested=not use.nested_open)
            for statement, above, key, value in use.stores:
                pairs = [(name + key + s, v) for s, v in self.x.values(value)]
                if above:  # a member's member: one of that member's elements too
                    pairs += [(name + above + "[]" + s, v) for s, v in self.x.values(value)]
                self._bind(statement, self.scope_at(statement.start_byte), pairs, "assign")

    def _values(self, member: Node) -> Values:
        """``values`` of a member, once (a list's member is under two indexes)."""
        key = (member.start_byte, member.end_byte)
        found = self._member_values.get(key)
        if found is None:
            found = self._member_values[key] = self.x.values(member)
        return found

    def _callable_member(self, literal: KeyedLiteral) -> bool:
        """Whether some member (or a member's member) may be more than a plain constant."""
        constants = _kinds(self.e.g).constants
        return any(
            v is not None for _, m in literal.members if m.kind_id not in constants for _, v in self._values(m)
        )

    def _bind_literal(self, literal: KeyedLiteral, nested: bool) -> None:
        pairs = self._pairs(literal.name, literal.members, nested)
        if literal.bag:
            pairs += [(literal.name + "[]" + s, v) for _, m in literal.members for s, v in self._values(m)]
        self._bind(literal.statement, literal.scope, pairs, "assign")

    def _pairs(self, prefix: str, members: Members, nested: bool) -> Values:
        """``prefix["a"]`` for each member; with ``nested``, the members of members too."""
        literals = self.x.literals
        out: Values = []
        for key, member in members:
            out.extend((prefix + key + s, v) for s, v in self._values(member) if nested or not s)
            if nested:
                inner = literals.members(literals.unwrap(member))
                if inner:
                    out.extend(self._pairs(prefix + key, inner, True))
        return out

    # ------------------------------------------------------------- the uses

    def _uses(self, wanted: dict[str, list[KeyedLiteral]]) -> dict[str, _Uses]:
        """Every occurrence of the names in the file, each judged by where it stands."""
        own = {literal.target for found in wanted.values() for literal in found}
        nested = {name for name, found in wanted.items() if any(self._has_nested(lit) for lit in found)}
        root, data = self.tree.root_node, self.data
        identifier = _kinds(self.e.g).identifier
        out = {name: _Uses() for name in wanted}
        for name, use in out.items():
            needle = name.encode("ascii")
            start = data.find(needle)
            while start >= 0 and not use.changed:
                end = start + len(needle)
                if not (_word(data, start - 1) or _word(data, end)) and start not in own:
                    node = root.named_descendant_for_byte_range(start, end)
                    # else in a string or a comment
                    if node is not None and node.kind_id == identifier and node.end_byte == end:
                        self._judge(node, use, name in nested)
                start = data.find(needle, end)
        return out

    def _has_nested(self, literal: KeyedLiteral) -> bool:
        literals = self.x.literals
        return any(literals.members(literals.unwrap(m)) for _, m in literal.members)

    def _judge(self, node: Node, use: _Uses, nested: bool, direct: bool = True) -> None:
        """Record what one occurrence does to the container (``direct``: the name itself,
        not an attribute of that name, whose stores are not told apart from the name's)."""
        k = _kinds(self.e.g)
        f = self.e.f
        parent = node.parent
        if parent is None:
            use.changed = True
            return
        kind = parent.kind_id
        if kind == k.attribute and parent.start_byte != node.start_byte:
            # `obj.name`: a class attribute of that name may be the container; judge the attribute
            self._judge(parent, use, nested, direct=False)
        elif kind == k.attribute:
            attr = parent.child_by_field_id(f["attribute"])
            stores = self._update_stores(parent) if direct and attr is not None and attr.text == b"update" else None
            if stores is not None:
                use.stores.extend(stores)
                use.nested_open |= nested  # a member replaced: its own members are not the literal's
            else:
                use.changed = attr is None or text_of(attr) not in _READS
        elif kind == k.subscript and parent.start_byte == node.start_byte:
            self._judge_subscript(parent, use, nested, direct)
        elif kind == k.subscript or kind in k.reading:
            return  # used as a key, tested, compared, or its elements copied
        elif kind == k.keyword:
            name = parent.child_by_field_id(f["name"])
            use.changed = name is None or name.start_byte != node.start_byte  # `f(key=name)` lets it out
        elif kind == k.argument_list:
            call = parent.parent
            function = call.child_by_field_id(f["function"]) if call is not None and call.kind_id == k.call else None
            use.changed = function is None or function.kind_id != k.identifier or function.text not in _READING_CALLS
        elif kind in k.loops:
            iterated = parent.child_by_field_id(f["right"])
            use.changed = iterated is None or iterated.start_byte != node.start_byte
        elif kind in k.conditions:
            condition = parent.child_by_field_id(f["condition"])
            use.changed = condition is None or condition.start_byte != node.start_byte
        elif kind in k.tests:  # `if ops and x:` tests it; `y = ops or {}` lets it out
            while parent.parent is not None and parent.parent.kind_id in k.tests:
                parent = parent.parent
            self._judge(parent, use, nested, direct)
        else:
            use.changed = True  # rebound, returned, aliased, passed on, deleted, declared global ...

    def _judge_subscript(self, subscript: Node, use: _Uses, nested: bool, direct: bool) -> None:
        end = subscript.end_byte
        outer = self._stored_member(subscript) if nested and direct else None
        if outer is not None:  # `cfg["h"]["on"] = f`: a constant-key store one level down
            store = self._keyed_store(outer, self._constant_key_of(subscript))
            if store is not None:
                use.stores.append(store)
                return
        if end in self.sub_stores:
            store = self._keyed_store(subscript) if direct else None
            if store is None:
                use.changed = True
            else:
                use.stores.append(store)
                use.nested_open |= nested  # a member replaced: its own members are not the literal's
        elif end in self.sub_deletes or end in self.sub_updates:
            use.changed = True
        elif nested and not self._element_read(subscript):
            use.nested_open = True

    def _stored_member(self, subscript: Node) -> Node | None:
        """The subscript one level above ``subscript`` (``name["h"]``) when that is the
        target of a store under constant keys (``name["h"]["on"] = f``); None otherwise."""
        k = _kinds(self.e.g)
        parent = subscript.parent
        if parent is None or parent.kind_id != k.subscript or parent.start_byte != subscript.start_byte:
            return None
        if parent.end_byte not in self.sub_stores or subscript.end_byte in self.sub_stores:
            return None
        return parent if self._constant_key_of(subscript) is not None else None

    def _constant_key_of(self, subscript: Node) -> str | None:
        """The constant key suffix of ``subscript`` (``["h"]``): None when it is computed."""
        children = subscript.named_children
        return self.x.literals.key(children[1]) if len(children) == 2 else None

    def _keyed_store(self, subscript: Node, prefix: str | None = "") -> tuple[Node, str, str, Node] | None:
        """``name["c"] = value`` as a plain assignment: (statement, ``prefix``, key suffix,
        value); ``prefix``: the keys between the name and the stored one (``["h"]``)."""
        k = _kinds(self.e.g)
        statement = subscript.parent
        children = subscript.named_children
        if prefix is None or statement is None or statement.kind_id != k.assignment or len(children) != 2:
            return None
        left = statement.child(0)
        if left is None or left.start_byte != subscript.start_byte or left.end_byte != subscript.end_byte:
            return None
        key = self.x.literals.key(children[1])
        key = None if key is None else prefix + key
        value = statement.child_by_field_id(self.e.f["right"])
        while value is not None and value.kind_id == k.assignment:
            value = value.child_by_field_id(self.e.f["right"])
        if key is None or value is None or (self.dead is not None and statement.start_byte in self.dead):
            return None
        return statement, prefix, key, value

    def _update_stores(self, attribute: Node) -> list[tuple[Node, str, str, Node]] | None:
        """``name.update({"c": h})`` (or ``name.update(c=h)``) as a statement of its own:
        the constant-key stores it stands for, as ``_keyed_store`` gives them; None when
        its keys are not all constant or its value is used."""
        k = _kinds(self.e.g)
        call = attribute.parent
        statement = call.parent if call is not None else None
        if call is None or call.kind_id != k.call or statement is None or statement.kind_id != k.statement:
            return None
        arguments = call.child_by_field_id(self.e.f["arguments"])
        if arguments is None or arguments.kind_id != k.argument_list or len(statement.named_children) != 1:
            return None
        if self.dead is not None and statement.start_byte in self.dead:
            return None
        members = self.x.literals.updated(arguments)
        return None if members is None else [(statement, "", key, value) for key, value in members]

    def _element_read(self, subscript: Node) -> bool:
        """Whether an element is only read where it is reached: called, or a method that
        does not change a container called on it."""
        k = _kinds(self.e.g)
        changed = (self.sub_stores, self.sub_deletes, self.sub_updates)
        current = subscript
        parent = current.parent
        while parent is not None and parent.kind_id == k.subscript and parent.start_byte == current.start_byte:
            if any(parent.end_byte in s for s in changed):
                return False
            current, parent = parent, parent.parent
        if parent is None:
            return False
        if parent.kind_id == k.call:
            return True
        if parent.kind_id == k.attribute:
            attr = parent.child_by_field_id(self.e.f["attribute"])
            return attr is not None and text_of(attr) not in _CHANGES
        return False
