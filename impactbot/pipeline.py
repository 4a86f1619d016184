"""The flow of one analysis: a list of stage calls.

``analyse`` takes the adapters it needs (repository, cache, embedder) as
arguments; only ``cli`` constructs them. Everything between reading blobs and
returning the report is a pure stage function.
"""

from __future__ import annotations

import fnmatch
import hashlib
import logging
import re
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from posixpath import basename
from typing import TYPE_CHECKING, Protocol

from impactbot.cache import Cache
from impactbot.config import Settings
from impactbot.config_changes import loud_sections, sectioned
from impactbot.diff import changed_class_names, changed_names, changed_symbols
from impactbot.extract import language_for, unread
from impactbot.model import (
    ChangedSymbol,
    ChangeSet,
    FileChange,
    FileFacts,
    Impact,
    Impacted,
    LinkedGraph,
    NameRead,
    Report,
    Revision,
    SkippedFile,
    Stats,
    Symbol,
)
from impactbot.rank import rank, similarities
from impactbot.versions import EXTRACTOR_VERSION, IMPACT_VERSION, LINK_VERSION

if TYPE_CHECKING:
    from impactbot.link.fixtures import TestLayout
    from impactbot.link.incremental import LinkTrace

# Linking, the process pool, incremental linking and paired linking are imported
# where they are used: a run answered from the cache needs none of them (start-up
# is measured).

log = logging.getLogger(__name__)

# generated or vendored blobs past this are not read: a generated 4 MB schema parses in a
# second or two and defines what the code imports; past 10 MB the blob is only noted
MAX_FILE_BYTES = 10_000_000


class BlobReader(Protocol):
    def read_blob(self, oid: str) -> bytes: ...


class Embedder(Protocol):
    """Vectors for code snippets keyed by fingerprint (see impactbot.embed)."""

    failed: str | None

    def vectors(self, texts: Mapping[str, Callable[[], str]]) -> dict[str, list[float]] | None: ...


# ----------------------------------------------------------------- facts


@dataclass
class FactStore:
    """Facts of blobs, from the cache or freshly extracted; counts both."""

    repo: BlobReader
    cache: Cache
    deadline: float | None = None
    parsed: int = 0
    cached: int = 0
    skipped: dict[str, SkippedFile] = field(default_factory=dict)
    skipped_blobs: dict[str, str] = field(default_factory=dict)  # path -> the blob that failed to parse
    out_of_time: bool = False
    linked_short: bool = False  # the budget ran out while linking: a graph lacks calls
    _memo: dict[str, FileFacts] = field(default_factory=dict)
    progress: Callable[[int, int], None] | None = None
    # graphs linked or loaded in this run, by graph key, with their traces when known
    graphs: dict[str, tuple[LinkedGraph, LinkTrace | None]] = field(default_factory=dict)

    def facts_of(self, files: Mapping[str, str], *, whatever_the_time: bool = False) -> dict[str, FileFacts]:
        """path -> blob id  =>  path -> facts (files that cannot be read are skipped).

        ``whatever_the_time`` reads them all even past the deadline: the changed files,
        without which a report would say nothing at all."""
        wanted = {oid for oid in files.values() if oid not in self._memo}
        self._load_cached(wanted)
        missing = sorted(wanted - self._memo.keys())
        self._extract(missing, files, None if whatever_the_time else self.deadline)
        found = {p: self._memo[oid] for p, oid in sorted(files.items()) if oid in self._memo}
        for path, facts in found.items():
            # cached facts too: a report says the same whether or not a blob was read before
            if facts.error and path not in self.skipped:
                self.skipped[path] = SkippedFile(path, "parse-error", facts.error)
                self.skipped_blobs[path] = files[path]
        return found

    def has(self, oid: str) -> bool:
        return oid in self._memo

    def readable(self, oid: str | None) -> bool:
        """Whether a blob (None: no blob) has facts of its own code."""
        if oid is None:
            return True
        facts = self._memo.get(oid)
        return facts is not None and not facts.unread

    def forget(self) -> None:
        """Let go of the facts and graphs read so far (the counts stay)."""
        self._memo.clear()
        self.graphs.clear()

    def _load_cached(self, oids: set[str]) -> None:
        keys = [(oid, "python", EXTRACTOR_VERSION) for oid in sorted(oids)]
        for key, facts in self.cache.get_facts(keys).items():
            self._memo[key[0]] = facts
            self.cached += 1

    def _extract(self, oids: list[str], files: Mapping[str, str], deadline: float | None) -> None:
        paths = {oid: p for p, oid in files.items()}
        fresh: dict[tuple[str, str, str], bytes] = {}
        from impactbot.extract.pool import extract_all

        results = extract_all(self._readable(oids, paths, deadline), len(oids), "python")
        for done, (oid, facts, encoded) in enumerate(results, start=1):
            if deadline is not None and time.monotonic() > deadline:
                self.out_of_time = True  # what was read so far is kept; the rest is reported missing
                break
            self._memo[oid] = facts
            fresh[(oid, "python", EXTRACTOR_VERSION)] = encoded
            if self.progress:
                self.progress(done, len(oids))
        self.parsed += len(fresh)
        if fresh:
            self.cache.put_encoded_facts(fresh)

    def _readable(self, oids: list[str], paths: Mapping[str, str],
                  deadline: float | None) -> Iterator[tuple[str, bytes]]:
        """Blob bytes to extract; stops early when ``deadline`` (the time budget's) has passed."""
        for oid in oids:
            if deadline is not None and time.monotonic() > deadline:
                self.out_of_time = True
                return
            data = self.repo.read_blob(oid)
            path = paths[oid]
            if len(data) > MAX_FILE_BYTES:
                self.skipped[path] = SkippedFile(path, "too-large", f"{len(data)} bytes")
                self._memo[oid] = unread(data, f"not read: {len(data)} bytes")
            elif b"\0" in data[:8000]:
                self.skipped[path] = SkippedFile(path, "binary")
                self._memo[oid] = unread(data, "not read: binary")
            else:
                yield oid, data


# ----------------------------------------------------------------- graphs


def analysed_files(revision: Revision, settings: Settings) -> dict[str, str]:
    """The files of a revision that impactbot reads: supported, included, not excluded,
    and not a stub (``x.pyi``) of a module whose code (``x.py``) is read: only the code
    runs, and calls linked to the stub's signatures would go to code that does not exist."""
    out = {}
    for path, oid in revision.files:
        if language_for(path) != "python":
            continue
        if settings.include and not any(fnmatch.fnmatch(path, g) for g in settings.include):
            continue
        if any(fnmatch.fnmatch(path, g) for g in settings.exclude):
            continue
        out[path] = oid
    return {p: oid for p, oid in out.items() if not (p.endswith(".pyi") and p[:-1] in out)}


def graph_key(revision: Revision, settings: Settings) -> str | None:
    if revision.worktree:
        return None
    h = hashlib.sha1(repr((settings.include, settings.exclude, settings.test_files,
                           settings.test_plugins)).encode()).hexdigest()[:12]
    return f"{revision.commit}:{EXTRACTOR_VERSION}:{LINK_VERSION}:{h}"


def test_layout(settings: Settings) -> TestLayout:
    """Which files hold tests (the configured ``python_files``, else pytest's defaults),
    and the plugins pytest loads by configuration."""
    from impactbot.link.fixtures import DEFAULT_LAYOUT, PYTEST_FILES, TestLayout

    if not settings.test_files and not settings.test_plugins:
        return DEFAULT_LAYOUT
    return TestLayout(settings.test_files or PYTEST_FILES, plugins=settings.test_plugins)


def trace_key(key: str) -> str:
    """Where the cache keeps the trace that lets other graphs be derived from a graph."""
    return f"{key}#trace"


def revision_graph(
    revision: Revision, settings: Settings, store: FactStore, near: Sequence[Revision] = ()
) -> LinkedGraph:
    """The linked graph of a revision: cached, derived from a nearby revision's, or linked.

    ``near`` lists revisions, nearest first, whose graphs may already be known
    (linked earlier in this run, or cached): the first one with a trace is
    derived from, which re-resolves only what the changes between them reach.
    """
    key = graph_key(revision, settings)
    known = _known_graph(key, store)
    if known is not None:
        return known
    facts = store.facts_of(analysed_files(revision, settings))
    if store.cache.path is None or not settings.incremental_graphs:
        from impactbot.link import link

        graph, trace = link(facts, test_layout(settings), store.deadline), None  # no later run derives from it
    else:
        from impactbot.link.incremental import link_traced, trace_to_graph

        graph, trace = _derived(facts, near, settings, store) or link_traced(facts, test_layout(settings))
    if key is not None and not store.out_of_time and not graph.cut_short:
        store.cache.put_graph(key, graph)
        if trace is not None:
            store.cache.put_graph(trace_key(key), trace_to_graph(trace))
    if key is not None:
        store.graphs[key] = (graph, trace)
    return graph


def _graphs(changes: ChangeSet, settings: Settings, store: FactStore) -> tuple[LinkedGraph, LinkedGraph]:
    """Base and head graphs; when both must be linked from scratch and two links fit in
    memory, the base is linked in a forked process while this one links the head
    (they are independent)."""
    from impactbot.extract.pool import workers
    from impactbot.link.pair import link_pair

    base_key, head_key = graph_key(changes.base, settings), graph_key(changes.head, settings)
    one_by_one = (
        settings.incremental_graphs
        or workers() < 2
        or _known_graph(base_key, store) is not None
        or _known_graph(head_key, store) is not None
    )
    both = None if one_by_one else _side_by_side(changes, settings, store)
    if both is None:
        base = revision_graph(changes.base, settings, store)
        return base, revision_graph(changes.head, settings, store, near=(changes.base,))
    stored = store.cache.path is not None
    pair = link_pair(*both, test_layout(settings), store.deadline, encode_head=stored and head_key is not None)
    if not store.out_of_time:
        for key, graph, encoded in ((base_key, pair.base, pair.base_encoded), (head_key, pair.head, pair.head_encoded)):
            if key is None or graph.cut_short:
                continue
            if encoded is None:
                store.cache.put_graph(key, graph)
            else:
                store.cache.put_encoded_graph(key, encoded)
    return pair.base, pair.head


def _side_by_side(
    changes: ChangeSet, settings: Settings, store: FactStore
) -> tuple[Mapping[str, FileFacts], Mapping[str, FileFacts]] | None:
    """The facts of base and head, if two links of them fit in the memory available."""
    from impactbot.link.pair import available_memory, fits_side_by_side

    base = store.facts_of(analysed_files(changes.base, settings))
    head = store.facts_of(analysed_files(changes.head, settings))
    sites = max(sum(len(f.calls) for f in facts.values()) for facts in (base, head))
    if fits_side_by_side(sites, available_memory()):
        return base, head
    log.info("Linking base and head one after the other: two links of %d call sites would not fit "
             "in the memory available.", sites)
    return None


def _known_graph(key: str | None, store: FactStore) -> LinkedGraph | None:
    if key is None:
        return None
    if key in store.graphs:
        return store.graphs[key][0]
    cached = store.cache.get_graph(key)
    if cached is not None:
        store.graphs[key] = (cached, None)  # its trace is read only if something derives from it
    return cached


def _derived(
    facts: Mapping[str, FileFacts], near: Sequence[Revision], settings: Settings, store: FactStore
) -> tuple[LinkedGraph, LinkTrace] | None:
    """The graph and trace of ``facts`` derived from the first nearby revision that allows it."""
    from impactbot.link.incremental import derive, trace_from_graph

    for other in near:
        key = graph_key(other, settings)
        if key is None or _known_graph(key, store) is None:
            continue
        graph, trace = store.graphs[key]
        if trace is None:
            stored = store.cache.get_graph(trace_key(key))
            trace = trace_from_graph(stored) if stored is not None else None
            store.graphs[key] = (graph, trace)
        if trace is not None:
            # the facts of files unchanged between the two are shared: only changed blobs are read
            old_facts = store.facts_of(analysed_files(other, settings))
            return derive(graph, old_facts, facts, trace, test_layout(settings))
    return None


class LazyFacts(Mapping[str, FileFacts]):
    """Facts of head files, read only when a stage asks for one."""

    def __init__(self, files: Mapping[str, str], store: FactStore) -> None:
        self._files = files
        self._store = store

    def __getitem__(self, path: str) -> FileFacts:
        facts = self._store.facts_of({path: self._files[path]})
        return facts[path]

    def __iter__(self) -> Iterator[str]:
        """The files that have facts, or may when asked: not those skipped unread (too
        large, binary) nor, once the time budget ran out, those not read by then."""
        store = self._store
        for path, oid in self._files.items():
            if store.has(oid) or (path not in store.skipped and not store.out_of_time):
                yield path

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        # `facts or {}` is read in the breaking checks' loops: the first file answers it
        return next(iter(self), None) is not None


# ----------------------------------------------------------------- report

RUN_ALL_FILES = (
    "conftest.py", "pytest.ini", "tox.ini", "setup.cfg", "noxfile.py", "pyproject.toml",
    "requirements*.txt", "*.lock", "poetry.lock", "uv.lock", "Pipfile", "Pipfile.lock",
    "setup.py", "constraints*.txt",
)


# what documentation and examples configure (their build's requirements, an example
# project's setup.py) does not reach the test suite
NOT_TESTED_DIRS = frozenset({"docs", "doc", "examples", "example"})


def run_all_reason(
    changes: ChangeSet, repo: BlobReader | None = None, followed: Collection[str] = ()
) -> str | None:
    """Changes the call graph cannot follow into tests (configuration, fixtures, lock files).

    With ``repo``, an edited ``pyproject.toml``, ``setup.cfg`` or ``tox.ini`` counts
    only when a section the tests may read changed (see impactbot.config_changes).
    ``followed`` names files whose changes the graph does follow (a conftest whose
    fixtures alone changed: the tests using them are selected).
    """
    for f in changes.files:
        for path in filter(None, (f.path, f.old_path)):
            name = basename(path)
            if path in followed or _untested(path):
                continue
            if not _configuration(name):
                continue
            sections = _loud_sections(f, name, repo)
            if sections == []:
                continue  # only linters' and release tools' settings changed
            shown = f" ({', '.join(sections[:3])}{', ...' if len(sections) > 3 else ''})" if sections else ""
            return f"{path} changed{shown}: it can affect any test"
    return _named_data_file(changes, repo) if repo is not None else None


# what documents the project: read by people, not by the code under test
DOC_SUFFIXES = (".md", ".rst", ".adoc")
# Python files that name files for packaging, not for the code under test to read
# (`long_description=open("README.txt")`)
PACKAGING_FILES = frozenset({"setup.py", "noxfile.py", "fabfile.py"})


def _named_data_file(changes: ChangeSet, repo: BlobReader) -> str | None:
    """A changed file the call graph cannot read (a JSON fixture, a template, a schema)
    that the head's Python code names in a string: code, and so tests, may read it.
    Files no Python code names (CI workflows, images, a Dockerfile) are left out, as
    is documentation."""
    wanted: dict[bytes, str] = {}
    for f in changes.files:
        for path in filter(None, (f.path, f.old_path)):
            name = basename(path)
            if language_for(path) is not None or name.lower().endswith(DOC_SUFFIXES) or _untested(path) \
                    or _configuration(name):  # (its own rules: see above)
                continue
            if len(name) >= 5 and "." in name.strip("."):  # specific enough to search for
                wanted.setdefault(name.encode(), path)
    if not wanted:
        return None
    quoted = re.compile(rb"[\"'/\\](" + b"|".join(re.escape(n) for n in sorted(wanted)) + rb")[\"']")
    for path, oid in changes.head.files:
        if language_for(path) != "python" or basename(path) in PACKAGING_FILES or _untested(path):
            continue
        found = quoted.search(repo.read_blob(oid))
        if found is not None:
            changed = wanted[found.group(1)]
            return f"{changed} changed: {path} names it, and the call graph does not follow files it reads into tests"
    return None


def _configuration(name: str) -> bool:
    """A file name RUN_ALL_FILES lists (configuration, requirements, lock files)."""
    return any(fnmatch.fnmatch(name, pattern) for pattern in RUN_ALL_FILES)


def _untested(path: str) -> bool:
    """A path under documentation or examples (see NOT_TESTED_DIRS)."""
    return bool(NOT_TESTED_DIRS.intersection(d.lower() for d in path.split("/")[:-1]))


def _skipped(store: FactStore, changes: ChangeSet) -> tuple[SkippedFile, ...]:
    """Files that could not be read whole; a parse error of a base version the branch
    fixed says so (the head's facts are whole, and that version is what the report is of)."""
    fixed = {f.old_path or f.path: f.old_blob for f in changes.files
             if f.old_blob and f.new_blob and f.old_blob != f.new_blob}
    out = []
    for path, skipped in sorted(store.skipped.items()):
        if skipped.reason == "parse-error" and path in fixed and store.skipped_blobs.get(path) == fixed[path]:
            skipped = replace(skipped, detail=f"{skipped.detail} (the base version; the head version parses)")
        out.append(skipped)
    return tuple(out)


def _fixture_only_conftests(changes: ChangeSet, changed: Sequence[ChangedSymbol], store: FactStore) -> set[str]:
    """Edited conftest.py files whose every change is to a fixture function (not its
    module-level code, a hook, a class): the uses_fixture edges lead from those to the
    tests that run them, so the whole suite need not run."""
    from impactbot.link.fixtures import is_fixture

    out = set()
    for f in changes.files:
        if basename(f.path) != "conftest.py" or not f.old_blob or not f.new_blob or f.old_path:
            continue
        mine = [c for c in changed if c.symbol.path == f.path]
        versions = [store.facts_of({f.path: blob}).get(f.path) for blob in (f.old_blob, f.new_blob)]
        if not mine or any(v is None for v in versions):
            continue
        fixtures = {d.qualname for v in versions if v is not None for d in v.definitions if is_fixture(d)}
        if all(c.symbol.qualname in fixtures and not c.symbol.qualname.startswith("pytest_") for c in mine):
            out.add(f.path)
    return out


def _loud_sections(f: FileChange, name: str, repo: BlobReader | None) -> list[str] | None:
    """The sections of an edited configuration file the tests may read; None when
    not known (another kind of file, added, removed or moved, unreadable)."""
    if repo is None or not sectioned(name) or not f.old_blob or not f.new_blob or f.old_path:
        return None
    return loud_sections(name, repo.read_blob(f.old_blob), repo.read_blob(f.new_blob))


def _partial_reason(store: FactStore, settings: Settings) -> str | None:
    if store.out_of_time:
        return (f"the time budget of {settings.time_budget:g}s ran out before every file was read; "
                "symbols in unread files are missing from this report")
    if store.linked_short:
        return (f"the time budget of {settings.time_budget:g}s ran out while linking the call graph; "
                "calls not resolved by then are missing from this report")
    return None


def report_key(changes: ChangeSet, settings: Settings, semantic: bool) -> str | None:
    """Reports of two commits depend only on them, the settings and the versions."""
    if changes.head.worktree or settings.time_budget:
        return None
    from impactbot import __version__

    parts = (changes.base.commit, changes.head.commit, settings.depth, settings.hub_cap, settings.include,
             settings.exclude, settings.test_files, settings.test_plugins, settings.max_impacted,
             semantic and settings.model, EXTRACTOR_VERSION, LINK_VERSION, IMPACT_VERSION, __version__,
             changes.base.ref, changes.head.ref)
    return hashlib.sha1(repr(parts).encode()).hexdigest()


def analyse(
    changes: ChangeSet,
    settings: Settings,
    *,
    repo: BlobReader,
    cache: Cache,
    embedder: Embedder | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Analyse a change set, or return the report of the same analysis from the cache."""
    started = time.monotonic()
    key = report_key(changes, settings, embedder is not None)
    cached = cache.get_report(key) if key else None
    if cached is not None:
        files = cached.stats.files_parsed + cached.stats.files_cached
        stats = Stats(0, files, round(time.monotonic() - started, 3))
        return replace(cached, base=changes.base, head=changes.head, stats=stats)
    report = _analyse(changes, settings, repo=repo, cache=cache, embedder=embedder, progress=progress)
    if key and report.status == "complete" and not report.notes:
        # the two commits' file lists are most of a report's bytes: the key already names them
        cache.put_report(key, replace(report, base=replace(report.base, files=()), head=replace(report.head, files=())))
    return report


def _analyse(
    changes: ChangeSet,
    settings: Settings,
    *,
    repo: BlobReader,
    cache: Cache,
    embedder: Embedder | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """The whole flow from blobs to the report."""
    started = time.monotonic()
    deadline = started + settings.time_budget if settings.time_budget else None
    store = FactStore(repo, cache, deadline=deadline, progress=progress)
    everything, changes = changes, _analysed_changes(changes, settings)
    changed, impact = _impact(changes, settings, store, repo)
    followed = _fixture_only_conftests(changes, changed, store)
    # Only symbols are needed from here on: the facts and graphs go before the
    # embedding model (about 700 MiB) is loaded, so the two never add up.
    store.forget()
    similarity = _similarity(changed, impact.impacted, embedder, repo, changes.head) if embedder else None
    ranked = rank(impact.impacted, similarity=similarity)
    shown = ranked[: settings.max_impacted]
    partial = _partial_reason(store, settings)
    return Report(
        base=changes.base, head=changes.head, changed=changed, impacted=shown,
        tests=impact.tests, breaking=impact.breaking, hubs=impact.hubs,
        depth_limit_hit=impact.depth_limit_hit, omitted=len(ranked) - len(shown),
        unresolved_calls=impact.unresolved_calls,
        stats=Stats(store.parsed, store.cached, round(time.monotonic() - started, 3)),
        status="partial" if partial else "complete", partial_reason=partial,
        run_all_tests=run_all_reason(everything, repo, followed),
        skipped=_skipped(store, changes),
        ranking="semantic" if similarity is not None else "structural",
        notes=(embedder.failed,) if embedder is not None and embedder.failed else (),
    )


def _impact(changes: ChangeSet, settings: Settings, store: FactStore,
            repo: BlobReader) -> tuple[tuple[ChangedSymbol, ...], Impact]:
    """Facts, graphs, the changed symbols and the walk from them."""
    # imported here: a report served from the cache needs neither (networkx alone is 0.2 s)
    from impactbot.impact import SymbolGraph, walk

    # the changed files first, whatever the time budget says: they are what matters most
    store.facts_of({f.path: f.new_blob for f in changes.files if f.new_blob}, whatever_the_time=True)
    store.facts_of({f.old_path or f.path: f.old_blob for f in changes.files if f.old_blob}, whatever_the_time=True)
    base_graph, head_graph = _graphs(changes, settings, store)
    store.linked_short = base_graph.cut_short or head_graph.cut_short
    changed = _with_changed_names(changed_symbols(_readable_changes(changes, store), base_graph, head_graph),
                                  changes, repo)
    head_facts = LazyFacts(analysed_files(changes.head, settings), store)
    base_facts = LazyFacts(analysed_files(changes.base, settings), store)
    head = SymbolGraph(head_graph, head_facts)
    head.add_reads(_name_reads(changed, changes.head, settings, store, repo, head.subclasses))
    impact = walk(
        head, SymbolGraph(base_graph, base_facts), changed, depth=settings.depth, hub_cap=settings.hub_cap,
        head_facts=head_facts, base_facts=base_facts, layout=test_layout(settings),
    )
    return changed, impact


def _with_changed_names(changed: Sequence[ChangedSymbol], changes: ChangeSet,
                        repo: BlobReader) -> tuple[ChangedSymbol, ...]:
    """Modified modules and classes with the names their own code binds differently.

    A module moved by git (``renamed``) is compared with its old blob as well: it
    can rebind names on the way, and its importers need not change with it
    (``from .conf import *`` in a package ``__init__`` becoming ``from .settings
    import *``)."""
    blobs = {f.path: (f.old_blob, f.new_blob) for f in changes.files}
    in_classes: dict[str, dict[str, tuple[str, ...]]] = {}
    out = []
    for c in changed:
        old, new = blobs.get(c.symbol.path, (None, None))
        if old and new and c.symbol.kind == "module" and c.change in ("modified", "renamed"):
            c = replace(c, names=changed_names(repo.read_blob(old), repo.read_blob(new)))
        elif old and new and c.symbol.kind == "class" and c.change == "modified":
            if c.symbol.path not in in_classes:  # one parse per file, however many classes changed
                in_classes[c.symbol.path] = changed_class_names(repo.read_blob(old), repo.read_blob(new))
            c = replace(c, names=in_classes[c.symbol.path].get(c.symbol.qualname, ()))
        out.append(c)
    return tuple(out)


def _name_reads(changed: Sequence[ChangedSymbol], head: Revision, settings: Settings, store: FactStore,
                repo: BlobReader, subclasses: Callable[[str], Iterable[str]]) -> tuple[NameRead, ...]:
    """Who reads the module- and class-level names the change rebinds (nothing to do for most changes)."""
    modules = {c.symbol.path: c.names for c in changed if c.names and c.symbol.kind == "module"}
    classes = {c.symbol.id: c.names for c in changed if c.names and c.symbol.kind == "class"}
    if not modules and not classes:
        return ()
    from impactbot.link.reads import attribute_readers, class_readers, readers, rebound_by

    files = analysed_files(head, settings)
    facts = store.facts_of(files)

    def source(path: str) -> bytes:
        return repo.read_blob(files[path])

    through_class = class_readers(classes, facts, source, subclasses)
    for path, names in rebound_by(through_class, source).items():  # `LIMIT = Retry.attempts * 2`
        modules[path] = tuple(sorted({*modules.get(path, ()), *names}))
    return readers(modules, facts, source) + attribute_readers(classes, facts, subclasses) + through_class


def _readable_changes(changes: ChangeSet, store: FactStore) -> ChangeSet:
    """Without a side's facts (time budget), or with a side not read (too large, binary),
    a file's symbols would look added or removed: such a file is left out (it is listed
    among the skipped files)."""
    files = tuple(f for f in changes.files if store.readable(f.new_blob) and store.readable(f.old_blob))
    return changes if len(files) == len(changes.files) else ChangeSet(changes.base, changes.head, files)


def _analysed_changes(changes: ChangeSet, settings: Settings) -> ChangeSet:
    head = analysed_files(changes.head, settings)
    base = analysed_files(changes.base, settings)
    files = tuple(f for f in changes.files if f.path in head or (f.old_path or f.path) in base)
    return ChangeSet(changes.base, changes.head, files)


def _similarity(changed: Sequence[ChangedSymbol], impacted: Sequence[Impacted], embedder: Embedder,
                repo: BlobReader, head: Revision) -> dict[str, float] | None:
    """Embed only what is ranked: the changed symbols and the impacted ones."""
    if not impacted:
        return None
    files = dict(head.files)
    lines: dict[str, list[str]] = {}

    def snippet(sym: Symbol) -> str:
        if sym.path not in lines:
            lines[sym.path] = repo.read_blob(files[sym.path]).decode("utf-8", "replace").splitlines()
        code = "\n".join(lines[sym.path][sym.line - 1 : sym.end_line])
        # structure folded into prose, never a bare line of names (see design: embedding input)
        return f"The {sym.kind} {sym.qualname or sym.path} in {sym.path}:\n{code}"

    symbols = [c.symbol for c in changed if c.change != "removed"] + [i.symbol for i in impacted]
    texts = {s.fingerprint: (lambda s=s: snippet(s)) for s in symbols if s.path in files}
    vectors = embedder.vectors(texts)
    if vectors is None:
        return None
    return similarities(impacted, [c.symbol for c in changed if c.change != "removed"], vectors)


def build_graph(revision: Revision, settings: Settings, *, repo: BlobReader, cache: Cache) -> LinkedGraph:
    """The linked graph of one revision (``impactbot graph``)."""
    return revision_graph(revision, settings, FactStore(repo, cache))
