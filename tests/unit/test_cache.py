"""The on-disk cache: real SQLite files, real model values, real second processes."""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import hashlib
import json
import logging
import os
import pickle
import signal
import sqlite3
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from impactbot.cache import CACHE_SCHEMA, CACHEDIR_TAG, DB_NAME, Cache
from impactbot.model import (
    Binding,
    CallSite,
    Definition,
    Edge,
    FileFacts,
    Import,
    LinkedGraph,
    Param,
    ResolvedCall,
    Signature,
    Symbol,
)

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CacheWarnings = Callable[[], list[str]]  # the messages logged so far


# ------------------------------------------------------------------------ values


def oid(*parts: object) -> str:
    """A 40-hex blob id derived from ``parts``."""
    return hashlib.sha1(repr(parts).encode()).hexdigest()


def make_facts(n: int) -> FileFacts:
    """Facts of a small module: a class ``Cart{n}`` with a method, two calls, two imports."""
    cls = f"Cart{n}"
    signature = Signature(
        params=(
            Param("self", "positional", has_default=False),
            Param("amount", "positional", has_default=True, annotation="int"),
            Param("rest", "var_keyword", has_default=False),
        ),
        returns="Decimal",
    )
    definitions = [
        Definition("", "module", 1, 40, oid("module", n)),
        Definition(cls, "class", 3, 20, oid("class", n), bases=("Base",)),
        Definition(f"{cls}::total", "method", 5, 12, oid("total", n), signature, ("property",)),
    ]
    calls = (
        CallSite(f"{cls}::total", "self.tax", 6, positional=1, args=("amount",)),
        CallSite("", "helper", 30, keywords=("key",), kwargs=(("key", '"k"'),)),
    )
    imports = (
        Import("", "pkg.money", "Decimal", None, 0, 1),
        Import("", "typing", "TYPE_CHECKING", None, 0, 2, type_only=True),
    )
    bindings = (Binding(f"{cls}::total", "self.rate", "Rate()", 7, "annotation"),)
    return FileFacts("python", tuple(definitions), calls, imports, bindings, all_names=(cls,))


def make_graph(edges: int, symbols: int = 50) -> LinkedGraph:
    """A linked graph with ``edges`` CALLS edges between ``symbols`` functions."""
    nodes = tuple(
        Symbol(
            id=f"pkg/m{i % 7}.py::f{i}",
            path=f"pkg/m{i % 7}.py",
            qualname=f"f{i}",
            kind="function",
            line=i + 1,
            end_line=i + 4,
            fingerprint=oid("symbol", i),
            language="python",
            signature=Signature((Param("x", "positional", False),)),
            is_test=i % 10 == 0,
        )
        for i in range(symbols)
    )
    links = tuple(
        Edge(
            nodes[i % symbols].id,
            nodes[(i * 7 + 1) % symbols].id,
            "calls",
            "resolved" if i % 3 else "name_match",
            (i % 90 + 1,),
        )
        for i in range(edges)
    )
    site = CallSite(nodes[0].id, "f1", 2)
    return LinkedGraph(
        symbols=nodes,
        edges=links,
        unresolved=((nodes[0].id, 2),),
        calls=(ResolvedCall(nodes[0].id, nodes[1].id, 2, site, bound=False),),
        dangling=((nodes[2].id, "gone()", 9),),
    )


def count_objects(value: object) -> int:
    """How many model objects ``value`` is made of, itself included."""
    if isinstance(value, tuple):
        return sum(count_objects(item) for item in value)
    if dataclasses.is_dataclass(value):
        return 1 + sum(count_objects(getattr(value, f.name)) for f in dataclasses.fields(value))
    return 0


def facts_items(tag: str, count: int, version: str = "x1") -> dict[tuple[str, str, str], FileFacts]:
    """``count`` distinct facts keyed by blob ids derived from ``tag``."""
    return {(oid(tag, i), "python", version): make_facts(i) for i in range(count)}


# ---------------------------------------------------------------------- fixtures


@pytest.fixture
def directory(tmp_path: Path) -> Path:
    return tmp_path / "cache"


@pytest.fixture
def cache_warnings(caplog: pytest.LogCaptureFixture) -> CacheWarnings:
    """The warnings the cache logged so far."""
    caplog.set_level(logging.WARNING, logger="impactbot.cache")

    def collected() -> list[str]:
        return [
            record.getMessage()
            for record in caplog.records
            if record.name == "impactbot.cache" and record.levelno >= logging.WARNING
        ]

    return collected


@contextlib.contextmanager
def raw(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain SQLite connection to the cache file, as another program would use."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        yield db


# -------------------------------------------------------------- second process

CHILD_PRELUDE = """
import json, logging, sys, time
from pathlib import Path
from impactbot.cache import Cache
from test_cache import facts_items, make_graph
warnings = []
class Collect(logging.Handler):
    def emit(self, record):
        warnings.append(record.getMessage())
logging.getLogger("impactbot.cache").addHandler(Collect(logging.WARNING))
directory = Path(sys.argv[1])
"""


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(HERE)])
    return env


def start_child(script: str, *args: object, preexec_fn: Callable[[], None] | None = None) -> subprocess.Popen[str]:
    """Run ``script`` after CHILD_PRELUDE in a new interpreter; argv[1:] are ``args``."""
    return subprocess.Popen(
        [sys.executable, "-c", CHILD_PRELUDE + script, *map(str, args)],
        env=child_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=preexec_fn,
    )


def finish(child: subprocess.Popen[str], timeout: float = 120) -> dict[str, Any]:
    """Wait for the child; its last stdout line is a JSON object."""
    out, err = child.communicate(timeout=timeout)
    assert child.returncode == 0, err
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


# ------------------------------------------------------------------ round trips


def test_facts_graphs_and_embeddings_come_back_equal(directory: Path) -> None:
    facts = facts_items("a", 3)
    graph = make_graph(40)
    with Cache.open(directory) as cache:
        cache.put_facts(facts)
        cache.put_graph("commit-1", graph)
        cache.put_embeddings("minilm", {"h1": [0.5, -1.25, 2.0], "h2": [0.1]})
    missing = (oid("missing"), "python", "x1")
    with Cache.open(directory) as cache:
        assert cache.get_facts([*facts, missing]) == facts
        assert cache.get_graph("commit-1") == graph
        assert cache.get_graph("commit-2") is None
        vectors = cache.get_embeddings("minilm", ["h1", "h2", "h3"])
        assert cache.get_embeddings("other-model", ["h1"]) == {}
    assert vectors["h1"] == [0.5, -1.25, 2.0]
    assert vectors["h2"] == [pytest.approx(0.1, rel=1e-7)]
    assert vectors["h2"] != [0.1]  # stored as float32
    assert set(vectors) == {"h1", "h2"}


def test_a_get_asks_in_chunks_and_returns_every_key(directory: Path) -> None:
    facts = {(oid("big", i), "python", "x1"): make_facts(i % 5) for i in range(1_234)}
    with Cache.open(directory) as cache:
        cache.put_facts(facts)
        assert cache.get_facts(list(facts) + list(facts)[:10]) == facts


def test_extractor_versions_and_languages_never_share_facts(directory: Path) -> None:
    blob = oid("same-blob")
    with Cache.open(directory) as cache:
        cache.put_facts({(blob, "python", "extractor-1"): make_facts(1)})
        cache.put_facts({(blob, "python", "extractor-2"): make_facts(2)})
        assert cache.get_facts([(blob, "python", "extractor-3")]) == {}
        assert cache.get_facts([(blob, "typescript", "extractor-1")]) == {}
        assert cache.get_facts([(blob, "python", "extractor-1"), (blob, "python", "extractor-2")]) == {
            (blob, "python", "extractor-1"): make_facts(1),
            (blob, "python", "extractor-2"): make_facts(2),
        }


def test_only_the_most_recent_graphs_are_kept(directory: Path) -> None:
    with Cache.open(directory, max_graphs=2) as cache:
        for key in ("one", "two", "three"):
            cache.put_graph(key, make_graph(3))
            time.sleep(0.01)  # distinct store times
        assert cache.get_graph("one") is None
        assert cache.get_graph("two") == make_graph(3)
        assert cache.get_graph("three") == make_graph(3)
        assert cache.info().graphs == 2


def test_a_value_that_cannot_be_stored_is_skipped_with_a_warning(
    directory: Path, cache_warnings: CacheWarnings
) -> None:
    good = (oid("good"), "python", "x1")
    bad = (oid("bad"), "python", "x1")
    unpicklable = FileFacts("python", (), (), (), all_names=(lambda: None,))  # type: ignore[arg-type]
    with Cache.open(directory) as cache:
        cache.put_facts({good: make_facts(1), bad: unpicklable})
        cache.put_embeddings("minilm", {"h": ["not a number"]})  # type: ignore[list-item]
        assert cache.get_facts([good, bad]) == {good: make_facts(1)}
        assert cache.get_embeddings("minilm", ["h"]) == {}
    assert len(cache_warnings()) == 2
    assert "skipping" in cache_warnings()[0]


# ------------------------------------------------------------- directory, info


def test_a_new_directory_gets_the_marker_files(directory: Path) -> None:
    Cache.open(directory).close()
    assert (directory / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55\n")
    assert (directory / "CACHEDIR.TAG").read_text() == CACHEDIR_TAG
    assert (directory / ".gitignore").read_text() == "*\n"
    assert (directory / DB_NAME).is_file()


def test_an_existing_directory_gets_no_gitignore(tmp_path: Path) -> None:
    # `--cache-dir .` must not hide the user's files from git.
    (tmp_path / "notes.txt").write_text("mine\n")
    with Cache.open(tmp_path) as cache:
        cache.put_graph("g", make_graph(2))
        assert cache.get_graph("g") == make_graph(2)
    assert not (tmp_path / ".gitignore").exists()
    assert (tmp_path / "notes.txt").read_text() == "mine\n"


def test_none_gives_a_cache_that_stores_nothing(cache_warnings: CacheWarnings) -> None:
    with Cache.open(None) as cache:
        cache.put_facts(facts_items("a", 2))
        cache.put_graph("g", make_graph(2))
        cache.put_embeddings("m", {"h": [1.0]})
        assert cache.get_facts(list(facts_items("a", 2))) == {}
        assert cache.get_graph("g") is None
        assert cache.get_embeddings("m", ["h"]) == {}
        cache.clear()
        info = cache.info()
    assert (info.path, info.size_bytes, info.facts, info.graphs, info.embeddings) == (
        None,
        0,
        0,
        0,
        0,
    )
    assert info.schema == CACHE_SCHEMA
    assert cache_warnings() == []


def test_info_of_a_missing_cache_creates_nothing(directory: Path) -> None:
    with Cache.open(directory, create=False) as cache:
        info = cache.info()
    assert info.path == directory / DB_NAME
    assert (info.size_bytes, info.facts, info.graphs, info.embeddings) == (0, 0, 0, 0)
    assert not directory.exists()


def test_info_counts_the_entries_and_the_bytes_on_disk(directory: Path) -> None:
    with Cache.open(directory) as cache:
        empty = cache.info()
        cache.put_facts(facts_items("a", 4))
        cache.put_graph("g", make_graph(10))
        cache.put_embeddings("m", {"h1": [1.0], "h2": [2.0]})
        full = cache.info()
    assert (empty.facts, empty.graphs, empty.embeddings) == (0, 0, 0)
    assert (full.facts, full.graphs, full.embeddings) == (4, 1, 2)
    assert full.path == directory / DB_NAME
    assert full.size_bytes > empty.size_bytes > 0


def test_clear_removes_every_entry_and_keeps_the_markers(directory: Path) -> None:
    with Cache.open(directory) as cache:
        cache.put_facts(facts_items("a", 4))
        cache.put_graph("g", make_graph(10))
        cache.put_embeddings("m", {"h": [1.0]})
        cache.clear()
        info = cache.info()
        assert cache.get_facts(list(facts_items("a", 4))) == {}
        cache.put_graph("after", make_graph(1))
        assert cache.get_graph("after") == make_graph(1)
    assert (info.facts, info.graphs, info.embeddings) == (0, 0, 0)
    assert (directory / "CACHEDIR.TAG").read_text() == CACHEDIR_TAG
    assert (directory / ".gitignore").read_text() == "*\n"


def test_a_closed_cache_misses_and_ignores_puts(directory: Path) -> None:
    cache = Cache.open(directory)
    cache.put_graph("g", make_graph(2))
    cache.close()
    cache.put_graph("h", make_graph(2))
    assert cache.get_graph("g") is None
    cache.close()  # twice is fine
    with Cache.open(directory) as reopened:
        assert reopened.get_graph("g") == make_graph(2)
        assert reopened.get_graph("h") is None


# ------------------------------------------------------------------ corruption


def test_a_garbage_database_file_is_replaced(directory: Path, cache_warnings: CacheWarnings) -> None:
    Cache.open(directory).close()
    (directory / DB_NAME).write_bytes(b"this is not an SQLite database\n" * 300)
    with Cache.open(directory) as cache:
        assert cache.get_graph("g") is None
        cache.put_graph("g", make_graph(3))
        assert cache.get_graph("g") == make_graph(3)
    assert len(cache_warnings()) == 1
    assert "is corrupt" in cache_warnings()[0]
    assert (directory / ".gitignore").exists()


def test_a_damaged_page_is_a_miss_and_a_new_database(directory: Path, cache_warnings: CacheWarnings) -> None:
    facts = facts_items("a", 60)
    with Cache.open(directory) as cache:
        cache.put_facts(facts)
    with raw(directory / DB_NAME) as db:
        (page_size,) = db.execute("PRAGMA page_size").fetchone()
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'facts'").fetchone()
    with open(directory / DB_NAME, "r+b") as file:
        file.seek((root - 1) * page_size)
        file.write(b"\xff" * page_size)
    with Cache.open(directory) as cache:
        assert cache.get_facts(list(facts)) == {}
        assert any("is corrupt" in message for message in cache_warnings())
        cache.put_facts(facts)
        assert cache.get_facts(list(facts)) == facts


class RunsCode:
    """A pickle payload that would run a command when loaded by plain pickle."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.system, (f"touch {self.marker}",)


@pytest.mark.parametrize(
    "payload",
    ["garbage", "truncated", "runs-code", "builtin", "wrong-type"],
)
def test_an_undecodable_entry_is_a_miss(
    directory: Path, tmp_path: Path, payload: str, cache_warnings: CacheWarnings
) -> None:
    marker = tmp_path / "code-ran"
    intact, damaged = (oid("intact"), "python", "x1"), (oid("damaged"), "python", "x1")
    with Cache.open(directory) as cache:
        cache.put_facts({intact: make_facts(1), damaged: make_facts(2)})
    with raw(directory / DB_NAME) as db:
        (stored,) = db.execute("SELECT data FROM facts WHERE blob = ?", (damaged[0],)).fetchone()
        data = {
            "garbage": b"\x00garbage",
            "truncated": zlib.compress(zlib.decompress(stored)[:-40]),
            "runs-code": zlib.compress(pickle.dumps(RunsCode(marker), protocol=5)),
            "builtin": zlib.compress(pickle.dumps(print, protocol=5)),
            "wrong-type": zlib.compress(pickle.dumps(("python", (), (), ()), protocol=5)),
        }[payload]
        db.execute("UPDATE facts SET data = ? WHERE blob = ?", (data, damaged[0]))
    with Cache.open(directory) as cache:
        assert cache.get_facts([intact, damaged]) == {intact: make_facts(1)}
        # the caller recomputes and stores it again
        cache.put_facts({damaged: make_facts(2)})
        assert cache.get_facts([damaged]) == {damaged: make_facts(2)}
    assert not marker.exists()
    assert len(cache_warnings()) == 1
    assert "could not be decoded" in cache_warnings()[0]


def test_an_undecodable_graph_or_vector_is_a_miss(directory: Path, cache_warnings: CacheWarnings) -> None:
    with Cache.open(directory) as cache:
        cache.put_graph("g", make_graph(3))
        cache.put_embeddings("m", {"h": [1.0, 2.0]})
    with raw(directory / DB_NAME) as db:
        db.execute("UPDATE graphs SET data = ?", (zlib.compress(pickle.dumps(make_facts(1))),))
        db.execute("UPDATE embeddings SET vector = ?", (b"\x00\x00\x80",))
    with Cache.open(directory) as cache:
        assert cache.get_graph("g") is None
        assert cache.get_embeddings("m", ["h"]) == {}
    assert len(cache_warnings()) == 2


def test_a_database_of_another_schema_is_wiped(directory: Path, cache_warnings: CacheWarnings) -> None:
    facts = facts_items("a", 3)
    with Cache.open(directory) as cache:
        cache.put_facts(facts)
    with raw(directory / DB_NAME) as db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (f"{CACHE_SCHEMA + 1}:x",))
    with Cache.open(directory) as cache:
        assert cache.get_facts(list(facts)) == {}
        assert cache.info().facts == 0
        cache.put_facts(facts)
        assert cache.get_facts(list(facts)) == facts
    assert len(cache_warnings()) == 1
    assert "another version" in cache_warnings()[0]


def test_a_foreign_database_is_wiped(directory: Path, cache_warnings: CacheWarnings) -> None:
    directory.mkdir()
    with raw(directory / DB_NAME) as db:
        db.execute("CREATE TABLE facts (anything)")
        db.execute("INSERT INTO facts VALUES (1)")
    with Cache.open(directory) as cache:
        cache.put_facts(facts_items("a", 1))
        assert cache.get_facts(list(facts_items("a", 1))) == facts_items("a", 1)
    assert "another version" in cache_warnings()[0]


# ------------------------------------------------------------------------ locks


def test_a_write_that_waits_too_long_is_skipped(directory: Path, cache_warnings: CacheWarnings) -> None:
    kept, skipped = facts_items("kept", 2), facts_items("skipped", 2)
    with Cache.open(directory, timeout=0.2) as cache:
        cache.put_facts(kept)
        with raw(directory / DB_NAME) as other:
            other.execute("BEGIN IMMEDIATE")
            cache.put_facts(skipped)
            cache.put_graph("g", make_graph(2))
            assert cache.get_facts(list(kept)) == kept  # readers are not blocked
            other.execute("ROLLBACK")
        assert cache.get_facts(list(skipped)) == {}
        assert cache.get_graph("g") is None
        cache.put_facts(skipped)
        assert cache.get_facts(list(skipped)) == skipped
    assert len(cache_warnings()) == 2
    assert all("database is locked" in message for message in cache_warnings())


def test_a_cache_locked_by_another_program_is_a_miss(directory: Path, cache_warnings: CacheWarnings) -> None:
    # Once open, WAL readers never wait; a reader meets a lock when it opens
    # the database while another program holds it exclusively.
    kept, new = facts_items("kept", 2), facts_items("new", 1)
    with Cache.open(directory) as cache:
        cache.put_facts(kept)
    with raw(directory / DB_NAME) as other:
        other.execute("PRAGMA locking_mode = EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        other.execute("DELETE FROM embeddings")
        other.execute("COMMIT")  # the exclusive lock stays until the connection closes
        with Cache.open(directory, timeout=0.2) as cache:
            assert cache.get_facts(list(kept)) == {}
            cache.put_facts(new)
            assert cache.info().facts == 0
    with Cache.open(directory) as cache:
        assert cache.get_facts([*kept, *new]) == kept
    assert len(cache_warnings()) == 1
    assert "database is locked" in cache_warnings()[0]


# ----------------------------------------------------------- unwritable places


def test_a_directory_that_cannot_be_created_gives_a_no_op_cache(tmp_path: Path, cache_warnings: CacheWarnings) -> None:
    (tmp_path / "a-file").write_text("")
    with Cache.open(tmp_path / "a-file" / "cache") as cache:
        cache.put_graph("g", make_graph(2))
        assert cache.get_graph("g") is None
        assert cache.info().graphs == 0
    assert len(cache_warnings()) == 1
    assert "continuing without a cache" in cache_warnings()[0]


def drop_permission_override() -> None:
    """In the child: lose root's power to ignore file permissions (no-op for others)."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def test_a_read_only_directory_gives_a_no_op_cache(directory: Path) -> None:
    key = (oid("stored"), "python", "x1")
    with Cache.open(directory) as cache:
        cache.put_facts({key: make_facts(1)})
    before = (directory / DB_NAME).read_bytes()
    directory.chmod(0o555)
    try:
        child = start_child(
            """
key = tuple(json.loads(sys.argv[2]))
with Cache.open(directory) as cache:
    cache.put_facts(facts_items("new", 2))
    found = cache.get_facts([key, *facts_items("new", 2)])
    info = cache.info()
print(json.dumps({"found": len(found), "facts": info.facts, "warnings": warnings}))
""",
            directory,
            json.dumps(key),
            preexec_fn=drop_permission_override,
        )
        result = finish(child)
    finally:
        directory.chmod(0o755)
    assert result["found"] == 0
    assert result["facts"] == 0
    assert len(result["warnings"]) == 1
    assert "continuing without a cache" in result["warnings"][0]
    assert (directory / DB_NAME).read_bytes() == before


# ----------------------------------------------------------------- processes

HAMMER = """
stop = Path(sys.argv[2])
rounds = 0
graph = make_graph(50)
with Cache.open(directory, max_graphs=10_000) as cache:
    print("ready", flush=True)
    while rounds < 30 or not stop.exists():
        facts = facts_items(f"child-{rounds}", 20)
        cache.put_facts(facts)
        assert cache.get_facts(list(facts)) == facts
        cache.put_graph(f"child-{rounds}", graph)
        assert cache.get_graph(f"child-{rounds}") == graph
        cache.put_embeddings("m", {f"child-{rounds}": [float(rounds)] * 8})
        rounds += 1
print(json.dumps({"rounds": rounds, "warnings": warnings}))
"""


def test_two_processes_use_one_cache_at_once(directory: Path, tmp_path: Path, cache_warnings: CacheWarnings) -> None:
    stop = tmp_path / "stop"
    child = start_child(HAMMER, directory, stop)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        graph = make_graph(500)
        with Cache.open(directory, max_graphs=10_000) as cache:
            for i in range(40):
                facts = facts_items(f"parent-{i}", 25)
                cache.put_facts(facts)
                assert cache.get_facts(list(facts)) == facts
                cache.put_graph(f"parent-{i}", graph)
                cache.put_embeddings("m", {f"parent-{i}": [0.5] * 8})
    finally:
        stop.touch()
        result = finish(child)
    assert result["warnings"] == []
    assert cache_warnings() == []
    rounds = result["rounds"]
    assert isinstance(rounds, int) and rounds >= 30
    with Cache.open(directory, max_graphs=10_000) as cache:
        for i in range(rounds):
            facts = facts_items(f"child-{i}", 20)
            assert cache.get_facts(list(facts)) == facts
        for i in range(40):
            facts = facts_items(f"parent-{i}", 25)
            assert cache.get_facts(list(facts)) == facts
        assert cache.get_embeddings("m", ["child-0", "parent-39"]) == {
            "child-0": [0.0] * 8,
            "parent-39": [0.5] * 8,
        }
        assert cache.get_graph("parent-39") == graph


CREATOR = """
go = Path(sys.argv[2])
print("waiting", flush=True)
while not go.exists():
    time.sleep(0.001)
with Cache.open(directory) as cache:
    facts = facts_items(sys.argv[3], 50)
    cache.put_facts(facts)
    ok = cache.get_facts(list(facts)) == facts
print(json.dumps({"ok": ok, "warnings": warnings}))
"""


def test_two_processes_can_create_the_cache_at_once(directory: Path, tmp_path: Path) -> None:
    go = tmp_path / "go"
    children = [start_child(CREATOR, directory, go, name) for name in ("one", "two")]
    for child in children:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "waiting"
    go.touch()
    results = [finish(child) for child in children]
    assert results == [{"ok": True, "warnings": []}] * 2
    with Cache.open(directory) as cache:
        assert cache.info().facts == 100
    assert (directory / ".gitignore").read_text() == "*\n"


CRASHING_WRITER = """
import os, signal
with Cache.open(directory) as cache:
    cache.put_facts(facts_items("complete", 200))
    calls = 0

    def crash():
        global calls
        calls += 1
        if calls == 50:
            os.kill(os.getpid(), signal.SIGKILL)
        return 0

    # kill the process in the middle of the next put's transaction
    cache._db.set_progress_handler(crash, 1000)
    cache.put_facts(facts_items("interrupted", 5000, version="x2"))
print("the writer was not interrupted")
"""


def test_an_interrupted_writer_leaves_a_usable_database(directory: Path, cache_warnings: CacheWarnings) -> None:
    child = start_child(CRASHING_WRITER, directory)
    out, err = child.communicate(timeout=120)
    assert child.returncode == -signal.SIGKILL, out + err
    with raw(directory / DB_NAME) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        counts = dict(db.execute("SELECT extractor, COUNT(*) FROM facts GROUP BY extractor"))
    assert counts == {"x1": 200}  # the whole first batch, nothing of the second
    with Cache.open(directory) as cache:
        complete = facts_items("complete", 200)
        assert cache.get_facts(list(complete)) == complete
        cache.put_facts(facts_items("after", 3))
        assert cache.info().facts == 203
    assert cache_warnings() == []


FORKED = """
import os
with Cache.open(directory) as cache:
    cache.put_graph("before", make_graph(2))
    pid = os.fork()
    if pid == 0:
        # the child must not touch the connection it inherited
        unused = cache.get_graph("before") is None
        cache.put_graph("from-the-fork", make_graph(2))
        cache.close()
        os._exit(0 if unused else 1)
    _, status = os.waitpid(pid, 0)
    parent_ok = cache.get_graph("before") == make_graph(2)
print(json.dumps({"child": status, "parent_ok": parent_ok, "warnings": warnings}))
"""


def test_a_forked_child_leaves_the_inherited_connection_alone(directory: Path) -> None:
    result = finish(start_child(FORKED, directory))
    assert result == {"child": 0, "parent_ok": True, "warnings": []}
    with Cache.open(directory) as cache:
        assert cache.get_graph("from-the-fork") is None
        assert cache.get_graph("before") == make_graph(2)


# ----------------------------------------------------------------------- speed


def timed(action: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    result = action()
    return result, time.perf_counter() - started


def test_decode_speed_of_50_000_facts(directory: Path) -> None:
    """Prints timings (run with -s); asserts only that the values survive."""
    facts = {(oid("speed", i), "python", "x1"): make_facts(i % 100) for i in range(50_000)}
    with Cache.open(directory) as cache:
        _, put = timed(lambda: cache.put_facts(facts))
        found, get = timed(lambda: cache.get_facts(list(facts)))
    assert found == facts
    size = (directory / DB_NAME).stat().st_size
    print(
        f"\n50,000 FileFacts of {count_objects(make_facts(0))} objects: put {put:.2f}s, "
        f"get+decode {get:.2f}s ({get / 50_000 * 1e6:.0f} µs each); file {size / 1e6:.1f} MB"
    )


def test_decode_speed_of_a_100_000_edge_graph(directory: Path) -> None:
    """Prints timings (run with -s); asserts only that the value survives."""
    graph = make_graph(100_000, symbols=20_000)
    with Cache.open(directory) as cache:
        _, put = timed(lambda: cache.put_graph("big", graph))
        loaded, get = timed(lambda: cache.get_graph("big"))
    assert loaded == graph
    size = (directory / DB_NAME).stat().st_size
    print(f"\ngraph of 20,000 symbols, 100,000 edges: put {put:.2f}s, get+decode {get:.2f}s; file {size / 1e6:.1f} MB")
