"""Which class ``self`` must be for a change to reach a method through it.

The call graph links ``self._serialize()`` in ``Field.serialize`` to every
override of ``_serialize`` in Field's subclasses, since ``self`` may be any of
them. Walking back from a change to ``Nested._serialize`` therefore reaches
``Field.serialize``, and from there everything that calls it, including a test
calling ``fields.Field().serialize()``, whose ``self`` is a plain ``Field``
that never runs ``Nested._serialize``.

:func:`reachable` walks the same dependents as the impact walk, carrying for
each method the classes its ``self`` must be for the change to be reached. A
call through ``self`` narrows that set to the classes whose method resolution
picks the callee; a call through ``super()`` passes it on; a caller whose
receiver is known to be an instance of none of them is not reached through
that call. The receiver is known only when the call site shows it: a
constructor call (``Field().serialize()``, and ``Field()`` itself for the
``__init__`` it runs) or a local name every assignment of which constructs an
instance (``field = Field(); field.serialize()``), of a class without a
``__new__`` (which may make another class). Anything else keeps the caller, as
the plain walk does: the set only ever drops callers. So does a class whose
method of that name makes calls the linker could not resolve: it may reach the
change by a path the graph lacks.

A change to an override also reaches the callers of the method it overrides
(they may dispatch to it). Such a base method is walked as a *stand-in*: its
callers reach the change only for the classes that pick the override, and not
at all where they name the base's class (``Base.__init__(self)``: no dispatch).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from impactbot.model import Binding, FileFacts, ResolvedCall, fits

if TYPE_CHECKING:
    from impactbot.impact import SymbolGraph

Allowed = frozenset[str] | None  # the classes `self` may be; None: any
State = tuple[str, bool]  # (symbol id, walked as the stand-in of an override)

_DOTTED = re.compile(r"[A-Za-z_][\w.]*")
_NAME = re.compile(r"[A-Za-z_]\w*")
_SELF = "self."
_SUPER = "super()."
_ATTR = re.compile(r"self\.[A-Za-z_]\w*")
KNOWN_DEPTH = 3  # calls followed from an override before it is taken not to reach the change
CONSTRUCTING = frozenset({"__init__", "__post_init__"})  # what `Cls()` runs on the new instance
MAX_GROWTH = 8  # times a method's classes may grow before they are taken to be any class


class _Graph:
    """What :func:`reachable` reads of a :class:`impactbot.impact.SymbolGraph`."""

    def __init__(self, graph: SymbolGraph, facts: Mapping[str, FileFacts]) -> None:
        self.g = graph
        self.facts = facts
        self._sites: dict[tuple[str, str], list[ResolvedCall]] = {}
        self._through_self: set[tuple[str, str]] = set()
        for call in graph.linked.calls:
            self._sites.setdefault((call.caller, call.target), []).append(call)
            if call.site.callee is not None and call.site.callee.startswith((_SELF, _SUPER)):
                self._through_self.add((call.caller, call.target))
        self._below: dict[str, frozenset[str]] = {}
        self._bases, self._subclasses = graph.inheritance()
        self._picked: dict[tuple[str, str], dict[str, str | None]] = {}
        self._unclear: dict[tuple[str, str, bool], frozenset[str]] = {}
        self._known: dict[str, bool] = {}
        self._receivers: dict[tuple[str, str, int, bool], frozenset[str] | None] = {}
        self._by_scope: dict[str, tuple[dict[tuple[str, str], list[Binding]], set[str]]] = {}
        self._stores: dict[str, dict[str, list[tuple[str, str]]]] = {}
        self._class_names: dict[str, list[str]] | None = None
        self._class_attrs: dict[tuple[str, str], frozenset[str] | None] = {}

    def sites(self, caller: str, target: str) -> list[ResolvedCall]:
        return self._sites.get((caller, target), [])

    def through_self(self, caller: str, target: str) -> bool:
        """Whether some call of ``caller`` reaches ``target`` through ``self`` or ``super()``."""
        return (caller, target) in self._through_self

    def owner(self, method: str) -> str | None:
        """The class a method is defined in."""
        symbol = self.g.symbols.get(method)
        if symbol is None or symbol.kind != "method":
            return None
        owner = method.rsplit("::", 1)[0]
        cls = self.g.symbols.get(owner)
        return owner if cls is not None and cls.kind == "class" else None

    def names_its_class(self, callee: str, method: str) -> bool:
        """Whether ``callee`` reads ``method`` off its class by that class's name
        (``Cache.__init__``, ``base.Cache.__init__``): such a call dispatches to no override."""
        receiver, _, attr = callee.rpartition(".")
        owner = self.owner(method)
        if owner is None or attr != method.rsplit("::", 1)[-1] or not _DOTTED.fullmatch(receiver):
            return False
        return receiver.rsplit(".", 1)[-1] == owner.rsplit("::", 1)[-1] and receiver not in ("self", "cls")

    def class_attr(self, class_id: str, attr: str) -> frozenset[str] | None:
        """The classes of the repository a class attribute holds for ``class_id``, as the
        class body nearest along its bases binds it by name (``Cache = MRUCache``; none
        for ``Cache = None``); None when that is not clear (a method or property of that
        name, another kind of value, a name no class of the repository has, no binding, or a store
        on an attribute of that name by a method of the class or a base, or by code of
        their files through another name than ``self``)."""
        key = (class_id, attr)
        if key not in self._class_attrs:
            self._class_attrs[key] = self._class_attr(class_id, attr)
        return self._class_attrs[key]

    def _class_attr(self, class_id: str, attr: str) -> frozenset[str] | None:
        found = self._class_binding(class_id, attr, set())
        if not found or any(self._stores_on(c, attr) for c in self._ancestry(class_id, set())):
            return None
        named: set[str] = set()
        for b in found:
            if b.value in self.g.symbols:  # a class statement in the class body
                named.add(b.value)
                continue
            if b.kind != "assign" or b.value is None or not _DOTTED.fullmatch(b.value):
                return None
            classes = self.classes_named(b.value.rsplit(".", 1)[-1])
            if not classes and b.value != "None":
                return None  # an alias (`from caches import Recent as R`), or a class from outside
            named.update(classes)
        return frozenset(named)

    def _class_binding(self, class_id: str, attr: str, seen: set[str]) -> list[Binding]:
        """The bindings of ``attr`` in the body of the first class at or above ``class_id``
        to bind it (depth first); a def of that name binds it too (as no ``Binding``)."""
        if class_id in seen:
            return []
        seen.add(class_id)
        symbol = self.g.symbols.get(class_id)
        if symbol is None:
            return []
        if f"{class_id}::{attr}" in self.g.symbols:  # a def (no value: not clear), or a class
            nested = self.g.symbols[f"{class_id}::{attr}"]
            return [Binding(symbol.qualname, attr, nested.id if nested.kind == "class" else None, symbol.line)]
        own = self._bindings(symbol.path)[0].get((symbol.qualname, attr))
        if own:
            return own
        for base in self._bases.get(class_id, ()):
            found = self._class_binding(base, attr, seen)
            if found:
                return found
        return []

    def _ancestry(self, class_id: str, seen: set[str]) -> set[str]:
        """The class and all its bases of the repository."""
        if class_id not in seen:
            seen.add(class_id)
            for base in self._bases.get(class_id, ()):
                self._ancestry(base, seen)
        return seen

    def _stores_on(self, class_id: str, attr: str) -> bool:
        """Whether a method of the class stores ``self.<attr>``, or code of its file
        stores ``<attr>`` on something else than ``self`` or ``cls``."""
        symbol = self.g.symbols.get(class_id)
        if symbol is None:
            return False
        inside = symbol.qualname + "::"
        return any(receiver not in ("self", "cls") or scope.startswith(inside)
                   for scope, receiver in self._stored(symbol.path).get(attr, ()))

    def _stored(self, path: str) -> dict[str, list[tuple[str, str]]]:
        """attribute name -> (scope, receiver) of each store a file makes on an object's
        attribute (``self.Cache = LRUCache`` in ``TestLRU.setUp``)."""
        if path not in self._stores:
            stores: dict[str, list[tuple[str, str]]] = {}
            for scope, target in self._bindings(path)[0]:
                receiver, dot, attr = target.rpartition(".")
                if dot:
                    stores.setdefault(attr, []).append((scope, receiver))
            self._stores[path] = stores
        return self._stores[path]

    def classes_named(self, name: str) -> tuple[str, ...]:
        """The repository's classes of that name, but those a function defines (a class
        body elsewhere cannot name them)."""
        if self._class_names is None:
            self._class_names = {}
            for s in self.g.symbols.values():
                parent = self.g.symbols.get(s.id.rsplit("::", 1)[0]) if "::" in s.qualname else None
                if s.kind == "class" and (parent is None or parent.kind == "class"):
                    self._class_names.setdefault(s.qualname.rsplit("::", 1)[-1], []).append(s.id)
        return tuple(self._class_names.get(name, ()))

    def below(self, class_id: str) -> frozenset[str]:
        """The class and every class deriving from it."""
        if class_id not in self._below:
            found, stack = set(), [class_id]
            while stack:
                c = stack.pop()
                if c not in found:
                    found.add(c)
                    stack.extend(self._subclasses.get(c, ()))
            self._below[class_id] = frozenset(found)
        return self._below[class_id]

    def reaching(self, class_id: str, method: str, missing: bool = True) -> frozenset[str]:
        """The classes at or below ``class_id`` for which ``self.<name>()`` may run ``method``:
        those whose method resolution picks it, and the :meth:`unclear` ones."""
        name = method.rsplit("::", 1)[-1]
        picks = self._picks(class_id, name)
        return frozenset(k for k, m in picks.items() if m == method) | self.unclear(class_id, name, missing)

    def unclear(self, class_id: str, name: str, missing: bool = True) -> frozenset[str]:
        """The classes at or below ``class_id`` for which what ``self.<name>()`` runs is not
        known well enough to rule a change out: nothing of the repository (unless
        ``missing`` is off: a name computed at run time only names what the class has),
        several bases giving different ones, or code making calls the graph could not
        resolve (which might reach the change by a path the graph lacks)."""
        key = (class_id, name, missing)
        if key not in self._unclear:
            self._unclear[key] = frozenset(
                k for k, m in self._picks(class_id, name).items()
                if (m is None and missing) or (m is not None and not self.known(m)))
        return self._unclear[key]

    def _picks(self, class_id: str, name: str) -> dict[str, str | None]:
        """What the MRO of each class at or below ``class_id`` picks for ``name``."""
        key = (class_id, name)
        if key not in self._picked:
            picks: dict[str, str | None] = {}
            for k in self.below(class_id):
                self._pick(k, name, class_id, picks)
            self._picked[key] = picks
        return self._picked[key]

    def _pick(self, class_id: str, name: str, top: str, picks: dict[str, str | None]) -> str | None:
        """The method the MRO of ``class_id`` picks for ``name``, when one is clearly
        picked; ``top`` is where the walk down started (its pick is looked up above it)."""
        if class_id in picks:
            return picks[class_id]
        picks[class_id] = None  # a cycle of bases picks nothing clear
        own = f"{class_id}::{name}"
        if own in self.g.symbols:
            found: str | None = own
        else:
            options = {self._pick(b, name, top, picks) if b in self.below(top) else self._above(b, name, set())
                       for b in self._bases.get(class_id, ())}
            found = options.pop() if len(options) == 1 else None
        picks[class_id] = found
        return found

    def _above(self, class_id: str, name: str, seen: set[str]) -> str | None:
        """The first definition of ``name`` at or above ``class_id``, depth first."""
        if class_id in seen:
            return None
        seen.add(class_id)
        if f"{class_id}::{name}" in self.g.symbols:
            return f"{class_id}::{name}"
        for base in self._bases.get(class_id, ()):
            found = self._above(base, name, seen)
            if found is not None:
                return found
        return None

    def known(self, node: str) -> bool:
        """Whether everything ``node`` calls, a few calls deep, was resolved: a call the
        linker could not resolve may reach the change by a path the graph lacks."""
        if node not in self._known:
            seen, layer = {node}, [node]
            for _ in range(KNOWN_DEPTH):
                if any(self.g.unresolved.get(n, 0) for n in layer):
                    self._known[node] = False
                    return False
                layer = [t for n in layer if n in self.g.graph for t, data in self.g.graph.succ[n].items()
                         if "calls" in data["kinds"] and t not in seen]
                seen.update(layer)
            self._known[node] = True
        return self._known[node]

    def receiver_classes(self, call: ResolvedCall) -> frozenset[str] | None:
        """The classes the receiver of ``obj.method()`` is an instance of, exactly, when the
        call site shows it (for ``Cls()`` running ``__init__``: ``Cls``); None when it does
        not."""
        callee = call.site.callee or ""
        constructing = call.target.rsplit("::", 1)[-1] in CONSTRUCTING
        key = (call.caller, callee, call.line, constructing)
        if key not in self._receivers:
            receiver = callee.rpartition(".")[0]
            found = None
            if constructing and _DOTTED.fullmatch(callee):
                found = self._constructed(call.caller, callee, call.line)
            elif receiver.endswith("()") and _DOTTED.fullmatch(receiver[:-2]):
                found = self._constructed(call.caller, receiver[:-2], call.line)
            elif _NAME.fullmatch(receiver) and receiver not in ("self", "cls"):
                found = self._local_instance(call.caller, receiver)
            self._receivers[key] = found
        return self._receivers[key]

    def _local_instance(self, caller: str, name: str) -> frozenset[str] | None:
        symbol = self.g.symbols.get(caller)
        if symbol is None or symbol.kind not in ("function", "method"):
            return None
        if symbol.signature is not None and any(p.name == name for p in symbol.signature.params):
            return None
        assigned, rebound = self._bindings(symbol.path)
        bindings = assigned.get((symbol.qualname, name))
        if not bindings or name in rebound:
            return None  # a nested function may rebind it (`nonlocal`, `global`)
        found: set[str] = set()
        for b in bindings:
            if b.kind != "assign" or b.value is None or not b.value.endswith("()") \
                    or not _DOTTED.fullmatch(b.value[:-2]):
                return None
            classes = self._constructed(caller, b.value[:-2], b.line)
            if classes is None:
                return None
            found |= classes
        return frozenset(found)

    def _bindings(self, path: str) -> tuple[dict[tuple[str, str], list[Binding]], set[str]]:
        """A file's bindings by (scope, name), and the names it declares global or nonlocal."""
        if path not in self._by_scope:
            facts = self.facts.get(path)
            assigned: dict[tuple[str, str], list[Binding]] = {}
            rebound: set[str] = set()
            for b in facts.bindings if facts is not None else ():
                if b.kind in ("global", "nonlocal"):
                    rebound.add(b.target)
                assigned.setdefault((b.scope, b.target), []).append(b)
            self._by_scope[path] = (assigned, rebound)
        return self._by_scope[path]

    def _constructed(self, caller: str, name: str, line: int) -> frozenset[str] | None:
        """The classes named ``name`` that ``caller`` calls (constructs) at ``line``; None
        when there are none, or one may make an instance of another class (a ``__new__``
        of its own or inherited, as ``pathlib.Path()`` makes a ``PosixPath``)."""
        last = name.rsplit(".", 1)[-1]
        found = frozenset(
            t for t in self.g.graph.succ[caller]
            if (s := self.g.symbols.get(t)) is not None and s.kind == "class"
            and s.qualname.rsplit("::", 1)[-1] == last and line in self.g.lines(caller, t)
        ) if caller in self.g.graph else frozenset()
        if not found or any(self._above(c, "__new__", set()) is not None for c in found):
            return None
        return found


def reachable(graph: SymbolGraph, seeds: Iterable[str], facts: Mapping[str, FileFacts],
              hooks: bool = True) -> dict[str, Allowed]:
    """The symbols the change reaches from ``seeds``, each by some path along which
    every call through ``self`` could really have dispatched (see the module's text),
    with the classes its ``self`` must be for that (None: any)."""
    g = _Graph(graph, facts)
    allowed: dict[State, Allowed] = {}
    grown: dict[State, int] = {}
    queue: deque[State] = deque()

    def reach(state: State, classes: Allowed) -> None:
        if state in allowed:
            old = allowed[state]
            merged = _join(old, classes)
            if merged == old:
                return
            grown[state] = grown.get(state, 0) + 1
            # a set that keeps growing is walked again each time: past a few, take any class
            classes = None if grown[state] > MAX_GROWTH else merged
        allowed[state] = classes
        queue.append(state)

    for seed in seeds:
        reach((seed, False), None)
    while queue:
        state = queue.popleft()
        node, classes = state[0], allowed[state]
        for dep, _conf, via in graph.dependencies(node, hooks) if node in graph.graph else ():
            if classes is None and via != "overrides" and not g.through_self(dep, node):
                if allowed.get((dep, False), False) is not None:  # (the common case, cheaply)
                    reach((dep, False), None)
                continue
            narrowed = _narrowed(g, dep, state, via, classes)
            if narrowed is not None:
                reach(*narrowed)
    out: dict[str, Allowed] = {}
    for (node, standin), classes in allowed.items():
        # a stand-in is reached as the method its callers name, not as code that runs
        classes = None if standin else classes
        out[node] = _join(out[node], classes) if node in out else classes
    return out


def runs_for(classes: Allowed, class_id: str) -> bool:
    """Whether a method reached for ``classes`` reaches the change when ``self`` is a
    ``class_id``."""
    return classes is None or class_id in classes


def _narrowed(g: _Graph, dep: str, state: State, via: str, classes: Allowed) -> tuple[State, Allowed] | None:
    """The state ``dep`` is reached in from ``state``, and for which classes; None: it is not."""
    node, standin = state
    if via == "overrides":
        # the base method's callers reach this override for the classes that pick it
        owner = g.owner(node)
        picks = classes if standin or owner is None else _meet(classes, g.reaching(owner, node))
        return None if picks == frozenset() else ((dep, True), picks)
    if via != "calls" or (classes is None and not g.through_self(dep, node)):
        return (dep, False), None
    sites = g.sites(dep, node)
    if not sites:
        return (dep, False), None  # a call edge without a recorded site: keep it as it is
    found: Allowed = frozenset()
    for call in sites:
        found = _join(found, _through_call(g, call, node, standin, classes))
        if found is None:
            break
    return None if found == frozenset() else ((dep, False), found)


def _through_call(g: _Graph, call: ResolvedCall, node: str, standin: bool, classes: Allowed) -> Allowed:
    """The classes of the caller's ``self`` for which this call reaches the change: None
    for any, empty for none."""
    callee = call.site.callee or ""
    if standin and g.names_its_class(callee, node):
        return frozenset()  # `Cache.__init__(self, ...)` runs that method, whatever self is
    owner = g.owner(call.caller)
    name = node.rsplit("::", 1)[-1]
    if owner is not None and (_names(callee, _SELF, name) or callee == _SUPER + name):
        mine = g.below(owner)
        narrowed = _meet(mine, classes)
        if callee.startswith(_SELF):
            # `self.m()` runs what the MRO picks: the change (a stand-in's classes already
            # say which pick it), or code not known well enough to rule it out
            missing = "*" not in callee
            picked = narrowed if standin else _meet(narrowed, g.reaching(owner, node, missing))
            narrowed = _join(picked, g.unclear(owner, name, missing))
        return None if narrowed == mine else narrowed
    attr = _constructing_attr(g, callee, owner, node, standin, classes)
    if classes is None:
        return attr
    receiver = g.receiver_classes(call)
    return attr if receiver is None or receiver & classes else frozenset()


def _constructing_attr(g: _Graph, callee: str, owner: str | None, node: str, standin: bool,
                       classes: Allowed) -> Allowed:
    """For ``self.Cache(maxsize=2)`` in a mixin running a constructor: the classes of the
    caller's ``self`` whose ``Cache`` is a class that runs it (None: any, or not such a call)."""
    if owner is None or not _ATTR.fullmatch(callee) or node.rsplit("::", 1)[-1] not in CONSTRUCTING:
        return None
    made = classes if standin else _meet(g.reaching(node.rsplit("::", 1)[0], node), classes)
    if made is None:
        return None
    mine = g.below(owner)
    narrowed = frozenset(c for c in mine if (named := g.class_attr(c, callee[len(_SELF):])) is None or named & made)
    return None if narrowed == mine else narrowed


def _names(callee: str, receiver: str, name: str) -> bool:
    """Whether ``callee`` calls method ``name`` on ``receiver``: ``self.m``, or ``self.m_*``
    (``getattr(self, "m_" + kind)``: any method so named) for a name that fits."""
    if not callee.startswith(receiver):
        return False
    attr = callee[len(receiver):]
    if "*" not in attr:
        return attr == name
    prefix, _, suffix = attr.partition("*")
    return fits(name, prefix, suffix)


def _meet(a: Allowed, b: Allowed) -> Allowed:
    if a is None:
        return b
    return a if b is None else a & b


def _join(a: Allowed, b: Allowed) -> Allowed:
    return None if a is None or b is None else a | b

