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

from collections import defaultdict, deque
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx

from impactbot.breaking import breaking_calls
from impactbot.dispatch import Allowed, reachable, runs_for
from impactbot.link import is_unittest_class
from impactbot.link.fixtures import DEFAULT_LAYOUT, TestLayout, is_unittest_file
from impactbot.link.python import INPLACE_FALLBACKS, decorator_name, parse_expr
from impactbot.model import (
    CONFIDENCE_ORDER,
    ChangedSymbol,
    Confidence,
    Definition,
    FileFacts,
    Hub,
    Impact,
    Impacted,
    LinkedGraph,
    NameRead,
    ResolvedCall,
    Symbol,
)

# Edge kinds along which a change travels from target to source. `reads` joins a
# reader to the module or class whose changed name it reads (see add_reads).
DEPENDENT_KINDS = frozenset({
    "calls", "inherits", "uses_fixture", "requests", "signals", "reads", "defines", "runs_lambda",
})


# Set-up and tear-down hooks the test runner calls around each test: a change they reach
# reaches the tests they run for. Methods run for the tests of their class and of its
# subclasses (unittest and Django's, pytest's xunit style); module-level ones for the
# tests of their module (``setup_function`` for its test functions only).
CLASS_HOOKS = frozenset({
    "setUp", "tearDown", "setUpClass", "tearDownClass", "asyncSetUp", "asyncTearDown", "setUpTestData",
    "setup_method", "teardown_method", "setup_class", "teardown_class",
})
# How many calls down from a lambda's scope a function that runs the lambda counts as
# handed it by that scope (see SymbolGraph.hands_down).
HANDED_DEPTH = 3

# The protocol methods syntax runs that change their operand (`kwargs |= extra`).
ALTERING_PROTOCOLS = frozenset({"__setitem__", "__delitem__", "__setattr__", "__delattr__", *INPLACE_FALLBACKS})
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
        self._called_below: dict[str, set[str]] = {}

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
            confs = [c for k, c in kinds.items()
                     if k in DEPENDENT_KINDS and (k != "runs_lambda" or not self.hands_down(node, src))]
            if confs and src != node:
                how = "calls" if len(confs) == 1 and "calls" in kinds else "other"
                yield src, min(confs, key=CONFIDENCE_ORDER.__getitem__), how
        for dst, data in self.graph.succ[node].items():
            # a changed override runs wherever callers dispatch through the base method
            if "overrides" in data["kinds"]:
                yield dst, "inferred", "overrides"
        if hooks:
            yield from ((test, conf, "other") for test, conf in self._hooked_tests(node))

    def hands_down(self, holder: str, runner: str) -> bool:
        """Whether ``runner`` runs a lambda of ``holder`` only as ``holder`` hands it down
        a call chain (``raises(ValueError, lambda: parse(""))`` in a test): ``holder``
        calls ``runner`` (or a method ``runner`` overrides) within a few calls. What the
        lambda's body calls is then ``holder``'s already, and ``runner``'s other callers
        pass lambdas of their own: walking up through ``runner`` would reach them all."""
        below = self._called_below.get(holder)
        if below is None:
            below = self._called_below[holder] = self._calls_within(holder, HANDED_DEPTH)
        if runner in below:
            return True
        return any("overrides" in data["kinds"] and base in below for base, data in self.graph.succ[runner].items())

    def _calls_within(self, node: str, depth: int) -> set[str]:
        """What ``node`` calls, directly or through at most ``depth`` calls."""
        seen: set[str] = set()
        frontier = {node}
        for _ in range(depth):
            frontier = {dst for src in frontier for dst, data in self.graph.succ[src].items()
                        if "calls" in data["kinds"] and dst not in seen}
            seen |= frontier
        return seen

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
        # syntax reading a bag (`f(*args)` iterates it) leaves it as it was
        methods = {parse_expr(s.callee)[0] for s in facts.calls
                   if s.scope == closure.qualname and s.callee and "." in s.callee
                   and (s.kind != "operator" or s.callee.rpartition(".")[2] in ALTERING_PROTOCOLS)}
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
