"""Real project history: PyPI sdists replayed as one git commit per release.

The sdists are fetched once with pip into ``<work>/downloads``; the repository
is rebuilt only when a release is missing from it. Commits use a fixed
signature and time, so the same releases always give the same commit ids.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import pygit2

from .projects import Project

PIP_TIMEOUT_SECONDS = 300
SIGNATURE_TIME = 1_700_000_000  # fixed, so commit ids are stable across runs
ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".zip")


class HistoryError(Exception):
    """A release could not be fetched or read."""


def tag(version: str) -> str:
    """The tag that names a release's commit."""
    return f"v{version}"


def fetch_sdist(project: str, version: str, downloads: Path) -> Path:
    """The sdist of ``project==version``, downloaded on first use."""
    directory = downloads / project / version
    found = _archives(directory)
    if found:
        return found[0]
    directory.mkdir(parents=True, exist_ok=True)
    argv = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--no-deps",
        "--no-binary",
        ":all:",
        "--disable-pip-version-check",
        "-d",
        str(directory),
        f"{project}=={version}",
    ]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=PIP_TIMEOUT_SECONDS, check=False)
    except subprocess.TimeoutExpired as exc:
        raise HistoryError(f"pip download {project}=={version} timed out") from exc
    found = _archives(directory)
    if done.returncode != 0 or not found:
        last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        raise HistoryError(f"pip download {project}=={version} failed: {last}")
    return found[0]


def _archives(directory: Path) -> list[Path]:
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.name.endswith(ARCHIVE_SUFFIXES))


def read_sdist(archive: Path) -> dict[str, tuple[bytes, bool]]:
    """path (without the top directory) -> (content, executable) for every regular file."""
    return dict(_zip_files(archive) if archive.name.endswith(".zip") else _tar_files(archive))


def _tar_files(archive: Path) -> Iterator[tuple[str, tuple[bytes, bool]]]:
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            path = _strip_top(member.name)
            handle = tar.extractfile(member) if member.isfile() else None
            if path and handle is not None:
                yield path, (handle.read(), bool(member.mode & 0o111))


def _zip_files(archive: Path) -> Iterator[tuple[str, tuple[bytes, bool]]]:
    with zipfile.ZipFile(archive) as zipped:
        for info in zipped.infolist():
            path = _strip_top(info.filename)
            if path and not info.is_dir():
                yield path, (zipped.read(info), bool((info.external_attr >> 16) & 0o111))


def _strip_top(name: str) -> str | None:
    parts = [p for p in name.split("/") if p not in ("", ".")]
    # Anything that would climb out of the tree is not part of the release's source.
    if len(parts) < 2 or ".." in parts:
        return None
    return "/".join(parts[1:])


def build_history(project: Project, downloads: Path, repos: Path) -> pygit2.Repository:
    """A repository with one commit per release on ``main``, each tagged ``v<version>``."""
    path = repos / project.name
    if path.exists():
        repo = pygit2.Repository(str(path))
        if all(f"refs/tags/{tag(v)}" in repo.references for v in project.versions):
            return repo
        shutil.rmtree(path)
    repo = pygit2.init_repository(str(path), initial_head="main")
    parents: list[pygit2.Oid] = []
    for version in project.versions:
        files = read_sdist(fetch_sdist(project.name, version, downloads))
        commit = commit_release(repo, f"{project.name} {version}", files, parents)
        repo.references.create(f"refs/tags/{tag(version)}", commit)
        parents = [commit]
    return repo


def commit_release(
    repo: pygit2.Repository, message: str, files: Mapping[str, tuple[bytes, bool]], parents: list[pygit2.Oid]
) -> pygit2.Oid:
    """Commit ``files`` as the whole tree on ``main``, on top of ``parents``."""
    nested: dict[str, object] = {}
    for path, entry in files.items():
        *dirs, name = path.split("/")
        node = nested
        for part in dirs:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):  # a file and a directory of one name: keep the file
                break
            node = child
        else:
            node[name] = entry
    signature = pygit2.Signature("impactbot ranking", "ranking@example.invalid", SIGNATURE_TIME, 0)
    tree = _write_tree(repo, nested)
    return repo.create_commit("refs/heads/main", signature, signature, message, tree, parents)


def _write_tree(repo: pygit2.Repository, node: Mapping[str, object]) -> pygit2.Oid:
    builder = repo.TreeBuilder()
    for name, value in sorted(node.items()):
        if isinstance(value, dict):
            builder.insert(name, _write_tree(repo, value), pygit2.GIT_FILEMODE_TREE)
        else:
            data, executable = value  # type: ignore[misc]
            mode = pygit2.GIT_FILEMODE_BLOB_EXECUTABLE if executable else pygit2.GIT_FILEMODE_BLOB
            builder.insert(name, repo.create_blob(data), mode)
    return builder.write()


def export_tree(repo: pygit2.Repository, version: str, destination: Path) -> Path:
    """Write the files of release ``version`` to ``destination`` (once) and return it."""
    done = destination.with_name(destination.name + ".complete")
    if done.exists() and destination.is_dir():
        return destination
    if destination.exists():
        shutil.rmtree(destination)
    commit = repo.revparse_single(tag(version)).peel(pygit2.Commit)
    _write_files(repo, commit.tree, destination)
    done.write_text(str(commit.id) + "\n")
    return destination


def _write_files(repo: pygit2.Repository, tree: pygit2.Tree, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for entry in tree:
        target = directory / entry.name
        if entry.type_str == "tree":
            _write_files(repo, repo[entry.id].peel(pygit2.Tree), target)
        else:
            target.write_bytes(repo[entry.id].peel(pygit2.Blob).data)
            if entry.filemode == pygit2.GIT_FILEMODE_BLOB_EXECUTABLE:
                target.chmod(0o755)


def open_repository(path: Path) -> pygit2.Repository:
    """The history repository built earlier at ``path``."""
    return pygit2.Repository(str(path))
