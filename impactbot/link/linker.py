"""Resolved call sites -> the revision's symbol graph (the body of stage `link`).

Name resolution itself lives in :mod:`impactbot.link.python`; this module turns
resolved call sites into edges (calls, inherits, overrides, uses_fixture, defines,
runs_lambda), counts what could not be resolved, and falls back to a name match only
when the name is unique in the repository and says something. It is a module of its own, not the
package's ``__init__``, so that ``build_native.py`` can compile it.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from impactbot.errors import OutOfTime
from impactbot.extract import writes_init
from impactbot.link.callbacks import TEMPLATE_METHODS, callback_arguments, template_hooks
from impactbot.link.fixtures import (
    DEFAULT_LAYOUT,
    TestLayout,
    Use,
    fixture_uses,
    is_unittest_file,
    pytest_flows,
)
from impactbot.link.inits import inherited_inits
from impactbot.link.python import (
    ALIGNED,
    BUILTIN_DUNDERS,
    COMMON_METHODS,
    ITERATOR_NEXT,
    MAX_NAMED,
    PYTHON_DUNDERS,
    RESOLUTION_RECURSION_LIMIT,
    SPREAD,
    TRANSPARENT_DECORATORS,
    Defn,
    Resolver,
    Scope,
    Target,
    Values,
    decorator_name,
    fallback_chain,
    keyword_param,
    makes_property,
    param_bit,
    parse_expr,
    positional_param,
)
from impactbot.link.routes import route_edges
from impactbot.link.signals import signal_edges
from impactbot.model import (
    CONFIDENCE_ORDER,
    Binding,
    CallSite,
    Confidence,
    Definition,
    Edge,
    EdgeKind,
    FileFacts,
    LinkedGraph,
    Param,
    ResolvedCall,
    Signature,
    Symbol,
    symbol_id,
)
from impactbot.stack import deeper_stack
from impactbot.versions import LINK_VERSION as LINK_VERSION

Outcome = tuple[list[Target], str]  # targets of a call site and its status
PASSES_ON = 1  # passes after the second that pass on the arguments of calls found late
MISSING_KEY = "__missing__"  # what a dict subclass's d[key] runs for a key d lacks
# values whose call or method runs code outside the repository (or none at all)
OUTSIDE_KINDS = frozenset({"X", "B", "L", "G", "CM", "CE", "M", "D", "Q", "QM", "QT", "QC"})
Flow = tuple[tuple[str, str], tuple[str | None, str]]  # (callee id, parameter) <- (argument, caller scope)


def _is_test_symbol(
    path: str, qualname: str, kind: str, defs: Mapping[str, Definition], layout: TestLayout = DEFAULT_LAYOUT
) -> bool:
    """pytest's default collection: ``test*`` functions, and ``test*`` methods of
    ``Test*`` classes without ``__init__`` or of unittest ``TestCase`` subclasses; and
    the ``test*`` methods of ``TestCase`` subclasses in any file unittest discovers
    (``tests.py``)."""
    pytest_file = layout.is_test_file(path)
    if not (pytest_file or is_unittest_file(path)) or kind not in ("function", "method"):
        return False
    parts = qualname.split("::")
    if not parts[-1].startswith("test"):
        return False
    if len(parts) == 1:
        return kind == "function" and pytest_file
    for i in range(1, len(parts)):
        cls = defs.get("::".join(parts[:i]))
        if cls is None or cls.kind != "class":
            return False
        if is_unittest_class(cls, defs):
            continue  # unittest collects these whatever their name, __init__ or not
        if not pytest_file or not parts[i - 1].startswith("Test") or "::".join(parts[:i]) + "::__init__" in defs:
            return False  # pytest does not collect classes with __init__
    return kind == "method"


def is_unittest_class(cls: Definition, defs: Mapping[str, Definition], depth: int = 0) -> bool:
    """A subclass of ``TestCase`` (unittest's, Django's, ...), through bases in the same file."""
    for base in cls.bases:
        name = base.rsplit(".", 1)[-1]
        if name.endswith("TestCase"):
            return True
        local = defs.get(name)
        if depth < 10 and local is not None and local.kind == "class" and is_unittest_class(local, defs, depth + 1):
            return True
    return False


@dataclass
class _Edges:
    found: dict[tuple[str, str, str], tuple[str, set[int]]] = field(default_factory=dict)

    def add(self, source: str, target: str, kind: EdgeKind, confidence: Confidence, line: int) -> None:
        if source == target and kind != "calls":
            return
        key = (source, target, kind)
        old = self.found.get(key)
        if old is None:
            self.found[key] = (confidence, {line} if line else set())
            return
        best = min(old[0], confidence, key=CONFIDENCE_ORDER.__getitem__)
        if line:
            old[1].add(line)
        self.found[key] = (best, old[1])

    def edges(self) -> tuple[Edge, ...]:
        return tuple(
            Edge(s, t, k, c, tuple(sorted(lines)))  # type: ignore[arg-type]
            for (s, t, k), (c, lines) in sorted(self.found.items())
        )


def symbols_of(
    path: str, facts: FileFacts, inits: Mapping[str, Signature] | None = None, layout: TestLayout = DEFAULT_LAYOUT
) -> list[Symbol]:
    """The graph nodes one file contributes; ``inits`` holds the __init__ signatures classes
    get from their bases (see :func:`impactbot.link.inits.inherited_inits`)."""
    defs: dict[str, Definition] = {}
    for d in facts.definitions:
        defs.setdefault(d.qualname, d)
    inits = inits or {}
    return [
        Symbol(
            id=symbol_id(path, d.qualname),
            path=path,
            qualname=d.qualname,
            kind=d.kind,
            line=d.start_line,
            end_line=d.end_line,
            fingerprint=d.fingerprint,
            language=facts.language,
            # a class's own signature is the __init__ a dataclass-like decorator wrote
            signature=_signature_of(path, d, inits),
            is_test=_is_test_symbol(path, d.qualname, d.kind, defs, layout),
            variants=d.variants,
            is_async=d.is_async,
        )
        for d in defs.values()
    ]


def _signature_of(path: str, d: Definition, inits: Mapping[str, Signature]) -> Signature | None:
    if d.signature is not None:
        return d.signature
    return d.generated_init if d.generated_init is not None else inits.get(symbol_id(path, d.qualname))


def site_flows(
    path: str,
    site: CallSite,
    targets: Sequence[Target],
    params_of: Callable[[str], tuple[Param, ...] | None],
    takes_class: Callable[[str], bool] | None = None,
) -> list[Flow]:
    """The arguments one resolved call site passes into the parameters of its targets.

    A classmethod (``takes_class``) also gets its receiver into its first parameter: the
    class it is called through is what ``cls`` holds there (None: the call shows none).
    """
    scope = symbol_id(path, site.scope)
    args = site.args
    if site.kind == "decorator" and args and args[0]:
        # the innermost decorator receives the function itself; one above others, what
        # those made of it (``name@k``: from the k-th decorator down)
        parent = f"{site.scope}::" if site.scope else ""
        decorated, at, below = args[0].partition("@")
        func_id = symbol_id(path, parent + decorated)
        args = (f"<decorated:{func_id}@{below}>" if at else f"<def:{func_id}>", *args[1:])
    out: list[Flow] = []
    for t in targets:
        params = params_of(t.id)
        if params is None or t.bound is None:
            continue  # without knowing the receiver, no argument is known to go to a parameter
        offset = 1 if t.bound else 0
        if t.bound and params and takes_class is not None and takes_class(t.id):
            out.append(((t.id, params[0].name), (_receiver(site.callee), scope)))
        for i, arg in enumerate(args):
            name = positional_param(params, i + offset, site.star)
            if arg is not None and name is not None:
                out.append(((t.id, name), (arg, scope)))
                if name.endswith("[]"):  # and at its place among them: `args[1]` is the second
                    out.append(((t.id, f"{name[:-2]}[{i + offset - _var_index(params)}]"), (arg, scope)))
        for keyword, arg in site.kwargs:
            if arg is None:
                continue
            if keyword in ("*", "**"):
                flows = _unpacked_flows(params, len(args) + offset, set(site.keywords), keyword, arg)
                out.extend(((t.id, p), (elem, scope)) for p, elem in flows)
            else:
                name = keyword_param(params, keyword)
                out.append(((t.id, name), (arg, scope)))
                if name.endswith("[]"):  # and under its keyword: `kwargs["cb"]`
                    out.append(((t.id, f'{name[:-2]}["{keyword}"]'), (arg, scope)))
    return out


def _var_index(params: tuple[Param, ...]) -> int:
    """The position of the ``*args`` parameter (the count of those before it)."""
    return next(i for i, p in enumerate(params) if p.kind == "var_positional")


def _unpacked_flows(
    params: tuple[Param, ...], first: int, keywords: set[str], star: str, unpacked: str
) -> Iterator[tuple[str, str]]:
    """What ``f(a, *xs)`` or ``f(**opts)`` passes to each parameter it binds.

    A literal the file never changes but by constant keys gives each parameter its own
    element (``xs[0]``, ``opts["p"]``; see ``Resolver.resolve``'s ``<key:`` form), and
    nothing when it lacks it: the bag of a container that may change holds too much to
    give every parameter all of it. The callee's own ``*args``/``**kwargs`` get all the
    container's elements (``run(*steps)``: ``for s in fns`` in ``def run(*fns)`` sees
    each step). The caller's own ``*args``/``**kwargs`` pass to each named parameter the
    element at its place or under its name (``def outer(*args): inner(*args)`` gives
    ``inner(f)`` what ``outer(a)`` passed first), and to the callee's own the elements at
    the same places when none come before them (two wrappers stacked on a function).
    """
    var_kind = "var_positional" if star == "*" else "var_keyword"
    for j, p in enumerate(params):
        if p.kind == var_kind:
            # the container's elements (a forwarded parameter's: the caller's), at places
            # or under keys this call does not show, unless they land where they were
            yield p.name + "[]", f"{unpacked}[]"
            if star == "**" or j == first:
                yield p.name + ALIGNED, unpacked
            else:
                yield p.name + SPREAD, f"{unpacked}[]"
        if p.name in keywords:
            continue
        # the element at that place or key, never the bag (see Resolver._keyed): a
        # forwarded parameter's elements forwarded in turn have lost their places
        if star == "*" and j >= first and p.kind in ("positional", "positional_only"):
            yield p.name, f"<key:{unpacked}[{j - first}]>"
        elif star == "**" and j >= first and p.kind in ("positional", "keyword_only"):
            yield p.name, f'<key:{unpacked}["{p.name}"]>'


def _receiver(callee: str | None) -> str | None:
    """``Sub`` of ``Sub.make``: what a method is read from; None for a bare name or a call result."""
    if callee is None:
        return None
    ops = parse_expr(callee)[1]
    return callee[: -len(ops[-1])] if ops and ops[-1].startswith(".") else None


class SiteWatch(Protocol):
    """Observes the two resolution passes of a link, one call site at a time."""

    def begin(self, second: bool) -> None: ...

    def first(self, i: int, outcome: Outcome, touched: bool) -> None: ...

    def second(self, i: int, outcome: Outcome) -> None: ...


class _Linker:
    def __init__(
        self,
        facts: Mapping[str, FileFacts],
        resolver: Callable[[Mapping[str, FileFacts]], Resolver] = Resolver,
        layout: TestLayout = DEFAULT_LAYOUT,
        deadline: float | None = None,
    ) -> None:
        self.facts = {p: f for p, f in facts.items() if f.language == "python"}
        self.layout = layout
        self.deadline = deadline  # time.monotonic() past which the passes stop (see _run)
        self.cut_short = False
        self._fixture_uses: list[Use] | None = None
        self.r = resolver(self.facts)
        self.r.fixture_users = self.fixture_uses  # what fixtures store through `request.cls` needs it
        self.edges = _Edges()
        # (path, call site by identity) -> the scopes holding the lambdas it may call (see
        # _lambda_runs); by path too, as files of the same blob share their facts
        self.lambda_runs: dict[tuple[str, int], tuple[str, ...]] = {}
        self.unresolved: dict[str, int] = defaultdict(int)
        self.calls: list[ResolvedCall] = []
        self.dangling: list[tuple[str, str, int]] = []
        self.methods_by_name: dict[str, list[str]] = defaultdict(list)
        self._method_table: dict[str, dict[str, str]] = {}
        self._computed_names: dict[tuple[str, str], bool] = {}  # see _computed_name
        self._grown: list[int] = []  # sites resolved again whose targets grew: what they pass may be new
        for sid, scope in self.r.scopes.items():
            if scope.kind in ("function", "method") and scope.definition is not None:
                self.methods_by_name[scope.definition.name].append(sid)
        # attribute reads matter only when they name a property, operators only when some
        # class of the repository defines that protocol method: skip the rest cheaply
        self.property_names = {
            s.definition.name for s in self.r.scopes.values()
            if s.method_kind == "property" and s.definition is not None
        } | {
            b.target for f in self.facts.values() for b in f.bindings
            if b.value is not None and b.value.startswith("<property:")
        } | self.r.descriptor_attrs

    # ------------------------------------------------------------ call sites

    def run(self, watch: SiteWatch | None = None) -> LinkedGraph:
        with deeper_stack(RESOLUTION_RECURSION_LIMIT):  # a resolution level is several frames deep
            return self._run(watch)

    def _run(self, watch: SiteWatch | None) -> LinkedGraph:
        sites = self.sites()
        results: dict[int, Outcome] = {}
        self.r.deadline = self.deadline
        try:
            revisit = self.first_pass(sites, watch=watch, into=results)[1]
            read = self.second_pass(sites, results, revisit, watch=watch)
            self.pass_on(sites, results, read, watch=watch)
        except OutOfTime:
            # what was resolved stands; the sites not reached are unresolved, and the
            # edges of classes, fixtures, routes and signals are still drawn (no clock)
            self.cut_short = True
        self.r.deadline = None
        self.emit(sites, results)
        self.class_edges()
        self.fixture_edges()
        self.route_edges()
        self.signal_edges()
        return self.graph()

    def release(self) -> None:
        """Break the one reference cycle between the linker and its resolver, so that both
        and every memo they hold go by reference counting as soon as the caller lets go:
        an analysis runs with the cyclic collector off (see ``cli``), and on Django's full
        source the resolver's few million objects were otherwise kept to the end."""
        self.r.fixture_users = tuple

    def graph(self) -> LinkedGraph:
        """Everything emitted so far, sorted, with the symbols of every file."""
        inits = inherited_inits(self.r)
        return LinkedGraph(
            symbols=tuple(s for p in sorted(self.facts) for s in symbols_of(p, self.facts[p], inits, self.layout)),
            edges=self.edges.edges(),
            unresolved=tuple(sorted((k, v) for k, v in self.unresolved.items() if v)),
            calls=tuple(self.calls),
            dangling=tuple(sorted(set(self.dangling))),
            cut_short=self.cut_short,
        )

    def sites(self) -> list[tuple[str, CallSite]]:
        """Every call site of the revision, in the order the passes visit them."""
        return [(path, site) for path in sorted(self.facts) for site in self.facts[path].calls]

    def first_pass(
        self,
        sites: Sequence[tuple[str, CallSite]],
        *,
        watch: SiteWatch | None = None,
        known: Callable[[int], Sequence[Target] | None] | None = None,
        into: dict[int, Outcome] | None = None,
    ) -> tuple[dict[int, Outcome], list[int]]:
        """Resolve sites in order, feeding each one's arguments into its targets' parameters.

        ``known(i)`` may give the first-pass targets of a site that need not be
        resolved again (a derived graph replays only what can have changed); their
        arguments still flow, at the same point of the order.
        """
        results: dict[int, Outcome] = {} if into is None else into  # filled as it goes: see _run
        revisit: list[int] = []
        self.r.collect_stores()
        for key, flow in pytest_flows(self.facts, self.layout, self.fixture_uses()):  # before any call's
            self.r.param_flow[key].append(flow)
        for i, (path, site) in enumerate(sites):
            given = known(i) if known is not None else None
            if given is not None:
                self._record_flow(path, site, given)
                continue
            if self.deadline is not None and not i & 255 and time.monotonic() > self.deadline:
                raise OutOfTime
            self.r.touched_param = 0
            if watch is not None:
                watch.begin(second=False)
            results[i] = self._resolve_site(path, site)
            if self.r.touched_param:
                revisit.append(i)
            if watch is not None:
                watch.first(i, results[i], bool(self.r.touched_param))
            self._record_flow(path, site, results[i][0])
        return results, revisit

    def second_pass(
        self,
        sites: Sequence[tuple[str, CallSite]],
        results: dict[int, Outcome],
        revisit: Sequence[int],
        *,
        watch: SiteWatch | None = None,
    ) -> dict[int, int]:
        """Resolve again the sites that read a parameter, now that every argument has flowed.

        Returns, by site, the mask of the parameters its answer read (see ``param_bit``).
        """
        if not revisit:
            return {}
        # arguments flow into parameters: a second pass sees what the first one found
        self.r.param_masks = True  # which parameters each answer read: see pass_on
        kept = self.r.put_aside()
        self.r.forget()
        self.r.collect_stores()  # from an empty memo, as in the first pass
        self.r.take_back(kept)
        return self._resolve_again(sites, results, revisit, watch)

    def pass_on(
        self,
        sites: Sequence[tuple[str, CallSite]],
        results: dict[int, Outcome],
        read: Mapping[int, int],
        *,
        watch: SiteWatch | None = None,
    ) -> int:
        """Pass on the arguments of the calls the second pass found, and resolve again
        the sites that read a parameter they reach; how many more passes that took.

        ``a(nested)`` where ``a`` is a parameter calls what ``a`` holds only once every
        argument has flowed (the second pass), and ``nested`` then flows into that
        function's parameter. Only the answers that read such a parameter (``read``: the
        second pass's masks) are computed again, and their calls pass on in turn, for at
        most ``PASSES_ON`` passes.
        """
        read = dict(read)
        found = [i for i in self._grown if i in read]  # (a site whose targets did not grow passes nothing new)
        passes = 0
        while found and passes < PASSES_ON:
            grown = self._passed_on(sites, results, found)
            if not grown:
                break
            passes += 1
            self.r.forget_reading(grown)
            found = [i for i, mask in read.items() if mask & grown]
            read.update(self._resolve_again(sites, results, found, watch))
        return passes

    def _passed_on(self, sites: Sequence[tuple[str, CallSite]], results: Mapping[int, Outcome],
                   found: Sequence[int]) -> int:
        """Record the flows of these sites' targets that no call passed before; the mask
        of the parameters whose values they change.

        A parameter whose new arguments give nothing it did not hold already changes no
        answer: those that read it stay (unless what its arguments read grows too).
        """
        fresh: dict[tuple[str, str], list[tuple[str | None, str]]] = defaultdict(list)
        known: dict[tuple[str, str], set[tuple[str | None, str]]] = {}
        for i in found:
            for key, flow in self.flows(*sites[i], results[i][0]):
                have = known.get(key)
                if have is None:
                    have = known[key] = set(self.r.param_flow.get(key, ()))
                if flow not in have:
                    have.add(flow)
                    fresh[key].append(flow)
        grown = 0
        for key, flows in fresh.items():
            before = self.r.flowing_into(*key)
            self.r.param_flow[key].extend(flows)
            after = self.r.flowing_into(*key)
            if before is None or after is None or after[0] != before[0] or (after[1] & ~before[1]):
                grown |= param_bit(*key)
        return grown

    def _resolve_again(
        self,
        sites: Sequence[tuple[str, CallSite]],
        results: dict[int, Outcome],
        which: Sequence[int],
        watch: SiteWatch | None,
    ) -> dict[int, int]:
        """Resolve these sites again; by site, the mask of the parameters its answer read."""
        read: dict[int, int] = {}
        for i in which:
            path, site = sites[i]
            if watch is not None:
                watch.begin(second=True)
            self.r.touched_param = 0
            before = {(t.id, t.bound) for t in results[i][0]} if i in results else set()
            results[i] = self._resolve_site(path, site)
            if any((t.id, t.bound) not in before for t in results[i][0]):
                self._grown.append(i)
            read[i] = self.r.kept_mask(self.r.touched_param)
            if watch is not None:
                watch.second(i, results[i])
        return read

    def emit(
        self,
        sites: Sequence[tuple[str, CallSite]],
        results: Mapping[int, Outcome],
        paths: Collection[str] | None = None,
    ) -> None:
        """Turn resolved sites into edges, calls and unresolved counts (of ``paths`` only, if given)."""
        for i, (path, site) in enumerate(sites):
            if paths is None or path in paths:
                # a site the passes did not reach before the time budget ran out is unknown
                self._emit(path, site, *results.get(i, ([], "unknown" if site.kind == "call" else "external")))

    def resolve_site(self, path: str, site: CallSite) -> Outcome:
        """Targets of one site and its status, outside the two passes."""
        return self._resolve_site(path, site)

    def _resolve_site(self, path: str, site: CallSite) -> tuple[list[Target], str]:
        """Targets of one site and a status: ok, external, unknown or dangling."""
        scope = symbol_id(path, site.scope)
        if site.callee is None:
            return [], "unknown" if site.kind == "call" else "external"
        if site.kind in ("attribute", "store") and self._last_name(site.callee) not in self.property_names:
            return [], "external"
        if site.kind == "store":
            return self.r.setters(site.callee, scope, site.line), "ok"
        if site.kind == "operator":
            return self._resolve_operator(site.callee, scope, site.line)
        if site.callee.startswith("<script:"):
            return self._script(site.callee[8:-1], path)
        vals = self.r.resolve_at(site.callee, scope, site.line)
        if vals is None:
            return [], "dangling"
        if site.kind == "call":
            self._lambda_runs(path, site, vals, scope)
        if site.kind == "attribute":
            targets = [Target(v[1], inf, True) for v, inf in vals.items() if v[0] == "R"]
            return targets, "ok"
        if site.kind == "raise":  # only a class is constructed; an instance is raised as is
            classes = {v: inf for v, inf in vals.items() if v[0] == "CS" or self.r.is_class(v)}
            return list(self.r.targets(classes)), "ok"
        targets = list(self.r.targets(vals))
        if not targets and site.kind in ("call", "decorator"):
            targets = self._on_decorated(site.callee, scope, site.line)
        if site.kind == "call" and self.r.dispatchers and any(t.id in self.r.dispatchers for t in targets):
            targets += self._registered(targets)
        if not targets and site.kind == "call":
            targets = self._callbacks(path, site, scope)
            if ("B", "type") in vals and site.positional == 3 and len(site.args) > 1 and site.args[1]:
                targets += self._class_created(site.args[1], scope, site.line)
            elif site.callee.rpartition(".")[2] in TEMPLATE_METHODS:
                targets += self._template_hooks(site.callee, scope, site.line)
        if site.kind == "call" and site.callee in BUILTIN_DUNDERS and ("B", site.callee) in vals:
            targets.extend(self.r.builtin_dunders(site, scope))
        if targets and site.kind == "call" and all(self._is_getattr_hook(t.id) for t in targets):
            return targets, "proxied"  # what __getattr__ hands back is not known: a name may tell
        if targets and site.kind == "call" and self._computed_name(site.callee, scope):
            return targets, "pattern"
        if targets:
            return targets, "ok"
        if any(v[0] in OUTSIDE_KINDS for v in vals):
            return [], "external"
        return [], "unknown"

    def _on_decorated(self, callee: str, scope: str, line: int) -> list[Target]:
        """``cli.main()`` or ``@cli.command()`` where ``cli`` is a function whose decorator
        returned an object made of it (``@group()`` returning ``Group(callback=f)``): the
        object's method. Worked out here, for the call written on the decorated name itself,
        and not while resolving other names: what the decorator returns may depend on what
        is being resolved (the decorator reading ``f.name`` of every function it gets)."""
        receiver, dot, attr = callee.partition(".")
        called = attr.endswith("()")
        attr = attr.removesuffix("()")
        if not dot or not receiver.isidentifier() or not attr.isidentifier():
            return []
        made: Values = {}
        for val in self.r.resolve_at(receiver, scope, line) or {}:
            if val[0] == "S":
                made.update(self.r.decorated_instances(val[1]))
        if not made:
            return []
        found = self.r.members_of(made, attr)
        return list(self.r.targets(self.r.call_results(found, scope) if called else found))

    def _lambda_runs(self, path: str, site: CallSite, vals: Values, scope: str) -> None:
        """A lambda's body belongs to the scope it is written in (its calls are that scope's):
        a call that may run one written elsewhere (`double = lambda x: mul(x, 2)` at module
        level, called in a function) depends on that scope's code, as a ``runs_lambda`` edge
        (not a call: the call graph keeps a lambda's calls where it is written)."""
        holders = tuple(sorted(_lambda_holders(vals, scope)))
        if holders:
            self.lambda_runs[path, id(site)] = holders
        elif self.lambda_runs:
            self.lambda_runs.pop((path, id(site)), None)  # resolved again, to no lambda this time

    def _script(self, module: str, near: str) -> tuple[list[Target], str]:
        """``python -m pkg.mod`` run from a call: the module (a package's ``__main__``),
        whose module-level code is what runs; ``python scripts/build.py``: the files of the
        repository at that path (from wherever the command runs, so any ending so);
        outside code when it is not the repository's."""
        if module.endswith(".py"):
            found = self.r.modules.ending(module)
            return [Target(symbol_id(p, ""), True, None) for p in found[:MAX_NAMED]], "ok" if found else "external"
        for name in (f"{module}.__main__", module):
            found = [p for p in self.r.modules.paths(name, near) if p in self.facts]
            if found:
                return [Target(symbol_id(p, ""), True, None) for p in found[:1]], "ok"
        return [], "external"

    def _registered(self, targets: Sequence[Target]) -> list[Target]:
        """The implementations a singledispatch function may dispatch to: each is called
        with the same arguments, though which one runs depends on the first one's type."""
        seen = {t.id for t in targets}
        out: list[Target] = []
        for t in list(targets):
            for impl in self.r.registered(t.id) if t.id in self.r.dispatchers else ():
                if impl not in seen:
                    seen.add(impl)
                    out.append(Target(impl, True, None))
        return out

    def _callbacks(self, path: str, site: CallSite, scope: str) -> list[Target]:
        """What a library function called at ``site`` runs of the functions it is given."""
        out: list[Target] = []
        holders: set[str] = set()
        for expr in callback_arguments(site, self.facts[path].imports):
            vals = self.r.resolve_at(expr, scope, site.line) or {}
            # the library calls it with arguments of its own: nothing to check, nothing flows
            out.extend(Target(t.id, True, None) for t in self.r.targets(vals))
            holders |= _lambda_holders(vals, scope)
        if holders:  # a lambda written elsewhere, run by the library (`starmap(_dot, rows)`)
            key = (path, id(site))
            self.lambda_runs[key] = tuple(sorted(holders.union(self.lambda_runs.get(key, ()))))
        return out

    def _class_created(self, bases: str, scope: str, line: int) -> list[Target]:
        """``type("Name", (Base,), attrs)`` makes a class as a class statement does: the
        ``__new__`` and ``__init__`` of the bases' metaclass run, and the bases'
        ``__init_subclass__``."""
        out: list[Target] = []
        for val in self.r.resolve_at(bases + "[]", scope, line) or {}:
            if val[0] != "S" or self.r.scopes[val[1]].kind != "class":
                continue
            hooks = [self._first_defining(val[1], "__init_subclass__")]
            for meta in self.r.metaclasses(val[1]):
                hooks += [self._first_defining(meta, "__new__"), self._first_defining(meta, "__init__")]
            out += [Target(hook, True, None) for hook in hooks if hook is not None]
        return out

    def _template_hooks(self, callee: str, scope: str, line: int) -> list[Target]:
        """``form.is_valid()`` on a form of the repository whose class does not define
        ``is_valid`` (its framework base does): the hooks of the form's classes it runs."""
        receiver, _, method = callee.rpartition(".")
        out: list[Target] = []
        for val in (self.r.resolve_at(receiver, scope, line) or {}) if receiver else ():
            if val[0] not in ("I", "IS") or self.r.scopes[val[1]].kind != "class":
                continue
            hit = self.r.class_member(val[1], method)
            if hit is not None and hit[1] is not None:
                continue  # a method of the repository: its own calls say what runs
            if method == "save" and self.r.models({val: True}):
                continue  # a model's save() runs no create() or update() of its own
            seen: set[str] = set()
            for cls in self.r.mro(val[1]):
                if cls.startswith("X:"):
                    break
                self.r.methods_read(cls)
                methods = self._methods(cls)
                for name in template_hooks(method, sorted(methods)):
                    if name not in seen:  # the first along the MRO is the one that runs
                        seen.add(name)
                        out.append(Target(methods[name], True, None))
            if method == "save":
                out += self._meta_model_saves(val[1])
        return out

    def _meta_model_saves(self, class_id: str) -> list[Target]:
        """``form.save()`` on a ``ModelForm`` (or REST framework's ``ModelSerializer``)
        whose ``class Meta: model = Order``: it makes or updates an Order and saves it."""
        meta = self.r.class_member(class_id, "Meta")
        out: list[Target] = []
        for m in meta[0] if meta is not None else ():
            if m[0] != "S" or not self.r.is_class(m):
                continue
            model = self.r.class_member(m[1], "model")
            for v in model[0] if model is not None else ():
                if v[0] == "S" and self.r.is_class(v) and self.r.models({("I", v[1]): True}):
                    out.extend(self.r.saved(v[1]))
        return out

    def _first_defining(self, class_id: str, name: str) -> str | None:
        """The method ``name`` of the first class along ``class_id``'s MRO defining it."""
        for cls in self.r.mro(class_id):
            if cls.startswith("X:"):
                return None
            self.r.methods_read(cls)
            hit = self._methods(cls).get(name)
            if hit:
                return hit
        return None

    def _resolve_operator(self, callee: str, scope: str, line: int) -> tuple[list[Target], str]:
        """A protocol method implied by syntax, with the fallbacks Python applies to it."""
        name = self._last_name(callee)
        fallbacks = fallback_chain(name or "")
        # what runs after the method: an iterator's __next__, a dict subclass's __missing__
        then = ITERATOR_NEXT.get(name or "") or (MISSING_KEY if name == "__getitem__" else None)
        defined = self.methods_by_name
        if name not in defined and then not in defined and not any(f in defined for f in fallbacks):
            return [], "external"
        receiver = callee[: -len(name or "") - 1]
        if self.r.class_object(receiver, scope, line):
            # `type(a) == type(b)`: the metaclass's method runs, not the class's
            meta = self.r.metaclass_dunders(receiver, name or "", scope, line)
            return (meta, "ok") if meta else ([], "external")
        vals = self.r.resolve_at(callee, scope, line) if name in defined else {}
        if vals is None:
            return [], "dangling"
        targets = list(self.r.targets(vals))
        passed = [name or ""]
        for fallback in fallbacks:
            if targets:
                break
            # no in-place method: `a += b` runs `a = a + b`; no __format__: object's runs __str__
            found = self.r.resolve_at(callee[: -len(name or "")] + fallback, scope, line) or {} \
                if fallback in defined else {}
            # unless a builtin base has a method passed over (`list.__iadd__` before `__add__`)
            targets = [t for t in self.r.targets(found)
                       if not any(self._builtin_inplace(t.id, p) for p in passed)]
            vals = found if fallback in defined else vals
            passed.append(fallback)
        if then == MISSING_KEY and then in defined:
            # dict.__getitem__ runs the subclass's __missing__ for a key it lacks
            targets.extend(t for t in self.r.targets(self.r.resolve_at(receiver + "." + then, scope, line) or {})
                           if t.bound)
        elif then is not None and then in defined and targets:
            # only an in-repository __iter__ can return an iterator with a __next__ of ours
            targets.extend(self.r.iterator_next(callee, scope, line))
        if targets:
            return targets, "ok"
        return [], "external" if any(v[0] in OUTSIDE_KINDS for v in vals) else "unknown"

    def _builtin_inplace(self, method_id: str, name: str) -> bool:
        owner = self.r.scopes[method_id].owner_class if method_id in self.r.scopes else None
        return owner is not None and self.r.builtin_defines(owner, name)

    def _record_flow(self, path: str, site: CallSite, targets: Sequence[Target]) -> None:
        for key, flow in self.flows(path, site, targets):
            self.r.param_flow[key].append(flow)

    def flows(self, path: str, site: CallSite, targets: Sequence[Target]) -> list[Flow]:
        """What a site passes to the parameters of these targets, and of the overrides a
        crowded dispatch leaves out of them (see ``Resolver.overriders``)."""
        if not site.args and not site.kwargs and not any(self.takes_class(t.id) for t in targets):
            return []
        targets = [*targets, *self._overriding(path, site, targets)]
        return site_flows(path, site, targets, self.params_of, self.takes_class)

    def _overriding(self, path: str, site: CallSite, targets: Sequence[Target]) -> list[Target]:
        """The overrides of the method ``obj.m(...)`` calls that a crowded dispatch left out."""
        receiver, _, attr = (site.callee or "").rpartition(".")
        if not receiver or not attr.isidentifier() or site.kind != "call":
            return []
        if attr not in self.r.crowded_names():
            return []
        vals = self.r.resolve_at(receiver, symbol_id(path, site.scope), site.line) or {}
        reached = {t.id for t in targets}
        return [
            Target(method_id, True, True)
            for val in vals if val[0] == "IS"
            for method_id in self.r.overriders(val[1], attr) if method_id not in reached
        ]

    def takes_class(self, callee_id: str) -> bool:
        """Whether a call passes its receiver's class as the callee's first argument (a classmethod)."""
        callee = self.r.scopes.get(callee_id)
        return callee is not None and callee.method_kind == "classmethod"

    def params_of(self, callee_id: str) -> tuple[Param, ...] | None:
        """The parameters of a function or method of the revision (None for anything else)."""
        callee = self.r.scopes.get(callee_id)
        if callee is None or callee.definition is None or callee.definition.signature is None:
            return None
        return callee.definition.signature.params

    def _emit(self, path: str, site: CallSite, targets: list[Target], status: str) -> None:
        caller = symbol_id(path, site.scope)
        for holder in self.lambda_runs.get((path, id(site)), ()) if self.lambda_runs else ():
            self.edges.add(caller, holder, "runs_lambda", "inferred", site.line)
        if site.kind == "call" and site.callee and status == "dangling":
            self.dangling.append((caller, site.callee, site.line))
        pattern = status == "pattern"
        for t in targets:
            # a method a computed name may pick (`getattr(self, "visit_" + kind)()`): each is a
            # guess, and the call itself stays unresolved
            conf: Confidence = "name_match" if pattern else "inferred" if t.inferred else "resolved"
            self.edges.add(caller, t.id, "calls", conf, site.line)
            # unknown receiver: not checked; `raise E` calls E() without arguments, so it is
            if site.kind in ("call", "raise") and t.bound is not None:
                self.calls.append(ResolvedCall(caller, t.id, site.line, site, t.bound, pattern))
        if pattern:
            self.unresolved[caller] += 1
            return
        if (targets and status != "proxied") or site.kind != "call" or status == "external":
            return
        protocol = self._protocol_match(site.callee)
        for method in protocol:
            self.edges.add(caller, method, "calls", "name_match", site.line)
        match = None if protocol else self._name_match(site.callee)
        if match:
            self.edges.add(caller, match, "calls", "name_match", site.line)
        elif protocol or status == "dangling" or self._could_be_repo_code(site.callee):
            self.unresolved[caller] += 1

    def _computed_name(self, callee: str, scope: str) -> bool:
        """Whether the call reads an attribute by a computed name: ``getattr(self, "do_" + verb)()``
        (the extractor's ``self.do_*``), or a local name bound to such a ``getattr``."""
        if "*" in callee:
            return True
        if not callee.isidentifier():
            return False
        key = (scope, callee)
        found = self._computed_names.get(key)
        if found is None:  # once per name: a test may call one rebound name thousands of times
            sources = self.r.scopes[scope].names.get(callee, ())
            found = any(isinstance(b, Binding) and b.value is not None and "*" in b.value for b in sources)
            self._computed_names[key] = found
        return found

    def _is_getattr_hook(self, target: str) -> bool:
        scope = self.r.scopes.get(target)
        return scope is not None and scope.definition is not None and scope.definition.name == "__getattr__"

    def _last_name(self, callee: str | None) -> str | None:
        if not callee:
            return None
        _base, ops = parse_expr(callee)
        attrs = [op[1:] for op in ops if op.startswith(".")]
        return attrs[-1] if attrs else None

    def _name_match(self, callee: str | None) -> str | None:
        """A method name unique in the repository and specific enough to trust."""
        name = self._last_name(callee)
        if name is None or name in COMMON_METHODS or name.startswith("__") or len(name) < 4:
            return None
        # a def inside a function is no attribute of anything (unless stored as one, which
        # resolves): `self.test.fail()` is not the `fail` a test defines for itself
        candidates = [c for c in self.methods_by_name.get(name, ()) if not self._in_a_function(c)]
        if len(candidates) != 1:
            return None
        # nor is a module's function, but of the module object, which an import resolves:
        # `Y.ravel()` on an array is not the `ravel(array)` a module of the repository defines
        return candidates[0] if self.r.scopes[candidates[0]].kind == "method" else None

    def _in_a_function(self, sid: str) -> bool:
        parent = self.r.scopes.get(self.r.scopes[sid].parent or "")
        return parent is not None and parent.kind in ("function", "method")

    def _protocol_match(self, callee: str | None) -> list[str]:
        """Every method of a protocol the repository names like Python's own (rich's
        ``renderable.__rich_console__(...)``, SQLAlchemy's ``__clause_element__``): an
        object of unknown class is called for having it, so each is a guess."""
        name = self._last_name(callee)
        if name is None or not (name.startswith("__") and name.endswith("__")) or name in PYTHON_DUNDERS:
            return []
        found = [m for m in self.methods_by_name.get(name, ()) if self.r.scopes[m].kind == "method"]
        return found if len(found) <= MAX_NAMED else []

    def _could_be_repo_code(self, callee: str | None) -> bool:
        if callee is None or "*" in callee:  # (a computed name: any attribute)
            return True
        name = self._last_name(callee)
        if name is None:  # a bare name that is bound but whose value is unknown
            return True
        return name in self.methods_by_name

    # --------------------------------------------------------------- classes

    def class_edges(self, paths: Collection[str] | None = None, each: Callable[[str], None] | None = None) -> None:
        """Inherits and overrides edges of the classes in ``paths`` (all files by default).

        ``each(class_id)`` is called before each class is linked.
        """
        for sid, scope in self.r.scopes.items():
            if scope.kind != "class" or (paths is not None and scope.path not in paths):
                continue
            if each is not None:
                each(sid)
            for base in self.r.class_bases(sid):
                if base[0] == "S" and self.r.scopes[base[1]].kind == "class":
                    self.edges.add(sid, base[1], "inherits", "resolved", 0)
            self._override_edges(sid)
            self._class_statement_edge(sid, scope)
            self._subclass_hook_edges(sid, scope)
            self._metaclass_edges(sid, scope)
            self._set_name_edges(sid, scope)

    def _class_statement_edge(self, class_id: str, scope: Scope) -> None:
        """A class statement in a function runs the class body at each call: a ``defines``
        edge from the scope holding it (not a call: the class is made, not called; a class
        of a module, or of a class body at module level, is made once, at import)."""
        holder = self.r.scopes.get(scope.parent) if scope.parent else None
        enclosing = holder
        while enclosing is not None and enclosing.kind == "class":
            enclosing = self.r.scopes.get(enclosing.parent) if enclosing.parent else None
        if holder is None or enclosing is None or enclosing.kind not in ("function", "method"):
            return
        line = scope.definition.start_line if scope.definition is not None else 0
        self.edges.add(holder.id, class_id, "defines", "resolved", line)

    def _subclass_hook_edges(self, class_id: str, scope: Scope) -> None:
        """The class statement runs the ``__init_subclass__`` its bases give: the scope
        holding the statement calls it."""
        where = scope.parent or scope.path
        line = scope.definition.start_line if scope.definition is not None else 0
        for mro in self.r.mro_alternatives(class_id):
            for base in mro[1:]:
                if base.startswith("X:"):
                    break
                hook = self._methods(base).get("__init_subclass__")
                if hook:
                    self.edges.add(where, hook, "calls", "resolved", line)
                    break

    def _set_name_edges(self, class_id: str, scope: Scope) -> None:
        """Making a class calls ``__set_name__`` on each object its body binds to a name,
        when that object's class defines one (a descriptor learning the attribute it is):
        the class body calls it, at the line of the binding."""
        for name, sources in scope.names.items():
            if not name.isidentifier():
                continue
            for source in sources:
                if isinstance(source, Defn):
                    self._decorated_set_name(class_id, source.id)
                if not isinstance(source, Binding) or source.kind != "assign" or source.value is None:
                    continue
                for val in self.r.resolve_at(source.value, class_id, source.line) or {}:
                    hook = self._first_defining(val[1], "__set_name__") if val[0] == "I" else None
                    if hook is not None:
                        self.edges.add(class_id, hook, "calls", "resolved", source.line)

    def _decorated_set_name(self, class_id: str, defined: str) -> None:
        """``@cached_property def total(self)``: the name holds an instance of the outermost
        decorator when that is a class, which is told its name as any such object is."""
        scope = self.r.scopes.get(defined)
        if scope is None or not scope.decorators or scope.definition is None:
            return
        line = scope.definition.start_line
        for val in self.r.resolve_at(scope.decorators[0], class_id, line) or {}:
            if val[0] == "S" and self.r.scopes[val[1]].kind == "class":
                hook = self._first_defining(val[1], "__set_name__")
                if hook is not None:
                    self.edges.add(class_id, hook, "calls", "resolved", line)

    def _metaclass_edges(self, class_id: str, scope: Scope) -> None:
        """The class statement runs the ``__new__`` and ``__init__`` its metaclass gives
        (``type``'s own are not code of the repository)."""
        where = scope.parent or scope.path
        line = scope.definition.start_line if scope.definition is not None else 0
        for meta in self.r.metaclasses(class_id):
            for dunder in ("__new__", "__init__"):
                for mro in self.r.mro_alternatives(meta):
                    for cls in mro:
                        if cls.startswith("X:"):
                            break
                        self.r.methods_read(cls)
                        hit = self._methods(cls).get(dunder)
                        if hit:
                            self.edges.add(where, hit, "calls", "resolved", line)
                            break

    def _override_edges(self, class_id: str) -> None:
        # a base name that may hold one of several classes: the method overrides what each choice gives
        for mro in self.r.mro_alternatives(class_id):
            for name, method in self._methods(class_id).items():
                for base in mro[1:]:
                    if base.startswith("X:"):
                        break
                    hit = self._methods(base).get(name)
                    if hit:
                        self.edges.add(method, hit, "overrides", "resolved", 0)
                        break

    def _methods(self, class_id: str) -> dict[str, str]:
        """name -> id of the methods a class defines itself (first definition wins)."""
        cached = self._method_table.get(class_id)
        if cached is None:
            cached = {}
            for name, sources in self.r.scopes[class_id].names.items():
                for src in sources:
                    if isinstance(src, Defn) and self.r.scopes[src.id].kind == "method":
                        cached.setdefault(name, src.id)
            self._method_table[class_id] = cached
        return cached

    # -------------------------------------------------------------- fixtures

    def fixture_uses(self) -> list[Use]:
        """The fixtures the tests and fixtures of the revision use (one walk for the flows
        and the edges)."""
        if self._fixture_uses is None:
            self._fixture_uses = list(fixture_uses(self.facts, self.layout))
        return self._fixture_uses

    def signal_edges(self) -> None:
        """Code sending a signal to the functions connected to it (every file: a receiver in
        one file, the code saving a model in another)."""
        for source, target, line in signal_edges(self.facts, self.r):
            self.edges.add(source, target, "signals", "inferred", line)

    def route_edges(self) -> None:
        """A test client's requests to the handlers of the routes they match (every file:
        a route in one file and a request in another make an edge)."""
        for source, target, line in route_edges(self.facts, self.r, self.layout):
            self.edges.add(source, target, "requests", "inferred", line)

    def fixture_edges(self, paths: Collection[str] | None = None) -> None:
        """Uses-fixture edges of the tests and fixtures in ``paths`` (all files by default)."""
        for user, _, target, line in self.fixture_uses():
            if paths is None or user.split("::", 1)[0] in paths:
                self.edges.add(user, target, "uses_fixture", "resolved", line)


def receives_call_arguments(definition: Definition) -> bool:
    """Whether a call that reaches ``definition`` passes it the call's own arguments.

    Not so for a property getter (``obj.handler(1)`` calls what the getter returns),
    nor under a decorator that may put something else in its place (a wrapper
    taking ``*args, **kwargs`` may supply or drop arguments). Transparent
    decorators keep the signature, and so does the dataclass or attrs decorator
    that wrote a class's ``__init__``.
    """
    return all(keeps_signature(d, definition) for d in definition.decorators)


def _lambda_holders(vals: Values, scope: str) -> set[str]:
    """The scopes other than ``scope`` that lambdas among ``vals`` are written in."""
    return {v[1] for v in vals if v[0] == "L" and len(v) > 1 and v[1] != scope}


def keeps_signature(decorator: str, definition: Definition) -> bool:
    """Whether ``decorator`` on ``definition`` leaves calls their own signature to meet."""
    if definition.kind == "class" and writes_init(decorator):
        return True  # what wrote the signature
    name = decorator_name(decorator)
    is_property = makes_property(decorator) or name in ("setter", "getter", "deleter")
    return name in TRANSPARENT_DECORATORS and not is_property


def link(facts: Mapping[str, FileFacts], layout: TestLayout = DEFAULT_LAYOUT,
         deadline: float | None = None) -> LinkedGraph:
    """Resolve every call site of a revision into a graph (deterministic); ``layout``
    says which files hold tests. Past ``deadline`` (``time.monotonic()``) the passes
    stop and the graph says it was cut short."""
    linker = _Linker(facts, layout=layout, deadline=deadline)
    try:
        return linker.run()
    finally:
        linker.release()
