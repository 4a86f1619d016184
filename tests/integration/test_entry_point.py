"""`python -m impactbot` and the console script: the process ends without the
interpreter's teardown, so what it printed and the exit code must survive that."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from helpers.gitrepo import RepoBuilder

PROJECT = Path(__file__).resolve().parents[2]


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    return subprocess.run([sys.executable, "-m", "impactbot", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def _repo(tmp_path: Path) -> RepoBuilder:
    repo = RepoBuilder.init(tmp_path / "repo")
    body = "".join(f"def helper_{i}():\n    return {i}\n\n\n" for i in range(400))
    repo.commit({"lib.py": body + "def total():\n    return 1\n",
                 "app.py": "from lib import total\n\n\ndef main():\n    return total()\n"})
    repo.start_branch("feature")
    repo.commit({"lib.py": body + "def total():\n    return 2\n"})
    return repo


def test_a_large_report_on_a_pipe_arrives_whole(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    done = _run("diff", "main..feature", "--format", "json", "--no-cache", "-q", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)  # a truncated buffer would not parse
    assert [c["id"] for c in report["changed"]] == ["lib.py::total"]
    assert [i["id"] for i in report["impacted"]] == ["app.py::main"]


def test_the_exit_code_and_the_error_line_survive(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    done = _run("diff", "main..no-such-branch", "--no-cache", cwd=repo.path)
    assert done.returncode == 2
    assert "no-such-branch" in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_gate_exit_code_survives(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    done = _run("diff", "main..feature", "--no-cache", "-q", "--format", "json", "--fail-on", "impacted",
                cwd=repo.path)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["impacted"]


def test_code_in_the_analysed_repository_is_never_imported(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    trap = "raise SystemExit('the analysed repository was imported')\n"
    repo.commit({"json.py": trap, "click.py": trap, "logging/__init__.py": trap})
    done = _run("diff", "main..feature", "--format", "json", "--no-cache", "-q", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    assert "lib.py::total" in {c["id"] for c in json.loads(done.stdout)["changed"]}
