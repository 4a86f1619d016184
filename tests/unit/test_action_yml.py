"""The composite action and the workflows: static checks, and their scripts run for real.

The scripts inside action.yml are bash; the tests run them with bash against real
git repositories, with the runner's files (GITHUB_OUTPUT) in a tmp dir.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pygit2
import pytest
import yaml
from helpers.gitrepo import RepoBuilder

ROOT = Path(__file__).resolve().parents[2]
ACTION_TEXT = (ROOT / "action.yml").read_text(encoding="utf-8")
ACTION: dict[str, Any] = yaml.safe_load(ACTION_TEXT)
STEPS: list[dict[str, Any]] = ACTION["runs"]["steps"]
INPUT_REFERENCE = re.compile(r"\binputs\.([A-Za-z0-9_-]+)")
STEP_REFERENCE = re.compile(r"\bsteps\.([A-Za-z0-9_-]+)\.outputs\.")
EXPECTED_DEFAULTS = {
    "base": "${{ github.event.pull_request.base.sha }}",
    "head": "${{ github.event.pull_request.head.sha }}",
    "depth": "3",
    "hub-cap": "25",
    "semantic": "false",
    "comment": "true",
    "summary": "true",
    "no-impact": "update",
    "fail-on": "",
    "include-drafts": "false",
    "python-version": "3.11",
    "github-token": "${{ github.token }}",
    "extra-args": "",
    "cache": "true",
}


def step(step_id: str) -> dict[str, Any]:
    [found] = [s for s in STEPS if s.get("id") == step_id]
    return found


def text_of(value: Any) -> str:
    return yaml.safe_dump(value, sort_keys=True)


def triggers(workflow: dict[Any, Any]) -> dict[str, Any]:
    # YAML 1.1 reads the bare key `on` as the boolean True
    found = workflow.get("on", workflow.get(True))
    return {found: None} if isinstance(found, str) else dict(found)


# ---------------------------------------------------------------------- static


def test_inputs_have_the_documented_defaults_and_descriptions() -> None:
    inputs = ACTION["inputs"]

    assert {name: str(spec["default"]) for name, spec in inputs.items()} == EXPECTED_DEFAULTS
    assert all(spec["description"].strip() for spec in inputs.values())


def test_every_input_is_used_by_a_step() -> None:
    used = set(INPUT_REFERENCE.findall(text_of(STEPS)))

    assert set(ACTION["inputs"]) - used == set()


def test_every_referenced_input_is_declared() -> None:
    referenced = set(INPUT_REFERENCE.findall(ACTION_TEXT))

    assert referenced
    assert referenced - set(ACTION["inputs"]) == set()


def test_no_expression_is_interpolated_into_a_script() -> None:
    scripts = {s.get("id", s["name"]): s["run"] for s in STEPS if "run" in s}

    assert scripts
    assert {name for name, script in scripts.items() if "${{ inputs." in script} == set()
    assert {name for name, script in scripts.items() if "${{" in script} == set()


def test_outputs_come_from_steps_that_exist() -> None:
    ids = {s["id"] for s in STEPS if "id" in s}
    sources = {name: STEP_REFERENCE.findall(spec["value"]) for name, spec in ACTION["outputs"].items()}

    assert set(sources) == {"report", "changed", "impacted", "tests", "breaking"}
    assert all(found and set(found) <= ids for found in sources.values()), sources


def test_steps_only_read_outputs_of_earlier_steps() -> None:
    seen: set[str] = set()
    for s in STEPS:
        assert set(STEP_REFERENCE.findall(text_of(s))) <= seen, s["name"]
        seen.add(s.get("id", ""))


def test_every_step_after_the_gate_honours_it() -> None:
    assert STEPS[0]["id"] == "gate"
    for s in STEPS[1:]:
        assert "steps.gate.outputs.run == 'true'" in s["if"], s["name"]


def test_scripts_are_bash_and_parse() -> None:
    for s in (s for s in STEPS if "run" in s):
        assert s["shell"] == "bash", s["name"]
        check = subprocess.run(["bash", "-n"], input=s["run"], capture_output=True, text=True, check=False)
        assert check.returncode == 0, (s["name"], check.stderr)


def test_python_pip_and_caches_are_wired_as_documented() -> None:
    uses = {s.get("id", s["name"]): s.get("uses") for s in STEPS if "uses" in s}
    restore = next(s for s in STEPS if s.get("uses") == "actions/cache/restore@v4")
    save = next(s for s in STEPS if s.get("uses") == "actions/cache/save@v4")
    model = next(s for s in STEPS if "huggingface" in str(s.get("with", {}).get("path")))

    assert uses["python"] == "actions/setup-python@v5"
    assert step("python")["with"]["python-version"] == "${{ inputs.python-version }}"
    assert "runner.os" in restore["with"]["key"]
    assert "steps.refs.outputs.base" in restore["with"]["key"]
    assert restore["with"]["path"] == save["with"]["path"] == "${{ runner.temp }}/impactbot-cache"
    assert restore["with"]["key"].rsplit("-", 1)[0] + "-" == restore["with"]["restore-keys"].strip()
    assert "github.ref == format('refs/heads/{0}', github.event.repository.default_branch)" in (save["if"])
    assert "inputs.semantic == 'true'" in model["if"]
    install = step("install")["run"]
    assert "--index-url https://download.pytorch.org/whl/cpu" in install
    assert install.index("torch==") < install.index('"$GITHUB_ACTION_PATH[semantic]"')


def test_the_token_reaches_impactbot_only_through_env() -> None:
    assert step("run")["env"]["GITHUB_TOKEN"] == "${{ inputs.github-token }}"
    assert [s.get("id") for s in STEPS if "inputs.github-token" in text_of(s)] == ["run"]


# ------------------------------------------------------------------ the scripts


def run_script(
    step_id: str, env: dict[str, str], cwd: Path, tmp_path: Path
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """Run one step's script the way the runner does; returns (process, step outputs)."""
    outputs = tmp_path / f"{step_id}-output"
    outputs.write_text("", encoding="utf-8")
    full_env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "RUNNER_TEMP": str(tmp_path),
        "GITHUB_OUTPUT": str(outputs),
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_SYSTEM": os.devnull,
        "GIT_TERMINAL_PROMPT": "0",
        **env,
    }
    process = subprocess.run(
        ["bash", "-e", "-c", step(step_id)["run"]],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    values = dict(line.split("=", 1) for line in outputs.read_text().splitlines() if line)
    return process, values


def gate_env(**overrides: str) -> dict[str, str]:
    env = {
        "EVENT_NAME": "pull_request",
        "IS_DRAFT": "false",
        "INCLUDE_DRAFTS": "false",
        "INPUT_BASE": "a" * 40,
        "INPUT_HEAD": "b" * 40,
        "PUSH_BEFORE": "",
        "PUSH_AFTER": "",
        "PR_NUMBER": "7",
        "COMMENT": "true",
    }
    return {**env, **overrides}


def test_gate_runs_a_ready_pull_request(tmp_path: Path) -> None:
    process, outputs = run_script("gate", gate_env(), tmp_path, tmp_path)

    assert process.returncode == 0, process.stderr
    assert outputs == {"run": "true", "base": "a" * 40, "head": "b" * 40, "comment": "true"}


def test_gate_skips_drafts_unless_asked(tmp_path: Path) -> None:
    skipped, outputs = run_script("gate", gate_env(IS_DRAFT="true"), tmp_path, tmp_path)
    included, again = run_script("gate", gate_env(IS_DRAFT="true", INCLUDE_DRAFTS="true"), tmp_path, tmp_path)

    assert skipped.returncode == 0
    assert outputs["run"] == "false"
    assert "Skipped: draft pull request" in skipped.stdout
    assert included.returncode == 0
    assert again["run"] == "true"


def test_gate_compares_the_pushed_range_without_commenting(tmp_path: Path) -> None:
    env = gate_env(
        EVENT_NAME="push", INPUT_BASE="", INPUT_HEAD="", PR_NUMBER="", PUSH_BEFORE="c" * 40, PUSH_AFTER="d" * 40
    )

    process, outputs = run_script("gate", env, tmp_path, tmp_path)

    assert process.returncode == 0, process.stderr
    assert outputs == {"run": "true", "base": "c" * 40, "head": "d" * 40, "comment": "false"}


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"EVENT_NAME": "workflow_dispatch", "INPUT_BASE": ""}, "No base commit"),
        ({"INPUT_BASE": "--upload-pack=touch pwned"}, "Invalid revision '--upload-pack"),
        ({"INPUT_HEAD": "main..topic"}, "Invalid revision 'main..topic'"),
    ],
)
def test_gate_rejects_a_missing_or_hostile_base(tmp_path: Path, overrides: dict[str, str], message: str) -> None:
    process, _ = run_script("gate", gate_env(**overrides), tmp_path, tmp_path)

    assert process.returncode == 2
    assert f"::error title=impactbot::{message}" in process.stdout
    assert not (tmp_path / "pwned").exists()


def git(*args: str, cwd: Path) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True, timeout=60)
    return done.stdout.strip()


def diverged_origin(root: Path, shared: int, ahead: int) -> tuple[RepoBuilder, str, str, str]:
    """
        * main     `ahead` more commits
        | * topic  two commits
        |/
        * fork     after `shared` commits
    Returns (origin, fork point, main tip, topic tip).
    """
    origin = RepoBuilder.init(root)
    for n in range(shared):
        fork = origin.commit({"pkg/core.py": f"VALUE = {n}\n"})
    origin.branch("topic")
    for n in range(ahead):
        origin.commit({"pkg/core.py": f"VALUE = {shared + n}\n"})
    main_tip = origin.resolve("main")
    origin.checkout("topic")
    origin.commit({"pkg/feature.py": "def feature():\n    return 1\n"})
    topic_tip = origin.commit({"pkg/feature.py": "def feature():\n    return 2\n"})
    origin.checkout("main")
    return origin, fork, main_tip, topic_tip


def test_refs_deepen_a_shallow_clone_until_the_merge_base_is_there(tmp_path: Path) -> None:
    origin, fork, main_tip, topic_tip = diverged_origin(tmp_path / "origin", shared=120, ahead=60)
    clone = tmp_path / "clone"
    git("clone", "--quiet", "--depth=1", "--branch=main", origin.path.as_uri(), str(clone), cwd=tmp_path)

    process, outputs = run_script("refs", {"BASE": main_tip, "HEAD": topic_tip}, clone, tmp_path)

    assert process.returncode == 0, process.stdout + process.stderr
    assert outputs == {"base": main_tip, "head": topic_tip}
    assert git("merge-base", main_tip, topic_tip, cwd=clone) == fork
    assert git("rev-parse", "--is-shallow-repository", cwd=clone) == "true"


def test_refs_never_make_a_full_clone_shallow(tmp_path: Path) -> None:
    origin, fork, main_tip, topic_tip = diverged_origin(tmp_path / "origin", shared=3, ahead=4)
    clone = tmp_path / "clone"
    git("clone", "--quiet", "--single-branch", "--branch=main", origin.path.as_uri(), str(clone), cwd=tmp_path)

    process, outputs = run_script("refs", {"BASE": "main", "HEAD": topic_tip}, clone, tmp_path)

    assert process.returncode == 0, process.stdout + process.stderr
    assert outputs == {"base": main_tip, "head": topic_tip}
    assert git("rev-parse", "--is-shallow-repository", cwd=clone) == "false"
    assert git("merge-base", main_tip, topic_tip, cwd=clone) == fork


def test_refs_fail_loudly_on_unrelated_histories(tmp_path: Path) -> None:
    origin, _, main_tip, _ = diverged_origin(tmp_path / "origin", shared=2, ahead=1)
    repository: pygit2.Repository = origin.repository
    signature = pygit2.Signature("Test", "test@example.com", time=1700000000, offset=0)
    tree = repository.revparse_single("main").peel(pygit2.Commit).tree_id
    orphan = str(repository.create_commit("refs/heads/orphan", signature, signature, "orphan", tree, []))
    clone = tmp_path / "clone"
    git("clone", "--quiet", origin.path.as_uri(), str(clone), cwd=tmp_path)

    process, outputs = run_script("refs", {"BASE": main_tip, "HEAD": orphan}, clone, tmp_path)

    assert process.returncode == 2
    assert f"::error title=impactbot::{main_tip} and {orphan} have no common ancestor." in (process.stdout)
    assert outputs == {}


def test_refs_report_a_commit_origin_does_not_have(tmp_path: Path) -> None:
    origin, _, main_tip, _ = diverged_origin(tmp_path / "origin", shared=2, ahead=1)
    clone = tmp_path / "clone"
    git("clone", "--quiet", origin.path.as_uri(), str(clone), cwd=tmp_path)

    process, _ = run_script("refs", {"BASE": main_tip, "HEAD": "f" * 40}, clone, tmp_path)

    assert process.returncode == 2
    assert f"Could not fetch the head commit '{'f' * 40}' from origin." in process.stdout


STUB = """#!{python}
import json, os, sys
args = sys.argv[1:]
with open(os.environ["STUB_ARGV"], "w") as handle:
    json.dump(args, handle)
report = {{"changed": [{{}}, {{}}], "impacted": [{{}}, {{}}, {{}}], "tests": [], "breaking": [{{}}]}}
with open(args[args.index("-o") + 1], "w") as handle:
    json.dump(report, handle)
sys.exit(int(os.environ["STUB_EXIT"]))
"""


def run_analyse(tmp_path: Path, **overrides: str) -> tuple[subprocess.CompletedProcess[str], dict[str, str], list[str]]:
    stub = tmp_path / "impactbot"
    stub.write_text(STUB.format(python=sys.executable), encoding="utf-8")
    stub.chmod(0o755)
    env = {
        "IMPACTBOT": str(stub),
        "PYTHON": sys.executable,
        "STUB_ARGV": str(tmp_path / "argv"),
        "STUB_EXIT": "0",
        "GITHUB_TOKEN": "ghs_x",
        "BASE_SHA": "a" * 40,
        "HEAD_SHA": "b" * 40,
        "POST_COMMENT": "true",
        "SUMMARY": "true",
        "NO_IMPACT": "update",
        "DEPTH": "3",
        "HUB_CAP": "25",
        "SEMANTIC": "true",
        "FAIL_ON": "",
        "EXTRA_ARGS": "",
        **overrides,
    }
    process, outputs = run_script("run", env, tmp_path, tmp_path)
    argv = json.loads((tmp_path / "argv").read_text())
    return process, outputs, argv


def test_analyse_passes_the_inputs_as_arguments_and_counts_the_report(tmp_path: Path) -> None:
    process, outputs, argv = run_analyse(tmp_path)
    report = str(tmp_path / "impactbot-report.json")

    assert process.returncode == 0, process.stderr
    assert argv == [
        "diff",
        f"{'a' * 40}...{'b' * 40}",
        "--config-from-base",
        "--format",
        "json",
        "-o",
        report,
        "--no-impact",
        "update",
        "--depth",
        "3",
        "--hub-cap",
        "25",
        "--cache-dir",
        str(tmp_path / "impactbot-cache"),
        "--github-comment",
        "--github-summary",
        "--semantic",
    ]
    assert outputs == {"report": report, "changed": "2", "impacted": "3", "tests": "0", "breaking": "1"}


def test_analyse_optional_flags_and_extra_args_are_never_evaluated(tmp_path: Path) -> None:
    hostile = '--exclude "$(touch pwned)" `touch pwned2` *.py'

    process, _, argv = run_analyse(
        tmp_path, POST_COMMENT="false", SUMMARY="false", SEMANTIC="false", FAIL_ON="breaking", EXTRA_ARGS=hostile
    )

    assert process.returncode == 0, process.stderr
    assert argv[-9:] == [
        "--no-semantic",
        "--fail-on",
        "breaking",
        "--exclude",
        '"$(touch',
        'pwned)"',
        "`touch",
        "pwned2`",
        "*.py",
    ]
    assert "--github-comment" not in argv
    assert "--github-summary" not in argv
    assert not (tmp_path / "pwned").exists()
    assert not (tmp_path / "pwned2").exists()


def test_analyse_keeps_the_outputs_when_a_gate_trips(tmp_path: Path) -> None:
    process, outputs, _ = run_analyse(tmp_path, STUB_EXIT="1", FAIL_ON="breaking")

    assert process.returncode == 1
    assert outputs["breaking"] == "1"


# -------------------------------------------------------------------- workflows


def doc_workflows() -> list[dict[Any, Any]]:
    text = (ROOT / "docs" / "workflows.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, flags=re.DOTALL)
    return [yaml.safe_load(block) for block in blocks if "\njobs:" in block]


def example_workflows() -> list[dict[Any, Any]]:
    own = yaml.safe_load((ROOT / ".github" / "workflows" / "impactbot.yml").read_text())
    return [own, *doc_workflows()]


def test_the_docs_hold_the_plain_and_the_fork_safe_workflows() -> None:
    names = [w["name"] for w in doc_workflows()]

    assert names == ["impactbot", "impactbot analyse", "impactbot comment"]


def test_the_documented_plain_workflow_is_the_own_one_with_the_published_action() -> None:
    own, documented = example_workflows()[:2]
    [step] = [s for s in documented["jobs"]["impact"]["steps"] if s.get("id") == "impactbot"]
    step["uses"] = "./"

    assert documented == own


def test_example_workflows_never_use_pull_request_target() -> None:
    for workflow in example_workflows():
        assert "pull_request_target" not in triggers(workflow), workflow["name"]
    pull_request_workflows = [w for w in example_workflows() if "pull_request" in triggers(w)]
    assert len(pull_request_workflows) == 3


def test_example_workflows_ask_for_the_least_permissions() -> None:
    for workflow in example_workflows():
        permissions = workflow["permissions"]
        assert permissions["contents"] == "read", workflow["name"]
        commenting = workflow["name"] in {"impactbot", "impactbot comment"}
        assert (permissions.get("pull-requests") == "write") == commenting, workflow["name"]


def test_pull_request_workflows_run_once_per_pull_request() -> None:
    for workflow in example_workflows():
        if "pull_request" in triggers(workflow):
            group = workflow["concurrency"]["group"]
            assert "github.event.pull_request.number" in group, workflow["name"]
            assert workflow["concurrency"]["cancel-in-progress"] is True


def test_the_own_example_uses_this_action_and_comments_only_on_own_branches() -> None:
    own = example_workflows()[0]
    [action_step] = [s for s in own["jobs"]["impact"]["steps"] if s.get("uses") == "./"]

    assert triggers(own)["pull_request"]["types"][-1] == "ready_for_review"
    assert action_step["with"]["comment"] == (
        "${{ github.event.pull_request.head.repo.full_name == github.repository }}"
    )


def test_ci_runs_ruff_and_make_test_on_python_311() -> None:
    ci = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text())
    [job] = ci["jobs"].values()
    commands = [s["run"] for s in job["steps"] if "run" in s]
    [python] = [s for s in job["steps"] if s.get("uses") == "actions/setup-python@v5"]

    assert set(triggers(ci)) == {"push", "pull_request"}
    assert job["runs-on"] == "ubuntu-latest"
    assert python["with"]["python-version"] == "3.11"
    assert "ruff check ." in commands
    assert "make test" in commands
