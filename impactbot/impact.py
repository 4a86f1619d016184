"""Stage `impact`: walk CALLED_BY from the changed symbols.

Only dependents are followed (callers, subclasses, fixture users, and the base
method a changed override can be dispatched through), never callees: what a
changed function calls is not affected by it. The walk for the reader is
bounded by a depth limit and a hub cap; the walk for ``tests`` is not, because
a test skipped wrongly is worse than a long list. Both leave out what only a
call through ``self`` of a class the receiver cannot be reaches
(:mod:`impactbot.dispatch`).
"""

from __future__ import annotations

import abc
import enum
import importlib
import sys
import typing
import warnings
from collections import defaultdict, deque
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

import networkx as nx

from impactbot.dispatch import Allowed, reachable, runs_for
from impactbot.link import is_unittest_class, keeps_signature, receives_call_arguments
from impactbot.link.fixtures import DEFAULT_LAYOUT, TestLayout, is_unittest_file
from impactbot.link.modules import ModuleIndex
from impactbot.link.python import PROPERTY_DECORATORS, decorator_name, parse_expr
from impactbot.model import (
    CONFIDENCE_ORDER,
    Breaking,
    CallSite,
    ChangedSymbol,
    Confidence,
    Definition,
    FileFacts,
    Hub,
    Impact,
    Impacted,
    Import,
    LinkedGraph,
    NameRead,
    ResolvedCall,
    Signature,
    Symbol,
    symbol_id,
)

# Edge kinds along which a change travels from target to source. `reads` joins a
# reader to the module or class whose changed name it reads (see add_reads).
DEPENDENT_KINDS = frozenset({"calls", "inherits", "uses_fixture", "requests", "signals", "reads"})


# Set-up and tear-down hooks the test runner calls around each test: a change they reach
# reaches the tests they run for. Methods run for the tests of their class and of its
# subclasses (unittest and Django's, pytest's xunit style); module-level ones for the
# tests of their module (``setup_function`` for its test functions only).
CLASS_HOOKS = frozenset({
    "setUp", "tearDown", "setUpClass", "tearDownClass", "asyncSetUp", "asyncTearDown", "setUpTestData",
    "setup_method", "teardown_method", "setup_class", "teardown_class",
})
MODULE_HOOKS = frozenset({"setUpModule", "tearDownModule", "setup_module", "teardown_module"})
FUNCTION_HOOKS = frozenset({"setup_function", "teardown_function"})


class SymbolGraph:
    """A linked revision as a networkx graph: nodes are symbol ids."""

    def __init__(self, linked: LinkedGraph, facts: Mapping[str, FileFacts] | None = None) -> None:
        self.linked = linked
        self.facts = facts or {}  # the revision's facts, read only for what a walk asks
        self.graph = nx.DiGraph()
        self.symbols: dict[str, Symbol] = {s.id: s for s in linked.symbols}
        self.graph.add_nodes_from(self.symbols)
        for e in linked.edges:
            if self.graph.has_edge(e.source, e.target):
                data = self.graph.edges[e.source, e.target]
                data["kinds"][e.kind] = _best(data["kinds"].get(e.kind), e.confidence)
            else:
                self.graph.add_edge(e.source, e.target, kinds={e.kind: e.confidence})
        self.unresolved = dict(linked.unresolved)
        self.class_reads: dict[str, list[NameRead]] = {}  # class id -> reads of its names as Class.NAME
        self._call_lines: dict[tuple[str, str], tuple[int, ...]] | None = None
        self._wrapped_lines: dict[str, set[int]] | None = None
        self._calls_by_caller: dict[str, list[ResolvedCall]] | None = None
        self._method_names: frozenset[str] | None = None
        self._tests_in: dict[str, list[str]] | None = None
        self._methods: dict[str, set[str]] | None = None
        self._classes_by_path: dict[str, list[str]] | None = None
        self._bases_of: tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]] | None = None

    def method_names(self) -> frozenset[str]:
        if self._method_names is None:
            self._method_names = frozenset(
                s.qualname.rsplit("::", 1)[-1] for s in self.symbols.values() if s.kind == "method")
        return self._method_names

    def lines(self, source: str, target: str) -> tuple[int, ...]:
        """The lines where ``source`` calls ``target``."""
        if self._call_lines is None:
            self._call_lines = {(e.source, e.target): e.lines for e in self.linked.edges if e.kind == "calls"}
        return self._call_lines.get((source, target), ())

    def add_reads(self, reads: Iterable[NameRead]) -> None:
        """Join each reader of a changed module- or class-level name to the module or
        class that binds it."""
        for read in reads:
            if read.through_class:
                self.class_reads.setdefault(read.owner, []).append(read)
            owner = read.owner
            if read.reader in self.symbols and owner in self.symbols and read.reader != owner:
                if self.graph.has_edge(read.reader, owner):
                    self.graph.edges[read.reader, owner]["kinds"]["reads"] = "resolved"
                else:
                    self.graph.add_edge(read.reader, owner, kinds={"reads": "resolved"})

    def subclasses(self, class_id: str) -> list[str]:
        """The classes that name ``class_id`` as a base (a new list: callers walk with it)."""
        return list(self.inheritance()[1].get(class_id, ()))

    def bases(self, class_id: str) -> list[str]:
        """The classes of the repository that ``class_id`` names as bases (a new list)."""
        return list(self.inheritance()[0].get(class_id, ()))

    def inheritance(self) -> tuple[Mapping[str, Sequence[str]], Mapping[str, Sequence[str]]]:
        """Bases and subclasses of every class, each sorted (the edges are); read, never
        changed, by callers that walk many classes."""
        if self._bases_of is None:
            bases: dict[str, list[str]] = defaultdict(list)
            subclasses: dict[str, list[str]] = defaultdict(list)
            for e in self.linked.edges:
                if e.kind == "inherits" and e.source != e.target:
                    bases[e.source].append(e.target)
                    subclasses[e.target].append(e.source)
            self._bases_of = ({k: tuple(v) for k, v in bases.items()},
                              {k: tuple(sorted(v)) for k, v in subclasses.items()})
        return self._bases_of

    def dependents(self, node: str, hooks: bool = True) -> Iterable[tuple[str, Confidence]]:
        """Who is affected when ``node`` changes, with the confidence of that link
        (``hooks``: with the tests a set-up or tear-down hook runs for)."""
        return ((dep, conf) for dep, conf, _how in self.dependencies(node, hooks))

    def dependencies(self, node: str, hooks: bool = True) -> Iterator[tuple[str, Confidence, str]]:
        """:meth:`dependents`, each with how it depends: ``calls`` (by calling ``node``, and
        in no other way), ``overrides`` (``node`` overrides it: its callers may dispatch
        to ``node``) or ``other``."""
        for src, data in self.graph.pred[node].items():
            kinds = data["kinds"]
            confs = [c for k, c in kinds.items() if k in DEPENDENT_KINDS]
            if confs and src != node:
                how = "calls" if len(confs) == 1 and "calls" in kinds else "other"
                yield src, min(confs, key=CONFIDENCE_ORDER.__getitem__), how
        for dst, data in self.graph.succ[node].items():
            # a changed override runs wherever callers dispatch through the base method
            if "overrides" in data["kinds"]:
                yield dst, "inferred", "overrides"
        if hooks:
            yield from ((test, conf, "other") for test, conf in self._hooked_tests(node))

    def _hooked_tests(self, node: str) -> Iterator[tuple[str, Confidence]]:
        """The tests a set-up or tear-down hook runs for."""
        symbol = self.symbols.get(node)
        if symbol is not None and (_runs_for_the_module(symbol) or symbol.qualname in FUNCTION_HOOKS):
            tests = self._tests().get(symbol.path, ())
            yield from ((t, "resolved") for t in tests if symbol.qualname not in FUNCTION_HOOKS or t.count("::") == 1)
            return
        for class_id, confidence in self.hooked_classes(node):
            yield from ((t, confidence) for t in self._tests().get(class_id, ()))

    def hooked_classes(self, node: str) -> list[tuple[str, Confidence]]:
        """The classes whose tests a class's set-up or tear-down hook runs for: its own, and
        its subclasses that do not define that hook (one that does runs its own, which
        reaches this one only by calling it); a module-level hook: the module's classes."""
        symbol = self.symbols.get(node)
        if symbol is None:
            return []
        if _runs_for_the_module(symbol):
            return [(c, "resolved") for c in self._classes_in().get(symbol.path, ())]
        name = symbol.qualname.rsplit("::", 1)[-1]
        if symbol.kind != "method" or name not in CLASS_HOOKS:
            return []
        owner = node.rsplit("::", 1)[0]
        out: list[tuple[str, Confidence]] = [(owner, "resolved")]
        stack, seen = self.subclasses(owner), {owner}
        while stack:
            sub = stack.pop()
            if sub in seen or f"{sub}::{name}" in self.symbols:
                continue
            seen.add(sub)
            out.append((sub, "inferred"))
            stack.extend(self.subclasses(sub))
        return out

    def methods(self) -> dict[str, set[str]]:
        """Method names by the top-level class that defines them (every such class)."""
        if self._methods is None:
            self._methods = {s.id: set() for s in self.symbols.values() if s.kind == "class" and "::" not in s.qualname}
            for s in self.symbols.values():
                owner = s.id.rsplit("::", 1)[0]
                if s.kind == "method" and owner in self._methods:
                    self._methods[owner].add(s.qualname.rsplit("::", 1)[-1])
        return self._methods

    def classes_in(self, path: str) -> list[str]:
        """The top-level classes of a file."""
        return self._classes_in().get(path, [])

    def tests_in(self, path: str) -> list[str]:
        """The tests of a file."""
        return self._tests().get(path, [])

    def _classes_in(self) -> dict[str, list[str]]:
        """Top-level classes by file."""
        if self._classes_by_path is None:
            self._classes_by_path = defaultdict(list)
            for class_id in self.methods():
                self._classes_by_path[self.symbols[class_id].path].append(class_id)
        return self._classes_by_path

    def _tests(self) -> dict[str, list[str]]:
        """Tests by the class that holds them, and by file (every test of the file)."""
        if self._tests_in is None:
            self._tests_in = defaultdict(list)
            for s in self.symbols.values():
                if s.is_test:
                    self._tests_in[s.path].append(s.id)
                    if s.kind == "method":
                        self._tests_in[s.id.rsplit("::", 1)[0]].append(s.id)
        return self._tests_in

    def callers(self, node: str) -> Iterable[tuple[str, Confidence]]:
        """Who calls ``node`` (not who inherits it, nor the base methods it overrides)."""
        for src, data in self.graph.pred[node].items():
            if "calls" in data["kinds"] and src != node:
                yield src, data["kinds"]["calls"]

    def wraps(self, wrapper: str, target: str) -> bool:
        """Whether ``wrapper`` calls ``target`` as the function it wraps: the closure of a
        decorator (``def wrapper(*a): return func(*a)``) calling whichever function was
        decorated. Told from the graph: some call of a decorated function reaches both
        it and the wrapper on one line, and the wrapper calls ``target`` on the line where
        it calls that function.

        Such a call runs for every function the decorator decorated: walking up from
        ``target`` through the wrapper would reach the callers of all of them, while
        the callers that do run ``target`` call it themselves.
        """
        if self._wrapped_lines is None:
            self._wrapped_lines = self._wrapper_lines()
        lines = self._wrapped_lines.get(wrapper)
        if lines is not None and not lines.isdisjoint(self.lines(wrapper, target)):
            return True
        return self._calls_what_decorates(wrapper, target)

    def _calls_what_decorates(self, wrapper: str, target: str) -> bool:
        """Whether ``wrapper`` is the closure of a decorator ``target`` is decorated with,
        calling ``target`` as the function that decorator was given: tornado's
        ``@gen_test`` (``def gen_test(f): def wrap(self): f(self)``) on test methods,
        which no call of the repository reaches for the decorator's call to be seen.
        Told from the call (its callee is a parameter of a function around the closure,
        not one of its own) and from ``target``'s decorators (one names a function around
        the closure). A factory's closure calling the callback it was given
        (``make_handler(on_save)``) is not such a wrapper: ``on_save`` is not decorated."""
        symbol = self.symbols.get(wrapper)
        decorated = self.symbols.get(target)
        if symbol is None or decorated is None or not self._closure(wrapper):
            return False
        enclosing = self._enclosing_parameters(symbol)
        lines = self.lines(wrapper, target)
        if not any(c.target == target and c.line in lines and c.site.callee in enclosing
                   for c in self.calls_of(wrapper)):
            return False
        outer = set(symbol.qualname.split("::")[:-1])
        return any(decorator_name(d) in outer for d in self._decorators(decorated))

    def forwards(self, wrapper: str, target: str) -> bool:
        """Whether ``wrapper``, a decorator's closure calling ``target`` as the function it
        decorates, hands it exactly what it was given (``def inner(*args, **kwargs):
        return func(*args, **kwargs)``, ``inner(self, *a, **kw)`` passing ``self`` on
        first) and changes neither bag: a call of ``target`` then meets its signature."""
        symbol = self.symbols.get(wrapper)
        if symbol is None or symbol.signature is None or not self._calls_what_decorates(wrapper, target):
            return False
        params = symbol.signature.params
        named = tuple(p.name for p in params if p.kind == "positional")
        star = [p.name for p in params if p.kind == "var_positional"]
        starstar = [p.name for p in params if p.kind == "var_keyword"]
        if len(star) != 1 or len(starstar) != 1 or len(named) + 2 != len(params) or \
                any(p.has_default for p in params):
            return False
        passed = (("*", star[0]), ("**", starstar[0]))
        lines = self.lines(wrapper, target)
        if not any(c.target == target and c.line in lines and c.site.args == named and c.site.kwargs == passed
                   for c in self.calls_of(wrapper)):
            return False
        return not self._touches(symbol, (star[0], starstar[0]))

    def _touches(self, closure: Symbol, bags: tuple[str, ...]) -> bool:
        """Whether ``closure`` rebinds or alters ``*args``/``**kwargs`` (``kwargs.pop("x")``,
        ``kwargs["x"] = 1``, ``args = args[1:]``)."""
        facts = self.facts.get(closure.path)
        if facts is None:
            return True
        roots = {parse_expr(b.target)[0] for b in facts.bindings if b.scope == closure.qualname}
        methods = {parse_expr(s.callee)[0] for s in facts.calls
                   if s.scope == closure.qualname and s.callee and "." in s.callee}
        return not roots.isdisjoint(bags) or not methods.isdisjoint(bags)

    def _enclosing_parameters(self, closure: Symbol) -> set[str]:
        """Parameter names of the functions around a closure that it does not shadow with its own."""
        own = {p.name for p in closure.signature.params} if closure.signature else set()
        names: set[str] = set()
        parent = closure.id.rsplit("::", 1)[0]
        while (outer := self.symbols.get(parent)) is not None and outer.kind == "function":
            names |= {p.name for p in outer.signature.params} if outer.signature else set()
            parent = parent.rsplit("::", 1)[0]
        return names - own

    def calls_of(self, caller: str) -> list[ResolvedCall]:
        """The resolved calls ``caller`` makes."""
        if self._calls_by_caller is None:
            self._calls_by_caller = defaultdict(list)
            for call in self.linked.calls:
                self._calls_by_caller[call.caller].append(call)
        return self._calls_by_caller.get(caller, [])

    def _decorators(self, symbol: Symbol) -> tuple[str, ...]:
        facts = self.facts.get(symbol.path)
        if facts is None:
            return ()
        for d in facts.definitions:
            if d.qualname == symbol.qualname:
                return d.decorators
        return ()

    def _wrapper_lines(self) -> dict[str, set[int]]:
        """Wrapper -> the lines where it calls what it wraps."""
        at: dict[tuple[str, int], set[str]] = defaultdict(set)
        inferred: set[str] = set()  # closures reached by an inferred call (a wrapper's are)
        for e in self.linked.edges:
            if e.kind == "calls":
                for line in e.lines:
                    at[(e.source, line)].add(e.target)
                if e.confidence == "inferred" and self._closure(e.target):
                    inferred.add(e.target)
        out: dict[str, set[int]] = defaultdict(set)
        for targets in at.values():
            if len(targets) < 2 or targets.isdisjoint(inferred):
                continue
            for wrapper in targets & inferred:
                for wrapped in targets - {wrapper}:
                    lines = self.lines(wrapper, wrapped)
                    if lines and self.graph.edges[wrapper, wrapped]["kinds"].get("calls") == "inferred":
                        out[wrapper].update(lines)
        return out

    def _closure(self, node: str) -> bool:
        """A function defined in a function (a decorator's wrapper is)."""
        symbol = self.symbols.get(node)
        parent = self.symbols.get(node.rsplit("::", 1)[0]) if symbol is not None and "::" in symbol.qualname else None
        return symbol is not None and symbol.kind == "function" and parent is not None and parent.kind == "function"

    def fan_in(self, node: str) -> int:
        return sum(1 for _ in self.dependents(node))


def _runs_for_the_module(symbol: Symbol) -> bool:
    """Whether ``symbol`` runs before every test of its module: a ``setup_module`` (or
    ``setUpModule``, ...) hook."""
    return symbol.kind == "function" and symbol.qualname in MODULE_HOOKS


def _best(a: Confidence | None, b: Confidence) -> Confidence:
    if a is None:
        return b
    return min(a, b, key=CONFIDENCE_ORDER.__getitem__)


def _weakest(a: Confidence, b: Confidence) -> Confidence:
    return max(a, b, key=CONFIDENCE_ORDER.__getitem__)


@dataclass
class _Visit:
    depth: int
    parent: str | None
    confidence: Confidence
    others: list[str] = field(default_factory=list)  # more parents one layer closer to the change


def _bfs(graph: SymbolGraph, seeds: Mapping[str, tuple[str | None, Confidence]],
         depth: int | None, hub_cap: int | None, hubs: dict[str, int], hooks: bool = True,
         within: Collection[str] | None = None) -> dict[str, _Visit]:
    """Multi-source breadth-first walk; seeds map a node to (parent, confidence); only
    the nodes ``within`` are entered, when given."""
    seen: dict[str, _Visit] = {}
    queue: deque[str] = deque()
    # reached only as the wrapper calling what it wraps: impacted, but its callers are
    # not (see SymbolGraph.wraps) unless another path reaches it
    wrapping: set[str] = set()
    for node, (parent, conf) in sorted(seeds.items()):
        seen[node] = _Visit(0 if parent is None else 1, parent, conf)
        queue.append(node)
    while queue:
        node = queue.popleft()
        visit = seen[node]
        if depth is not None and visit.depth >= depth:
            continue
        deps = sorted(graph.dependents(node, hooks)) if node in graph.graph else []
        if hub_cap is not None and len(deps) > hub_cap:
            hubs[node] = len(deps)
            continue
        for dep, conf in deps:
            if within is not None and dep not in within:
                continue
            best_conf = _weakest(visit.confidence, conf)
            old = seen.get(dep)
            wrapper = graph.wraps(dep, node)
            if old is None:
                seen[dep] = _Visit(visit.depth + 1, node, best_conf)
                if wrapper:
                    wrapping.add(dep)
                else:
                    queue.append(dep)
                continue
            if dep in wrapping and not wrapper:
                wrapping.discard(dep)
                queue.append(dep)
            if old.depth == visit.depth + 1:
                if CONFIDENCE_ORDER[best_conf] < CONFIDENCE_ORDER[old.confidence]:
                    old.others.append(old.parent or "")
                    old.parent, old.confidence = node, best_conf
                else:
                    old.others.append(node)
    return seen


MAX_PATHS = 3  # shown per impacted symbol; more only repeat the same story


def _paths(seen: Mapping[str, _Visit], node: str) -> tuple[tuple[str, ...], ...]:
    """Up to MAX_PATHS shortest paths, through distinct parents, the most certain first."""
    visit = seen[node]
    out = [_path(seen, node)]
    for parent in visit.others[: MAX_PATHS - 1]:
        if parent in seen:
            out.append((node, *_path(seen, parent)))
    return tuple(out)


def _path(seen: Mapping[str, _Visit], node: str) -> tuple[str, ...]:
    """From ``node`` down to the changed symbol (a removed one is outside ``seen``)."""
    path = [node]
    while True:
        parent = seen[path[-1]].parent
        if parent is None:
            break
        path.append(parent)
        if parent not in seen:
            break
    return tuple(path)


def walk(
    head: SymbolGraph,
    base: SymbolGraph,
    changed: Iterable[ChangedSymbol],
    *,
    depth: int,
    hub_cap: int,
    head_facts: Mapping[str, FileFacts] | None = None,
    base_facts: Mapping[str, FileFacts] | None = None,
    layout: TestLayout = DEFAULT_LAYOUT,
) -> Impact:
    """The impact of a change set on the head revision."""
    changed = tuple(changed)
    changed_ids = {c.symbol.id for c in changed if c.change != "removed"}
    seeds: dict[str, tuple[str | None, Confidence]] = {i: (None, "resolved") for i in changed_ids if i in head.graph}
    for c in changed:
        if c.change in ("removed", "renamed"):
            old_id = c.old_id or c.symbol.id
            for caller, conf in (base.dependents(old_id) if old_id in base.graph else ()):
                if caller in head.graph and caller not in changed_ids:
                    seeds.setdefault(caller, (old_id, conf))
    # what only a call through `self` of a class the caller's receiver is not reaches
    # is left out of every walk
    possible = reachable(head, seeds, head_facts or {})
    hubs: dict[str, int] = {}
    listed = _bfs(head, seeds, depth, hub_cap, hubs, within=possible)
    everything = _bfs(head, seeds, None, None, {}, within=possible)
    impacted = []
    for node, visit in listed.items():
        if node in changed_ids or node not in head.symbols:
            continue
        impacted.append(
            Impacted(
                symbol=head.symbols[node],
                depth=max(visit.depth, 1),
                paths=_paths(listed, node),
                confidence=visit.confidence,
            )
        )
    depth_limit_hit = any(v.depth > depth for v in everything.values())
    reached = set(everything) | changed_ids
    # what reaches a test through its own body, not through a hook run around it
    body = set(_bfs(head, seeds, None, None, {}, hooks=False, within=possible)) | changed_ids
    hooked = {cls for node in reached for cls, _ in head.hooked_classes(node)}
    imported = _test_modules_changed_for_effect(changed, layout)
    hooked |= {cls for path in imported for cls in head.classes_in(path)}
    tests = sorted(
        {n for n in reached
         if n in head.symbols and head.symbols[n].is_test and _runs_as_own(head.symbols[n], possible)}
        | {t for path in imported for t in head.tests_in(path)}
        | _inherited_tests(head, body, hooked, head_facts or {}, layout, possible)
    )
    return Impact(
        impacted=tuple(sorted(impacted, key=lambda i: (i.depth, i.symbol.id))),
        tests=tuple(tests),
        hubs=tuple(Hub(h, n) for h, n in sorted(hubs.items(), key=lambda kv: (-kv[1], kv[0]))),
        depth_limit_hit=depth_limit_hit,
        breaking=breaking_calls(head, base, changed, head_facts or {}, base_facts or {}),
        unresolved_calls=sum(head.unresolved.get(n, 0) for n in set(listed) | changed_ids),
    )


def _test_modules_changed_for_effect(changed: Iterable[ChangedSymbol], layout: TestLayout) -> set[str]:
    """Test files whose module-level code changed without binding any name differently
    (``sys.path`` set up, a plugin registered, a side-effect import): that code runs, and
    may fail, before every test of the file. A change that rebinds names (an import
    added for a new test) reaches the tests that read them, and only those."""
    return {
        c.symbol.path for c in changed
        if c.symbol.kind == "module" and c.change == "modified" and not c.names
        and (layout.is_test_file(c.symbol.path) or is_unittest_file(c.symbol.path))
    }


def _runs_as_own(test: Symbol, possible: Mapping[str, Allowed]) -> bool:
    """Whether a test reaches the change as its own class runs it (not only as some
    subclass that inherits it does, see :mod:`impactbot.dispatch`)."""
    return test.kind != "method" or runs_for(possible.get(test.id), test.id.rsplit("::", 1)[0])


def _inherited_tests(head: SymbolGraph, body: Iterable[str], hooked: Iterable[str],
                     facts: Mapping[str, FileFacts], layout: TestLayout,
                     possible: Mapping[str, Allowed] | None = None) -> set[str]:
    """pytest node ids of test methods as the subclasses that inherit them run them
    (``Sub::test_x`` runs ``Base.test_x``; a mixin's tests run only there): of the test
    methods ``body`` reaches (for the subclasses ``possible`` allows), and every test a
    class in ``hooked`` inherits (a hook that reaches the change runs around each of them)."""
    out: set[str] = set()
    collection = _Collection(head, facts, layout)
    methods = head.methods()
    for node in body:
        symbol = head.symbols.get(node)
        name = symbol.qualname.rsplit("::", 1)[-1] if symbol is not None else ""
        if symbol is None or symbol.kind != "method" or not name.startswith("test"):
            continue
        stack, seen = head.subclasses(node.rsplit("::", 1)[0]), set()
        while stack:
            sub = stack.pop()
            if sub in seen or name in methods.get(sub, ()):
                continue  # an override is a test of its own
            seen.add(sub)
            stack.extend(head.subclasses(sub))
            if collection.collects(sub) and runs_for(possible.get(node) if possible else None, sub):
                out.add(f"{sub}::{name}")
    for class_id in hooked:
        if collection.collects(class_id):
            out |= {f"{class_id}::{name}" for name in _inherited_test_names(head, class_id, methods)}
    return out


def _inherited_test_names(head: SymbolGraph, class_id: str, methods: Mapping[str, set[str]]) -> set[str]:
    """Names of the test methods ``class_id`` inherits from bases of the repository."""
    own = methods.get(class_id, set())
    out: set[str] = set()
    stack, seen = head.bases(class_id), {class_id}
    while stack:
        base = stack.pop()
        if base in seen:
            continue
        seen.add(base)
        out |= {n for n in methods.get(base, ()) if n.startswith("test") and n not in own}
        stack.extend(head.bases(base))
    return out


class _Collection:
    """Which classes pytest collects tests from: top-level classes of test files named
    ``Test*`` without an ``__init__``, and unittest ``TestCase`` subclasses (through
    bases in any file of the repository) in those and in files unittest discovers."""

    def __init__(self, head: SymbolGraph, facts: Mapping[str, FileFacts], layout: TestLayout) -> None:
        self.head, self.facts, self.layout = head, facts, layout
        self._defs: dict[str, dict[str, Definition]] = {}
        self._unittest: dict[str, bool] = {}

    def collects(self, class_id: str) -> bool:
        symbol = self.head.symbols.get(class_id)
        if symbol is None or "::" in symbol.qualname:
            return False
        pytest_file = self.layout.is_test_file(symbol.path)
        if pytest_file and symbol.qualname.startswith("Test") and f"{class_id}::__init__" not in self.head.symbols:
            return True
        return (pytest_file or is_unittest_file(symbol.path)) and self._is_unittest(class_id)

    def _is_unittest(self, class_id: str) -> bool:
        found = self._unittest.get(class_id)
        if found is None:
            self._unittest[class_id] = False  # a cycle of bases is no TestCase
            symbol = self.head.symbols[class_id]
            defs = self._definitions(symbol.path)
            own = defs.get(symbol.qualname)
            found = (own is not None and is_unittest_class(own, defs)) or any(
                self._is_unittest(base) for base in self.head.bases(class_id))
            self._unittest[class_id] = found
        return found

    def _definitions(self, path: str) -> dict[str, Definition]:
        if path not in self._defs:
            facts = self.facts.get(path)
            self._defs[path] = {d.qualname: d for d in facts.definitions} if facts is not None else {}
        return self._defs[path]


# ------------------------------------------------------------------ breaking


def _count(n: int, noun: str) -> str:
    """``1 positional argument``, ``2 positional arguments`` (as Python words it)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def misfit(sig: Signature, site: CallSite, bound: bool) -> str | None:
    """Why a call no longer fits a signature, or None when it may fit."""
    params = list(sig.params)
    if bound and params and params[0].kind in ("positional", "positional_only"):
        params = params[1:]
    positional = [p for p in params if p.kind in ("positional", "positional_only")]
    var_pos = any(p.kind == "var_positional" for p in params)
    var_kw = any(p.kind == "var_keyword" for p in params)
    if not site.star and not var_pos and site.positional > len(positional):
        return f"takes {_count(len(positional), 'positional argument')} but {site.positional} " \
               f"{'was' if site.positional == 1 else 'were'} given"
    named = {p.name for p in params if p.kind in ("positional", "keyword_only")}
    for kw in site.keywords:
        if kw not in named and not var_kw:
            return f"unexpected keyword argument '{kw}'"
    for p in positional[: site.positional]:  # `f(1, a=2)` for `def f(a, ...)`
        if p.kind == "positional" and p.name in site.keywords:
            return f"got multiple values for argument '{p.name}'"
    for i, p in enumerate(params):
        if p.has_default or p.kind in ("var_positional", "var_keyword"):
            continue
        if p.kind in ("positional", "positional_only") and (i < site.positional or site.star):
            continue
        if p.kind != "positional_only" and (p.name in site.keywords or site.starstar):
            continue
        return f"missing required argument '{p.name}'"
    return None


def shifted(old: Signature, new: Signature, site: CallSite, bound: bool) -> str | None:
    """A positional argument that now lands on another parameter: the parameters were
    reordered, or one was inserted or removed before it (``f(1, 2)`` against ``(a, b)``
    turned ``(b, a)``). A parameter renamed in its place moves nothing."""
    if site.star:
        return None  # where the unpacked ones start is not known
    before, after = _positional_names(old, bound), _positional_names(new, bound)
    for i in range(min(site.positional, len(before), len(after))):
        was, now = before[i], after[i]
        if was != now and (was in after or now in before):
            return f"argument {i + 1} by position now goes to '{now}', not '{was}'"
    return None


def _binding_changed(symbol: Symbol, base: SymbolGraph, head_facts: Mapping[str, FileFacts],
                     base_facts: Mapping[str, FileFacts]) -> bool:
    """A method that became a staticmethod or classmethod, or stopped being one: what the
    receiver fills changed, so its parameters' places are not comparable."""
    if symbol.kind != "method":
        return False
    new, old = _definition_of(symbol, head_facts), _definition_of(base.symbols.get(symbol.id), base_facts)
    return new is None or old is None or _method_kind(new) != _method_kind(old)


def _method_kind(definition: Definition) -> str:
    names = {d.removesuffix("()").rsplit(".", 1)[-1] for d in definition.decorators}
    return "static" if "staticmethod" in names else "class" if "classmethod" in names else "instance"


def _positional_names(sig: Signature, bound: bool) -> list[str]:
    params = list(sig.params)
    if bound and params and params[0].kind in ("positional", "positional_only"):
        params = params[1:]
    return [p.name for p in params if p.kind in ("positional", "positional_only")]


def _unchanged_call(call: ResolvedCall, head: SymbolGraph, base_facts: Mapping[str, FileFacts],
                    edited: Collection[str]) -> bool:
    """The call was left as it was: its caller is not changed, or made the same call in
    base with the same arguments, each known (a literal's text is not kept; one rewritten
    for the new order passes them otherwise)."""
    if call.caller not in edited:
        return True
    caller = head.symbols.get(call.caller)
    facts = base_facts.get(caller.path) if caller is not None else None
    site = call.site
    return facts is not None and None not in site.args and all(v is not None for _, v in site.kwargs) and any(
        s.scope == site.scope and s.callee == site.callee and s.args == site.args and s.kwargs == site.kwargs
        for s in facts.calls)


def _broken_before(call: ResolvedCall, c: ChangedSymbol, base: SymbolGraph) -> bool:
    """The same call, to the same symbol, fit none of its signatures in base either: the
    change did not break it. Such a call usually goes to another class's method the
    linker cannot tell apart (``self.jar.clear(domain, path, name)`` where ``jar`` holds
    either a ``Cookies`` or the standard library's ``CookieJar``), or is never run."""
    old = base.symbols.get(c.old_id or c.symbol.id)
    if old is None or old.signature is None:
        return False
    shape = _shape(call.site)
    return any(b.target == old.id and not b.guess and _shape(b.site) == shape
               and _fits_none(old, b.site, b.bound) is not None for b in base.calls_of(call.caller))


def _shape(site: CallSite) -> tuple[object, ...]:
    """A call site without its line: the same call in a file edited above it."""
    return (site.scope, site.callee, site.kind, site.positional, site.keywords, site.star, site.starstar,
            site.args, site.kwargs)


def breaking_calls(
    head: SymbolGraph,
    base: SymbolGraph,
    changed: Iterable[ChangedSymbol],
    head_facts: Mapping[str, FileFacts],
    base_facts: Mapping[str, FileFacts] | None = None,
) -> tuple[Breaking, ...]:
    """Call sites in head that no longer fit the symbol they call."""
    changed = tuple(changed)
    out: set[Breaking] = set()
    by_target = {c.symbol.id: c for c in changed if c.signature_changed and c.change != "removed"}
    by_target = {i: c for i, c in by_target.items() if _takes_call_arguments(c.symbol, head, head_facts)
                 and not _declared_by_interface(c.symbol, head, head_facts)}
    if by_target:
        alternatives = _alternatives(head)
        edited = {c.symbol.id for c in changed}
        rebound = {i for i, c in by_target.items() if _binding_changed(c.symbol, base, head_facts, base_facts or {})}
        for call in head.linked.calls:
            c = by_target.get(call.target)
            # a caller changed as well is checked too: its recursive call may be the stale one
            if c is None or c.symbol.signature is None:
                continue
            if _implied(call.site.callee, c.symbol):
                continue  # `len(x)` runs `x.__len__()`: its arguments are not the dunder's
            if call.guess:
                continue  # `getattr(self, "visit_" + kind)(node)` may never pick this one
            reason = _fits_none(c.symbol, call.site, call.bound)
            if reason and (_fits_an_override(call, alternatives, head)
                           or _fits_another_callable(call, alternatives, head)
                           or _through_a_pass_through(call, head, head_facts)
                           or _broken_before(call, c, base)):
                continue
            if reason is None and c.old_signature is not None and not c.symbol.variants \
                    and c.symbol.id not in rebound and _unchanged_call(call, head, base_facts or {}, edited):
                reason = shifted(c.old_signature, c.symbol.signature, call.site, call.bound)
                if reason and len(alternatives.get((call.caller, call.line, call.site), ())) > 1:
                    reason = None  # the receiver may be of another class, whose method did not move
            if reason:
                out.add(Breaking(call.target, call.caller, _path_of(head, call.caller), call.line, reason))
        out.update(_partials_made(head, base, by_target, head_facts, base_facts or {}))
    gone = {c.symbol.id for c in changed if c.change == "removed"}
    gone |= {c.old_id for c in changed if c.change == "renamed" and c.old_id}
    callees = _callees_of(base, gone, base_facts or {}) if gone else {}
    modules = _Modules(head_facts, base_facts or {})
    left = _LeftBehind.of(head, head_facts, modules.head) if gone else _LeftBehind(set(), set())
    for c in changed:
        if c.change == "removed":
            out.update(_still_called(head, base, c.symbol, head_facts, callees, left))
        elif c.change == "renamed" and c.old_id in base.symbols:
            out.update(_still_called(head, base, base.symbols[c.old_id], head_facts, callees, left,
                                     moved_to=c.symbol))
    out.update(_property_turns(head, base, changed, head_facts, base_facts or {}))
    out.update(_now_async(head, base, changed, head_facts, base_facts or {}))
    out.update(_no_longer_async(head, base, changed, head_facts, base_facts or {}))
    # an import of a removed def whose calls are listed already says nothing more, nor
    # does a read on the line of a listed call (`@m.gone`, `map(m.gone, xs)`)
    called = {(b.file, b.target) for b in out}
    lines = {(b.file, b.line, b.target) for b in out}
    imports, reads = _stale_names(base, changed, head_facts, base_facts or {}, modules)
    out.update(b for b in imports if (b.file, b.target) not in called)
    out.update(b for b in reads if (b.file, b.line, b.target) not in lines)
    out.update(_stale_modules(changed, head_facts, base_facts or {}, modules))
    out.update(_stale_class_reads(head, changed, head_facts, base_facts or {}))
    out.update(_left_abstract(head, base, changed, head_facts, base_facts or {}))
    kept = sorted((b for b in out if not _expected_to_fail(b, head_facts)),
                  key=lambda b: (b.file, b.line, b.caller, b.target))
    return tuple(_one_per_site(kept))


# ``partial(f, ...)`` and ``partialmethod(f, ...)``: the arguments they hold go to f when
# what they make is called; a partialmethod's go after the instance it is read from
PARTIAL_MAKERS = {"partial": False, "functools.partial": False,
                  "partialmethod": True, "functools.partialmethod": True}


def _partials_made(head: SymbolGraph, base: SymbolGraph, by_target: Mapping[str, ChangedSymbol],
                   head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts]) -> Iterator[Breaking]:
    """``partial(send, retries=1)`` where send no longer takes ``retries``: every call of
    what it made fails. Listed where the partial is made, which is what to fix; the
    arguments still missing come with each call, so only those it holds are judged."""
    for target, c in by_target.items():
        if c.symbol.kind not in ("function", "method") or c.symbol.signature is None:
            continue
        for caller, _ in head.callers(target):
            for site, bound, maker in _partials_of(c.symbol, caller, head, head_facts):
                reason = _holds_what_fits_none(c.symbol, site, bound)
                if reason is None or _made_the_same_in_base(c, caller, site, bound, base, base_facts):
                    continue
                yield Breaking(target, caller, _path_of(head, caller), site.line, f"{reason} (bound by {maker}())")
            yield from _calls_through_partials(head, base, c, caller, head_facts, base_facts)


def _calls_through_partials(head: SymbolGraph, base: SymbolGraph, c: ChangedSymbol, caller: str,
                            head_facts: Mapping[str, FileFacts],
                            base_facts: Mapping[str, FileFacts]) -> Iterator[Breaking]:
    """``quick("x", timeout=3)`` where ``quick = partial(send, retries=1)`` in the
    caller's scope or its module's: the call passes what the partial holds and its
    own arguments together. Not listed when the same call did not fit in base either."""
    old = base.symbols.get(c.old_id or c.symbol.id)
    before = {_shape(call): (_together(held, call), bound)
              for call, held, bound in _through_partials(base, base_facts, old, caller)} \
        if old is not None and old.signature is not None else {}
    for call, held, bound in _through_partials(head, head_facts, c.symbol, caller):
        if _holds_what_fits_none(c.symbol, held, bound) is not None:
            continue  # listed where the partial is made
        reason = _fits_none(c.symbol, _together(held, call), bound)
        was = before.get(_shape(call))
        if reason is None or (was is not None and old is not None and _fits_none(old, *was) is not None):
            continue
        yield Breaking(c.symbol.id, caller, _path_of(head, caller), call.line,
                       f"{reason} (through the partial '{call.callee}')")


def _together(held: CallSite, call: CallSite) -> CallSite:
    """The call a partial's target gets: what the partial holds, then the call's own arguments."""
    return replace(held, scope=call.scope, line=call.line, positional=held.positional + call.positional,
                   keywords=tuple(dict.fromkeys(held.keywords + call.keywords)), star=call.star,
                   starstar=held.starstar or call.starstar, args=held.args + call.args,
                   kwargs=held.kwargs + call.kwargs)


def _through_partials(graph: SymbolGraph, facts: Mapping[str, FileFacts], target: Symbol,
                      caller: str) -> Iterator[tuple[CallSite, CallSite, bool]]:
    """The calls ``caller`` makes of a partial of ``target`` named by a plain name, each
    with what the partial holds (as a call of ``target``) and whether it is bound."""
    reached = _reaching(graph, facts, caller, target)
    if reached is None:
        return
    found, scope, lines = reached
    for call in found.calls:
        if call.kind == "call" and call.line in lines and call.scope == scope and (call.callee or "").isidentifier():
            made = _partial_named(call.callee or "", scope, target, found, facts)
            if made is not None:
                yield call, made[0], made[1]


def _partial_named(name: str, scope: str, target: Symbol, found: FileFacts,
                   facts: Mapping[str, FileFacts]) -> tuple[CallSite, bool, str] | None:
    """The partial of ``target`` that ``name`` holds where it is read: bound once, by an
    assignment of ``partial(...)``, in that scope or else at module level."""
    for where in dict.fromkeys((scope, "")):
        bindings = [b for b in found.bindings if b.scope == where and b.target == name]
        if not bindings:
            continue
        if len(bindings) != 1 or bindings[0].conditional:
            return None
        made = (_partial_of(s, target, facts) for s in found.calls if s.scope == where and s.line == bindings[0].line)
        return next((m for m in made if m is not None), None)
    return None


def _partials_of(target: Symbol, caller: str, head: SymbolGraph,
                 facts: Mapping[str, FileFacts]) -> Iterator[tuple[CallSite, bool, str]]:
    """The partials ``caller`` makes of ``target`` on the lines it reaches it (see
    :func:`_partial_of`)."""
    reached = _reaching(head, facts, caller, target)
    if reached is None:
        return
    found, scope, lines = reached
    for site in found.calls:
        made = _partial_of(site, target, facts) if site.line in lines and site.scope == scope else None
        if made is not None:
            yield made


def _reaching(graph: SymbolGraph, facts: Mapping[str, FileFacts], caller: str,
              target: Symbol) -> tuple[FileFacts, str, set[int]] | None:
    """The caller's file facts, its scope there, and the lines where it reaches ``target``."""
    symbol = graph.symbols.get(caller)
    found = facts.get(symbol.path) if symbol is not None else None
    if symbol is None or found is None:
        return None
    return found, symbol.qualname if symbol.kind != "module" else "", set(graph.lines(caller, target.id))


def _partial_of(site: CallSite, target: Symbol, facts: Mapping[str, FileFacts]) -> tuple[CallSite, bool, str] | None:
    """``site`` as the making of a partial of ``target``: the call of ``target`` with the
    arguments it holds, whether that call is bound, and the maker's name."""
    maker = PARTIAL_MAKERS.get(site.callee or "")
    held = _held(site) if maker is not None else None
    if held is None or held.callee is None or held.callee.rsplit(".", 1)[-1] != target.qualname.rsplit("::", 1)[-1]:
        return None
    bound = maker or _bound_by_its_receiver(target, held.callee, facts)
    return None if bound is None else (held, bound, (site.callee or "").rsplit(".", 1)[-1])


def _bound_by_its_receiver(target: Symbol, held: str, facts: Mapping[str, FileFacts]) -> bool | None:
    """Whether ``partial(held, ...)`` passes an instance first: a function does not, a
    method read from ``self`` or an object does, one read from a class (a capitalised
    name) does not, but a classmethod does. None when that cannot be told."""
    if target.kind != "method":
        return False
    definition = _definition_of(target, facts)
    if definition is None or "." not in held:
        return None
    kind = _method_kind(definition)
    if kind != "instance":
        return kind == "class"
    receiver = held.rsplit(".", 1)[0].rsplit(".", 1)[-1]
    if receiver in ("self", "cls"):
        return receiver == "self"
    return not receiver[:1].isupper()


def _holds_what_fits_none(target: Symbol, site: CallSite, bound: bool) -> str | None:
    """Why the arguments a partial holds fit no signature of ``target``, whatever the
    calls of the partial add: too many by position, or a keyword it does not take."""
    reason = _fits_none(target, site, bound)
    return None if reason is None or reason.startswith("missing required") else reason


def _made_the_same_in_base(c: ChangedSymbol, caller: str, site: CallSite, bound: bool, base: SymbolGraph,
                           base_facts: Mapping[str, FileFacts]) -> bool:
    """The same partial was made in base, where it did not fit either: not this change's doing."""
    old = base.symbols.get(c.old_id or c.symbol.id)
    symbol = base.symbols.get(caller)
    facts = base_facts.get(symbol.path) if symbol is not None else None
    if old is None or old.signature is None or facts is None:
        return False
    made = (_held(s) for s in facts.calls if PARTIAL_MAKERS.get(s.callee or "") is not None)
    return any(m is not None and _shape(m) == _shape(site) for m in made) \
        and _holds_what_fits_none(old, site, bound) is not None


def _held(site: CallSite) -> CallSite | None:
    """A partial's making, as the call of what it holds (see :func:`_partials_of`)."""
    if site.star or not site.args or site.args[0] is None:
        return None
    return CallSite(site.scope, site.args[0], site.line, positional=site.positional - 1, keywords=site.keywords,
                    starstar=site.starstar, args=site.args[1:], kwargs=site.kwargs)


def _one_per_site(found: Iterable[Breaking]) -> Iterator[Breaking]:
    """One entry per call site and reason: ``self.metadata.bind`` guessed, by its name
    alone, to be any of five removed ``bind`` properties is one stale read, not five.
    The first target in order stands for the others."""
    seen: set[tuple[str, int, str, str]] = set()
    for b in found:
        key = (b.file, b.line, b.caller, b.reason)
        if key not in seen:
            seen.add(key)
            yield b


class _Modules:
    """Head's and base's module indexes, each built the first time a check asks for it."""

    def __init__(self, head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts]) -> None:
        self._facts = (head_facts, base_facts)

    @cached_property
    def head(self) -> ModuleIndex:
        return ModuleIndex.build(self._facts[0])

    @cached_property
    def base(self) -> ModuleIndex:
        return ModuleIndex.build(self._facts[1])


def _property_turns(head: SymbolGraph, base: SymbolGraph, changed: tuple[ChangedSymbol, ...],
                    head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts]) -> set[Breaking]:
    """Uses a method that became a property (or a property that became a method) no
    longer fit: ``k.size()`` now calls what the getter returns, ``k.size + 1`` now reads
    the bound method."""
    now: dict[str, str] = {}  # id -> what it became
    for c in changed:
        if c.change != "modified" or c.symbol.kind != "method":
            continue
        new, old = _definition_of(c.symbol, head_facts), _definition_of(base.symbols.get(c.symbol.id), base_facts)
        if new is None or old is None or _is_property(new) == _is_property(old):
            continue
        # a method under a decorator of its own may still be read as a value: a descriptor
        # (`@util.non_memoized_property`) in place of `@property`
        if _is_property(new) or _plain(new):
            now[c.symbol.id] = "property" if _is_property(new) else "method"
    if not now:
        return set()
    out: set[Breaking] = set()
    for target, became in sorted(now.items()):
        name = target.rsplit("::", 1)[-1]
        if became == "property":  # `k.size()` in head: the getter runs, its value is called
            for caller, site in _sites_reaching(head, head_facts, target, "call"):
                if (site.callee or "").rsplit(".", 1)[-1] == name:
                    out.add(Breaking(target, caller, _path_of(head, caller), site.line,
                                     f"'{name}' is now a property: this calls the value it gives"))
            continue
        # `k.size` read in base (the getter ran), still read so in head: it is the method now
        for caller, site in _sites_reaching(base, base_facts, target, "attribute"):
            if (site.callee or "").rsplit(".", 1)[-1] != name:
                continue  # another read on its line (`self.col == self.value`)
            symbol = head.symbols.get(caller)
            facts = head_facts.get(symbol.path) if symbol is not None else None
            if symbol is None or facts is None:
                continue
            for kept in facts.calls:
                if kept.kind == "attribute" and kept.callee == site.callee and kept.scope == symbol.qualname:
                    out.add(Breaking(target, caller, symbol.path, kept.line,
                                     f"'{name}' is now a method: this reads the method, not a value"))
    return out


# Decorators that leave a def as it is (one that became async still gives a coroutine;
# one that stopped being a property is read as a bound method)
_PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod", "abstractmethod", "override", "overload"})


def _async_turns(base: SymbolGraph, changed: tuple[ChangedSymbol, ...], head_facts: Mapping[str, FileFacts],
                 base_facts: Mapping[str, FileFacts]) -> Iterator[tuple[ChangedSymbol, Definition]]:
    """The functions and methods that became async or stopped being, with their head
    definition; not one under a decorator that may wrap it (into either kind)."""
    for c in changed:
        if c.change != "modified" or c.symbol.kind not in ("function", "method"):
            continue
        new, old = _definition_of(c.symbol, head_facts), _definition_of(base.symbols.get(c.symbol.id), base_facts)
        if new is not None and old is not None and new.is_async != old.is_async and _plain(new):
            yield c, new


def _now_async(head: SymbolGraph, base: SymbolGraph, changed: tuple[ChangedSymbol, ...],
               head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts]) -> set[Breaking]:
    """Calls that drop the value of a def that became async (``fetch(url)`` as a statement
    of its own): calling it now only makes a coroutine, nothing awaits it, and its body
    never runs. A def under another decorator may be wrapped back into a plain one."""
    targets = {c.symbol.id for c, new in _async_turns(base, changed, head_facts, base_facts) if new.is_async}
    out: set[Breaking] = set()
    for call in head.linked.calls if targets else ():
        if call.target not in targets or call.guess or call.site.kind != "call" or not call.site.callee:
            continue
        name = call.target.rsplit("::", 1)[-1]
        path = _path_of(head, call.caller)
        facts = head_facts.get(path)
        if facts is not None and (call.line, call.site.callee) in facts.discarded and _last(call.site.callee) == name:
            out.add(Breaking(call.target, call.caller, path, call.line,
                             f"'{name}' is now async: this call only makes a coroutine, which nothing awaits"))
    return out


# Return annotations of values no `await` takes
_NOT_AWAITABLE = frozenset({
    "None", "int", "float", "complex", "str", "bytes", "bytearray", "bool", "list", "dict", "set", "frozenset",
    "tuple", "List", "Dict", "Set", "FrozenSet", "Tuple", "Iterator", "Generator", "Iterable", "Sequence",
    "Mapping",
})


def _no_longer_async(head: SymbolGraph, base: SymbolGraph, changed: tuple[ChangedSymbol, ...],
                     head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts]) -> set[Breaking]:
    """``await load()`` where ``load`` stopped being async and gives what cannot be
    awaited: nothing (no ``return`` of a value), or a value annotated as no awaitable
    (``-> int``). One that may still return a coroutine (``return fetch()``, unannotated)
    is left alone, as is a call that may reach an override still async."""
    targets = {c.symbol.id: c.symbol.qualname.rsplit("::", 1)[-1]
               for c, new in _async_turns(base, changed, head_facts, base_facts)
               if not new.is_async and _gives_no_awaitable(new, head_facts.get(c.symbol.path))}
    if not targets:
        return set()
    reached: dict[tuple[str, int, CallSite], set[str]] = defaultdict(set)
    for call in head.linked.calls:
        reached[(call.caller, call.line, call.site)].add(call.target)
    out: set[Breaking] = set()
    for (caller, line, site), found in reached.items():
        if len(found) != 1 or not found & targets.keys() or not site.callee:
            continue
        target = next(iter(found))
        path = _path_of(head, caller)
        facts = head_facts.get(path)
        if facts is not None and (line, site.callee) in facts.awaited and _last(site.callee) == targets[target]:
            out.add(Breaking(target, caller, path, line,
                             f"'{targets[target]}' is no longer async: awaiting what it returns fails"))
    return out


def _gives_no_awaitable(definition: Definition, facts: FileFacts | None) -> bool:
    """What the def gives cannot be awaited: annotated as a builtin value (``-> int``,
    ``-> None``, ``-> list[str]``), or unannotated with no ``return`` of a value."""
    returns = definition.signature.returns if definition.signature else None
    if returns is not None:
        return returns.split("[", 1)[0].rsplit(".", 1)[-1] in _NOT_AWAITABLE
    if facts is None:
        return False
    return not any(b.scope == definition.qualname and b.kind == "return" and b.value for b in facts.bindings)


def _stale_modules(changed: tuple[ChangedSymbol, ...], head_facts: Mapping[str, FileFacts],
                   base_facts: Mapping[str, FileFacts], modules: _Modules) -> set[Breaking]:
    """Unguarded imports of a module that no longer exists (its file deleted or moved
    away): importing the importer now fails. A package that lost only its
    ``__init__.py`` still imports, as a namespace package."""
    deleted = base_facts.keys() - head_facts.keys()
    if not deleted:
        return set()
    before, now = modules.base, modules.head
    gone: dict[str, str] = {}  # module name -> its path in base
    for name, paths in before.by_name.items():
        for old in paths:
            if old in deleted and name not in now.by_name and not _still_a_namespace(old, now):
                gone[name] = old
    if not gone:
        return set()
    moved = {c.old_id: c.symbol.path for c in changed
             if c.change == "renamed" and c.symbol.kind == "module" and c.old_id}
    out: set[Breaking] = set()
    for path, facts in head_facts.items():
        for imp in facts.imports:
            found = None if imp.type_only or imp.conditional else _gone_module(path, imp, gone, now, head_facts)
            if found is None or not _importable_from(found, gone[found], path):
                continue
            old = gone[found]
            where = f"was moved to {moved[old]}" if old in moved else "no longer exists"
            caller = path if not imp.scope else f"{path}::{imp.scope}"
            out.add(Breaking(old, caller, path, imp.line, f"imports '{found}', which {where}"))
    return out


def _importable_from(name: str, old: str, importer: str) -> bool:
    """Whether ``import name`` in ``importer`` found the file ``old``: not where the standard
    library has a module of that name, and, for a file outside the repository's roots
    (``test/ext/mypy/files/inspect.py``, data for a tool's tests), only from its own
    directory tree, which a script or test run there has on its path."""
    if name.partition(".")[0] in sys.stdlib_module_names:
        return False
    parts = old.split("/")
    if parts[-1].startswith("__init__."):
        parts.pop()
    root = "/".join(parts[: max(len(parts) - len(name.split(".")), 0)])
    return root in ("", "src", "lib") or importer.startswith(root + "/")


def _still_a_namespace(old: str, now: ModuleIndex) -> bool:
    directory = old.rpartition("/")[0]
    return old.endswith(("/__init__.py", "/__init__.pyi")) and any(p.startswith(directory + "/") for p in now.name_of)


def _gone_module(path: str, imp: Import, gone: Mapping[str, str], now: ModuleIndex,
                 head_facts: Mapping[str, FileFacts]) -> str | None:
    """The gone module an import asks for: the one it names, or the submodule
    ``from pkg import old`` takes when pkg binds no such name itself."""
    module = now.absolute(path, imp.module, imp.level)
    if module is None:
        return None
    if module in gone:
        return module
    sub = f"{module}.{imp.name}" if imp.name not in (None, "*") else None
    if sub is None or sub not in gone:
        return None
    for init in now.paths(module, path):
        names = _module_names(head_facts[init]) if init in head_facts else set()
        if names is None or imp.name in names:
            return None  # the package binds that name (or may: a star import, a __getattr__)
    return sub


def _stale_names(base: SymbolGraph, changed: tuple[ChangedSymbol, ...], head_facts: Mapping[str, FileFacts],
                 base_facts: Mapping[str, FileFacts], indexes: _Modules) -> tuple[set[Breaking], set[Breaking]]:
    """Names a module no longer binds (a def removed or moved away, a constant dropped),
    still used in head: ``from m import helper`` fails on import, ``m.helper`` where
    it is read, and ``from m import *`` where m's ``__all__`` still lists it. The
    imports, then the reads and ``__all__`` entries."""
    paths = {c.symbol.path for c in changed} | {c.old_id.split("::", 1)[0] for c in changed if c.old_id}
    paths &= head_facts.keys() & base_facts.keys()
    lost: dict[str, set[str]] = {}
    for path in sorted(paths):
        before, now = _module_names(base_facts[path]), _module_names(head_facts[path])
        # a star import: expanded where it imports a module of the repository (the
        # indexes that needs are built only then)
        before = _bound_names(path, base_facts, indexes.base) if before is None else before
        now = _bound_names(path, head_facts, indexes.head) if now is None else now
        if before is not None and now is not None and before - now:
            lost[path] = before - now
    if not lost:
        return set(), set()
    modules, was = indexes.head, indexes.base
    _reexported(lost, head_facts, base_facts, modules, was)
    stale = _Stale(base, lost, {c.old_id: c.symbol.path for c in changed if c.change == "renamed" and c.old_id},
                   modules, base_facts, was)
    imports: set[Breaking] = set()
    reads: set[Breaking] = set()
    for path, facts in head_facts.items():
        imports.update(stale.imports(path, facts))
        reads.update(stale.reads(path, facts))
    for path in lost:
        reads.update(stale.exports(path, head_facts[path]))
    return imports, reads


def _reexported(lost: dict[str, set[str]], head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts],
                modules: ModuleIndex, before: ModuleIndex) -> None:
    """Add to ``lost`` the modules that star-import what a module of it lost (a package
    ``__init__`` with ``from .util import *``). ``modules`` and ``before`` index head and base."""
    for path, sources in sorted(_star_importers(list(lost), head_facts, modules).items()):
        if path in lost or path not in base_facts:
            continue
        was, now = _bound_names(path, base_facts, before), _bound_names(path, head_facts, modules)
        if was is None or now is None:
            continue
        gone = {name for name in was - now if any(name in lost[source] for source in sources)}
        if gone:
            lost[path] = gone


def _home(path: str, name: str, facts: Mapping[str, FileFacts], modules: ModuleIndex,
          seen: frozenset[str] = frozenset()) -> str | None:
    """The module whose own code binds ``name`` for ``path``: itself, or one it star-imports."""
    own = _module_names(facts[path], stars=False)
    if own is not None and name in own:
        return path
    for imp in facts[path].imports:
        if imp.scope or imp.name != "*":
            continue
        module = modules.absolute(path, imp.module, imp.level)
        for source in modules.paths(module, path) if module else ():
            found = _home(source, name, facts, modules, seen | {path}) \
                if source in facts and source not in seen else None
            if found is not None:
                return found
    return None


@dataclass(frozen=True)
class _Stale:
    """What head still asks of modules that lost names (see :func:`_stale_names`)."""

    base: SymbolGraph
    lost: Mapping[str, set[str]]  # module path -> the names it no longer binds
    moved: Mapping[str, str]  # old id -> the path its symbol moved to
    modules: ModuleIndex  # head's
    base_facts: Mapping[str, FileFacts]
    base_modules: ModuleIndex

    def imports(self, path: str, facts: FileFacts) -> Iterator[Breaking]:
        """``from m import NAME``, unguarded, where ``m`` no longer binds NAME."""
        gone = set().union(*self.lost.values())
        for imp in facts.imports:
            if imp.name not in gone or imp.type_only or imp.conditional:
                continue
            module = self.modules.absolute(path, imp.module, imp.level)
            if module is None or self.modules.is_module(f"{module}.{imp.name}"):
                continue  # a submodule, not a name the module binds
            caller = path if not imp.scope else f"{path}::{imp.scope}"
            yield from self._breaking(module, imp.name, path, caller, imp.line, "imports")

    def exports(self, path: str, facts: FileFacts) -> Iterator[Breaking]:
        """``__all__`` entries of a module naming what it no longer binds: ``from m
        import *`` raises AttributeError, here and in every other project importing it."""
        listed = {b.value.strip("'\""): b.line for b in facts.bindings
                  if not b.scope and b.target == "__all__[]" and b.value}
        for name in sorted(set(facts.all_names or ()) & self.lost[path]):
            target = f"{path}::{name}"
            where = f"was moved to {self.moved[target]}" if target in self.moved else f"{path} no longer defines"
            yield Breaking(target if target in self.base.symbols else path, path, path, listed.get(name, 1),
                           f"__all__ lists '{name}', which {where}: a star import of the module fails")

    def reads(self, path: str, facts: FileFacts) -> Iterator[Breaking]:
        """``m.NAME`` read (not called: calls are checked as calls) where ``m`` is a module
        imported unguarded that no longer binds NAME. An annotation that never runs (of a
        local variable, or any under ``from __future__ import annotations``) is not read."""
        imported, rebound = _module_scope(facts)
        names = {name for _, name in imported}
        annotations = {(b.line, b.value.removesuffix("()")): b.scope for b in facts.bindings
                       if b.kind == "annotation" and b.value}
        for site in facts.calls:
            if site.kind != "attribute" or not site.callee or site.callee.split(".", 1)[0] not in names:
                continue
            where = annotations.get((site.line, site.callee))
            never_runs = facts.postponed_annotations or (where == site.scope and _is_function(facts, where))
            if where is not None and never_runs:
                continue
            found = _module_read(self.modules, path, site, imported, rebound)
            if found is not None:
                caller = path if not site.scope else f"{path}::{site.scope}"
                yield from self._breaking(*found, path, caller, site.line, "reads")

    def _breaking(self, module: str, name: str, path: str, caller: str, line: int, verb: str) -> Iterator[Breaking]:
        for source in self.modules.paths(module, path):
            if name not in self.lost.get(source, ()):
                continue
            # re-exported by a star import: the module that defined it is the one to name
            home = (_home(source, name, self.base_facts, self.base_modules) if source in self.base_facts
                    else None) or source
            target = f"{home}::{name}"
            where = f"was moved to {self.moved[target]}" if target in self.moved else f"{home} no longer defines"
            yield Breaking(target if target in self.base.symbols else home, caller, path, line,
                           f"{verb} '{name}', which {where}")


def _stale_class_reads(head: SymbolGraph, changed: tuple[ChangedSymbol, ...], head_facts: Mapping[str, FileFacts],
                       base_facts: Mapping[str, FileFacts]) -> Iterator[Breaking]:
    """``Color.GREEN`` or ``Settings.TIMEOUT`` where the class's body no longer binds the
    name and nothing else gives it one: AttributeError where it is read."""
    for c in changed:
        if c.symbol.kind != "class" or c.change != "modified" or not c.names or c.symbol.id not in head.class_reads:
            continue
        reads = head.class_reads[c.symbol.id]
        stored = _stored_from_outside(c.symbol, {c.symbol.path} | {_path_of(head, r.reader) for r in reads},
                                      head_facts)
        if stored is None:
            continue
        lost = _class_names_lost(c.symbol, head, head_facts, base_facts) - stored
        for read in reads:
            if read.name in lost:
                yield Breaking(c.symbol.id, read.reader, _path_of(head, read.reader), read.line,
                               f"reads '{read.name}', which {c.symbol.id} no longer defines")


# bases from outside the repository that give their subclasses no names a class body
# could have bound (but their own methods, which a class-level name shadowed)
_NAMELESS_BASES = frozenset({"object", "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"})
_ENUM_TYPES = (enum.IntFlag, getattr(enum, "StrEnum", enum.Enum))  # what those give (str's from 3.11)


def _class_names_lost(cls: Symbol, head: SymbolGraph, head_facts: Mapping[str, FileFacts],
                      base_facts: Mapping[str, FileFacts]) -> set[str]:
    """Names the class's body bound in base (not by a def) that neither it nor any base
    binds in head; none when a base from outside the repository or a metaclass may."""
    old, new = base_facts.get(cls.path), head_facts.get(cls.path)
    if old is None or new is None:
        return set()
    lost = {b.target for b in old.bindings if b.scope == cls.qualname and b.kind != "annotation"
            and b.target.isidentifier() and not b.target.startswith("__")}
    for ancestor in _class_and_bases(head, cls.id):
        facts = head_facts.get(ancestor.path)
        definition = _definition_of(ancestor, head_facts)
        if facts is None or definition is None or definition.metaclass is not None:
            return set()
        if any(b.rsplit(".", 1)[-1] not in _NAMELESS_BASES for b in _outside_bases(head, ancestor, definition)):
            return set()
        lost -= {b.target for b in facts.bindings if b.scope == ancestor.qualname}
        lost -= {d.name for d in facts.definitions if d.parent == ancestor.qualname}
    return {name for name in lost if not any(hasattr(base, name) for base in _ENUM_TYPES)}


def _stored_from_outside(cls: Symbol, paths: Iterable[str], head_facts: Mapping[str, FileFacts]) -> set[str] | None:
    """Names set on the class from elsewhere (``Settings.TIMEOUT = 5``) in these files;
    None (any name) when its module calls ``setattr``."""
    name = cls.qualname.rsplit("::", 1)[-1]
    out: set[str] = set()
    for path in paths:
        facts = head_facts.get(path)
        for site in facts.calls if facts is not None else ():
            callee = site.callee or ""
            if site.kind == "store" and callee.rpartition(".")[0].rsplit(".", 1)[-1] == name:
                out.add(callee.rpartition(".")[2])
            elif path == cls.path and site.kind == "call" and callee.rsplit(".", 1)[-1] == "setattr":
                return None
    return out


def _left_abstract(head: SymbolGraph, base: SymbolGraph, changed: tuple[ChangedSymbol, ...],
                   head_facts: Mapping[str, FileFacts], base_facts: Mapping[str, FileFacts]) -> Iterator[Breaking]:
    """A method made abstract (``@abstractmethod`` added, or a new abstract method) on
    a class under ``ABCMeta``: making a subclass that does not implement it raises
    TypeError. Listed where such a subclass is made."""
    constructions: dict[str, list[ResolvedCall]] | None = None  # class id -> where it is made
    for c in changed:
        if c.symbol.kind != "method" or c.change not in ("added", "modified"):
            continue
        if not _is_abstract(_definition_of(c.symbol, head_facts)) \
                or _is_abstract(_definition_of(base.symbols.get(c.symbol.id), base_facts)):
            continue
        owner = f"{c.symbol.path}::{c.symbol.qualname.rpartition('::')[0]}"
        if owner not in base.symbols or not _under_abcmeta(head, owner, head_facts):
            continue  # a new class says what it is from the start
        if constructions is None:
            constructions = defaultdict(list)
            for call in head.linked.calls:
                if call.site.kind == "call" and not call.guess:
                    constructions[call.target].append(call)
        name = c.symbol.qualname.rsplit("::", 1)[-1]
        for sub in _left_without(head, owner, name, head_facts):
            made = sub.qualname.rsplit("::", 1)[-1]
            reason = f"makes a {made}, whose method '{name}' is abstract now" if sub.id == owner \
                else f"makes a {made}, which does not implement the abstract method '{name}'"
            for call in constructions.get(sub.id, ()):
                # by its name: `source_type(...)` with `source_type: type[Source]` makes a subclass
                if (call.site.callee or "").rsplit(".", 1)[-1] == made:
                    yield Breaking(c.symbol.id, call.caller, _path_of(head, call.caller), call.line, reason)


def _is_abstract(definition: Definition | None) -> bool:
    return definition is not None and any(
        d.removesuffix("()").rsplit(".", 1)[-1] == "abstractmethod" for d in definition.decorators)


def _under_abcmeta(head: SymbolGraph, class_id: str, head_facts: Mapping[str, FileFacts]) -> bool:
    """Whether the class is made by ``ABCMeta``, the metaclass that enforces abstract methods."""
    for cls in _class_and_bases(head, class_id):
        definition, facts = _definition_of(cls, head_facts), head_facts.get(cls.path)
        if definition is None or facts is None:
            continue
        if definition.metaclass is not None and definition.metaclass.rsplit(".", 1)[-1] == "ABCMeta":
            return True
        if any(isinstance(_standard_class(_imported_as(e, facts)), abc.ABCMeta)
               for e in _outside_bases(head, cls, definition)):
            return True
    return False


def _left_without(head: SymbolGraph, owner: str, name: str, head_facts: Mapping[str, FileFacts]) -> Iterator[Symbol]:
    """``owner`` and those of its subclasses that neither they nor a class between them
    and it (or beside it) implement ``name`` in."""
    above = {cls.id for cls in _class_and_bases(head, owner)}
    if owner in head.symbols:
        yield head.symbols[owner]
    seen, todo = {owner}, deque(head.subclasses(owner))
    while todo:
        sub = todo.popleft()
        if sub in seen:
            continue
        seen.add(sub)
        if any(_binds(cls, name, head_facts) for cls in _class_and_bases(head, sub) if cls.id not in above):
            continue  # implemented here (or by a mixin): its own subclasses inherit that
        symbol = head.symbols.get(sub)
        if symbol is not None:
            yield symbol
        todo.extend(head.subclasses(sub))


def _binds(cls: Symbol, name: str, head_facts: Mapping[str, FileFacts]) -> bool:
    facts = head_facts.get(cls.path)
    if facts is None:
        return True  # not known: assume it does
    return any(b.scope == cls.qualname and b.target == name for b in facts.bindings) or any(
        d.parent == cls.qualname and d.name == name and not _is_abstract(d) for d in facts.definitions)


def _module_read(modules: ModuleIndex, path: str, site: CallSite, imported: Mapping[tuple[str, str], Import],
             rebound: set[tuple[str, str]]) -> tuple[str, str] | None:
    """(module, name) when the site reads a name of a repository module: the first
    part of its expr an import's name in scope, then submodules, then the name."""
    parts = (site.callee or "").split(".")
    if len(parts) < 2 or not all(p.isidentifier() for p in parts):
        return None
    imp = _import_in_scope(site.scope, parts[0], imported, rebound)
    if imp is None:
        return None
    if imp.name is not None:
        base = modules.absolute(path, imp.module, imp.level)
        module = None if base is None else f"{base}.{imp.name}"
        rest = parts[1:]
    elif imp.alias or (site.callee or "").startswith(imp.module + "."):
        # `import a.b as m` reads m.NAME, `import a.b` reads a.b.NAME: module a.b
        module, rest = imp.module, parts[1 if imp.alias else imp.module.count(".") + 1:]
    else:
        module, rest = parts[0], parts[1:]
    if module is None or not rest:
        return None
    while len(rest) > 1 and modules.is_module(f"{module}.{rest[0]}"):
        module, rest = f"{module}.{rest[0]}", rest[1:]
    if not modules.is_module(module) or modules.is_module(f"{module}.{rest[0]}"):
        return None  # not a module of the repository, or a submodule read
    return module, rest[0]


def _module_scope(facts: FileFacts) -> tuple[dict[tuple[str, str], Import], set[tuple[str, str]]]:
    """The unguarded imports of a file by (scope, name bound), and the (scope, name) it
    binds otherwise: what :func:`_module_read` looks names up in."""
    imported = {(i.scope, i.bound_name): i for i in facts.imports if not (i.type_only or i.conditional)}
    return imported, _names_bound(facts)


def _names_bound(facts: FileFacts) -> set[tuple[str, str]]:
    """(scope, name) of each name a scope binds other than by an import: assigned, a
    parameter, a def or class."""
    out = {(b.scope, b.target) for b in facts.bindings if b.target.isidentifier()}
    for d in facts.definitions:
        scope, _, name = d.qualname.rpartition("::")
        out.add((scope, name))
        out.update((d.qualname, p.name) for p in (d.signature.params if d.signature else ()))
    return out


def _import_in_scope(scope: str, name: str, imported: Mapping[tuple[str, str], Import],
                     rebound: set[tuple[str, str]]) -> Import | None:
    """The import ``name`` refers to in ``scope``, innermost scope first; None when a scope
    on the way binds it otherwise (a parameter, a local of that name)."""
    parts = scope.split("::") if scope else []
    for i in range(len(parts), -1, -1):
        inner = "::".join(parts[:i])
        if (inner, name) in imported:
            return imported[(inner, name)]
        if (inner, name) in rebound:
            return None
    return None


def _is_function(facts: FileFacts, qualname: str) -> bool:
    definition = facts.definition(qualname) if qualname else None
    return definition is not None and definition.kind in ("function", "method")


def _module_names(facts: FileFacts, stars: bool = True) -> set[str] | None:
    """The names a module binds at its top level; None when it may bind names no fact
    shows (a star import, a module ``__getattr__``, writes through ``globals()``).
    Without ``stars``, star imports are left for the caller to expand."""
    names = {d.qualname for d in facts.definitions if "::" not in d.qualname}
    if any(site.callee == "globals" for site in facts.calls):
        return None
    for imp in facts.imports:
        if imp.scope == "" and imp.name == "*":
            if stars:
                return None
            continue
        if imp.scope == "":
            names.add(imp.bound_name)
    for b in facts.bindings:
        if b.kind == "global" or (b.scope == "" and b.target.isidentifier()):
            names.add(b.target)
    # a module __getattr__, defined or assigned (`__getattr__ = getattr_migration(__name__)`)
    return None if "__getattr__" in names else names


def _bound_names(path: str, facts: Mapping[str, FileFacts], modules: ModuleIndex,
                 seen: frozenset[str] = frozenset()) -> set[str] | None:
    """:func:`_module_names` with the star imports of repository modules expanded:
    ``from .util import *`` binds what util exports, its ``__all__`` (where known) or
    its public names. None where a star import reaches outside the repository, or a
    module that may bind names no fact shows."""
    names = _module_names(facts[path], stars=False)
    if names is None:
        return None
    for imp in facts[path].imports:
        if imp.scope or imp.name != "*":
            continue
        module = modules.absolute(path, imp.module, imp.level)
        sources = [p for p in modules.paths(module, path) if p in facts] if module else []
        if not sources or seen & set(sources):
            return None
        for source in sources:
            exported = _bound_names(source, facts, modules, seen | {path})
            if exported is None:
                return None
            listed = facts[source].all_names
            names.update(exported & set(listed) if listed is not None else
                         {n for n in exported if not n.startswith("_")})
    return names


def _star_importers(lost: Iterable[str], facts: Mapping[str, FileFacts], modules: ModuleIndex) -> dict[str, set[str]]:
    """Modules that star-import, directly or through others, a module of ``lost``: path ->
    the modules of ``lost`` it reaches."""
    direct: dict[str, set[str]] = defaultdict(set)
    for path, found in facts.items():
        for imp in found.imports:
            if not imp.scope and imp.name == "*":
                module = modules.absolute(path, imp.module, imp.level)
                direct[path].update(modules.paths(module, path) if module else ())
    reached: dict[str, set[str]] = {}
    frontier = {p: {p} for p in lost}
    while frontier:
        step: dict[str, set[str]] = defaultdict(set)
        for importer, sources in direct.items():
            for source in sources & frontier.keys():
                new = frontier[source] - reached.get(importer, set())
                if new:
                    step[importer] |= new
        for importer, origins in step.items():
            reached.setdefault(importer, set()).update(origins)
        frontier = dict(step)
    return reached


def _sites_reaching(graph: SymbolGraph, facts: Mapping[str, FileFacts], target: str,
                    kind: str) -> Iterator[tuple[str, CallSite]]:
    """(caller, site) for each site of ``kind`` on a line where the caller reaches ``target``."""
    if target not in graph.graph:
        return
    for caller in sorted(graph.graph.pred[target]):
        symbol = graph.symbols.get(caller)
        found = facts.get(symbol.path) if symbol is not None else None
        lines = set(graph.lines(caller, target))
        if symbol is None or found is None or not lines:
            continue
        scope = "" if symbol.kind == "module" else symbol.qualname
        for site in found.calls:
            if site.kind == kind and site.line in lines and site.scope == scope:
                yield caller, site


def _definition_of(symbol: Symbol | None, facts: Mapping[str, FileFacts]) -> Definition | None:
    found = facts.get(symbol.path) if symbol is not None else None
    return found.definition(symbol.qualname) if found is not None and symbol is not None else None


def _plain(definition: Definition) -> bool:
    """No decorator but those that leave the def a def (no wrapper, no descriptor)."""
    return all(d.removesuffix("()").rsplit(".", 1)[-1] in _PLAIN_DECORATORS for d in definition.decorators)


def _is_property(definition: Definition) -> bool:
    return any(d.removesuffix("()").rsplit(".", 1)[-1] in PROPERTY_DECORATORS for d in definition.decorators)


def _path_of(graph: SymbolGraph, sid: str) -> str:
    symbol = graph.symbols.get(sid)
    return symbol.path if symbol is not None else ""


EXPECTED_FAILURES = frozenset({"xfail", "expectedFailure"})  # test decorators: the test may fail


def _expected_to_fail(b: Breaking, head_facts: Mapping[str, FileFacts]) -> bool:
    """A call inside ``with pytest.raises(...)`` (or ``assertRaises``), or in a test marked
    ``xfail`` / ``expectedFailure``, may fail on purpose: a test checking that a wrong call
    is refused is not broken by the refusal."""
    facts = head_facts.get(b.file) if b.file else None
    if facts is None:
        return False
    if any(first <= b.line <= last for first, last in facts.expected_errors):
        return True
    qualname = b.caller.split("::", 1)[1] if "::" in b.caller else ""
    definition = facts.definition(qualname) if qualname else None
    return definition is not None and any(
        d.removesuffix("()").rsplit(".", 1)[-1] in EXPECTED_FAILURES for d in definition.decorators)


def _alternatives(head: SymbolGraph) -> dict[tuple[str, int, CallSite], list[ResolvedCall]]:
    """The targets of each call site of head (a receiver that may be of several classes)."""
    out: dict[tuple[str, int, CallSite], list[ResolvedCall]] = {}
    for call in head.linked.calls:
        out.setdefault((call.caller, call.line, call.site), []).append(call)
    return out


def _fits_an_override(call: ResolvedCall, alternatives: Mapping[tuple[str, int, CallSite], list[ResolvedCall]],
                      head: SymbolGraph) -> bool:
    """Whether the site may reach another class's method of the same name that accepts it
    (``response.follow_all(css=...)`` where the response may be a TextResponse): the call
    was written for that one. So for the same method bound, when the callee may be
    either the method read from a class or from an instance."""
    name = call.target.rsplit("::", 1)[-1]
    for other in alternatives.get((call.caller, call.line, call.site), ()):
        sym = head.symbols.get(other.target)
        if sym is None or sym.signature is None or sym.kind != "method":
            continue
        if other.target == call.target:
            if other.bound != call.bound and _fits_none(sym, other.site, other.bound) is None:
                return True
            continue
        if other.target.rsplit("::", 1)[-1] == name and _fits_none(sym, other.site, other.bound) is None:
            return True
    return False


def _fits_another_callable(call: ResolvedCall, alternatives: Mapping[tuple[str, int, CallSite], list[ResolvedCall]],
                           head: SymbolGraph) -> bool:
    """Whether the site calls a value that may be one of several functions of other names
    (a callback or a stored converter, fed by every call that passes one), another of
    which accepts the call: which one this call gets is not known, and code that guards
    the call by the callee's kind (attrs' `Converter`, calling `self.converter(value)`
    only for one-argument converters) is written for those."""
    name = call.target.rsplit("::", 1)[-1]
    for other in alternatives.get((call.caller, call.line, call.site), ()):
        sym = head.symbols.get(other.target)
        if sym is None or sym.signature is None or other.target.rsplit("::", 1)[-1] == name:
            continue
        if head.graph.has_edge(call.target, other.target) or head.graph.has_edge(other.target, call.target):
            continue  # a wrapper and what it wraps: the call runs both
        if _fits_none(sym, other.site, other.bound) is None:
            return True
    return False


def _through_a_pass_through(call: ResolvedCall, head: SymbolGraph, head_facts: Mapping[str, FileFacts]) -> bool:
    """Whether the callee is a name bound from a call of a function that returns its own
    argument (``cls = load_object(path)``, where ``load_object`` returns ``path`` when it is
    callable): the link gives such a call every argument any caller passed, so which one
    this call got is not known."""
    callee, sym = call.site.callee, head.symbols.get(call.caller)
    facts = head_facts.get(sym.path) if sym is not None and callee and callee.isidentifier() else None
    if facts is None or sym is None:
        return False
    lines = {b.line for b in facts.bindings if b.scope == sym.qualname and b.target == callee}
    if not lines:
        return False
    for target, data in head.graph.succ[call.caller].items():
        if "calls" in data["kinds"] and lines.intersection(head.lines(call.caller, target)):
            func = head.symbols.get(target)
            if func is not None and func.kind in ("function", "method") and _returns_an_argument(func, head_facts):
                return True
    return False


def _returns_an_argument(func: Symbol, head_facts: Mapping[str, FileFacts]) -> bool:
    facts = head_facts.get(func.path)
    definition = facts.definition(func.qualname) if facts is not None else None
    if facts is None or definition is None or definition.signature is None:
        return False
    params = {p.name for p in definition.signature.params}
    return any(b.scope == func.qualname and b.target == "<return>" and b.value
               and parse_expr(b.value)[0] in params for b in facts.bindings)


def _fits_none(target: Symbol, site: CallSite, bound: bool) -> str | None:
    """Why a call fits no signature the target may have when it runs (the one it is
    reported with first), or None when it may fit one."""
    assert target.signature is not None
    reason = misfit(target.signature, site, bound)
    if reason is None or any(misfit(v, site, bound) is None for v in target.variants):
        return None
    return reason


def _takes_call_arguments(target: Symbol, head: SymbolGraph, head_facts: Mapping[str, FileFacts]) -> bool:
    """Whether the calls that reach ``target`` pass it their own arguments (see
    :func:`impactbot.link.receives_call_arguments`): also so under the one decorator of
    the repository whose wrapper hands ``target`` what it was given, untouched."""
    definition = _definition_of(target, head_facts)
    if definition is None or receives_call_arguments(definition):
        return True
    if sum(not keeps_signature(d, definition) for d in definition.decorators) != 1:
        return False  # stacked wrappers: each hands the next one something
    return any(head.forwards(wrapper, target.id) for wrapper, _ in head.callers(target.id))


def _declared_by_interface(target: Symbol, head: SymbolGraph, head_facts: Mapping[str, FileFacts]) -> bool:
    """A method of a zope.interface ``Interface`` (``def requestAvatarId(credentials):``,
    no ``self``): a declaration, whose calls run the classes that implement it."""
    if target.kind != "method":
        return False
    for cls in _class_and_bases(head, f"{target.path}::{target.qualname.rpartition('::')[0]}"):
        definition = _definition_of(cls, head_facts)
        if definition is not None and any(base.rsplit(".", 1)[-1] == "Interface" and _from_zope(base, cls, head_facts)
                                          for base in definition.bases):
            return True
    return False


def _class_and_bases(head: SymbolGraph, class_id: str) -> Iterator[Symbol]:
    """The class and every class of the repository it inherits from, nearest first."""
    seen, todo = {class_id}, deque([class_id])
    while todo:
        cls = head.symbols.get(todo.popleft())
        if cls is None or cls.kind != "class":
            continue
        yield cls
        for base in head.bases(cls.id):
            if base not in seen:
                seen.add(base)
                todo.append(base)


def _from_zope(base: str, cls: Symbol, head_facts: Mapping[str, FileFacts]) -> bool:
    facts = head_facts.get(cls.path)
    first = base.split(".", 1)[0]
    return facts is not None and any(imp.bound_name == first and imp.module.startswith("zope")
                                     for imp in facts.imports)


MAX_REEXPORTS = 5  # modules a name is followed through when telling where it comes from

# Calling a class runs __new__ and __init__, calling an instance runs __call__:
# with the call's own arguments, so those calls are checked like any other.
_CALL_DUNDERS = frozenset({"__init__", "__new__", "__call__"})


def _implied(callee: str | None, target: Symbol) -> bool:
    """A protocol method reached through a builtin or syntax, not called by name."""
    name = target.qualname.rsplit("::", 1)[-1]
    if not (name.startswith("__") and name.endswith("__")) or name in _CALL_DUNDERS:
        return False
    return (callee or "").rsplit(".", 1)[-1] != name


# What every class gets from object, callable with the same arguments (``__init__``
# and ``__new__`` are not: object's take none)
_OBJECT_DUNDERS = frozenset({
    "__eq__", "__ne__", "__hash__", "__repr__", "__str__", "__format__", "__dir__", "__sizeof__",
    "__reduce__", "__reduce_ex__", "__getattribute__", "__setattr__", "__delattr__", "__init_subclass__",
    "__subclasshook__", "__getstate__",
})


def _still_called(head: SymbolGraph, base: SymbolGraph, removed: Symbol, head_facts: Mapping[str, FileFacts],
                  callees: Mapping[tuple[str, str], set[str]], left: _LeftBehind,
                  moved_to: Symbol | None = None) -> Iterable[Breaking]:
    """Callers in head that still name a removed (or moved) symbol and reach nothing in its place."""
    if removed.id not in base.graph or _still_an_attribute(removed, head, head_facts, left) \
            or _given_by_a_standard_base(removed, head, head_facts):
        return
    name = removed.qualname.rsplit("::", 1)[-1]
    if "::" in removed.qualname and name in _OBJECT_DUNDERS:
        return  # `a == b`, `repr(a)` without a method of the class's own run object's
    # a caller base linked by the name alone guessed; with that name still a method of the
    # repository (now on two classes, so no longer guessed), the guess says nothing more
    named_still = name in head.method_names()
    owner = base.symbols.get(f"{removed.path}::{removed.qualname.rpartition('::')[0]}")
    class_gone = owner is not None and owner.kind == "class" and owner.id not in head.symbols
    if class_gone and owner is not None and "::" not in owner.qualname and removed.path in head_facts:
        bound = left.binds(removed.path)
        if bound is None or owner.qualname in bound:
            return  # `Future = asyncio.Future` in its place: objects of that name have their own methods
    for caller, conf in base.callers(removed.id):
        sym = head.symbols.get(caller)
        if sym is None:
            continue
        if _still_reaches(head, caller, removed, conf) or (conf == "name_match" and named_still):
            continue  # still reaches a symbol of that name: moved, not gone
        if conf == "inferred" and class_gone:
            continue  # no object of that class is made any more: what `obj.m()` may hold is another
        if conf == "name_match" and class_gone and removed.path not in head_facts:
            # a guess by the name alone into a module deleted with its classes (twisted's
            # fallback `_keys_pynacl` keys): the object is another library's; an import of
            # the deleted module, if any is left, is listed as such
            continue
        # the calls written as in base: `logging.info()` in place of the removed `util.info()`
        # is another function, not the old call left behind
        written = callees.get((caller, removed.id))
        facts = head_facts.get(sym.path)
        sites = [site for site in (facts.calls if facts else ())
                 if site.scope == sym.qualname and site.callee and _last(site.callee) == name]
        # the read of a name that is called or applied there (`@util.memoized_property`)
        # is the call's own expr: the call says whether it still resolves
        called = {(site.line, site.callee) for site in sites if site.kind != "attribute"}
        for site in sites:
            if site.kind == "attribute" and (site.line, site.callee) in called:
                continue
            if _own_class_binds(head, head_facts, sym, site.callee or "", name):
                continue
            if conf == "resolved" and class_gone and owner is not None \
                    and _receiver(site.callee or "") != owner.qualname.rsplit("::", 1)[-1]:
                continue  # `obj.m()` where no object of the gone class is made: obj holds another
            if not left.stale(site, sym, removed):
                continue
            if written is None or site.callee in written:
                gone = f"moved to {moved_to.path}" if moved_to is not None else "removed"
                yield Breaking(removed.id, caller, sym.path, site.line, f"calls '{name}', which was {gone}")


def _own_class_binds(head: SymbolGraph, head_facts: Mapping[str, FileFacts], caller: Symbol, callee: str,
                     name: str) -> bool:
    """``self.NAME`` in a method whose class, or one of its bases, binds NAME in head
    in its body (a def too) or on its instances (``_label_style: Style = NONE`` in place
    of a property elsewhere), or gets it from a builtin or standard-library base: the
    read reaches that. ``super().NAME`` looks past the method's own class (a mixin's
    ``tearDown`` gone, ``unittest.TestCase``'s is next)."""
    if caller.kind != "method":
        return False
    owner = f"{caller.path}::{caller.qualname.rpartition('::')[0]}"
    if callee in (f"self.{name}", f"cls.{name}"):
        skip = None
    elif callee == f"super().{name}" or (callee.startswith("super(") and callee.endswith(f").{name}")):
        skip = owner
    else:
        return False
    for cls in _class_and_bases(head, owner):
        facts, definition = head_facts.get(cls.path), _definition_of(cls, head_facts)
        if facts is None or definition is None:
            continue
        inside = cls.qualname + "::"
        if cls.id != skip and (_binds(cls, name, head_facts) or any(
                b.scope.startswith(inside) and b.target == f"self.{name}" for b in facts.bindings)):
            return True
        if any(_standard_has(_imported_as(e, facts), name) for e in _outside_bases(head, cls, definition)):
            return True
    return False


def _still_an_attribute(removed: Symbol, head: SymbolGraph, head_facts: Mapping[str, FileFacts],
                        left: _LeftBehind) -> bool:
    """A removed method or property whose class, in head, still binds the name another
    way: in its body (``validator: SchemaValidator``) or on its instances
    (``self.validator = ...``); a removed module-level def whose module still binds the
    name (``OrderedDict = dict``, an import). Reading or calling it reaches that."""
    owner, _, name = removed.qualname.rpartition("::")
    if not owner and removed.path in head_facts:  # `OrderedDict = dict` in place of `class OrderedDict`
        names = left.binds(removed.path)
        return names is None or name in names
    cls = head.symbols.get(f"{removed.path}::{owner}") if owner else None
    facts = head_facts.get(removed.path) if cls is not None and cls.kind == "class" else None
    if facts is None:
        return False
    inside = owner + "::"
    return any(
        (b.scope == owner and b.target == name)
        or (b.scope.startswith(inside) and b.target.count(".") == 1 and b.target.endswith("." + name))
        for b in facts.bindings
    )


def _given_by_a_standard_base(removed: Symbol, head: SymbolGraph, head_facts: Mapping[str, FileFacts]) -> bool:
    """A removed method its class, in head, still gets from a standard-library base
    (Django's backport of ``assertNoLogs`` gone, ``unittest.TestCase`` has it; a
    Python 2 ``write`` gone, ``io.TextIOWrapper`` has it), or may get from a base
    made by a call (a ``namedtuple(...)``'s fields)."""
    owner, _, name = removed.qualname.rpartition("::")
    if not owner:
        return False
    for cls in _class_and_bases(head, f"{removed.path}::{owner}"):
        definition, facts = _definition_of(cls, head_facts), head_facts.get(cls.path)
        if definition is None or facts is None:
            continue
        for expr in _outside_bases(head, cls, definition):
            if expr.endswith(")"):
                return True  # a class made by a call (`namedtuple("URL", [..., "password"])`): it may have it
            if _standard_has(_imported_as(expr, facts), name):
                return True
    return False


def _outside_bases(head: SymbolGraph, cls: Symbol, definition: Definition) -> list[str]:
    """The bases a class names that are no class of the repository, each without its
    subscript (``typing.MutableMapping[str, str]`` is ``typing.MutableMapping``)."""
    resolved = {b.rsplit("::", 1)[-1] for b in head.bases(cls.id)}
    exprs = (b.split("[", 1)[0] for b in definition.bases)
    return [e for e in exprs if e.endswith(")") or e.rsplit(".", 1)[-1] not in resolved]


def _imported_as(expr: str, facts: FileFacts) -> str | None:
    """The dotted path a name read at module level stands for through the module's
    imports (``TextIOWrapper`` from ``from io import TextIOWrapper`` is io.TextIOWrapper),
    or among the builtins (``dict``) when nothing imports it."""
    first, _, rest = expr.partition(".")
    imp = next((i for i in facts.imports if not i.scope and i.bound_name == first and not i.level), None)
    if imp is None:
        return None if rest else f"builtins.{expr}"
    if imp.name is not None:
        found = f"{imp.module}.{imp.name}"
    elif imp.alias:
        found = imp.module
    else:
        return expr  # `import a.b` binds a: the expr is the path
    return f"{found}.{rest}" if rest else found


# modules that act when imported (open a browser, print)
_NOT_IMPORTED = frozenset({"antigravity", "this", "__hello__", "__phello__", "__main__", "idlelib", "turtledemo"})


def _standard_has(dotted: str | None, name: str) -> bool:
    """Whether the builtin or standard-library class at ``dotted`` has ``name``."""
    found = _standard_class(dotted)
    return found is not None and hasattr(found, name)


@lru_cache(maxsize=256)
def _standard_class(dotted: str | None) -> type | None:
    """The standard library's class at a dotted path, or None."""
    parts = (dotted or "").split(".")
    if parts[0] not in sys.stdlib_module_names or parts[0] in _NOT_IMPORTED:
        return None
    for k in range(len(parts) - 1, 0, -1):
        try:
            with warnings.catch_warnings():  # a deprecated module says so when imported
                warnings.simplefilter("ignore")
                found: object = importlib.import_module(".".join(parts[:k]))
            for attr in parts[k:]:
                found = getattr(found, attr)
        except Exception:  # a module of another platform, or no such name
            continue
        found = found if isinstance(found, type) else typing.get_origin(found)  # typing.MutableMapping
        return found if isinstance(found, type) else None
    return None


@dataclass(frozen=True)
class _LeftBehind:
    """What head says of the call sites that still name a removed def."""

    resolved: set[tuple[str, CallSite]]  # (caller, site) that resolve to a symbol of head
    undefined: set[tuple[str, str, int]]  # (caller, callee, line) naming nothing in scope
    facts: Mapping[str, FileFacts] = field(default_factory=dict)  # head's, by path
    modules: ModuleIndex | None = None  # head's
    decorated: set[tuple[str, int]] = field(default_factory=set)  # (caller, line) of decorators that resolve
    # path -> its imports and other names by scope, read once per file
    scopes: dict[str, tuple[dict[tuple[str, str], Import], set[tuple[str, str]]]] = field(default_factory=dict)
    bound: dict[str, set[str] | None] = field(default_factory=dict)  # path -> the names it binds, read once

    @classmethod
    def of(cls, head: SymbolGraph, facts: Mapping[str, FileFacts], modules: ModuleIndex) -> _LeftBehind:
        # decorators are not kept as calls (nothing checks their arguments); one stands
        # alone on its line, so an edge from that line is its own
        lines = {(e.source, line) for e in head.linked.edges
                 if e.kind == "calls" and e.confidence != "name_match" for line in e.lines}
        decorated = {(symbol_id(path, site.scope), site.line) for path, found in facts.items()
                     for site in found.calls if site.kind == "decorator"}
        return cls({(c.caller, c.site) for c in head.linked.calls}, set(head.linked.dangling), facts,
                   modules, decorated & lines)

    def stale(self, site: CallSite, caller: Symbol, removed: Symbol) -> bool:
        """Whether the site still calls the removed def: it resolves to nothing in head.

        One that resolves to a symbol calls that (`set_class = OrderedSet` in place of
        a removed `def set_class`); a plain name of the removed def's own file that is
        defined in head is bound to something else there (a local `def itemgetter`
        gone, the imported `operator.itemgetter` left).
        """
        if (caller.id, site) in self.resolved or self._imported_from_outside(site, caller):
            return False
        if site.kind == "decorator" and (caller.id, site.line) in self.decorated:
            return False
        if self._module_still_binds(site, caller):
            return False
        if caller.path == removed.path and site.callee and "." not in site.callee:
            return (caller.id, site.callee, site.line) in self.undefined
        return True

    def _module_still_binds(self, site: CallSite, caller: Symbol) -> bool:
        """The site reads the name through a module of the repository that, in head,
        still binds it (re-exported from where it went: ``util.immutabledict``)."""
        facts = self.facts.get(caller.path)
        if facts is None or self.modules is None or not site.callee or "." not in site.callee:
            return False
        if caller.path not in self.scopes:
            self.scopes[caller.path] = _module_scope(facts)
        found = _module_read(self.modules, caller.path, site, *self.scopes[caller.path])
        if found is None or not site.callee.endswith("." + found[1]):
            return False
        module, name = found
        for path in self.modules.paths(module, caller.path):
            names = self.binds(path) if path in self.facts else set()
            if names is None or name in names:
                return True
        return False

    def binds(self, path: str) -> set[str] | None:
        """The names the module at ``path`` binds in head (see :func:`_bound_names`)."""
        if path not in self.bound:
            self.bound[path] = _bound_names(path, self.facts, self.modules or ModuleIndex.build(self.facts))
        return self.bound[path]

    def _imported_from_outside(self, site: CallSite, caller: Symbol) -> bool:
        """The site's first name is imported, in head, from outside the repository
        (``from typing_extensions import get_origin`` in place of the project's own), or
        bound to what such a name holds, here or in a module it reads the name from."""
        facts = self.facts.get(caller.path)
        if facts is None or self.modules is None or not site.callee:
            return False
        first = parse_expr(site.callee)[0]
        parts = caller.qualname.split("::")
        scopes = {"", *("::".join(parts[: i + 1]) for i in range(len(parts)))}
        if self._outside(first, caller.path, scopes, 0):
            return True
        # through a module of the repository: `keys.Key.generate()` where keys binds Key so
        if caller.path not in self.scopes:
            self.scopes[caller.path] = _module_scope(facts)
        found = _module_read(self.modules, caller.path, site, *self.scopes[caller.path])
        return found is not None and any(
            self._outside(found[1], p, {""}, 1) for p in self.modules.paths(found[0], caller.path))

    def _outside(self, name: str, path: str, scopes: set[str], depth: int) -> bool:
        """Whether ``name``, in these scopes of ``path``, is imported from outside the
        repository, directly or re-exported by its modules (``from .helpers import reify``
        where helpers does ``from propcache.api import ... as reify``)."""
        facts = self.facts.get(path)
        if facts is None or self.modules is None or depth > MAX_REEXPORTS:
            return False
        for imp in facts.imports:
            bound = imp.alias or imp.name or imp.module.split(".", 1)[0]
            if imp.name == "*" or imp.scope not in scopes or bound != name:
                continue
            module = self.modules.absolute(path, imp.module, imp.level)
            if module is None or imp.name is None:
                return module is not None and not self.modules.is_module(module.split(".", 1)[0])
            if self.modules.is_module(f"{module}.{imp.name}"):
                return False  # a module of the repository
            if not self.modules.is_module(module):
                # a package of another project; a module gone from one of ours is not that
                return not self.modules.is_module(module.split(".", 1)[0])
            found = self.modules.paths(module, path)
            if any(d.qualname == imp.name for p in found if p in self.facts for d in self.facts[p].definitions):
                return False  # defined there
            return any(self._outside(imp.name, p, {""}, depth + 1) for p in found)
        # a name bound, once, to what another name holds: `Key = ed25519.Key`
        values = {b.value for b in facts.bindings if b.scope in scopes and b.target == name and b.kind == "assign"}
        if len(values) == 1 and (value := values.pop()) and not value.startswith("<"):
            root = parse_expr(value)[0]
            return root != name and root.isidentifier() and self._outside(root, path, scopes, depth + 1)
        return False


def _callees_of(base: SymbolGraph, targets: set[str],
                base_facts: Mapping[str, FileFacts]) -> dict[tuple[str, str], set[str]]:
    """(caller, target) -> the callee exprs of the caller's base calls that resolved to
    one of ``targets`` (a caller that reached it by a name match alone has none).

    Reads of a property and operators (``d[k]``) are not checked calls: their exprs come
    from the base facts, at the lines of the edge (``CoreMetadataHandler(m).metadata``
    is not ``m.metadata``)."""
    out: dict[tuple[str, str], set[str]] = {}
    for call in base.linked.calls:
        if call.target in targets and call.site.callee:
            out.setdefault((call.caller, call.target), set()).add(call.site.callee)
    for target in targets & base.graph.nodes:
        name = target.rsplit("::", 1)[-1]
        for caller, data in base.graph.pred[target].items():
            kinds, sym = data["kinds"], base.symbols.get(caller)
            if (caller, target) in out or kinds.get("calls", "name_match") == "name_match" or sym is None:
                continue
            facts = base_facts.get(sym.path)
            lines = base.lines(caller, target)
            read = {s.callee for s in (facts.calls if facts else ()) if s.callee
                    and s.scope == sym.qualname and s.line in lines and _last(s.callee) == name}
            if read:
                out[(caller, target)] = read
    return out


def _still_reaches(head: SymbolGraph, caller: str, removed: Symbol, confidence: Confidence) -> bool:
    """``caller`` still reaches a symbol named like ``removed`` in head: by resolution or
    inference, or by name alone when that is all base knew too. A name match does not
    stand in for a call that resolved (``util.helper()`` matched to the one ``helper``
    left in the repository after ``util.helper`` moved away)."""
    name = removed.qualname.rsplit("::", 1)[-1]
    for target, data in head.graph.succ[caller].items():
        if head.symbols.get(target, removed).qualname.rsplit("::", 1)[-1] != name:
            continue
        if any(c != "name_match" or confidence == "name_match" for c in data["kinds"].values()):
            return True
    return False


def _receiver(callee: str) -> str:
    """The last name before the called one: ``Key`` of ``keys.Key.generate``."""
    parts = callee.rsplit(".", 2)
    return parts[-2] if len(parts) > 1 else ""


def _last(callee: str) -> str:
    return callee.replace("()", "").replace("[]", "").rsplit(".", 1)[-1]
