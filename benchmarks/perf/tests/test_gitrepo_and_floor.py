from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pygit2

from perf import floor, gitrepo
from perf.scripted_pr import script_pull_request
from perf.tests.corpus import generated


def _changed_paths(repo: pygit2.Repository, a: str, b: str) -> set[str]:
    return {delta.new_file.path for delta in repo.diff(a, b).deltas}


def test_branches_hold_the_corpus_and_each_scripted_commit(tmp_path: Path) -> None:
    files = generated()
    pr = script_pull_request(files, seed=1)
    built = gitrepo.build(tmp_path / "repo", "generated", files, pr)
    repo = pygit2.Repository(str(built.path))
    assert {b: str(repo.branches[b].target) for b in ("main", "feature", "feature2")} == {
        "main": built.main,
        "feature": built.feature,
        "feature2": built.feature2,
    }
    parents = {c: [str(p) for p in repo[c].peel(pygit2.Commit).parent_ids] for c in (built.feature, built.feature2)}
    assert parents == {built.feature: [built.main], built.feature2: [built.feature]}
    assert _changed_paths(repo, built.main, built.feature) == set(pr.feature.files)
    assert _changed_paths(repo, built.feature, built.feature2) == set(pr.followup.files)
    assert repo.head.shorthand == "feature"
    edited = next(iter(pr.feature.files))
    assert (built.path / edited).read_bytes() == pr.feature.files[edited]


def test_same_corpus_and_seed_give_the_same_commit_ids(tmp_path: Path) -> None:
    files = generated()
    pr = script_pull_request(files, seed=1)
    first = gitrepo.build(tmp_path / "a", "generated", files, pr)
    again = gitrepo.build(tmp_path / "a", "generated", files, pr)  # replaces the first
    other = gitrepo.build(tmp_path / "b", "generated", files, pr)
    assert (first.main, first.feature, first.feature2) == (other.main, other.feature, other.feature2)
    assert (again.main, again.feature, again.feature2) == (other.main, other.feature, other.feature2)


def test_floor_parses_every_python_blob_of_the_revision(tmp_path: Path) -> None:
    files = generated()
    files["docs/readme.txt"] = b"not python"
    pr = script_pull_request(files, seed=1)
    built = gitrepo.build(tmp_path / "repo", "generated", files, pr)
    python = [data for path, data in files.items() if path.endswith(".py")]
    assert floor.parse_revision(str(built.path), "main") == (len(python), sum(map(len, python)))


def test_floor_script_prints_one_json_line(tmp_path: Path) -> None:
    files = generated(modules=6)
    built = gitrepo.build(tmp_path / "repo", "generated", files, script_pull_request(files, 1))
    done = subprocess.run(
        [sys.executable, floor.__file__, str(built.path), "feature"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.startswith('{"files": 7, "bytes": ')
