"""`impactbot diff --github-comment --github-summary` end to end: real repository, real HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.fake_github import (  # the fixture is registered by importing it
    BOT_LOGIN,
    REPOSITORY,
    TOKEN,
    FakeGitHub,
    fake_github_fixture,  # noqa: F401
)
from helpers.gitrepo import RepoBuilder

from impactbot.cli import main
from impactbot.github import MARKER

PR = 7


@pytest.fixture
def change(repo: RepoBuilder) -> RepoBuilder:
    repo.commit({"lib.py": "def total(xs):\n    return sum(xs)\n",
                 "app.py": "from lib import total\n\n\ndef checkout(xs):\n    return total(xs)\n"})
    repo.start_branch("feature")
    repo.commit({"lib.py": "def total(xs):\n    return sum(xs) * 2\n"})
    return repo


@pytest.fixture
def github_env(monkeypatch: pytest.MonkeyPatch, fake_github: FakeGitHub, tmp_path: Path) -> Path:
    summary = tmp_path / "summary.md"
    for name, value in {"GITHUB_TOKEN": TOKEN, "GITHUB_REPOSITORY": REPOSITORY, "GITHUB_API_URL": fake_github.api_url,
                        "GITHUB_STEP_SUMMARY": str(summary)}.items():
        monkeypatch.setenv(name, value)
    return summary


def run(repo: RepoBuilder, *extra: str) -> int:
    return main(["diff", "main..feature", "-C", str(repo.path), "--no-cache", "--no-semantic", "-q",
                 "--format", "json", "-o", str(repo.path.parent / "r.json"), "--github-comment",
                 "--pr", str(PR), *extra])


def ours(fake: FakeGitHub) -> list[str]:
    return [c.body for c in fake.comments_on(PR) if c.login == BOT_LOGIN]


def test_one_sticky_comment_across_pushes(change: RepoBuilder, fake_github: FakeGitHub, github_env: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert run(change, "--github-summary") == 0
    first = ours(fake_github)
    assert len(first) == 1 and first[0].startswith(MARKER)
    assert "app.py::checkout" in first[0]
    assert "app.py::checkout" in github_env.read_text()
    change.commit({"app.py": "from lib import total\n\n\ndef checkout(xs):\n    return total(xs) + 1\n"})
    assert run(change) == 0
    assert len(ours(fake_github)) == 1  # updated in place, never a second comment
    assert ours(fake_github)[0] != first[0]
    assert TOKEN not in capsys.readouterr().err


def test_read_only_token_warns_and_keeps_the_analysis(change: RepoBuilder, fake_github: FakeGitHub,
                                                      github_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake_github.forbid_writes = True
    assert run(change, "--github-summary") == 0
    err = capsys.readouterr().err
    assert "403" in err and "fork" in err
    assert len(err.strip().splitlines()) == 1
    assert ours(fake_github) == []
    assert "app.py::checkout" in github_env.read_text()  # the job summary still has the report


def test_fail_on_impacted_gates_with_exit_1(change: RepoBuilder, fake_github: FakeGitHub, github_env: Path) -> None:
    assert run(change, "--fail-on", "impacted") == 1
    assert run(change, "--fail-on", "breaking") == 0
