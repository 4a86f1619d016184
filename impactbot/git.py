"""The git stage: revisions, trees, blobs, renames and merge bases, read with pygit2.

This is the only module that imports pygit2, and it only ever reads: no objects
are written to the object database, the index is never written and no ref
moves. Blob ids of working-tree files are computed in memory with
``pygit2.hash``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import cast

import pygit2
from pygit2.enums import DeltaStatus, DiffFind, DiffOption

from impactbot.errors import AnalysisError, NoMergeBase, NotAGitRepository, RefNotFound, UsageError
from impactbot.model import ChangeSet, FileChange, Revision

NULL_COMMIT = "0" * 40
WORKTREE_REF = "WORKTREE"

# libgit2 serves the empty tree without it being in the object database, so a
# repository without commits can be compared without writing anything.
_EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
_TYPE_MASK = 0o170000
_REGULAR_FILE = 0o100000
_TREE = 0o040000
_SKIPPED_STATUSES = frozenset({DeltaStatus.IGNORED, DeltaStatus.UNREADABLE})
# Explicit flags, not FIND_BY_CONFIG: a user's `diff.renames=false` must not
# turn renames into delete + add pairs in the report.
_RENAMES = DiffFind.FIND_RENAMES
_WORKTREE_DIFF = DiffOption.INCLUDE_UNTRACKED | DiffOption.RECURSE_UNTRACKED_DIRS | DiffOption.IGNORE_SUBMODULES
_PATH_INDEX_SIZE = 8

Side = tuple[str, str]  # (path, blob id)


def parse_range(range_: str) -> tuple[str, str]:
    """Split a range into its two refs, as a pull request reads it.

    ``A..B`` and ``A...B`` give ``(A, B)``; a missing side is ``HEAD``, and
    ``A`` alone means ``A...HEAD``.
    """
    if not range_:
        raise UsageError("The revision range is empty: give one such as main..HEAD.")
    for separator in ("...", ".."):
        if separator in range_:
            base, head = range_.split(separator, 1)
            return base or "HEAD", head or "HEAD"
    return range_, "HEAD"


class GitRepository:
    """Read-only access to one git repository: revisions, change sets and blobs."""

    root: Path
    git_dir: Path

    def __init__(self, repository: pygit2.Repository) -> None:
        self._repo = repository
        self.root = Path(repository.workdir or repository.path)
        self.git_dir = _common_dir(Path(repository.path))
        self._tree_files: dict[str, tuple[tuple[str, str], ...]] = {}
        self._worktree_blobs: dict[str, Path] = {}
        self._path_index: dict[int, tuple[Revision, dict[str, str]]] = {}

    @classmethod
    def discover(cls, path: str | Path = ".") -> GitRepository:
        """Open the repository containing ``path`` (any subdirectory works)."""
        start = Path(path)
        if not start.exists():
            raise NotAGitRepository(str(path))
        found = pygit2.discover_repository(str(start if start.is_dir() else start.parent))
        if found is None:
            raise NotAGitRepository(str(path))
        try:
            return cls(pygit2.Repository(found))
        except pygit2.GitError as error:
            # e.g. libgit2's ownership check (`safe.directory`).
            raise UsageError(f"Cannot open the git repository at {found}: {error}") from error

    # ------------------------------------------------------------------ revisions

    def revision(self, ref: str) -> Revision:
        """The commit ``ref`` names (tags peeled), with every file of its tree."""
        with self._reading():
            return self._revision_of(ref, self._commit(ref))

    def is_shallow(self) -> bool:
        """True for a shallow clone, where history (and merge bases) may be missing."""
        return bool(self._repo.is_shallow)

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """Turn libgit2 failures (corrupt or unreadable objects) into one clear line."""
        try:
            yield
        except pygit2.GitError as error:
            raise AnalysisError(f"git could not read the repository at {self.root}: {error}") from error

    def _commit(self, ref: str) -> pygit2.Commit:
        try:
            found = self._repo.revparse_single(ref)
        except pygit2.AmbiguousError as error:
            raise UsageError(f"'{ref}' is ambiguous: give more characters of the sha.") from error
        except (KeyError, ValueError) as error:
            raise RefNotFound(ref, no_commits=self._repo.head_is_unborn) from error
        try:
            return found.peel(pygit2.Commit)
        except (ValueError, pygit2.GitError) as error:
            raise UsageError(f"'{ref}' names a {found.type_str}, not a commit.") from error

    def _revision_of(self, ref: str, commit: pygit2.Commit) -> Revision:
        return Revision(ref=ref, commit=str(commit.id), files=self._files_of(commit.tree))

    def _files_of(self, tree: pygit2.Tree) -> tuple[tuple[str, str], ...]:
        key = str(tree.id)
        if key not in self._tree_files:
            self._tree_files[key] = _list_files(tree)
        return self._tree_files[key]

    # ----------------------------------------------------------------- changesets

    def changeset(self, range_: str | None) -> ChangeSet:
        """What a pull request for ``range_`` shows: merge base against head.

        ``None`` compares HEAD with the working tree (see ``_worktree_changeset``).
        """
        with self._reading():
            if range_ is None:
                return self._worktree_changeset()
            return self._range_changeset(*parse_range(range_))

    def _range_changeset(self, base_ref: str, head_ref: str) -> ChangeSet:
        base_tip, head = self._commit(base_ref), self._commit(head_ref)
        merge_base = self._merge_base(base_ref, base_tip, head_ref, head)
        diff = merge_base.tree.diff_to_tree(head.tree)
        diff.find_similar(_RENAMES)
        changes = [c for d in diff.deltas if (c := _change(*_sides(d))) is not None]
        return ChangeSet(
            base=self._revision_of(base_ref, merge_base),
            head=self._revision_of(head_ref, head),
            files=tuple(sorted(changes, key=lambda c: c.path)),
        )

    def _merge_base(self, base_ref: str, base: pygit2.Commit, head_ref: str, head: pygit2.Commit) -> pygit2.Commit:
        try:
            oid = self._repo.merge_base(base.id, head.id)
        except (KeyError, pygit2.GitError) as error:
            # A shallow clone can miss the commits the search needs.
            raise NoMergeBase(base_ref, head_ref, shallow=self.is_shallow()) from error
        if oid is None:
            raise NoMergeBase(base_ref, head_ref, shallow=self.is_shallow())
        return self._repo[oid].peel(pygit2.Commit)

    def _worktree_changeset(self) -> ChangeSet:
        """HEAD against the working tree: files as on disk, staged, untracked.

        The diff is HEAD→index merged with index→working tree, as `git diff
        HEAD` builds it: the index's stat data spares hashing every file
        (diffing the tree straight against the working tree rehashes them all,
        ~0.4 s on 7,000 files), and a staged file matching an ignore rule
        (``git add -f``) still shows. libgit2 pairs the renames (also onto
        untracked files); what each path holds is then read from disk.
        """
        if self._repo.is_bare:
            raise UsageError(
                "This is a bare repository: it has no working tree to analyse. Pass a range such as main..feature."
            )
        base = self._head_revision()
        tree = self._empty_tree() if base.commit == NULL_COMMIT else self._tree(base.commit)
        index = self._repo.index
        index.read(False)  # pick up staging done since the repository was opened
        diff = tree.diff_to_index(index, _WORKTREE_DIFF)
        diff.merge(index.diff_to_workdir(_WORKTREE_DIFF))
        diff.find_similar(_RENAMES | DiffFind.FIND_FOR_UNTRACKED)
        worktree = _Worktree(self._repo, index, self._worktree_blobs)
        changes = _worktree_changes(diff.deltas, dict(base.files), worktree)
        head = Revision(
            ref=WORKTREE_REF,
            commit=base.commit,
            files=_apply(base.files, changes),
            worktree=True,
        )
        return ChangeSet(base=base, head=head, files=tuple(sorted(changes, key=lambda c: c.path)))

    def _head_revision(self) -> Revision:
        if self._repo.head_is_unborn:
            return Revision(ref="HEAD", commit=NULL_COMMIT, files=())
        return self._revision_of("HEAD", self._repo.head.peel(pygit2.Commit))

    def _empty_tree(self) -> pygit2.Tree:
        return self._tree(_EMPTY_TREE)

    def _tree(self, oid: str) -> pygit2.Tree:
        return self._repo[oid].peel(pygit2.Tree)

    # ---------------------------------------------------------------------- blobs

    def read_blob(self, oid: str) -> bytes:
        """The bytes of a blob, from the object database or the working tree.

        Raises ``KeyError`` for an id that is neither.
        """
        try:
            found = self._repo[oid]
        except (KeyError, ValueError):
            found = None
        if isinstance(found, pygit2.Blob):
            return found.data
        on_disk = self._worktree_blobs.get(oid)
        if on_disk is None:
            raise KeyError(oid)
        return _read_verified(on_disk, oid)

    def read_path(self, revision: Revision, path: str) -> bytes | None:
        """The content of ``path`` at ``revision``; ``None`` when it has no such file."""
        oid = self._files_by_path(revision).get(path)
        return None if oid is None else self.read_blob(oid)

    def _files_by_path(self, revision: Revision) -> dict[str, str]:
        # Keyed by identity, holding the revision so the id stays unique: hashing
        # a Django-sized files tuple on every call would cost more than the lookup.
        cached = self._path_index.get(id(revision))
        if cached is not None and cached[0] is revision:
            return cached[1]
        if len(self._path_index) >= _PATH_INDEX_SIZE:
            self._path_index.pop(next(iter(self._path_index)))
        by_path = dict(revision.files)
        self._path_index[id(revision)] = (revision, by_path)
        return by_path


# --------------------------------------------------------------------- helpers


def _list_files(tree: pygit2.Tree) -> tuple[tuple[str, str], ...]:
    """Every regular file below ``tree`` as sorted (posix path, blob id) pairs.

    Iterative and entry-only: no blob is loaded, and submodules (commit
    entries) and symlinks are left out.
    """
    files: list[tuple[str, str]] = []
    pending: list[tuple[str, pygit2.Tree]] = [("", tree)]
    while pending:
        prefix, current = pending.pop()
        for entry in current:
            kind = entry.filemode & _TYPE_MASK
            if kind == _TREE:
                pending.append((f"{prefix}{entry.name}/", cast(pygit2.Tree, entry)))
            elif kind == _REGULAR_FILE:
                files.append((f"{prefix}{entry.name}", str(entry.id)))
    files.sort()
    return tuple(files)


def _sides(delta: pygit2.DiffDelta) -> tuple[Side | None, Side | None]:
    """The regular-file (path, blob) on each side of a delta, ``None`` where absent."""
    if delta.status in _SKIPPED_STATUSES:
        return None, None
    old, new = delta.old_file, delta.new_file
    return (
        (old.path, str(old.id)) if _is_regular(old.mode) else None,
        (new.path, str(new.id)) if _is_regular(new.mode) else None,
    )


def _change(old: Side | None, new: Side | None) -> FileChange | None:
    """Classify one delta; ``None`` when no file's content or path changed."""
    if old is not None and new is not None:
        if old[0] != new[0]:
            return FileChange(new[0], old[0], "renamed", old[1], new[1])
        if old[1] == new[1]:
            return None  # mode-only change, or a file that was merely touched
        return FileChange(new[0], None, "modified", old[1], new[1])
    if old is not None:
        return FileChange(old[0], None, "deleted", old[1], None)
    if new is not None:
        return FileChange(new[0], None, "added", None, new[1])
    return None


class _Worktree:
    """What the working tree holds at a path, as `git add -A` would record it.

    A path holds a regular file that is tracked or not ignored; its blob id is
    hashed from the exact bytes on disk (no line-ending filters), so that
    ``read_blob`` can serve those bytes under that id. Ids land in ``blobs``.
    """

    def __init__(self, repo: pygit2.Repository, index: pygit2.Index, blobs: dict[str, Path]):
        self._repo = repo
        self._index = index
        self._root = Path(repo.workdir)
        self._blobs = blobs
        self._seen: dict[str, str | None] = {}

    def blob(self, path: str) -> str | None:
        if path not in self._seen:
            self._seen[path] = self._hash(path)
        return self._seen[path]

    def _hash(self, path: str) -> str | None:
        on_disk = self._root / path
        if not _is_plain_file(on_disk):
            return None
        if path not in self._index and self._repo.path_is_ignored(path):
            return None
        try:
            oid = str(pygit2.hash(on_disk.read_bytes()))
        except OSError as error:
            raise AnalysisError(f"Cannot read {path} in the working tree: {error}") from error
        self._blobs[oid] = on_disk
        return oid


def _worktree_changes(
    deltas: Iterable[pygit2.DiffDelta], base: dict[str, str], worktree: _Worktree
) -> list[FileChange]:
    """Changes from HEAD (``base``: path -> blob) to what is on disk.

    The deltas only name the paths to look at and the rename pairs; a pair is
    kept only while its old path is really gone and its new path really new.
    """
    changes: dict[str, FileChange] = {}
    for delta in deltas:
        if delta.status in _SKIPPED_STATUSES:
            continue
        old_path, new_path = delta.old_file.path, delta.new_file.path
        old_gone = worktree.blob(old_path) is None
        if old_path != new_path and old_gone and new_path not in base:
            pairs = [(old_path, new_path)]
        else:
            pairs = [(path, path) for path in {old_path, new_path}]
        for old, new in pairs:
            change = _change(_side(old, base.get(old)), _side(new, worktree.blob(new)))
            if change is not None:
                changes[change.path] = change
    return list(changes.values())


def _side(path: str, blob: str | None) -> Side | None:
    return None if blob is None else (path, blob)


def _apply(files: tuple[tuple[str, str], ...], changes: list[FileChange]) -> tuple[tuple[str, str], ...]:
    """The file list after ``changes``: base files with the changed ones replaced."""
    by_path = dict(files)
    for change in changes:
        by_path.pop(change.old_path or change.path, None)
        if change.new_blob is not None:
            by_path[change.path] = change.new_blob
    return tuple(sorted(by_path.items()))


def _is_regular(mode: int) -> bool:
    return mode & _TYPE_MASK == _REGULAR_FILE


def _is_plain_file(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def _read_verified(on_disk: Path, oid: str) -> bytes:
    try:
        data = on_disk.read_bytes()
    except OSError:
        data = None
    if data is None or str(pygit2.hash(data)) != oid:
        raise AnalysisError(f"{on_disk} changed on disk during the analysis; run impactbot again.")
    return data


def _common_dir(git_dir: Path) -> Path:
    """The shared .git directory, also for a linked worktree (``git worktree add``)."""
    pointer = git_dir / "commondir"
    if not pointer.is_file():
        return git_dir
    return (git_dir / pointer.read_text().strip()).resolve()
