"""Set one corpus up for measuring: fetch it, script the pull request, build the repository.

``prepare`` runs in a spawned process (see ``in_fresh_process``): a child's
``ru_maxrss`` starts from its parent's peak RSS at fork/exec time, so the
process that launches the measured children must never hold a parsed corpus.
"""

from __future__ import annotations

import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from . import corpora, scripted_pr


@dataclass(frozen=True, slots=True)
class Prepared:
    """A corpus committed with its pull request, described for the table title."""

    name: str
    label: str
    files: int
    megabytes: float
    pull_request: str  # one line describing the scripted commits
    repo: Path


def describe(pr: scripted_pr.PullRequest) -> str:
    """``PR: feature 12 functions in 7 files (1 signature, 1 removed); feature2 ...``."""

    def one(commit: scripted_pr.ScriptedCommit) -> str:
        kinds = [e.kind for e in commit.edits]
        extra = [f"{kinds.count(k)} {k}" for k in ("signature", "removed") if k in kinds]
        detail = f" ({', '.join(extra)})" if extra else ""
        return f"{len(commit.edits)} functions in {len(commit.files)} files{detail}"

    return f"PR: feature {one(pr.feature)}; feature2 {one(pr.followup)}"


def _log(name: str, text: str) -> None:
    print(f"[{name}] {text}", file=sys.stderr, flush=True)


def prepare(name: str, work: Path, seed: int) -> Prepared:
    """Fetch corpus ``name``, script its pull request and commit both under ``work``."""
    # Imported here, in the spawned process only: pygit2 alone would double the
    # launcher's RSS, and that RSS is every measured child's starting ru_maxrss.
    from . import gitrepo

    corpus = corpora.load(name, work)
    _log(name, f"{corpus.label}: {len(corpus.files)} .py files; scripting the pull request")
    pr = scripted_pr.script_pull_request(corpus.files, seed)
    for branch, commit in (("feature", pr.feature), ("feature2", pr.followup)):
        for edit in commit.edits:
            _log(name, f"{branch}: {edit.path}::{edit.function}: {edit.detail}")
    repo = gitrepo.build(work / "repos" / name, corpus.label, corpus.files, pr)
    return Prepared(
        name=name,
        label=corpus.label,
        files=len(corpus.files),
        megabytes=sum(map(len, corpus.files.values())) / 1e6,
        pull_request=describe(pr),
        repo=repo.path,
    )


def in_fresh_process(name: str, work: Path, seed: int) -> Prepared:
    """``prepare`` in a spawned interpreter, so this process stays small."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        return pool.submit(prepare, name, work, seed).result()
