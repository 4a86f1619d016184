"""Commit a corpus and its scripted pull request into a fresh git repository.

Built in-process with pygit2 and a fixed signature, so no user gitconfig or
hook takes part and the same corpus and seed always give the same commit ids.

    * feature2   Address review comments      (3 functions, 2 files)
    * feature    Tighten validation ...       (12 functions, ~7 files)
    * main       Import <corpus>
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pygit2
from pygit2.enums import CheckoutStrategy, FileMode

from .scripted_pr import PullRequest

AUTHOR = "Benchmark Author"
EMAIL = "bench@example.invalid"
EPOCH = 1_700_000_000  # fixed commit time: stable ids across runs


@dataclass(frozen=True, slots=True)
class BenchRepository:
    """Where the repository is and the commit id of each branch."""

    path: Path
    main: str
    feature: str
    feature2: str


def _signature(step: int) -> pygit2.Signature:
    return pygit2.Signature(AUTHOR, EMAIL, EPOCH + 60 * step, 0)


def _tree(repo: pygit2.Repository, base: pygit2.Oid | None, files: Mapping[str, bytes]) -> pygit2.Oid:
    index = pygit2.Index()
    if base is not None:
        index.read_tree(repo[base].peel(pygit2.Tree))
    for path, data in sorted(files.items()):
        index.add(pygit2.IndexEntry(path, repo.create_blob(data), FileMode.BLOB))
    return index.write_tree(repo)


def _commit(
    repo: pygit2.Repository,
    branch: str,
    tree: pygit2.Oid,
    parents: list[pygit2.Oid],
    message: str,
    step: int,
) -> pygit2.Oid:
    sig = _signature(step)
    return repo.create_commit(f"refs/heads/{branch}", sig, sig, message + "\n", tree, parents)


def build(path: Path, corpus_label: str, files: Mapping[str, bytes], pr: PullRequest) -> BenchRepository:
    """Create (replacing any previous one) the repository at ``path``; check out ``feature``."""
    if path.exists():
        shutil.rmtree(path)
    repo = pygit2.init_repository(str(path), initial_head="main")
    main_tree = _tree(repo, None, files)
    main = _commit(repo, "main", main_tree, [], f"Import {corpus_label}", 0)
    feature_tree = _tree(repo, main_tree, pr.feature.files)
    feature = _commit(repo, "feature", feature_tree, [main], pr.feature.message, 1)
    followup_tree = _tree(repo, feature_tree, pr.followup.files)
    feature2 = _commit(repo, "feature2", followup_tree, [feature], pr.followup.message, 2)
    # A pull request's CI job has the feature branch checked out.
    repo.checkout("refs/heads/feature", strategy=CheckoutStrategy.FORCE)
    return BenchRepository(path, str(main), str(feature), str(feature2))
