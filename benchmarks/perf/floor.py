"""The floor: read every ``.py`` blob of one revision and parse it with tree-sitter.

Run as its own process (``python floor.py REPO REV``) so that its time includes
interpreter start-up and imports, as impactbot's does. It prints one JSON line,
``{"files": N, "bytes": B}``. Nothing else happens: no facts are extracted and
nothing is cached, so no impactbot run can be faster than this on a cold cache.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import pygit2
import tree_sitter
import tree_sitter_python


def python_blobs(repo: pygit2.Repository, tree: pygit2.Tree) -> Iterator[bytes]:
    """Contents of every ``.py`` blob under ``tree``, recursively."""
    for entry in tree:
        obj = repo[entry.id]
        if isinstance(obj, pygit2.Tree):
            yield from python_blobs(repo, obj)
        elif isinstance(obj, pygit2.Blob) and (entry.name or "").endswith(".py"):
            yield obj.data


def parse_revision(repo_path: str, rev: str) -> tuple[int, int]:
    """Parse every Python file at ``rev``; return (files, bytes)."""
    repo = pygit2.Repository(repo_path)
    commit = repo.revparse_single(rev).peel(pygit2.Commit)
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))
    files = size = 0
    for data in python_blobs(repo, commit.tree):
        parser.parse(data)
        files += 1
        size += len(data)
    return files, size


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: floor.py REPO REV", file=sys.stderr)
        return 2
    files, size = parse_revision(argv[0], argv[1])
    print(json.dumps({"files": files, "bytes": size}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
