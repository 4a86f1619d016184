"""The git stage against real repositories built in temporary directories."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pygit2
import pytest
from helpers.gitrepo import RepoBuilder
from pygit2.enums import FileMode

from impactbot.errors import AnalysisError, NoMergeBase, NotAGitRepository, RefNotFound, UsageError
from impactbot.git import NULL_COMMIT, GitRepository, parse_range
from impactbot.model import FileChange

A1 = "def total(items):\n    return sum(items)\n"
A2 = "def total(items, tax):\n    return sum(items) * tax\n"
B1 = "def helper():\n    return 1\n"
B2 = "def helper():\n    return 2\n"
X = "def gone():\n    pass\n"
NEW = "def fresh():\n    return total([1])\n"
# Long enough that a one-line edit keeps it over the 50% rename threshold.
ORDERS = "".join(f"def step_{i}(cart):\n    return cart.apply({i})\n\n" for i in range(12))


def blob(text: str | bytes) -> str:
    """The git blob id of ``text``, computed the way git does."""
    return str(pygit2.hash(text.encode() if isinstance(text, str) else text))


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (``.git`` included) with its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def open_repo(builder: RepoBuilder) -> GitRepository:
    return GitRepository.discover(builder.path)


# ------------------------------------------------------------------ ranges


@dataclass(frozen=True)
class Branched:
    repo: RepoBuilder
    fork: str
    main: str
    feature: str


@pytest.fixture
def branched(repo: RepoBuilder) -> Branched:
    """Main moved on after feature branched off; HEAD is feature.

    * feature  a.py edited, new.py added, util/x.py deleted
    | * main   b.py edited
    |/
    * fork     a.py, b.py, util/x.py
    """
    fork = repo.commit({"a.py": A1, "b.py": B1, "util/x.py": X}, "fork")
    repo.branch("feature")
    main = repo.commit({"b.py": B2}, "main moves on")
    repo.checkout("feature")
    feature = repo.commit({"a.py": A2, "new.py": NEW, "util/x.py": None}, "feature work")
    return Branched(repo, fork, main, feature)


FEATURE_CHANGES = (
    FileChange("a.py", None, "modified", blob(A1), blob(A2)),
    FileChange("new.py", None, "added", None, blob(NEW)),
    FileChange("util/x.py", None, "deleted", blob(X), None),
)
FORK_FILES = (("a.py", blob(A1)), ("b.py", blob(B1)), ("util/x.py", blob(X)))
FEATURE_FILES = (("a.py", blob(A2)), ("b.py", blob(B1)), ("new.py", blob(NEW)))


@pytest.mark.parametrize(
    ("range_", "base_ref", "head_ref"),
    [
        ("main..feature", "main", "feature"),
        ("main...feature", "main", "feature"),
        ("main", "main", "HEAD"),
        ("main..", "main", "HEAD"),
        ("main...", "main", "HEAD"),
    ],
)
def test_range_compares_merge_base_with_head(branched: Branched, range_: str, base_ref: str, head_ref: str) -> None:
    changes = open_repo(branched.repo).changeset(range_)

    assert (changes.base.ref, changes.base.commit) == (base_ref, branched.fork)
    assert (changes.head.ref, changes.head.commit) == (head_ref, branched.feature)
    assert changes.base.files == FORK_FILES  # b.py as at the fork, not main's edit
    assert changes.head.files == FEATURE_FILES
    assert not changes.base.worktree and not changes.head.worktree
    assert changes.files == FEATURE_CHANGES


def test_range_without_base_starts_from_head(branched: Branched) -> None:
    branched.repo.checkout("main")

    changes = open_repo(branched.repo).changeset("..feature")

    assert (changes.base.ref, changes.base.commit) == ("HEAD", branched.fork)
    assert (changes.head.ref, changes.head.commit) == ("feature", branched.feature)
    assert changes.files == FEATURE_CHANGES


def test_reversed_range_shows_what_main_did_since_the_fork(branched: Branched) -> None:
    changes = open_repo(branched.repo).changeset("feature...main")

    assert changes.base.commit == branched.fork
    assert changes.head.commit == branched.main
    assert changes.files == (FileChange("b.py", None, "modified", blob(B1), blob(B2)),)


@pytest.mark.parametrize("message", [None, "release 1"], ids=["lightweight", "annotated"])
def test_tags_are_peeled_to_commits(branched: Branched, message: str | None) -> None:
    branched.repo.tag("v1", at=branched.fork, message=message)
    git = open_repo(branched.repo)

    changes = git.changeset("v1..feature")

    assert git.revision("v1").commit == branched.fork
    assert (changes.base.ref, changes.base.commit) == ("v1", branched.fork)
    assert changes.files == FEATURE_CHANGES


def test_relative_refs_and_sha_prefixes(branched: Branched) -> None:
    git = open_repo(branched.repo)
    prefix_range = f"{branched.fork[:7]}..{branched.feature[:10]}"

    by_ancestry = git.changeset("HEAD~1")
    by_prefix = git.changeset(prefix_range)

    assert (by_ancestry.base.ref, by_ancestry.base.commit) == ("HEAD~1", branched.fork)
    assert (by_prefix.base.ref, by_prefix.base.commit) == (branched.fork[:7], branched.fork)
    assert (by_prefix.head.ref, by_prefix.head.commit) == (branched.feature[:10], branched.feature)
    assert by_ancestry.files == by_prefix.files == FEATURE_CHANGES


def test_same_commit_on_both_sides_changes_nothing(branched: Branched) -> None:
    changes = open_repo(branched.repo).changeset("feature..HEAD")

    assert changes.base.commit == changes.head.commit == branched.feature
    assert changes.files == ()


def test_revision_lists_every_file_of_the_commit(branched: Branched) -> None:
    revision = open_repo(branched.repo).revision("main")

    assert (revision.ref, revision.commit, revision.worktree) == ("main", branched.main, False)
    assert revision.files == (("a.py", blob(A1)), ("b.py", blob(B2)), ("util/x.py", blob(X)))


@pytest.mark.parametrize("range_", ["nope", "main..nope", "nope...main", "HEAD~9"])
def test_unknown_ref_is_named_in_the_error(branched: Branched, range_: str) -> None:
    unknown = "HEAD~9" if range_ == "HEAD~9" else "nope"

    with pytest.raises(RefNotFound, match=re.escape(str(RefNotFound(unknown)))):
        open_repo(branched.repo).changeset(range_)
    assert str(RefNotFound(unknown)).startswith(f"Could not find revision '{unknown}'.")


def test_ref_that_is_not_a_commit_is_refused(branched: Branched) -> None:
    with pytest.raises(UsageError, match=r"^'HEAD\^\{tree\}' names a tree, not a commit\.$"):
        open_repo(branched.repo).revision("HEAD^{tree}")


def test_empty_range_is_refused(branched: Branched) -> None:
    with pytest.raises(UsageError, match="The revision range is empty"):
        open_repo(branched.repo).changeset("")


def test_unrelated_histories_have_no_merge_base(repo: RepoBuilder) -> None:
    repo.commit({"a.py": A1}, "first root")
    repo.repository.set_head("refs/heads/orphan")  # an unborn branch: the next commit is a root
    repo.commit({"b.py": B1}, "second root")

    with pytest.raises(NoMergeBase) as caught:
        open_repo(repo).changeset("main...orphan")

    assert str(caught.value) == ("'main' and 'orphan' have no common ancestor. The two histories are unrelated.")


@pytest.mark.parametrize(
    ("range_", "expected"),
    [
        ("main..feature", ("main", "feature")),
        ("main...feature", ("main", "feature")),
        ("main", ("main", "HEAD")),
        ("main..", ("main", "HEAD")),
        ("..feature", ("HEAD", "feature")),
        ("...feature", ("HEAD", "feature")),
        ("origin/main...HEAD~2", ("origin/main", "HEAD~2")),
    ],
)
def test_parse_range(range_: str, expected: tuple[str, str]) -> None:
    assert parse_range(range_) == expected


# ----------------------------------------------------------------- renames


def test_move_is_a_rename_with_old_path(repo: RepoBuilder) -> None:
    repo.commit({"pkg/orders.py": ORDERS, "pkg/__init__.py": ""}, "base")
    repo.move("pkg/orders.py", "shop/orders.py")

    changes = open_repo(repo).changeset("HEAD~1..HEAD")

    assert changes.files == (FileChange("shop/orders.py", "pkg/orders.py", "renamed", blob(ORDERS), blob(ORDERS)),)


def test_rename_with_an_edit_is_still_a_rename(repo: RepoBuilder) -> None:
    edited = ORDERS.replace("apply(3)", "apply(33)")
    repo.commit({"orders.py": ORDERS}, "base")
    repo.commit({"orders.py": None, "cart.py": edited}, "rename and edit")

    changes = open_repo(repo).changeset("HEAD~1..HEAD")

    assert changes.files == (FileChange("cart.py", "orders.py", "renamed", blob(ORDERS), blob(edited)),)


def test_unstaged_rename_in_the_worktree(repo: RepoBuilder) -> None:
    edited = ORDERS + "def extra(cart):\n    return cart\n"
    repo.commit({"orders.py": ORDERS}, "base")
    repo.write({"orders.py": None, "shop/orders.py": edited})  # moved on disk, never staged

    changes = open_repo(repo).changeset(None)

    assert changes.files == (FileChange("shop/orders.py", "orders.py", "renamed", blob(ORDERS), blob(edited)),)
    assert changes.head.files == (("shop/orders.py", blob(edited)),)


def test_staged_rename_in_the_worktree(repo: RepoBuilder) -> None:
    repo.commit({"orders.py": ORDERS}, "base")
    (repo.path / "orders.py").rename(repo.path / "cart.py")
    repo.stage(["orders.py", "cart.py"])

    changes = open_repo(repo).changeset(None)

    assert changes.files == (FileChange("cart.py", "orders.py", "renamed", blob(ORDERS), blob(ORDERS)),)


def test_staged_rename_whose_old_file_is_back_on_disk_is_a_copy(repo: RepoBuilder) -> None:
    repo.commit({"orders.py": ORDERS}, "base")
    (repo.path / "orders.py").rename(repo.path / "cart.py")
    repo.stage(["orders.py", "cart.py"])
    repo.write({"orders.py": ORDERS})  # untracked now, but on disk as in HEAD

    changes = open_repo(repo).changeset(None)

    assert changes.files == (FileChange("cart.py", None, "added", None, blob(ORDERS)),)
    assert changes.head.files == (("cart.py", blob(ORDERS)), ("orders.py", blob(ORDERS)))


# ----------------------------------------------------------- working tree


def test_worktree_mode_compares_head_with_the_files_on_disk(repo: RepoBuilder) -> None:
    head = repo.commit({".gitignore": "*.log\nbuild/\n", "a.py": A1, "b.py": B1, "keep.py": X}, "base")
    repo.write({"staged.py": NEW, "both.py": "as_staged = 1\n", "forced.log": "kept\n"})
    repo.stage(["staged.py", "both.py", "forced.log"])  # forced.log: staged despite *.log
    repo.write({"a.py": A2, "b.py": None, "both.py": "on_disk = 2\n", "pkg/untracked.py": NEW})
    repo.write({"debug.log": "noise\n", "build/out.py": "artifact = 1\n"})  # ignored
    before = snapshot(repo.path)

    changes = open_repo(repo).changeset(None)

    assert snapshot(repo.path) == before  # index, HEAD, refs and files untouched
    assert (changes.base.ref, changes.base.commit, changes.base.worktree) == ("HEAD", head, False)
    assert (changes.head.ref, changes.head.commit, changes.head.worktree) == (
        "WORKTREE",
        head,
        True,
    )
    assert changes.files == (
        FileChange("a.py", None, "modified", blob(A1), blob(A2)),
        FileChange("b.py", None, "deleted", blob(B1), None),
        FileChange("both.py", None, "added", None, blob("on_disk = 2\n")),  # disk, not index
        FileChange("forced.log", None, "added", None, blob("kept\n")),
        FileChange("pkg/untracked.py", None, "added", None, blob(NEW)),
        FileChange("staged.py", None, "added", None, blob(NEW)),
    )
    assert changes.head.files == (
        (".gitignore", blob("*.log\nbuild/\n")),
        ("a.py", blob(A2)),
        ("both.py", blob("on_disk = 2\n")),
        ("forced.log", blob("kept\n")),
        ("keep.py", blob(X)),
        ("pkg/untracked.py", blob(NEW)),
        ("staged.py", blob(NEW)),
    )


def test_worktree_blobs_are_served_from_disk(repo: RepoBuilder) -> None:
    repo.commit({"a.py": A1}, "base")
    repo.write({"a.py": A2, "new.py": NEW})
    git = open_repo(repo)

    changes = git.changeset(None)

    assert git.read_blob(blob(A2)) == A2.encode()
    assert git.read_blob(blob(NEW)) == NEW.encode()
    assert git.read_path(changes.head, "a.py") == A2.encode()
    assert git.read_path(changes.base, "a.py") == A1.encode()
    assert git.read_path(changes.base, "new.py") is None
    assert not (repo.path / ".git" / "objects" / blob(A2)[:2]).exists()  # nothing written


def test_worktree_file_changed_after_the_changeset_is_reported(repo: RepoBuilder) -> None:
    repo.commit({"a.py": A1}, "base")
    repo.write({"a.py": A2})
    git = open_repo(repo)
    git.changeset(None)
    repo.write({"a.py": "changed again\n"})

    with pytest.raises(AnalysisError, match=r"a\.py changed on disk during the analysis"):
        git.read_blob(blob(A2))


def test_worktree_sees_staging_done_after_opening(repo: RepoBuilder) -> None:
    repo.commit({".gitignore": "*.log\n", "a.py": A1}, "base")
    git = open_repo(repo)
    assert git.changeset(None).files == ()

    repo.write({"forced.log": "kept\n"})
    repo.stage(["forced.log"])  # ignored, so only the index tells it is there

    assert git.changeset(None).files == (FileChange("forced.log", None, "added", None, blob("kept\n")),)


def test_mode_only_changes_are_not_changes(repo: RepoBuilder) -> None:
    repo.commit({"run.py": A1}, "base")
    (repo.path / "run.py").chmod(0o755)
    repo.stage(["run.py"])
    repo.commit({}, "make executable")
    (repo.path / "run.py").chmod(0o644)
    git = open_repo(repo)

    assert git.changeset("HEAD~1..HEAD").files == ()
    assert git.changeset(None).files == ()


def test_repository_without_commits_compares_with_nothing(repo: RepoBuilder) -> None:
    repo.write({".gitignore": "*.log\n", "a.py": A1, "skip.log": "x\n"})
    repo.write({"pkg/b.py": B1})
    repo.stage(["pkg/b.py"])
    git = open_repo(repo)

    changes = git.changeset(None)

    assert (changes.base.commit, changes.base.files) == (NULL_COMMIT, ())
    assert changes.head.commit == NULL_COMMIT
    assert changes.files == (
        FileChange(".gitignore", None, "added", None, blob("*.log\n")),
        FileChange("a.py", None, "added", None, blob(A1)),
        FileChange("pkg/b.py", None, "added", None, blob(B1)),
    )
    with pytest.raises(RefNotFound, match="'HEAD': the repository has no commits yet"):
        git.revision("HEAD")


# ----------------------------------------------------------- trees, blobs


def test_files_skip_symlinks_and_submodules_and_sort_by_path(repo: RepoBuilder) -> None:
    first = repo.commit({"a.py": A1}, "base")
    index = repo.repository.index
    index.add(pygit2.IndexEntry("link.py", repo.repository.create_blob(b"a.py"), FileMode.LINK))
    index.add(pygit2.IndexEntry("vendor/lib", pygit2.Oid(hex=first), FileMode.COMMIT))
    index.write()
    repo.commit({"a.b": "x\n", "a/b.py": B1, "img.png": b"\x89PNG\r\n\x00\xff"}, "odd entries")

    git = open_repo(repo)
    revision = git.revision("HEAD")
    changes = git.changeset("HEAD~1..HEAD")

    assert [path for path, _ in revision.files] == ["a.b", "a.py", "a/b.py", "img.png"]
    assert [(c.path, c.status) for c in changes.files] == [
        ("a.b", "added"),
        ("a/b.py", "added"),
        ("img.png", "added"),  # binary files are listed; callers filter by language
    ]


def test_read_blob_and_read_path_at_a_commit(branched: Branched) -> None:
    git = open_repo(branched.repo)
    main = git.revision("main")

    assert git.read_blob(blob(B2)) == B2.encode()
    assert git.read_path(main, "util/x.py") == X.encode()
    assert git.read_path(main, "new.py") is None
    assert git.read_path(main, "util") is None  # a directory is not a file


@pytest.mark.parametrize("oid", [NULL_COMMIT, "not-hex", "deadbeef" * 5])
def test_read_blob_of_an_unknown_id_raises_key_error(branched: Branched, oid: str) -> None:
    with pytest.raises(KeyError):
        open_repo(branched.repo).read_blob(oid)


def test_read_blob_of_a_commit_id_raises_key_error(branched: Branched) -> None:
    with pytest.raises(KeyError):
        open_repo(branched.repo).read_blob(branched.main)


# --------------------------------------------------------------- discovery


def test_discover_from_a_subdirectory_or_file(repo: RepoBuilder) -> None:
    repo.commit({"pkg/sub/m.py": A1}, "base")

    from_dir = GitRepository.discover(repo.path / "pkg" / "sub")
    from_file = GitRepository.discover(str(repo.path / "pkg" / "sub" / "m.py"))

    assert from_dir.root == from_file.root == repo.path
    assert from_dir.git_dir == repo.path / ".git"


def test_discover_defaults_to_the_current_directory(repo: RepoBuilder, monkeypatch: pytest.MonkeyPatch) -> None:
    repo.commit({"pkg/m.py": A1}, "base")
    monkeypatch.chdir(repo.path / "pkg")

    assert GitRepository.discover().root == repo.path


@pytest.mark.parametrize("name", ["plain", "missing"])
def test_not_a_repository(tmp_path: Path, name: str) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    path = tmp_path / name

    with pytest.raises(NotAGitRepository) as caught:
        GitRepository.discover(path)

    assert str(caught.value) == str(NotAGitRepository(str(path)))
    assert str(caught.value).startswith(f"{path} is not inside a git repository.")


def test_bare_repository_reads_ranges_but_has_no_worktree(branched: Branched, tmp_path: Path) -> None:
    pygit2.clone_repository(str(branched.repo.path), str(tmp_path / "bare.git"), bare=True)
    git = GitRepository.discover(tmp_path / "bare.git")

    changes = git.changeset("origin/main...origin/feature")

    assert git.root == git.git_dir == tmp_path / "bare.git"
    assert changes.files == FEATURE_CHANGES
    with pytest.raises(UsageError, match="bare repository: it has no working tree"):
        git.changeset(None)


# ------------------------------------------------ shallow clones, the git CLI


def run_git(cwd: Path, *args: str) -> str:
    """Run the real git CLI with a fixed identity and no user or system config."""
    identity = {
        "GIT_AUTHOR_NAME": "Cli",
        "GIT_AUTHOR_EMAIL": "cli@example.com",
        "GIT_AUTHOR_DATE": "2024-01-01T00:00:00+00:00",
        "GIT_COMMITTER_NAME": "Cli",
        "GIT_COMMITTER_EMAIL": "cli@example.com",
        "GIT_COMMITTER_DATE": "2024-01-01T00:00:00+00:00",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **identity},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_shallow_clone_without_merge_base_says_to_fetch_more(branched: Branched, tmp_path: Path) -> None:
    # libgit2's local transport cannot fetch shallow
    # (pygit2.clone_repository(..., depth=1) fails on file:// URLs), so git makes the clone.
    url = branched.repo.path.as_uri()
    run_git(tmp_path, "clone", "--quiet", "--depth=1", "--no-single-branch", url, "shallow")
    git = GitRepository.discover(tmp_path / "shallow")

    with pytest.raises(NoMergeBase) as caught:
        git.changeset("origin/main...origin/feature")

    assert git.is_shallow()
    assert not open_repo(branched.repo).is_shallow()
    assert str(caught.value).startswith(
        "'origin/main' and 'origin/feature' have no common ancestor. "
        "The repository is a shallow clone: fetch more history"
    )


def test_repository_made_by_the_git_cli_reads_the_same(tmp_path: Path) -> None:
    root = tmp_path / "cli"
    root.mkdir()
    run_git(root, "init", "--quiet", "--initial-branch=main")
    (root / "pkg").mkdir()
    (root / "pkg" / "orders.py").write_text(ORDERS)
    (root / "a.py").write_text(A1)
    run_git(root, "add", "--all")
    run_git(root, "commit", "--quiet", "--message=base")
    run_git(root, "switch", "--quiet", "--create", "feature")
    (root / "shop").mkdir()
    run_git(root, "mv", "pkg/orders.py", "shop/orders.py")
    (root / "a.py").write_text(A2)
    run_git(root, "commit", "--quiet", "--all", "--message=feature")
    (root / "a.py").write_text(B1)  # an unstaged edit on top
    index_before = (root / ".git" / "index").read_bytes()
    git = GitRepository.discover(root)

    committed = git.changeset("main..feature")
    worktree = git.changeset(None)

    assert committed.head.commit == run_git(root, "rev-parse", "feature")
    assert committed.head.blob_of("a.py") == run_git(root, "rev-parse", "feature:a.py")
    assert committed.files == (
        FileChange("a.py", None, "modified", blob(A1), blob(A2)),
        FileChange("shop/orders.py", "pkg/orders.py", "renamed", blob(ORDERS), blob(ORDERS)),
    )
    assert worktree.files == (FileChange("a.py", None, "modified", blob(A2), blob(B1)),)
    assert (root / ".git" / "index").read_bytes() == index_before


def test_linked_worktree_shares_the_main_git_dir(branched: Branched, tmp_path: Path) -> None:
    branched.repo.checkout("main")
    run_git(branched.repo.path, "worktree", "add", "--quiet", str(tmp_path / "linked"), "feature")
    (tmp_path / "linked" / "a.py").write_text(A1)

    git = GitRepository.discover(tmp_path / "linked")

    assert git.root == tmp_path / "linked"
    assert git.git_dir == branched.repo.path / ".git"
    assert git.changeset(None).files == (FileChange("a.py", None, "modified", blob(A2), blob(A1)),)


# ---------------------------------------------------------------------- scale


def django_sized_repository(root: Path, files: int = 7000) -> pygit2.Repository:
    """A bare repository whose two commits each hold ``files`` files in nested packages."""
    repository = pygit2.init_repository(str(root), bare=True)
    index = pygit2.Index()
    content = repository.create_blob(b"def f():\n    return 1\n")  # one blob: writing 7,000 is slow
    for i in range(files):
        path = f"pkg{i % 40}/sub{i % 17}/mod{i % 5}/file_{i}.py"
        index.add(pygit2.IndexEntry(path, content, FileMode.BLOB))
    signature = pygit2.Signature("Test", "test@example.com", time=1700000000, offset=0)
    first = repository.create_commit("refs/heads/main", signature, signature, "base", index.write_tree(repository), [])
    index.add(pygit2.IndexEntry("pkg0/new.py", repository.create_blob(b"x = 1\n"), FileMode.BLOB))
    repository.create_commit("refs/heads/feature", signature, signature, "head", index.write_tree(repository), [first])
    return repository


def test_changeset_on_a_django_sized_tree(tmp_path: Path) -> None:
    # speed is measured by benchmarks/bench.py, not asserted here: this machine is shared
    django_sized_repository(tmp_path / "big.git")
    changes = GitRepository.discover(tmp_path / "big.git").changeset("main..feature")
    assert len(changes.base.files) == 7000
    assert len(changes.head.files) == 7001
    assert [c.path for c in changes.files] == ["pkg0/new.py"]


# ------------------------------------------------------------- the builder


def test_repo_builder_is_deterministic_and_checkout_matches_the_branch(tmp_path: Path) -> None:
    results = []
    for name in ("one", "two"):
        builder = RepoBuilder.init(tmp_path / name)
        builder.commit({"a.py": A1}, "base")
        builder.branch("side")
        builder.commit({"extra.py": X}, "main only")
        builder.checkout("side")
        on_disk = sorted(p.name for p in builder.path.iterdir())
        results.append((builder.resolve("main"), builder.resolve("side"), on_disk))

    assert results[0] == results[1]
    assert results[0][2] == [".git", "a.py"]  # extra.py left with main
