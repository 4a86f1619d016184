"""Bindings, imports and ``__all__`` of a Python file."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from operator import itemgetter

from tree_sitter import Node

from impactbot.extract._pycalls import AUGMENTED
from impactbot.extract._pyexpr import (
    AWAITING_METHODS,
    ENTERING_METHODS,
    MODEL_LOOKUPS,
    RENDERED_CALLS,
    elements,
    lambda_name,
    string_body,
)
from impactbot.extract._pykeyed import KeyedFacts
from impactbot.extract._pystate import END, child, dotted_text, first_of, line_of, named_child, text_of
from impactbot.extract._records import binding
from impactbot.model import Binding, BindingKind, Import

# Django's relation fields: their first argument (or ``to=``) names the related model
RELATION_FIELDS = frozenset({"ForeignKey", "OneToOneField", "ForeignObject", "ParentalKey", "ManyToManyField",
                             "ParentalManyToManyField"})

# context managers that pass only when their block raises (pytest, unittest, Django's test case)
EXPECTING_ERRORS = frozenset({"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp",
                              "assertRaisesMessage"})

# builtins calling their first argument on the elements of the others (map: each in turn)
LAMBDA_FEEDERS = frozenset({"map", "filter", "filterfalse", "takewhile", "dropwhile"})
# where the iterable whose elements ``key=`` gets stands among the positional arguments
KEYED_ITERABLE = {"sorted": 0, "min": 0, "max": 0, "groupby": 0, "nsmallest": 1, "nlargest": 1,
                  "bisect_left": 0, "bisect_right": 0, "bisect": 0}
# methods whose call an assignment binds as the expression renders it (what it stands for)
RENDERED_METHODS = MODEL_LOOKUPS | AWAITING_METHODS | frozenset(m.decode() for m in ENTERING_METHODS)
_UNKNOWN = "\x00unknown"  # a sentinel string: dict.get() default that no callee can equal



class BindingFacts(KeyedFacts):
    """The passes that produce Bindings and Imports, and ``__all__``."""

    def _assignments(self) -> None:
        e, x = self.e, self.x
        f_right = e.f["right"]
        identifier, simple, assign_token, call = e.identifier, e.simple_values, e.assign_token, e.call
        expr, bounds, names, dead = x.expr, self.scopes.bounds, self.scopes.values, self.dead
        out, callees = self.bindings, self.callees
        containers = e.container_literal
        typed = self.type_comments
        for node in self._caps("assign"):
            count = node.child_count
            if count < 2:
                continue
            left = node.child(0)
            if left.kind_id != identifier:
                self._mark_targets(left)
            pos = node.start_byte
            if dead is not None and pos in dead:
                continue
            scope = names[bisect_right(bounds, pos) - 1]
            line = node.start_point.row + 1
            if count == 3 and node.child(1).kind_id in assign_token:
                value: Node | None = node.child(2)
                if typed:
                    self._type_comment(node, left, scope)
            else:
                self._annotated(node, left, scope)
                value = node.child_by_field_id(f_right)
            while value is not None and value.kind_id == node.kind_id:  # a = b = v
                value = value.child_by_field_id(f_right)
            if value is None:
                continue
            if not scope and left.text == b"__all__" and self._dunder_all(node, value, "set"):
                continue
            if not scope and left.text == b"pytest_plugins":
                self.plugins.extend(self._static_names(value, single=value.kind_id in self.e.string) or ())
            if left.kind_id == identifier and value.kind_id in simple and x.call_elements(value) is None \
                    and x.gathered(value) is None and x.slice_positions(value) is None:
                if value.kind_id == call:  # the calls pass already rendered its callee
                    callee = callees.get((value.start_byte << 32) | (END - value.end_byte), _UNKNOWN)
                    if callee is _UNKNOWN or callee in RENDERED_CALLS or (  # what it stands for
                            callee is not None and callee.rpartition(".")[2] in RENDERED_METHODS):
                        rendered = expr(value)
                    elif callee == "property":
                        rendered = self._property_getter(value)
                    elif (default := x.field_default(value)) is not None:
                        rendered = default  # what the field holds on an instance
                    elif callee is not None and callee.rpartition(".")[2] == "TypeVar" and self._type_variable(
                        node, left, value, scope
                    ):
                        continue
                    else:
                        rendered = None if callee is None else callee + "()"
                    if callee is not None and scope and callee.rpartition(".")[2] in RELATION_FIELDS:
                        self._relation(node, left, value, scope, line, out)
                elif value.kind_id in self.e.string:
                    rendered = self.x.text_type(value)
                else:
                    rendered = expr(value)
                record = binding(scope, text_of(left), rendered, line, "assign", self._conditional(pos))
                out.append(((pos << 32) | (END - node.end_byte), record))
                if rendered == "dict()":
                    self._literal(node, left, value, scope)
            else:
                self._bind(node, scope, x.bind_value(left, value), "assign")
                if x.iterates(left, value):  # `a, b = pair` runs type(pair).__iter__
                    self._op(pos, value, "__iter__", node)
                if value.kind_id in containers and value.named_child_count:
                    self._literal(node, left, value, scope)

    def _relation(
        self, node: Node, left: Node, call: Node, scope: str, line: int, out: list[tuple[int, Binding]]
    ) -> None:
        """``customer = models.ForeignKey(Customer, ...)`` in a class body: bind
        ``<model:customer>`` to the model its first argument (or ``to=``) names, a class
        expression or a string (``"self"``, ``"shop.Customer"``), kept quoted, and
        ``<related:customer>`` to its ``related_name=``, quoted too."""
        arguments = call.child_by_field_id(self.e.f["arguments"])
        args = [] if arguments is None else [a for a in arguments.named_children if a.kind_id != self.e.comment]
        first = next((a for a in args if a.kind_id != self.e.keyword_argument), None)
        if first is None:
            first = next((a.children[-1] for a in args if a.kind_id == self.e.keyword_argument
                          and text_of(a.children[0]) == "to"), None)
        if first is None:
            return
        parts = string_body(first.text or b"") if first.type == "string" else None
        model = f'"{parts[1].decode("utf-8", "replace")}"' if parts is not None and not parts[0] else self.x.expr(first)
        if not model:
            return
        conditional = self._conditional(node.start_byte)
        key = (node.start_byte << 32) | (END - node.end_byte)
        out.append((key + 1, binding(scope, f"<model:{text_of(left)}>", model, line, "assign", conditional)))
        related = next((a.children[-1] for a in args if a.kind_id == self.e.keyword_argument
                        and text_of(a.children[0]) == "related_name"), None)
        name = string_body(related.text or b"") if related is not None and related.type == "string" else None
        if name is not None and not name[0]:  # the name the related model reads it back by
            value = f'"{name[1].decode("utf-8", "replace")}"'
            out.append((key + 2, binding(scope, f"<related:{text_of(left)}>", value, line, "assign", conditional)))

    def _property_getter(self, call: Node) -> str:
        """``x = property(get_x, set_x)``: ``<property:get_x,set_x>`` (reading x runs get_x,
        assigning it set_x); a getter that is not a plain name (a lambda) leaves the call
        as it is, a setter that is not one is left out."""
        arguments = call.child_by_field_id(self.e.f["arguments"])
        args = [] if arguments is None else [a for a in arguments.named_children if a.kind_id != self.e.comment]
        if not args or args[0].kind_id != self.e.identifier:
            return "property()"
        setter = f",{text_of(args[1])}" if len(args) > 1 and args[1].kind_id == self.e.identifier else ""
        return f"<property:{text_of(args[0])}{setter}>"

    def _type_variable(self, node: Node, left: Node, call: Node, scope: str) -> bool:
        """``T = TypeVar("T", bound=Base)`` (or ``TypeVar("T", A, B)``): bind ``T`` to the
        classes it stands for, so that ``x: T`` is an instance of one of them (or of a
        subclass); False for a type variable that names none."""
        arguments = call.child_by_field_id(self.e.f["arguments"])
        args = [] if arguments is None else [a for a in arguments.named_children if a.kind_id != self.e.comment]
        kinds = []
        for arg in args[1:]:
            if arg.kind_id == self.e.keyword_argument:
                parts = arg.children
                if text_of(parts[0]) == "bound" and len(parts) > 2:
                    kinds.append(parts[-1])
            else:
                kinds.append(arg)
        classes = [v[:-2] for kind in kinds for s, v in self.x.instances(kind) if not s and v.endswith("()")]
        if not classes:
            return False
        self._bind(node, scope, [(text_of(left), c) for c in classes], "assign")
        return True

    def _annotated(self, node: Node, left: Node, scope: str) -> None:
        annotation = node.child_by_field_id(self.e.f["type"])
        if annotation is not None:
            pairs = self.x.bind(left, list(self.x.instances(annotation)))
            self._bind(node, scope, pairs, "annotation")

    def _type_comment(self, node: Node, left: Node, scope: str) -> None:
        """``self.fields = {}  # type: Dict[str, Field]``: as the annotation it stands for."""
        statement = node.parent
        if statement is None or statement.kind_id != self.e.expression_statement:
            return
        comment = statement.next_sibling
        said = self.x.type_comment(comment)
        if comment is None or said is None or comment.start_point.row != node.end_point.row:
            return
        annotation = self.x.parse_type(said)
        if annotation is not None:
            self._bind(node, scope, self.x.bind(left, list(self.x.instances(annotation))), "annotation")

    def _augmented(self) -> None:
        f, x = self.e.f, self.x
        for node in self._caps("aug"):
            left = node.child_by_field_id(f["left"])
            right = node.child_by_field_id(f["right"])
            operator = node.child_by_field_id(f["operator"])
            if left is None or right is None or operator is None or not self._live(node):
                continue
            if left.kind_id == self.e.subscript:
                self.sub_updates.add(left.end_byte)
            dunder = AUGMENTED.get(operator.type)
            if dunder:
                self._op(node.start_byte, left, dunder, node)
            scope = self.scope_at(node.start_byte)
            if not scope and left.text == b"__all__" and self._dunder_all(node, right, "extend"):
                continue
            added = [(s, v) for s, v in x.values(right) if s]
            if added and operator.type in ("+=", "|="):
                self._bind(node, scope, x.bind(left, added), "assign")

    def _loops(self) -> None:
        f, x = self.e.f, self.x
        for node in self._caps("for"):
            left = node.child_by_field_id(f["left"])
            right = node.child_by_field_id(f["right"])
            if left is None or right is None:
                continue
            self._mark_targets(left)
            if not self._live(node):
                continue
            first = child(node, 0)
            is_async = first is not None and first.kind_id in self.e.async_token
            self._op(node.start_byte, right, "__aiter__" if is_async else "__iter__", node)
            pairs = x.bind_iteration(left, right)
            self._bind(node, self.scope_at(node.start_byte), pairs, "for")

    def _withs(self) -> None:
        for node in self._caps("with"):
            first = child(node, 0)
            is_async = first is not None and first.kind_id in self.e.async_token
            enter, leave = ("__aenter__", "__aexit__") if is_async else ("__enter__", "__exit__")
            for clause in node.named_children:
                if clause.kind_id in self.e.with_clause:
                    for item in self.x.named(clause):
                        self._with_item(node, item, enter, leave)

    def _expected_errors(self) -> tuple[tuple[int, int], ...]:
        """The with blocks whose context manager expects an exception."""
        out = []
        for node in self._caps("with"):
            for clause in node.named_children:
                if clause.kind_id in self.e.with_clause and any(map(self._expects_error, self.x.named(clause))):
                    out.append((line_of(node), node.end_point.row + 1))
                    break
        return tuple(sorted(out))

    def _expects_error(self, item: Node) -> bool:
        value = item.child_by_field_id(self.e.f["value"])
        if value is not None and value.kind_id in self.e.as_pattern:
            value = named_child(value, 0)
        if value is None or value.kind_id != self.e.call:
            return False
        function = value.child_by_field_id(self.e.f["function"])
        callee = self.x.expr(function) if function is not None else None
        return callee is not None and callee.rsplit(".", 1)[-1] in EXPECTING_ERRORS

    def _with_item(self, statement: Node, item: Node, enter: str, leave: str) -> None:
        value = item.child_by_field_id(self.e.f["value"])
        if value is None:
            return
        alias = None
        if value.kind_id in self.e.as_pattern:
            alias = value.child_by_field_id(self.e.f["alias"])
            value = named_child(value, 0)
            if alias is not None:
                self._mark_targets(alias)
        if value is None or not self._live(statement):
            return
        self._op(item.start_byte, value, enter, item)
        self._op(item.start_byte, value, leave, item)
        if alias is not None:
            base = self.x.expr(value)
            entered = None if base is None else f"{base}.{enter}()"
            pairs = self.x.bind(alias, [("", entered)])
            self._bind(item, self.scope_at(item.start_byte), pairs, "with")

    def _deletes(self) -> None:
        for node in self._caps("del"):
            for target in self.x.named(node):
                self._mark_deleted(target)

    def _mark_deleted(self, node: Node) -> None:
        kind = node.kind_id
        if kind == self.e.subscript:
            self.sub_deletes.add(node.end_byte)
        elif kind == self.e.attribute:
            self.attr_stores.add(node.end_byte)
        elif kind in self.e.targets:
            for child in self.x.named(node):
                self._mark_deleted(child)

    def _returns(self) -> None:
        x, tuples = self.x, self.e.tuple_like
        for node in self._caps("return"):
            value = x.named(node)
            if value and self._live(node):
                scope = self.scope_at(node.start_byte)
                pairs = [("<return>" + s, v) for s, v in x.values(value[0])]
                self._bind(node, scope, pairs, "return")
                if value[0].kind_id in tuples:
                    self.tuple_returns[scope].append((node, value[0]))
                else:
                    self.other_returns.add(scope)
        for node, returned in self._returns_raised():
            scope = self.scope_at(node.start_byte)
            self._bind(node, scope, [("<return>" + s, v) for s, v in x.values(returned)], "return")
            self.other_returns.add(scope)
        for node in self._caps("yield"):
            self.other_returns.add(self.scope_at(node.start_byte))  # a generator: a call returns no tuple
            value = x.named(node)
            if not value or not self._live(node):
                continue
            second = child(node, 1)
            values = x.values(value[-1])
            if second is not None and second.kind_id in self.e.from_token:
                values = elements(values)
                self._op(node.start_byte, value[-1], "__iter__", node)
            pairs = [("<return>[]" + s, v) for s, v in values]
            self._bind(node, self.scope_at(node.start_byte), pairs, "return")

    def _returns_raised(self) -> Iterator[tuple[Node, Node]]:
        """``raise gen.Return(value)``: how a generator-based coroutine (tornado's
        ``@gen.coroutine``, from before generators could return a value) returns one."""
        e = self.e
        for node in self._caps("raise"):
            children = node.children
            if len(children) < 2 or children[1].kind_id != e.call or not self._live(node):
                continue
            function = children[1].child_by_field_id(e.f["function"])
            arguments = children[1].child_by_field_id(e.f["arguments"])
            if function is None or arguments is None or text_of(function).rpartition(".")[2] != "Return":
                continue
            values = self.x.named(arguments)
            if len(values) == 1 and values[0].kind_id != e.keyword_argument and \
                    values[0].kind_id not in e.list_splat and values[0].kind_id not in e.dict_splat:
                yield node, values[0]

    def _type_aliases(self) -> None:
        """``type Handler = Base | None`` (PEP 695): the name stands for the classes it
        names, as ``Handler = Base`` would (``h: Handler`` is a Base)."""
        if b"type" not in self.data:
            return
        f = self.e.f
        for node in self._caps("stmt"):
            if node.type != "type_alias_statement" or not self._live(node):
                continue
            left, right = node.child_by_field_id(f["left"]), node.child_by_field_id(f["right"])
            name = named_child(left, 0) if left is not None else None
            if name is not None and name.type == "generic_type":  # `type Pair[T] = ...`
                name = named_child(name, 0)
            if name is None or right is None or name.kind_id != self.e.identifier:
                continue
            classes = [v[:-2] for s, v in self.x.instances(right) if not s and v and v.endswith("()")]
            self._bind(node, self.scope_at(node.start_byte), [(text_of(name), c) for c in classes], "assign")

    def _small_bindings(self) -> None:
        """``except E as e``, ``(x := v)``, ``global x`` and ``nonlocal x``."""
        f, x = self.e.f, self.x
        for node in self._caps("except"):
            value = node.child_by_field_id(f["value"])
            if value is None or value.kind_id not in self.e.as_pattern or not self._live(node):
                continue
            alias = value.child_by_field_id(f["alias"])
            types = named_child(value, 0)
            if alias is None or types is None:
                continue
            members = x.named(types) if types.kind_id in self.e.tuple_like else [types]
            exprs = [x.expr(t) for t in members]
            pairs = x.bind(alias, [("", None if t is None else t + "()") for t in exprs])
            self._bind(node, self.scope_at(node.start_byte), pairs, "except")
        for node in self._caps("walrus"):
            name = node.child_by_field_id(f["name"])
            value = node.child_by_field_id(f["value"])
            if name is not None and value is not None and self._live(node):
                pairs = x.bind(name, x.values(value))
                self._bind(node, self.scope_at(node.start_byte), pairs, "assign")
        for node in self._caps("scopedecl"):
            if not self._live(node):
                continue
            kind: BindingKind = "nonlocal" if node.kind_id in self.e.nonlocal_statement else "global"
            names = [(text_of(n), None) for n in x.named(node) if n.kind_id == self.e.identifier]
            self._bind(node, self.scope_at(node.start_byte), names, kind)

    # -------------------------------------------------------------- imports

    def _imports(self) -> tuple[Import, ...]:
        found: list[tuple[int, Import]] = []
        for node in self._caps("import"):
            scope = self.scope_at(node.start_byte)
            type_only = not self._live(node)
            line = line_of(node)
            conditional = self._conditional(node.start_byte)
            for module, name, alias, level in self._imported(node):
                imp = Import(scope, module, name, alias, level, line, type_only, conditional)
                found.append((node.start_byte, imp))
        found.sort(key=first_of)
        return tuple(i for _, i in found)

    def _imported(self, node: Node) -> list[tuple[str, str | None, str | None, int]]:
        e, f = self.e, self.e.f
        names = node.children_by_field_id(f["name"])
        if node.kind_id in e.import_statement:
            return [(module, None, alias, 0) for module, alias in map(self._dotted, names)]
        module_node = node.child_by_field_id(f["module_name"])
        module, level = "", 0
        if module_node is not None and module_node.kind_id in e.relative_import:
            for part in module_node.named_children:
                if part.kind_id in e.import_prefix:
                    level = (part.text or b"").count(b".")
                else:
                    module = dotted_text(part)
        elif module_node is not None:
            module = dotted_text(module_node)
        if any(c.kind_id in e.wildcard_import for c in node.named_children):
            return [(module, "*", None, level)]
        return [(module, name, alias, level) for name, alias in map(self._dotted, names)]

    def _dotted(self, node: Node) -> tuple[str, str | None]:
        if node.kind_id in self.e.aliased_import:
            name = node.child_by_field_id(self.e.f["name"])
            alias = node.child_by_field_id(self.e.f["alias"])
            return ("" if name is None else dotted_text(name)), (None if alias is None else text_of(alias))
        return dotted_text(node), None

    def _lambda_returns(self) -> None:
        """``make = lambda: Session()``: the scope binds ``<lambda@row:col>()`` to the body of
        each lambda taking no parameters, which is what calling it gives."""
        body_field = self.e.f["body"]
        for node in self._caps("lambda"):
            name = lambda_name(node)
            body = node.child_by_field_id(body_field)
            value = None if body is None or name == "<lambda>" else self.x.expr(body)
            if value is not None:
                record = binding(self.scope_at(node.start_byte), name + "()", value, line_of(node), "assign")
                self.bindings.append(((node.start_byte << 32) | (END - node.end_byte), record))

    def _lambda_params(self) -> None:
        """``sorted(jobs, key=lambda j: j.cost())``, ``map(lambda j: j.run(), jobs)``,
        ``lambda j=job: j.run()``: a lambda's parameter is an element of the iterable the
        builtin hands it, or its default. Bound in the lambda's scope, as a comprehension's
        variable is."""
        e, x = self.e, self.x
        for node in self._caps("lambda"):
            params = node.child_by_field_id(e.f["parameters"])
            if params is None or not self._live(node):
                continue
            names: list[Node | None] = []
            pairs = []
            for param in x.named(params):
                if param.kind_id == e.identifier:
                    names.append(param)
                elif param.kind_id in e.defaulted:
                    name = param.child_by_field_id(e.f["name"])
                    value = param.child_by_field_id(e.f["value"])
                    if name is not None and value is not None:
                        pairs.extend(x.bind(name, x.values(value)))
                    names.append(name)
                else:
                    break  # *args, **kwargs: the places after it are not the iterables'
            if names:
                for name, iterable in zip(names, self._fed(node), strict=False):
                    if name is not None and iterable is not None:
                        self._bind(node, self.scope_at(node.start_byte), x.bind_iteration(name, iterable), "for")
                if names[0] is not None:  # `max(a, b, key=lambda x: ...)`: any of the arguments
                    pairs.extend(p for arg in self._compared(node) for p in x.bind(names[0], x.values(arg)))
            if pairs:
                self._bind(node, self.scope_at(node.start_byte), pairs, "assign")

    def _fed(self, node: Node) -> list[Node | None]:
        """The iterables whose elements a builtin passes the lambda ``node``, by parameter."""
        e = self.e
        parent = node.parent
        keyword = parent is not None and parent.kind_id == e.keyword_argument
        arguments = parent.parent if keyword and parent is not None else parent
        call = arguments.parent if arguments is not None and arguments.kind_id == e.argument_list else None
        function = None if call is None else call.child_by_field_id(e.f["function"])
        if arguments is None or function is None:
            return []
        name = text_of(function).rpartition(".")[2]
        positional = [a for a in self.x.named(arguments) if a.kind_id != e.keyword_argument]
        if any(a.kind_id in e.list_splat or a.kind_id in e.dict_splat for a in positional):
            return []
        if keyword and parent is not None and text_of(parent.children[0]) == "key":
            return self._keyed_iterable(name, function, positional)
        if not keyword and positional and positional[0] == node and name in LAMBDA_FEEDERS:
            fed: list[Node | None] = list(positional[1:] if name == "map" else positional[1:2])
            return fed
        if not keyword and len(positional) > 1 and positional[0] == node and name == "reduce":
            return [None, positional[1]]
        return []

    def _compared(self, node: Node) -> list[Node]:
        """The arguments ``max(a, b, key=node)`` or ``min`` compares (the key gets each)."""
        parent = node.parent
        if parent is None or parent.kind_id != self.e.keyword_argument or text_of(parent.children[0]) != "key":
            return []
        arguments = parent.parent
        call = arguments.parent if arguments is not None else None
        function = call.child_by_field_id(self.e.f["function"]) if call is not None else None
        if arguments is None or function is None or text_of(function) not in ("max", "min"):
            return []
        positional = [a for a in self.x.named(arguments) if a.kind_id != self.e.keyword_argument]
        if len(positional) < 2 or any(a.kind_id in self.e.list_splat for a in positional):
            return []
        return positional

    def _keyed_iterable(self, name: str, function: Node, positional: list[Node]) -> list[Node | None]:
        """What ``key=`` is called on: ``xs`` of ``sorted(xs, key=...)``, ``xs.sort(key=...)``,
        ``heapq.nlargest(n, xs, key=...)``."""
        if name == "sort" and function.kind_id == self.e.attribute:
            receiver = function.child_by_field_id(self.e.f["object"])
            return [receiver] if receiver is not None else []
        at = KEYED_ITERABLE.get(name)
        if at is None or len(positional) <= at or (name in ("min", "max") and len(positional) > 1):
            return []
        return [positional[at]]

    def _lambdas(self) -> tuple[tuple[str, int, int], ...]:
        """Where each lambda stands, by scope and lines (see ``FileFacts.lambdas``)."""
        return tuple(
            (self.scope_at(node.start_byte), line_of(node), node.end_point.row + 1)
            for node in sorted(self._caps("lambda"), key=lambda n: n.start_byte)
        )

    def _loop_spans(self) -> tuple[tuple[str, int, int], ...]:
        """Where each loop statement stands, by scope and lines (see ``FileFacts.loops``)."""
        looping = self.e.looping
        return tuple(
            (self.scope_at(node.start_byte), line_of(node), node.end_point.row + 1)
            for node in sorted(self._caps("compound"), key=lambda n: n.start_byte)
            if node.kind_id in looping
        )

    def _all_names(self) -> tuple[str, ...] | None:
        names: list[str] | None = None
        for _, event, found in sorted(self.all_events, key=itemgetter(0)):
            if found is None or (event != "set" and names is None):
                return None
            names = found if event == "set" else [*(names or ()), *found]
        return None if names is None else tuple(names)
