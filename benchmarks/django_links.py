"""How much of Django's call graph impactbot resolves (issue: call resolution).

Downloads Django's source from PyPI (cached under --work), links its HEAD and prints:
call sites whose target was resolved or inferred, sites counted as unresolved,
sites linked only by a unique name (name_match), the share of name_match edges
among all edges, and the link time. Prints; never gates.

    python benchmarks/django_links.py [--work DIR] [--version 5.1.4]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
import time
from collections import Counter
from pathlib import Path

import pygit2

from impactbot.cache import Cache
from impactbot.config import Settings
from impactbot.git import GitRepository
from impactbot.link import link
from impactbot.pipeline import FactStore, analysed_files

SIGNATURE = pygit2.Signature("bench", "bench@example.com", 1_700_000_000, 0)


def django_source(work: Path, version: str) -> Path:
    """The full sdist (library and its tests), unpacked once."""
    target = work / f"django-{version}-src"
    if target.exists():
        return target
    downloads = work / "sdist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--no-binary",
            ":all:",
            f"django=={version}",
            "-d",
            str(downloads),
        ],
        check=True,
        capture_output=True,
    )
    archive = next(downloads.glob("*.tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(work / "unpacked", filter="data")
    (work / "unpacked" / next(iter((work / "unpacked").iterdir())).name).rename(target)
    return target


def commit_tree(source: Path, repo_dir: Path) -> Path:
    if (repo_dir / ".git").exists() or (repo_dir / "HEAD").exists():
        return repo_dir
    repo = pygit2.init_repository(str(repo_dir), bare=True)
    index = pygit2.Index()
    for path in sorted(source.rglob("*.py")):
        blob = repo.create_blob(path.read_bytes())
        index.add(pygit2.IndexEntry(path.relative_to(source).as_posix(), blob, pygit2.enums.FileMode.BLOB))
    tree = index.write_tree(repo)
    repo.create_commit("refs/heads/main", SIGNATURE, SIGNATURE, "django", tree, [])
    repo.set_head("refs/heads/main")
    return repo_dir


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=Path("/tmp/impactbot-django-links"))
    parser.add_argument("--version", default="5.1.4")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    repo_dir = commit_tree(django_source(args.work, args.version), args.work / "repo.git")
    repo = GitRepository.discover(repo_dir)
    revision = repo.revision("main")
    files = analysed_files(revision, Settings())
    facts = FactStore(repo, Cache.open(args.work / "cache")).facts_of(files)
    started = time.perf_counter()
    graph = link(facts)
    seconds = time.perf_counter() - started
    resolved_sites = {(c.caller, c.line) for c in graph.calls}
    unresolved = sum(n for _, n in graph.unresolved)
    by_conf = Counter(e.confidence for e in graph.edges)
    name_match_sites = {(e.source, line) for e in graph.edges if e.confidence == "name_match" for line in e.lines}
    total_sites = len(resolved_sites) + unresolved + len(name_match_sites)
    print(f"Django {args.version}: {len(files)} files, {len(graph.symbols)} symbols, link {seconds:.2f}s")
    print(f"call sites to repository code (estimated): {total_sites}")
    print(f"  resolved or inferred: {len(resolved_sites)} ({len(resolved_sites) / total_sites:.1%})")
    print(f"  name_match only:      {len(name_match_sites)} ({len(name_match_sites) / total_sites:.1%})")
    print(f"  unresolved:           {unresolved} ({unresolved / total_sites:.1%})")
    edges = len(graph.edges)
    print(f"edges: {edges} " + " ".join(f"{k}={v}" for k, v in sorted(by_conf.items())))
    share = by_conf["name_match"] / edges if edges else 0.0
    print(
        f"name_match edges: {by_conf['name_match']} = {share:.1%} of edges (target: <= 5%)"
        f" -> {'ok' if share <= 0.05 else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
