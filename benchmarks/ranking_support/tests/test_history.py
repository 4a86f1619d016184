"""Release history from sdists written here (the pip download itself is exercised by the benchmark run)."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pygit2
import pytest

from ranking_support.history import build_history, export_tree, fetch_sdist, read_sdist, tag
from ranking_support.projects import Project

RELEASES = {
    "1.0": {"demo/core.py": b"def f():\n    return 1\n", "tests/test_core.py": b"def test_f():\n    pass\n"},
    "1.1": {"demo/core.py": b"def f():\n    return 2\n", "tests/test_core.py": b"def test_f():\n    pass\n",
            "run.sh": b"#!/bin/sh\n"},
}  # fmt: skip


def _sdist(downloads: Path, version: str, files: dict[str, bytes]) -> Path:
    directory = downloads / "demo" / version
    directory.mkdir(parents=True)
    archive = directory / f"demo-{version}.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for path, data in files.items():
            info = tarfile.TarInfo(f"demo-{version}/{path}")
            info.size = len(data)
            info.mode = 0o755 if path.endswith(".sh") else 0o644
            tar.addfile(info, io.BytesIO(data))
        escape = tarfile.TarInfo(f"demo-{version}/../outside.py")
        tar.addfile(escape, io.BytesIO(b""))
    return archive


@pytest.fixture
def downloads(tmp_path: Path) -> Path:
    folder = tmp_path / "downloads"
    for version, files in RELEASES.items():
        _sdist(folder, version, files)
    return folder


def _project() -> Project:
    return Project("demo", tuple(RELEASES), ("tests",))


def test_each_release_is_one_commit_on_top_of_the_previous(downloads: Path, tmp_path: Path) -> None:
    repo = build_history(_project(), downloads, tmp_path / "repos")
    first = repo.revparse_single(tag("1.0")).peel(pygit2.Commit)
    second = repo.revparse_single(tag("1.1")).peel(pygit2.Commit)
    assert second.parents == [first]
    assert repo.references["refs/heads/main"].target == second.id
    assert (second.tree / "demo" / "core.py").data == b"def f():\n    return 2\n"
    assert (second.tree / "run.sh").filemode == pygit2.GIT_FILEMODE_BLOB_EXECUTABLE
    assert "outside.py" not in [e.name for e in second.tree]  # a path climbing out is dropped


def test_the_same_releases_give_the_same_commit_ids(downloads: Path, tmp_path: Path) -> None:
    one = build_history(_project(), downloads, tmp_path / "one")
    two = build_history(_project(), downloads, tmp_path / "two")
    assert one.revparse_single(tag("1.1")).id == two.revparse_single(tag("1.1")).id


def test_an_existing_history_is_reused(downloads: Path, tmp_path: Path) -> None:
    repo = build_history(_project(), downloads, tmp_path / "repos")
    marker = repo.references.create("refs/heads/kept", repo.head.target)
    again = build_history(_project(), downloads, tmp_path / "repos")
    assert again.references["refs/heads/kept"].target == marker.target


def test_a_release_tree_is_exported_once(downloads: Path, tmp_path: Path) -> None:
    repo = build_history(_project(), downloads, tmp_path / "repos")
    tree = export_tree(repo, "1.0", tmp_path / "trees" / "1.0")
    assert (tree / "demo" / "core.py").read_bytes() == RELEASES["1.0"]["demo/core.py"]
    (tree / "scratch.txt").write_text("left by a test run")
    assert export_tree(repo, "1.0", tree) == tree
    assert (tree / "scratch.txt").exists()


def test_a_downloaded_sdist_is_not_fetched_again(downloads: Path) -> None:
    assert fetch_sdist("demo", "1.0", downloads).name == "demo-1.0.tar.gz"


def test_zip_sdists_are_read_like_tarballs(tmp_path: Path) -> None:
    archive = tmp_path / "demo-0.1.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("demo-0.1/demo/__init__.py", b"x = 1\n")
        zipped.writestr("demo-0.1/", b"")
    assert read_sdist(archive) == {"demo/__init__.py": (b"x = 1\n", False)}
