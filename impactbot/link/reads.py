"""Readers of changed module-level names: who reads ``TIMEOUT`` when a change rebinds it.

The call graph links callers to what they call; a function that only reads a
module-level constant has no edge to the change that gave it a new value. For
the names a change rebinds (``ChangedSymbol.names`` of a module), this finds
the functions, methods and classes that read them:

- in the module that binds them, unless a local of the same name hides them;
- through ``from m import NAME [as alias]``, also when another module re-exports
  the name (a package ``__init__``, ``from m import *``), followed to a fixpoint;
- as ``m.NAME`` / ``pkg.m.NAME`` through an imported module.

Module-level code that reads a changed name rebinds what it assigns, and the
readers of those names are found in turn. Files are parsed again only when
their bytes contain one of the names looked for, so this costs nothing unless a
change rebinds a module-level name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping

from impactbot.extract import module_assignments, name_reads
from impactbot.link.modules import ModuleIndex
from impactbot.link.python import parse_expr
from impactbot.model import Definition, FileFacts, Import, NameRead, symbol_id

Origin = tuple[str, str]  # (path of the module that binds the name, the name there)


def readers(
    changed: Mapping[str, Collection[str]],
    facts: Mapping[str, FileFacts],
    source: Callable[[str], bytes],
) -> tuple[NameRead, ...]:
    """Every symbol that reads a changed name, once per (reader, module, name), first line kept.

    Module-level code that reads a changed name rebinds what it assigns
    (``DEFAULTS = {"timeout": TIMEOUT}``): those names count as changed too, in
    rounds until nothing new is rebound, and that module reads the first one.
    """
    names = {path: set(found) for path, found in changed.items() if found}
    if not names:
        return ()
    index = ModuleIndex.build(facts)
    scan = _Scan(source)
    while True:
        frozen = {path: frozenset(found) for path, found in names.items()}
        bound = _bound(frozen, facts, index)
        found: dict[tuple[str, str, str], NameRead] = {}
        rebound: dict[str, set[str]] = defaultdict(set)
        for path in sorted(facts):
            objects: dict[str, str | tuple[str, ...]] = {**_module_objects(path, facts[path], index, frozen),
                                                         **_settings_objects(facts[path], frozen)}
            for read, module_level in _reads_in(path, facts[path], bound.get(path, {}), objects, frozen, scan):
                if module_level:
                    rebound[path].update(scan.assigned_at(path, read.line))
                if read.reader != read.owner:
                    found.setdefault((read.reader, read.owner, read.name), read)
        new = {(path, name) for path, more in rebound.items() for name in more if name not in names.get(path, ())}
        if not new:
            return tuple(sorted(found.values(), key=lambda r: (r.reader, r.owner, r.name)))
        for path, name in new:
            names.setdefault(path, set()).add(name)


class _Scan:
    """Blob bytes, reads and module-level assignments of files, each found once per run."""

    def __init__(self, source: Callable[[str], bytes]) -> None:
        self._source = source
        self._bytes: dict[str, bytes] = {}
        self._reads: dict[str, dict[str, list[tuple[str, int]]]] = {}  # path -> name -> its reads
        self._assignments: dict[str, dict[int, tuple[str, ...]]] = {}
        self._scopes: dict[str, _Scopes] = {}

    def data(self, path: str) -> bytes:
        if path not in self._bytes:
            self._bytes[path] = self._source(path)
        return self._bytes[path]

    def reads(self, path: str, wanted: frozenset[str]) -> list[tuple[str, int]]:
        """``name_reads`` of ``wanted``; a file is scanned again only for names not looked
        for yet, which later rounds' few new names skip for most files unparsed."""
        known = self._reads.setdefault(path, {})
        missing = wanted - known.keys()
        if missing:
            for name in missing:
                known[name] = []
            for text, line in name_reads(self.data(path), missing):
                known[text.rpartition(".")[2]].append((text, line))
        out = [read for name in wanted for read in known[name]]
        out.sort(key=lambda use: (use[1], use[0]))
        return out

    def assigned_at(self, path: str, line: int) -> tuple[str, ...]:
        """Names bound by the module-level assignments and block headers that span
        ``line`` (``if DEBUG: LEVEL = 10`` is both on one line)."""
        if path not in self._assignments:
            by_line: dict[int, tuple[str, ...]] = defaultdict(tuple)
            for first, last, bound in module_assignments(self.data(path)):
                for at in range(first, last + 1):
                    by_line[at] = tuple(dict.fromkeys((*by_line[at], *bound)))
            self._assignments[path] = by_line
        return self._assignments[path].get(line, ())

    def scopes(self, path: str, facts: FileFacts) -> _Scopes:
        if path not in self._scopes:
            self._scopes[path] = _Scopes(facts)
        return self._scopes[path]


def _bound(changed: Mapping[str, frozenset[str]], facts: Mapping[str, FileFacts],
           index: ModuleIndex) -> dict[str, dict[tuple[str, str], Origin]]:
    """path -> (scope of the import, local name) -> origin; the module's own names at scope ""."""
    bound: dict[str, dict[tuple[str, str], Origin]] = defaultdict(dict)
    for path, names in changed.items():
        for name in names:
            bound[path][("", name)] = (path, name)
    grew = True
    while grew:  # re-exports of re-exports
        grew = False
        for path in sorted(facts):
            for imp in facts[path].imports:
                for key, origin in _imported(path, imp, facts, index, bound):
                    if key not in bound[path]:
                        bound[path][key] = origin
                        grew = True
    return bound


def _imported(path: str, imp: Import, facts: Mapping[str, FileFacts], index: ModuleIndex,
              bound: Mapping[str, Mapping[tuple[str, str], Origin]]) -> Iterator[tuple[tuple[str, str], Origin]]:
    if imp.name is None or imp.type_only:
        return
    module = index.absolute(path, imp.module, imp.level)
    if module is None:
        return
    for source in index.paths(module, near=path):
        exported = {name: origin for (scope, name), origin in bound.get(source, {}).items() if scope == ""}
        if imp.name == "*":
            public = facts[source].all_names if source in facts else None
            for name, origin in exported.items():
                if (name in public) if public is not None else not name.startswith("_"):
                    yield (imp.scope, name), origin
        elif imp.name in exported:
            yield (imp.scope, imp.bound_name), exported[imp.name]


def _module_objects(path: str, facts: FileFacts, index: ModuleIndex,
                    changed: Mapping[str, frozenset[str]]) -> dict[str, str]:
    """How this file names the changed modules in ``obj.NAME`` reads: object text -> module path."""
    out: dict[str, str] = {}
    for imp in facts.imports:
        module = index.absolute(path, imp.module, imp.level)
        if module is None or imp.type_only:
            continue
        if imp.name is None:
            target, obj = module, imp.alias or module  # `import a.b.c` reads as a.b.c.NAME
        elif imp.name != "*" and index.is_module(f"{module}.{imp.name}" if module else imp.name):
            target, obj = (f"{module}.{imp.name}" if module else imp.name), imp.bound_name
        else:
            continue
        for source in index.paths(target, near=path):
            if source in changed:
                out[obj] = source
        for source in changed:  # `import pkg` reads pkg.conf.NAME once pkg.conf is imported anywhere
            name = index.name_of.get(source, "")
            if name.startswith(target + "."):
                out.setdefault(obj + name[len(target):], source)
    return out


def _settings_objects(facts: FileFacts, changed: Mapping[str, frozenset[str]]) -> dict[str, tuple[str, ...]]:
    """``settings`` of ``from django.conf import settings``: a read of ``settings.NAME``
    reads NAME of the project's settings module, which is any changed ``settings.py``
    (or module of a ``settings/`` package, or Django's own ``global_settings.py``)."""
    names = {imp.bound_name for imp in facts.imports
             if imp.module == "django.conf" and imp.name == "settings" and not imp.type_only}
    if not names:
        return {}
    modules = tuple(sorted(p for p in changed if _is_settings_module(p)))
    return {name: modules for name in names} if modules else {}


def _is_settings_module(path: str) -> bool:
    parts = path.removesuffix(".py").split("/")
    return parts[-1] in ("settings", "global_settings") or "settings" in parts[:-1]


def _reads_in(path: str, facts: FileFacts, bound: Mapping[tuple[str, str], Origin],
              objects: Mapping[str, str | tuple[str, ...]], changed: Mapping[str, frozenset[str]],
              scan: _Scan) -> Iterator[tuple[NameRead, bool]]:
    """The reads of changed names in one file, each with whether it is module-level code.
    ``objects`` maps how the file names modules (``conf`` in ``conf.TIMEOUT``) to the
    module, or the modules, it reads."""
    modules_read = {obj: (found,) if isinstance(found, str) else found for obj, found in objects.items()}
    wanted = frozenset({name for _, name in bound}
                       | {name for found in modules_read.values() for module in found for name in changed[module]})
    if not wanted:
        return
    reads = scan.reads(path, wanted)
    if not reads:
        return
    scopes = scan.scopes(path, facts)
    for text, line in reads:
        scope = scopes.at(line)
        reader = symbol_id(path, scope.qualname) if scope is not None else path
        obj, _, name = text.rpartition(".")
        if obj:
            for module in modules_read.get(obj, ()):
                if name in changed[module]:
                    yield NameRead(reader, module, name, line), scope is None
            continue
        origin = scopes.origin(bound, scope, name) if scope is not None else bound.get(("", name))
        if origin is not None:
            yield NameRead(reader, origin[0], origin[1], line), scope is None


class _Scopes:
    """The classes and functions of one file, the line each one holds and the names each
    one binds, indexed once: a file with thousands of reads is not searched for each."""

    def __init__(self, facts: FileFacts) -> None:
        definitions = sorted((d for d in facts.definitions if d.kind != "module"), key=lambda d: d.start_line)
        self._by_name = {d.qualname: d for d in definitions}
        self._innermost: dict[int, Definition] = {}
        for d in definitions:  # an inner one starts later and overwrites its own lines
            for line in range(d.start_line, d.end_line + 1):
                self._innermost[line] = d
        self._kinds: dict[tuple[str, str], set[str]] = defaultdict(set)  # (scope, name) -> how it is bound
        for b in facts.bindings:
            self._kinds[(b.scope, b.target)].add(b.kind)
        for i in facts.imports:
            self._kinds[(i.scope, i.bound_name)].add("import")
        for d in definitions:
            for p in d.signature.params if d.signature is not None else ():
                self._kinds[(d.qualname, p.name)].add("parameter")

    def at(self, line: int) -> Definition | None:
        """The innermost class or function whose lines hold ``line``."""
        return self._innermost.get(line)

    def origin(self, bound: Mapping[tuple[str, str], Origin], scope: Definition, name: str) -> Origin | None:
        """What ``name`` read in ``scope`` refers to, Python's way: the innermost scope that
        binds it decides (a class body only for itself), the module last; ``global``
        goes to the module straight away."""
        d: Definition | None = scope
        innermost = True
        while d is not None:
            if innermost or d.kind in ("function", "method"):
                origin = bound.get((d.qualname, name))
                if origin is not None:
                    return origin
                kinds = self._kinds.get((d.qualname, name), set())
                if "global" in kinds:
                    break  # past every enclosing function that binds the name too
                if "nonlocal" not in kinds and kinds - {"return"}:
                    return None  # a local, a parameter or another import of that name
            innermost = False
            d = self._by_name.get(d.parent) if d.parent else None
        return bound.get(("", name))


# ------------------------------------------------------------ class-level names


def attribute_readers(
    changed: Mapping[str, Collection[str]],
    facts: Mapping[str, FileFacts],
    subclasses: Callable[[str], Iterable[str]],
) -> tuple[NameRead, ...]:
    """Methods that read a changed class-level name through their first parameter
    (``self.retries``, ``cls.retries``), in the class and in its subclasses that do
    not bind that name again; once per (reader, class, name), first line kept.

    ``changed`` maps a class id to its changed names; ``subclasses(class_id)``
    gives the direct subclasses of a class in head.
    """
    found: dict[tuple[str, str, str], NameRead] = {}
    for owner, names in sorted(changed.items()):
        for cls, live in _inheriting(owner, frozenset(names), facts, subclasses):
            path, _, qualname = cls.partition("::")
            for read in _self_reads(path, qualname, facts[path], live, owner):
                found.setdefault((read.reader, read.owner, read.name), read)
    return tuple(sorted(found.values(), key=lambda r: (r.reader, r.owner, r.name)))


def class_readers(
    changed: Mapping[str, Collection[str]],
    facts: Mapping[str, FileFacts],
    source: Callable[[str], bytes],
    subclasses: Callable[[str], Iterable[str]],
) -> tuple[NameRead, ...]:
    """Code that reads a changed class-level name through the class's own name
    (``Color.GREEN``, ``conf.Settings.TIMEOUT``), or a subclass's that does not bind
    it again; once per (reader, class, name), first line kept. Each read is marked
    ``through_class``: no instance attribute can stand in for the name there.

    As for :func:`readers`, files are parsed only when they bind the class's name or
    import its module, and their bytes hold one of the names looked for.
    """
    if not changed:
        return ()
    read_as: dict[str, tuple[str, frozenset[str]]] = {}  # class id -> (changed class, names it inherits)
    for owner, names in sorted(changed.items()):
        for cls, live in _inheriting(owner, frozenset(names), facts, subclasses):
            read_as.setdefault(cls, (owner, live))
    tops: dict[str, set[str]] = defaultdict(set)  # module path -> the names of its classes read from
    for cls in read_as:
        path, _, qualname = cls.partition("::")
        tops[path].add(qualname.split("::", 1)[0])
    modules = {path: frozenset(names) for path, names in tops.items()}
    index = ModuleIndex.build(facts)
    bound = _bound(modules, facts, index)
    wanted = frozenset(name for _, live in read_as.values() for name in live)
    scan = _Scan(source)
    found: dict[tuple[str, str, str], NameRead] = {}
    for path in sorted(facts):
        naming = _ClassNames(bound.get(path, {}), _module_objects(path, facts[path], index, modules))
        if not naming:
            continue
        for text, line in scan.reads(path, wanted):
            obj, _, name = text.rpartition(".")
            if not obj:
                continue  # a bare name: a module-level one, or the class body's own
            scopes = scan.scopes(path, facts[path])
            scope = scopes.at(line)
            owner, live = read_as.get(naming.resolve(obj, scope, scopes) or "", ("", frozenset()))
            if name in live:
                reader = symbol_id(path, scope.qualname) if scope is not None else path
                found.setdefault((reader, owner, name), NameRead(reader, owner, name, line, through_class=True))
    return tuple(sorted(found.values(), key=lambda r: (r.reader, r.owner, r.name)))


def rebound_by(reads: Iterable[NameRead], source: Callable[[str], bytes]) -> dict[str, set[str]]:
    """The module-level names that module-level code reading these names assigns
    (``LIMIT = Retry.attempts * 2``): changed too, as :func:`readers` has it for
    module-level names. Module path -> names."""
    scan = _Scan(source)
    out: dict[str, set[str]] = defaultdict(set)
    for read in reads:
        if "::" not in read.reader:  # the reader is a module: its own top-level code
            out[read.reader].update(scan.assigned_at(read.reader, read.line))
    return {path: names for path, names in out.items() if names}


class _ClassNames:
    """How one file names classes of the repository: names bound to them (imported, or
    defined in it), and names of the modules that define them."""

    def __init__(self, bound: Mapping[tuple[str, str], Origin], objects: Mapping[str, str]) -> None:
        self.bound, self.objects = bound, objects

    def __bool__(self) -> bool:
        return bool(self.bound or self.objects)

    def resolve(self, obj: str, scope: Definition | None, scopes: _Scopes) -> str | None:
        """The id of the class ``obj`` names (``Settings``, ``conf.Settings``,
        ``Outer.Inner``) where it is read, or None."""
        parts = obj.split(".")
        for k in range(len(parts) - 1, 0, -1):
            module = self.objects.get(".".join(parts[:k]))
            if module is not None:
                return f"{module}::{'::'.join(parts[k:])}"
        origin = scopes.origin(self.bound, scope, parts[0]) if scope is not None else self.bound.get(("", parts[0]))
        return None if origin is None else f"{origin[0]}::{'::'.join([origin[1], *parts[1:]])}"


def _inheriting(owner: str, names: frozenset[str], facts: Mapping[str, FileFacts],
                subclasses: Callable[[str], Iterable[str]]) -> Iterator[tuple[str, frozenset[str]]]:
    """The class and every subclass below it, each with the names it still inherits."""
    seen: set[str] = set()
    queue = [(owner, names)]
    while queue:
        cls, live = queue.pop()
        if cls in seen or not live:
            continue
        seen.add(cls)
        yield cls, live
        for sub in subclasses(cls):
            path, _, qualname = sub.partition("::")
            if path in facts:
                queue.append((sub, live - _class_bound(facts[path], qualname)))


def _class_bound(facts: FileFacts, qualname: str) -> frozenset[str]:
    """Names a class body binds itself (its own value hides an inherited one)."""
    own = {b.target for b in facts.bindings if b.scope == qualname}
    own.update(d.name for d in facts.definitions if d.parent == qualname and d.qualname != qualname)
    return frozenset(own)


def _self_reads(path: str, qualname: str, facts: FileFacts, names: frozenset[str],
                owner: str) -> Iterator[NameRead]:
    receivers = {d.qualname: r for d in facts.definitions if d.parent == qualname and (r := _receiver(d))}
    for site in facts.calls:
        receiver = receivers.get(site.scope)
        if receiver is None or not site.callee:
            continue
        base, ops = parse_expr(site.callee)
        if base == receiver and ops and ops[0][1:] in names and ops[0].startswith("."):
            yield NameRead(symbol_id(path, site.scope), owner, ops[0][1:], site.line)


def _receiver(d: Definition) -> str | None:
    """The parameter a method gets its instance or class in (``self``, ``cls``)."""
    if d.kind != "method" or d.signature is None or not d.signature.params:
        return None
    if any(x.rsplit(".", 1)[-1].startswith("staticmethod") for x in d.decorators):
        return None
    return d.signature.params[0].name
