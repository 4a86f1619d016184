"""Throwaway git repositories for tests, built in-process with pygit2.

Nothing here runs the git CLI, so no user gitconfig, template or hook takes
part. File contents are stored exactly as given (no line-ending filters), and
commit times count up from a fixed epoch, so the same calls give the same shas.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

import pygit2
from pygit2.enums import CheckoutStrategy, FileMode, ObjectType

EPOCH = 1700000000
AUTHOR = ("Test", "test@example.com")


class RepoBuilder:
    """Throwaway git repositories for tests. Commits are deterministic (fixed author/time)."""

    path: Path

    def __init__(self, repository: pygit2.Repository) -> None:
        self.repository = repository
        self.path = Path(repository.workdir)
        self._commits = 0

    @classmethod
    def init(cls, root: Path, branch: str = "main") -> RepoBuilder:
        """A new repository at ``root`` whose unborn HEAD points at ``branch``."""
        root.mkdir(parents=True, exist_ok=True)
        return cls(pygit2.init_repository(str(root), initial_head=branch))

    def commit(self, files: Mapping[str, str | bytes | None], message: str = "change") -> str:
        """Write ``files`` (``None`` deletes) and commit them on the current branch.

        Files not named stay as they are. Returns the new commit's sha.
        """
        self.write(files)
        self.stage(files)
        return self._commit_index(message)

    def branch(self, name: str, at: str = "HEAD") -> None:
        """Create branch ``name`` at the commit ``at`` names; HEAD does not move."""
        self.repository.branches.local.create(name, self._commit_at(at))

    def checkout(self, name: str) -> None:
        """Switch HEAD to branch ``name`` and make the working tree and index match it."""
        branch = self.repository.branches.local[name]
        self.repository.checkout(branch, strategy=CheckoutStrategy.FORCE)

    def start_branch(self, name: str) -> None:
        """Create branch ``name`` at HEAD and switch to it (``git switch -c``)."""
        self.branch(name)
        self.checkout(name)

    def tag(self, name: str, at: str = "HEAD", message: str | None = None) -> None:
        """A lightweight tag, or an annotated one when ``message`` is given."""
        target = self._commit_at(at).id
        if message is None:
            self.repository.references.create(f"refs/tags/{name}", target)
        else:
            signature = self._signature()
            self.repository.create_tag(name, target, ObjectType.COMMIT, signature, message)

    def write(self, files: Mapping[str, str | bytes | None]) -> None:
        """Change the working tree only (``None`` deletes); nothing is staged."""
        for path, content in files.items():
            target = self.path / path
            if content is None:
                target.unlink(missing_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content.encode() if isinstance(content, str) else content)

    def stage(self, paths: Iterable[str]) -> None:
        """Put the working-tree state of ``paths`` into the index (a missing file is removed)."""
        index = self.repository.index
        for path in paths:
            on_disk = self.path / path
            if on_disk.is_file():
                index.add(self._index_entry(path, on_disk))
            elif path in index:
                index.remove(path)
        index.write()

    def move(self, old: str, new: str, message: str = "move") -> str:
        """Rename ``old`` to ``new`` in one commit; returns its sha."""
        target = self.path / new
        target.parent.mkdir(parents=True, exist_ok=True)
        (self.path / old).rename(target)
        self.stage([old, new])
        return self._commit_index(message)

    def resolve(self, ref: str = "HEAD") -> str:
        """The sha of the commit ``ref`` names."""
        return str(self._commit_at(ref).id)

    def _index_entry(self, path: str, on_disk: Path) -> pygit2.IndexEntry:
        # The blob is made from the exact bytes: index.add(path) would apply
        # line-ending filters from whatever config is in effect.
        blob = self.repository.create_blob(on_disk.read_bytes())
        mode = FileMode.BLOB_EXECUTABLE if os.access(on_disk, os.X_OK) else FileMode.BLOB
        return pygit2.IndexEntry(path, blob, mode)

    def _commit_index(self, message: str) -> str:
        tree = self.repository.index.write_tree()
        parents = [] if self.repository.head_is_unborn else [self.repository.head.target]
        self._commits += 1
        signature = self._signature()
        oid = self.repository.create_commit("HEAD", signature, signature, message, tree, parents)
        return str(oid)

    def _signature(self) -> pygit2.Signature:
        return pygit2.Signature(*AUTHOR, time=EPOCH + self._commits, offset=0)

    def _commit_at(self, ref: str) -> pygit2.Commit:
        return self.repository.revparse_single(ref).peel(pygit2.Commit)
