"""What changed for name resolution between two versions of a revision's files.

A linked revision's trace records, per file, everything its resolution read
(see :class:`impactbot.link.tracing.TracingResolver`): pairs such as
``(scope id, name)`` for a name looked up in a scope, ``(class id, attr)`` for a
member looked up on a class, ``("<module>", dotted)`` for a module looked up,
``(function id, "@param")`` for a parameter read, ``("<stores>", attr)`` for the
assignments ``obj.attr = v`` outside obj's class consulted, ``("<elements>", name)``
for the elements of a module's container ``name`` (other modules write them too). Those records include what
was read on the way, through imports, return values and argument flows, so a
file whose records meet nothing that changed resolves exactly as before.

This module computes the other side: the :class:`Changes` between the old and
the new facts, as the same kind of pairs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field

from impactbot.link.fixtures import DEFAULT_LAYOUT, TestLayout, imported_fixtures, is_fixture, plugin_files
from impactbot.link.modules import ModuleIndex
from impactbot.link.python import (
    INPLACE_FALLBACKS,
    ITERATOR_NEXT,
    REQUEST_HOLDERS,
    Defn,
    Moved,
    Resolver,
    Scope,
    keys_read,
    parse_expr,
    registered_on,
    registering_call,
)
from impactbot.model import Binding, FileFacts, Import, symbol_id

Read = tuple[str, str]  # what resolution read: (scope id, class id or marker; name or marker)
Reads = Mapping[str, Collection[str]]  # reads grouped: scope id (or marker) -> names read there

AUTOUSE = "<autouse>"  # the name a change to which fixtures are autouse counts as


def _source_key(src: object) -> tuple[object, ...]:
    """A source of a name without its line: what the resolver reads of it."""
    if isinstance(src, Defn):
        return ("def", src.id)
    if isinstance(src, Import):
        return ("import", src.module, src.name, src.alias, src.level, src.type_only, src.conditional)
    if isinstance(src, Binding):
        return ("bind", src.target, src.value, src.kind, getattr(src, "conditional", False))
    if isinstance(src, Moved):
        return ("moved", src.origin, *_source_key(src.binding))
    return ("other", repr(src))


def _shape(scope: Scope) -> tuple[object, ...]:
    """What the resolver reads of a scope besides its names and parameters."""
    d = scope.definition
    decl = None if d is None else (d.kind, d.decorators, d.bases, d.is_async, d.metaclass)
    return scope.kind, scope.parent, decl, scope.owner_class, scope.method_kind


def _bases_seen(r: Resolver, scope: Scope) -> list[object]:
    """Which bindings of each base's first name a class statement sees: lines moved
    around change that without changing the bindings of any name."""
    if scope.kind != "class" or scope.definition is None:
        return []
    out: list[object] = []
    for expr in scope.definition.bases:
        found = r.base_sources(scope.id, expr)
        out.append(None if found is None else (found[1].id, [_source_key(s) for s in found[0]]))
    return out


def _order_seen(r: Resolver, scope: Scope) -> dict[str, list[object]]:
    """Per name of a module or class body, the bindings that reads depending on where
    statements stand see: lines moved around change them without changing the bindings
    of any name. A module's name read once the module has run sees some; an assignment's
    value sees some bindings of its first name at its line."""
    if scope.kind not in ("module", "class"):
        return {}
    out: dict[str, list[object]] = defaultdict(list)
    early = sorted(f for f in r.import_calls if scope.kind == "module" and f.startswith(scope.id + "::"))
    for name, sources in scope.names.items():
        for via in (None, *early):  # read once the module has run, or by a function it calls
            settled = r.settled(scope, name, via)
            if settled is not None:
                out[name].append((via, [_source_key(s) for s in settled]))
        for src in sources:
            found = r.line_sources(src.value, scope.id, src.line) if isinstance(src, Binding) and src.value else None
            if found is not None:
                out[name].append((found[1].id, [_source_key(s) for s in found[0]]))
    return out


def _names(scope: Scope) -> dict[str, list[tuple[object, ...]]]:
    return {name: [_source_key(s) for s in sources] for name, sources in scope.names.items() if sources}


def _made_property(sources: list[tuple[object, ...]] | None) -> bool:
    """Whether source keys (``_names``) hold a ``property(...)`` binding."""
    return any(k[0] == "bind" and str(k[2]).startswith("<property:") for k in sources or ())


def _attrs(r: Resolver, class_id: str) -> dict[str, list[tuple[object, ...]]]:
    table = r.inst_attrs.get(class_id, {})
    return {attr: [(*_source_key(b), where) for b, where in found] for attr, found in table.items()}


def _settable(r: Resolver, class_id: str) -> set[str]:
    """Names of the class's properties that have a setter."""
    prefix = class_id + "::"
    return {p[len(prefix) :] for p in r.setter_props if p.startswith(prefix) and "::" not in p[len(prefix) :]}


def _ancestors(scopes: Mapping[str, Scope], sid: str) -> Iterable[str]:
    scope = scopes.get(sid)
    while scope is not None and scope.parent:
        yield scope.parent
        scope = scopes.get(scope.parent)


@dataclass
class Changes:
    """Reads whose answer may differ in the new revision."""

    reads: set[Read] = field(default_factory=set)
    scopes: set[str] = field(default_factory=set)  # any read inside these scopes
    lookups: set[str] = field(default_factory=set)  # any name looked up in these scopes (star imports changed)
    paths: set[str] = field(default_factory=set)  # any read inside these files
    definitions: set[str] = field(default_factory=set)  # names of functions, classes added, gone or reshaped
    hierarchy: bool = False  # a class was added, removed or given other bases: dispatch may differ
    _cached_needles: list[str] | None = field(default=None, repr=False)

    def hit(self, reads: Reads) -> bool:
        """Whether a file that made these reads may now resolve differently."""
        mentions = getattr(reads, "mentions", None)
        if mentions is not None and not mentions(self._needles()):
            return False
        if any(name in reads.get(sid, ()) for sid, name in self.reads):
            return True
        if self.hierarchy and "<subclasses>" in reads:
            return True
        if any(sid in reads for sid in self.scopes) or any(sid in reads for sid in self.lookups):
            return True
        return bool(self.paths) and any(sid.partition("::")[0] in self.paths for sid in reads)


    def _needles(self) -> list[str]:
        """Every scope id (or id prefix) a hit needs: stored reads that mention none cannot hit."""
        if self._cached_needles is None:
            found = {sid for sid, _ in self.reads} | self.scopes | self.lookups | self.paths
            self._cached_needles = sorted(found | ({"<subclasses>"} if self.hierarchy else set()))
        return self._cached_needles


@dataclass
class _Version:
    """One version of one file, indexed by the resolver's own rules."""

    r: Resolver
    scopes: dict[str, Scope]
    facts: FileFacts
    stores: dict[str, list[tuple[object, ...]]] = field(default_factory=dict)  # attr -> `obj.attr = v` outside
    calls: dict[str, list[tuple[object, ...]]] | None = None  # scope id -> its calls (see ``_calls``)


def _stores_by_path(r: Resolver) -> dict[str, dict[str, list[tuple[object, ...]]]]:
    """Per file, the assignments to attributes of objects other than a method's receiver."""
    out: dict[str, dict[str, list[tuple[object, ...]]]] = defaultdict(lambda: defaultdict(list))
    for attr, found in r.attr_stores.items():
        for b, where in found:
            out[r.scopes[where].path][attr].append((*_source_key(b), where))
    return out


def _accessors(facts: FileFacts | None) -> set[str]:
    """The names a related model may read a file's relation fields back by (see
    ``Resolver._reverse_relation``): each ``related_name=``, and ``<class>_set``/``<class>``."""
    out: set[str] = set()
    for b in facts.bindings if facts is not None else ():
        if b.target.startswith("<related:") and b.value:
            out.add(b.value.strip('"'))
        elif b.target.startswith("<model:") and b.scope:
            name = b.scope.rpartition("::")[2].lower()
            out |= {name, name + "_set"}
    return out


def _registering(facts: FileFacts) -> set[str]:
    """Names of the generic functions a file registers implementations on (see
    ``Resolver.registered``)."""
    bases = [registered_on(deco) for d in facts.definitions for deco in d.decorators]
    bases += [found[0] for site in facts.calls if (found := registering_call(site)) is not None]
    return {base.rpartition(".")[2] for base in bases if base}


def _request_stored(facts: Mapping[str, FileFacts]) -> set[str]:
    """Attributes fixtures store through ``request.cls`` / ``request.instance``."""
    return {b.target.rpartition(".")[2] for f in facts.values() for b in f.bindings
            if b.target.rpartition(".")[0] in REQUEST_HOLDERS}


def _generic(version: _Version | None) -> set[str]:
    """Names of the file's singledispatch functions and methods."""
    if version is None:
        return set()
    return {s.definition.name for sid, s in version.scopes.items()
            if sid in version.r.dispatchers and s.definition is not None}


def _compare(path: str, old: _Version | None, new: _Version | None, out: Changes) -> None:
    """Record what differs between two versions of a file (None: absent)."""
    # a relation field's reverse accessor is read on another model, in any file
    out.reads |= {("<related>", name) for v in (old, new) if v is not None for name in _accessors(v.facts)}
    # so are the implementations registered on a singledispatch function, by its callers
    out.reads |= {("<registered>", name) for v in (old, new) if v is not None for name in _registering(v.facts)}
    # whether a function is a generic one also depends on what its decorator was imported as
    out.definitions |= _generic(old) ^ _generic(new)
    if old is None or new is None:
        out.paths.add(path)
        out.reads.add(("<all>", path))
        out.reads |= {("<stores>", attr) for v in (old, new) if v is not None for attr in v.stores}
        out.reads |= {("<elements>", b.target[:-2].rpartition(".")[2]) for v in (old, new) if v is not None
                      for b in v.facts.bindings if b.target.endswith("[]")}
        # a module come or gone may own a container other modules write into
        out.reads |= {("<elements>", name) for v in (old, new) if v is not None and path in v.scopes
                      for name in v.scopes[path].names if name.isidentifier()}
        for v in (old, new):
            out.definitions |= {s.definition.name for s in (v.scopes.values() if v else ()) if s.definition}
            out.hierarchy |= any(s.kind == "class" for s in (v.scopes.values() if v else ()))
        return
    if old.facts.all_names != new.facts.all_names:
        out.reads.add(("<all>", path))
    written = old.r.dotted_elements.get(path, []), new.r.dotted_elements.get(path, [])
    if written[0] != written[1]:
        out.reads |= {("<elements>", str(w[0])) for w in (*written[0], *written[1])}
    attrs = old.stores.keys() | new.stores.keys()
    out.reads |= {("<stores>", a) for a in attrs if old.stores.get(a) != new.stores.get(a)}
    for sid in old.scopes.keys() | new.scopes.keys():
        o, n = old.scopes.get(sid), new.scopes.get(sid)
        _compare_scope(sid, o, n, old, new, out)


def _signature(scope: Scope | None) -> tuple[tuple[str, str], ...]:
    d = scope.definition if scope is not None else None
    return tuple((p.name, p.kind) for p in d.signature.params) if d is not None and d.signature is not None else ()


def _calls(version: _Version, path: str, sid: str) -> list[tuple[object, ...]]:
    """The calls a scope makes as ``Resolver.passed_through`` reads them (lines apart)."""
    if version.calls is None:
        version.calls = defaultdict(list)
        for site in version.facts.calls:
            if site.kind == "call":
                key = symbol_id(path, site.scope)
                version.calls[key].append((site.callee, site.args, site.kwargs, site.star, site.starstar))
    return version.calls.get(sid, [])


def _compare_scope(sid: str, o: Scope | None, n: Scope | None, old: _Version, new: _Version, out: Changes) -> None:
    scope = n or o
    assert scope is not None
    if o is None or n is None or _shape(o) != _shape(n) or _bases_seen(old.r, o) != _bases_seen(new.r, n):
        if o is not None and n is not None and o.kind != n.kind:
            out.paths.add(scope.path)  # a class became a function (or back): lookups skip scopes by kind
        out.scopes.add(sid)
        out.hierarchy |= scope.kind == "class" or (o is not None and o.kind == "class")
        if scope.definition is not None and scope.definition.qualname:
            out.definitions.add(scope.definition.name)
            if scope.parent:
                out.reads.add((scope.parent, scope.definition.name))
    on, nn = (_names(o) if o else {}), (_names(n) if n else {})
    changed = {name for name in on.keys() | nn.keys() if on.get(name) != nn.get(name)}
    changed |= {read for read in map(keys_read, changed) if read is not None}  # a key came or went
    ov, nv = (_order_seen(old.r, o) if o else {}), (_order_seen(new.r, n) if n else {})
    changed |= {name for name in ov.keys() | nv.keys() if ov.get(name) != nv.get(name)}
    op, np = (set(o.params) if o else set()), (set(n.params) if n else set())
    changed |= op ^ np
    if _signature(o) != _signature(n):
        changed.add("<signature>")  # which argument a call passes for a returned parameter
    if _calls(old, scope.path, sid) != _calls(new, scope.path, sid):
        changed.add("<calls>")  # the arguments a call assigned in the scope passes
    if scope.kind == "class":  # a property given or denied a setter: assigning it calls another way
        changed |= _settable(old.r, sid) ^ _settable(new.r, sid)
        # `x = property(...)` made or unmade: reads of `.x` anywhere are resolved, or not
        out.definitions |= {n for n in changed if _made_property(on.get(n)) or _made_property(nn.get(n))}
    out.reads |= {(sid, name) for name in changed}
    if scope.kind == "module":  # which module owns a container written from elsewhere may differ
        out.reads |= {("<elements>", name.removesuffix("[]")) for name in changed if name.isidentifier()
                      or name.endswith("[]")}
    if "*" in changed:
        out.lookups.add(sid)  # a name not bound here is looked up in the star-imported modules
    if changed and scope.kind == "class":
        out.reads.add((sid, "<methods>"))
    if changed and scope.kind == "module":  # a computed getattr on the module lists its names
        out.reads.add((sid, "<names>"))
    declared = ((o.globals | o.nonlocals) if o else set()) ^ ((n.globals | n.nonlocals) if n else set())
    for name in declared:  # a global or nonlocal declaration moves lookups to an outer scope
        out.reads |= {(s, name) for s in (sid, *_ancestors(new.scopes, sid), *_ancestors(old.scopes, sid))}
    oa, na = _attrs(old.r, sid), _attrs(new.r, sid)
    out.reads |= {(sid, a) for a in oa.keys() | na.keys() if oa.get(a) != na.get(a)}


def _module_changes(old: ModuleIndex, new: ModuleIndex, out: Changes) -> None:
    names = old.by_name.keys() | new.by_name.keys()
    out.reads |= {("<module>", n) for n in names if old.by_name.get(n) != new.by_name.get(n)}
    paths = old.package_of.keys() | new.package_of.keys()
    out.reads |= {("<package>", p) for p in paths if old.package_of.get(p) != new.package_of.get(p)}
    for path in old.name_of.keys() ^ new.name_of.keys():  # a file come or gone: the endings it has
        parts = path.split("/")
        out.reads |= {("<ending>", "/".join(parts[i:])) for i in range(len(parts))}


def changes(
    old_r: Resolver, old_facts: Mapping[str, FileFacts], new_r: Resolver, new_facts: Mapping[str, FileFacts],
    changed: Iterable[str],
) -> Changes:
    """What may resolve differently, given the resolvers of the old versions and of the new revision."""
    out = Changes()
    old_scopes, new_scopes = _by_path(old_r), _by_path(new_r)
    old_stores, new_stores = _stores_by_path(old_r), _stores_by_path(new_r)
    for path in sorted(changed):
        old = _Version(old_r, old_scopes[path], old_facts[path], old_stores[path]) if path in old_facts else None
        new = _Version(new_r, new_scopes[path], new_facts[path], new_stores[path]) if path in new_facts else None
        _compare(path, old, new, out)
    _module_changes(ModuleIndex.build(old_facts), new_r.modules, out)
    # which classes fit a typing.Protocol is decided over every class of the revision
    out.reads.add(("<protocol>", ""))
    # what fixtures store through `request.cls` lands on the classes of the tests using them,
    # which any test file may change (a `usefixtures` mark, a parameter)
    out.reads |= {("<stores>", attr) for facts in (old_facts, new_facts) for attr in _request_stored(facts)}
    if any(_autouse_fixtures(old_facts.get(p)) != _autouse_fixtures(new_facts.get(p)) for p in changed):
        out.definitions.add(AUTOUSE)  # which tests run which autouse fixture may differ
    elif _fixture_sources_differ(old_facts, new_facts):
        out.definitions.add(AUTOUSE)  # so may which fixture a name gives anywhere
    for facts in (f for p in changed for f in (old_facts.get(p), new_facts.get(p)) if f is not None):
        # a fixture named by name=: tests ask for it under that name, not its function's
        out.definitions |= {d.fixture_alias for d in facts.definitions if d.fixture_alias}
    for versions in (old_scopes, new_scopes):
        for path in changed:
            # a read inside a scope nested in a reshaped one counts as a read of that scope
            out.scopes |= {sid for sid in versions.get(path, {}) if _within(sid, out.scopes)}
    return out


def _within(sid: str, scopes: set[str]) -> bool:
    while "::" in sid:
        sid = sid.rsplit("::", 1)[0]
        if sid in scopes:
            return True
    return False


def _by_path(r: Resolver) -> dict[str, dict[str, Scope]]:
    out: dict[str, dict[str, Scope]] = defaultdict(dict)
    for sid, scope in r.scopes.items():
        out[scope.path][sid] = scope
    return out


def named_by_site(facts: FileFacts) -> set[str]:
    """Last attribute names of a file's call sites.

    When a call resolves to nothing, its last name is matched against every
    method of the repository; an attribute read or an operator counts only when
    some class defines that name. So these names tie the file to definitions
    anywhere, without any lookup the trace could record.
    """
    out = set()
    for site in facts.calls:
        if site.callee:
            _base, ops = parse_expr(site.callee)
            attrs = [op[1:] for op in ops if op.startswith(".")]
            if attrs:
                out.add(attrs[-1])
                # an operator site also depends on the method Python falls back to or calls next
                for also in (INPLACE_FALLBACKS.get(attrs[-1]), ITERATOR_NEXT.get(attrs[-1])):
                    if also is not None:
                        out.add(also)
    return out


def fixture_names(path: str, facts: FileFacts, layout: TestLayout = DEFAULT_LAYOUT) -> set[str]:
    """Parameter names of a test or conftest file's functions and the names its
    ``usefixtures`` marks ask for: the fixtures it may use; and ``<autouse>``, as any
    autouse fixture up the tree may apply to its tests. Elsewhere (a plugin, a module
    of fixtures), the parameters of its fixtures."""
    if not layout.holds_tests(path):
        names = {p.name for d in facts.definitions if d.signature is not None and is_fixture(d)
                 for p in d.signature.params}
        return names | {AUTOUSE} if names else set()
    names = {p.name for d in facts.definitions if d.signature is not None for p in d.signature.params}
    return names | {n for d in facts.definitions for n in d.uses_fixtures} | {AUTOUSE}


def _fixture_sources_differ(old: Mapping[str, FileFacts], new: Mapping[str, FileFacts]) -> bool:
    """Whether the plugins pytest registers, or the fixtures files import, differ: which
    fixture a name gives may then differ in files that did not change."""
    return plugin_files(old) != plugin_files(new) or imported_fixtures(old) != imported_fixtures(new)


def _autouse_fixtures(facts: FileFacts | None) -> set[str]:
    return set() if facts is None else {d.qualname for d in facts.definitions if d.autouse and is_fixture(d)}
