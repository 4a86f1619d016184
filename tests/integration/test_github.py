"""Publishing over real HTTP: PyGithub against a local fake GitHub API, and the runner files."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers.fake_github import (  # the fixture is registered by importing it
    BOT_LOGIN,
    OTHER_LOGIN,
    REPOSITORY,
    TOKEN,
    FakeGitHub,
    fake_github_fixture,  # noqa: F401
    running_fake_github,
)

from impactbot.errors import CannotPostComment, ConfigError, UsageError
from impactbot.github import (
    COMMENT_LIMIT,
    MARKER,
    GitHubContext,
    fetch_pull_request,
    post_sticky_comment,
    pr_is_draft,
)
from impactbot.publish import (
    SUMMARY_LIMIT,
    write_github_outputs,
    write_output,
    write_step_summary,
)

PR = 7
REPORT = f"{MARKER}\n### impactbot: 2 changed, 5 impacted, 3 tests\n"
NO_IMPACT = f"{MARKER}\n### impactbot: no impact\n"
FORK_MESSAGE = (
    "GitHub refused to post the comment (403): the token lacks `pull-requests: write`; "
    "on pull requests from forks GitHub grants a read-only token - see the fork-safe "
    "workflow in the README."
)


def context(fake: FakeGitHub, pr: int | None = PR, token: str = TOKEN) -> GitHubContext:
    return GitHubContext(token=token, repository=REPOSITORY, api_url=fake.api_url, pr=pr, pace_requests=False)


def bodies(fake: FakeGitHub, login: str = BOT_LOGIN) -> list[str]:
    return [c.body for c in fake.comments_on(PR) if c.login == login]


def environ_for(fake: FakeGitHub, **extra: str) -> dict[str, str]:
    return {"GITHUB_TOKEN": TOKEN, "GITHUB_REPOSITORY": REPOSITORY, "GITHUB_API_URL": fake.api_url, **extra}


def write_event(tmp_path: Path, payload: object) -> str:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ sticky comment


def test_first_run_creates_the_comment_and_the_second_updates_it(fake_github: FakeGitHub) -> None:
    ctx = context(fake_github)

    assert post_sticky_comment(ctx, REPORT, has_impact=True) == "created"
    [first] = fake_github.comments_on(PR)
    assert post_sticky_comment(ctx, REPORT + "one more\n", has_impact=True) == "updated"

    [second] = fake_github.comments_on(PR)
    assert second.id == first.id
    assert second.body == REPORT + "one more\n"
    assert [r.method for r in fake_github.writes()] == ["POST", "PATCH"]


def test_other_users_comments_are_never_touched_even_with_the_marker(
    fake_github: FakeGitHub,
) -> None:
    quoted = f"{MARKER}\nI copied the bot's comment here"
    theirs = fake_github.add_comment(PR, quoted, login=OTHER_LOGIN)
    fake_github.add_comment(PR, f"see {MARKER} above", login=OTHER_LOGIN)

    assert post_sticky_comment(context(fake_github), REPORT, has_impact=True) == "created"
    assert post_sticky_comment(context(fake_github), NO_IMPACT, has_impact=False, no_impact="delete") == "deleted"

    assert bodies(fake_github, OTHER_LOGIN) == [quoted, f"see {MARKER} above"]
    assert all(not r.path.endswith(f"/comments/{theirs}") for r in fake_github.writes())


def test_a_bot_comment_without_the_marker_on_its_first_line_is_not_ours(
    fake_github: FakeGitHub,
) -> None:
    fake_github.add_comment(PR, f"Deploy preview ready\n{MARKER}")

    assert post_sticky_comment(context(fake_github), REPORT, has_impact=True) == "created"
    assert bodies(fake_github) == [f"Deploy preview ready\n{MARKER}", REPORT]


def test_several_old_comments_of_ours_collapse_into_the_newest(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(PR, f"{MARKER}\nold")
    newest = fake_github.add_comment(PR, f"{MARKER}\nolder version, newer comment")

    assert post_sticky_comment(context(fake_github), REPORT, has_impact=True) == "updated"

    assert [(c.id, c.body) for c in fake_github.comments_on(PR)] == [(newest, REPORT)]


def test_our_comment_is_found_past_the_first_page(fake_github: FakeGitHub) -> None:
    ours = fake_github.add_comment(PR, f"{MARKER}\nold")
    for n in range(130):
        fake_github.add_comment(PR, f"comment {n}", login=OTHER_LOGIN)
    newest = fake_github.add_comment(PR, f"{MARKER}\nlast page")

    assert post_sticky_comment(context(fake_github), REPORT, has_impact=True) == "updated"

    mine = [(c.id, c.body) for c in fake_github.comments_on(PR) if c.login == BOT_LOGIN]
    assert mine == [(newest, REPORT)]
    assert ours not in {c.id for c in fake_github.comments}
    pages = [
        r.query.get("page", ["1"])[0]
        for r in fake_github.requests
        if r.method == "GET" and r.path.endswith(f"/issues/{PR}/comments")
    ]
    assert pages == ["1", "2"]


def test_a_body_without_the_marker_gets_it_so_the_next_run_finds_it(
    fake_github: FakeGitHub,
) -> None:
    post_sticky_comment(context(fake_github), "no marker here", has_impact=True)
    post_sticky_comment(context(fake_github), "second run", has_impact=True)

    assert bodies(fake_github) == [f"{MARKER}\nsecond run"]


def test_an_oversized_body_is_cut_to_githubs_limit(fake_github: FakeGitHub) -> None:
    post_sticky_comment(context(fake_github), REPORT + "x" * 100_000, has_impact=True)

    [body] = bodies(fake_github)
    assert len(body) <= COMMENT_LIMIT
    assert body.startswith(REPORT)
    assert body.rstrip().endswith("see the job summary.")


# ----------------------------------------------------------------------- no impact


def test_no_impact_delete_removes_ours(fake_github: FakeGitHub) -> None:
    post_sticky_comment(context(fake_github), REPORT, has_impact=True)

    outcome = post_sticky_comment(context(fake_github), NO_IMPACT, has_impact=False, no_impact="delete")

    assert outcome == "deleted"
    assert fake_github.comments_on(PR) == []


def test_no_impact_delete_with_nothing_posted_is_skipped(fake_github: FakeGitHub) -> None:
    outcome = post_sticky_comment(context(fake_github), NO_IMPACT, has_impact=False, no_impact="delete")

    assert outcome == "skipped"
    assert fake_github.writes() == []


def test_no_impact_update_posts_the_no_impact_body(fake_github: FakeGitHub) -> None:
    assert post_sticky_comment(context(fake_github), NO_IMPACT, has_impact=False, no_impact="update") == "created"
    assert post_sticky_comment(context(fake_github), REPORT, has_impact=True) == "updated"

    assert bodies(fake_github) == [REPORT]


def test_no_impact_skip_posts_nothing_new(fake_github: FakeGitHub) -> None:
    outcome = post_sticky_comment(context(fake_github), NO_IMPACT, has_impact=False, no_impact="skip")

    assert outcome == "skipped"
    assert fake_github.writes() == []


def test_no_impact_skip_still_refreshes_a_stale_comment(fake_github: FakeGitHub) -> None:
    post_sticky_comment(context(fake_github), REPORT, has_impact=True)

    outcome = post_sticky_comment(context(fake_github), NO_IMPACT, has_impact=False, no_impact="skip")

    assert outcome == "updated"
    assert bodies(fake_github) == [NO_IMPACT]


def test_an_unknown_no_impact_policy_is_a_config_error(fake_github: FakeGitHub) -> None:
    with pytest.raises(ConfigError, match="--no-impact must be one of delete, update, skip"):
        post_sticky_comment(context(fake_github), REPORT, has_impact=False, no_impact="hide")  # type: ignore[arg-type]


# -------------------------------------------------------------------------- identity


def test_app_token_without_user_access_is_taken_as_the_actions_bot(
    fake_github: FakeGitHub,
) -> None:
    fake_github.forbid_user = True
    existing = fake_github.add_comment(PR, f"{MARKER}\nold", login=BOT_LOGIN)

    assert post_sticky_comment(context(fake_github), REPORT, has_impact=True) == "updated"

    assert [(c.id, c.body) for c in fake_github.comments_on(PR)] == [(existing, REPORT)]
    assert any(r.path == "/user" for r in fake_github.requests)


def test_a_personal_token_only_manages_that_users_comments(fake_github: FakeGitHub) -> None:
    fake_github.tokens["ghp_personal"] = "release-bot"
    bot_comment = f"{MARKER}\nposted by the Actions token"
    fake_github.add_comment(PR, bot_comment, login=BOT_LOGIN)

    post_sticky_comment(context(fake_github, token="ghp_personal"), REPORT, has_impact=True)

    assert bodies(fake_github, BOT_LOGIN) == [bot_comment]
    assert bodies(fake_github, "release-bot") == [REPORT]


# --------------------------------------------------------------------------- refusals


def test_a_read_only_token_gets_the_fork_message(fake_github: FakeGitHub) -> None:
    fake_github.forbid_writes = True

    with pytest.raises(CannotPostComment) as caught:
        post_sticky_comment(context(fake_github), REPORT, has_impact=True)

    assert str(caught.value) == FORK_MESSAGE
    assert caught.value.exit_code == 3
    assert fake_github.comments_on(PR) == []


def test_other_http_errors_name_the_status_and_githubs_message(fake_github: FakeGitHub) -> None:
    fake_github.fail_writes = (422, "Validation Failed")

    with pytest.raises(CannotPostComment) as caught:
        post_sticky_comment(context(fake_github), REPORT, has_impact=True)

    assert str(caught.value) == ("GitHub answered 422 while posting the comment: Validation Failed")


def test_an_unknown_pull_request_is_named(fake_github: FakeGitHub) -> None:
    with pytest.raises(CannotPostComment, match=r"could not find pull request #99 in octo/widgets"):
        post_sticky_comment(context(fake_github, pr=99), REPORT, has_impact=True)


def test_a_bad_token_is_reported_without_revealing_it(fake_github: FakeGitHub) -> None:
    with pytest.raises(CannotPostComment) as caught:
        post_sticky_comment(context(fake_github, token="ghp_wrongToken123"), REPORT, has_impact=True)

    assert str(caught.value) == ("GitHub rejected the token (401 Bad credentials); check GITHUB_TOKEN.")


def test_an_unreachable_api_is_a_one_line_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ctx = GitHubContext(
        token=TOKEN, repository=REPOSITORY, api_url=f"http://127.0.0.1:{port}", pr=PR, pace_requests=False
    )

    with pytest.raises(CannotPostComment) as caught:
        post_sticky_comment(ctx, REPORT, has_impact=True)

    message = str(caught.value)
    assert message.startswith(f"Could not reach the GitHub API at http://127.0.0.1:{port}: ")
    assert "\n" not in message
    assert TOKEN not in message


def test_a_missing_pr_number_is_a_config_error(fake_github: FakeGitHub) -> None:
    with pytest.raises(ConfigError, match="pass --pr NUMBER"):
        post_sticky_comment(context(fake_github, pr=None), REPORT, has_impact=True)


def test_the_token_never_leaks_into_messages_logs_or_repr(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="github")
    ctx = context(fake_github)
    post_sticky_comment(ctx, REPORT, has_impact=True)
    fake_github.forbid_writes = True
    with pytest.raises(CannotPostComment) as refused:
        post_sticky_comment(ctx, REPORT + "changed\n", has_impact=True)
    with pytest.raises(ConfigError) as misconfigured:
        GitHubContext.from_environ({"GITHUB_TOKEN": TOKEN, "GITHUB_REPOSITORY": "nope"}, pr=1)

    # PyGithub logged every request with its headers (masked), so there was a chance to leak
    assert any("Authorization" in r.getMessage() for r in caplog.records if r.name == "github.Requester")
    logged = "\n".join(f"{r.getMessage()} {r.args!r}" for r in caplog.records)
    for text in (str(refused.value), str(misconfigured.value), repr(ctx), str(ctx), logged):
        assert TOKEN not in text
    assert fake_github.requests[0].headers["Authorization"] == f"token {TOKEN}"


# ------------------------------------------------------------------ context from env


def test_the_pr_number_comes_from_a_pull_request_event(tmp_path: Path) -> None:
    event = write_event(tmp_path, {"action": "synchronize", "pull_request": {"number": 42}})

    ctx = GitHubContext.from_environ(
        {"GITHUB_TOKEN": TOKEN, "GITHUB_REPOSITORY": REPOSITORY, "GITHUB_EVENT_PATH": event}
    )

    assert (ctx.repository, ctx.api_url, ctx.pr) == (REPOSITORY, "https://api.github.com", 42)


def test_the_pr_number_comes_from_an_issue_comment_on_a_pull_request(tmp_path: Path) -> None:
    event = write_event(tmp_path, {"issue": {"number": 9, "pull_request": {"url": "x"}}})

    ctx = GitHubContext.from_environ(
        {"GITHUB_TOKEN": TOKEN, "GITHUB_REPOSITORY": REPOSITORY, "GITHUB_EVENT_PATH": event}
    )

    assert ctx.pr == 9


def test_an_explicit_pr_wins_over_the_event(tmp_path: Path) -> None:
    event = write_event(tmp_path, {"pull_request": {"number": 42}})

    ctx = GitHubContext.from_environ(
        {"GITHUB_TOKEN": TOKEN, "GITHUB_REPOSITORY": REPOSITORY, "GITHUB_EVENT_PATH": event}, pr=5
    )

    assert ctx.pr == 5


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ({"ref": "refs/heads/main"}, "the GitHub event (GITHUB_EVENT_PATH) is not about a pull"),
        ({"issue": {"number": 3}}, "the issue_comment event is on issue #3, which is not a pull"),
        ({"pull_request": {"number": "7"}}, "is not about a pull request; pass --pr NUMBER"),
    ],
)
def test_events_without_a_pull_request_ask_for_pr(tmp_path: Path, payload: object, expected: str) -> None:
    environ = {
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_REPOSITORY": REPOSITORY,
        "GITHUB_EVENT_PATH": write_event(tmp_path, payload),
    }

    with pytest.raises(ConfigError, match=re.escape(expected)) as caught:
        GitHubContext.from_environ(environ)

    assert "--pr" in str(caught.value)


def test_an_unreadable_or_broken_event_file_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    base = {"GITHUB_TOKEN": TOKEN, "GITHUB_REPOSITORY": REPOSITORY}

    with pytest.raises(ConfigError, match=r"broken.json \(GITHUB_EVENT_PATH\) is not valid JSON"):
        GitHubContext.from_environ({**base, "GITHUB_EVENT_PATH": str(broken)})
    with pytest.raises(ConfigError, match=r"cannot read the GitHub event file .*missing.json"):
        GitHubContext.from_environ({**base, "GITHUB_EVENT_PATH": str(tmp_path / "missing.json")})


def test_every_missing_setting_is_reported_at_once() -> None:
    with pytest.raises(ConfigError) as caught:
        GitHubContext.from_environ({"GITHUB_API_URL": "ftp://example"})

    message = str(caught.value)
    assert message.startswith("GITHUB_TOKEN is not set")
    assert "GITHUB_REPOSITORY must be OWNER/NAME, got empty" in message
    assert "GITHUB_API_URL must be an http(s) URL, got 'ftp://example'" in message
    assert "pass --pr NUMBER" in message
    assert "\n" not in message


def test_github_api_url_is_honoured_enterprise_style(tmp_path: Path) -> None:
    event = write_event(tmp_path, {"pull_request": {"number": PR}})
    with running_fake_github(prefix="/api/v3") as fake:
        ctx = GitHubContext.from_environ(environ_for(fake, GITHUB_API_URL=fake.api_url + "/", GITHUB_EVENT_PATH=event))

        outcome = post_sticky_comment(ctx, REPORT, has_impact=True)

        assert ctx.api_url == f"http://127.0.0.1:{fake.port}/api/v3"
        assert outcome == "created"
        assert bodies(fake) == [REPORT]
        assert fake.requests
        assert not any(r.path.startswith("/<outside-prefix>") for r in fake.requests)


def test_requests_are_paced_unless_turned_off(fake_github: FakeGitHub) -> None:
    ctx = GitHubContext.from_environ(environ_for(fake_github), pr=PR)

    assert ctx.pace_requests is True
    assert post_sticky_comment(dataclasses.replace(ctx, pace_requests=False), REPORT, has_impact=True) == "created"


def test_the_draft_flag_and_head_are_read(fake_github: FakeGitHub) -> None:
    fake_github.pulls[PR].draft = True

    state = fetch_pull_request(context(fake_github))

    assert pr_is_draft(context(fake_github)) is True
    assert (state.number, state.draft, state.head_sha) == (PR, True, "1" * 40)
    fake_github.pulls[PR].draft = False
    assert pr_is_draft(context(fake_github)) is False


# ------------------------------------------------------------------- runner files


def test_write_output_writes_the_file_atomically_in_utf8(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    target.write_text("old", encoding="utf-8")

    write_output("changed ← caller", target)

    assert target.read_bytes() == "changed ← caller\n".encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"]


def test_write_output_goes_to_stdout_without_a_path(capsys: pytest.CaptureFixture[str]) -> None:
    write_output('{"schema": "impactbot/impact-report@1"}\n', None)

    assert capsys.readouterr().out == '{"schema": "impactbot/impact-report@1"}\n'


def test_write_output_into_a_missing_directory_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"Cannot write .*nowhere.*report.json"):
        write_output("{}", tmp_path / "nowhere" / "report.json")


def test_step_summary_is_appended_when_the_runner_provides_it(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("# earlier step\n", encoding="utf-8")

    assert write_step_summary("## impactbot\n", {"GITHUB_STEP_SUMMARY": str(summary)}) is True
    assert write_step_summary("## impactbot\n", {}) is False

    assert summary.read_text(encoding="utf-8") == "# earlier step\n## impactbot\n"


def test_step_summary_is_truncated_below_one_mebibyte(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    rows = "".join(f"| `pkg/m{n}.py::f` | → {n} |\n" for n in range(60_000))
    markdown = f"## impactbot\n<details><summary>all</summary>\n\n```text\n{rows}"

    assert write_step_summary(markdown, {"GITHUB_STEP_SUMMARY": str(summary)}) is True

    data = summary.read_bytes()
    text = data.decode("utf-8")
    assert len(markdown.encode()) > SUMMARY_LIMIT
    assert SUMMARY_LIMIT - 4096 < len(data) < SUMMARY_LIMIT
    assert text.startswith("## impactbot\n<details>")
    assert "truncated to fit GitHub's 1 MiB limit" in text
    assert text.count("```") % 2 == 0
    assert text.count("<details") == text.count("</details>")
    body = text.split("```text\n", 1)[1].split("```\n", 1)[0]
    assert all(line.endswith("|") for line in body.splitlines())


def test_step_summary_counts_what_the_step_already_wrote(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_bytes(b"x" * (SUMMARY_LIMIT - 10_000) + b"\n")

    write_step_summary("line\n" * 4_000, {"GITHUB_STEP_SUMMARY": str(summary)})

    assert summary.stat().st_size < SUMMARY_LIMIT
    assert summary.read_text(encoding="utf-8").endswith("the JSON report has everything.\n")


def parse_github_output(text: str) -> dict[str, str]:
    """Read a GITHUB_OUTPUT file the way the Actions runner does."""
    values: dict[str, str] = {}
    lines = iter(text.split("\n"))
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            collected = []
            for value_line in lines:
                if value_line == delimiter:
                    break
                collected.append(value_line)
            else:
                raise AssertionError(f"unterminated value for {name}")
            values[name] = "\n".join(collected)
        elif line:
            name, value = line.split("=", 1)
            values[name] = value
    return values


def test_github_outputs_survive_multiline_values(tmp_path: Path) -> None:
    outputs = tmp_path / "output.txt"
    outputs.write_text("earlier=1\n", encoding="utf-8")
    tricky = "first line\nghadelimiter_x\nsecond=2\nthird<<EOF"

    written = write_github_outputs(
        {"report": "/tmp/r.json", "impacted": 23, "tests": "a\nb", "notes": tricky},
        {"GITHUB_OUTPUT": str(outputs)},
    )

    assert written is True
    assert parse_github_output(outputs.read_text(encoding="utf-8")) == {
        "earlier": "1",
        "report": "/tmp/r.json",
        "impacted": "23",
        "tests": "a\nb",
        "notes": tricky,
    }


def test_github_outputs_need_the_runner(tmp_path: Path) -> None:
    assert write_github_outputs({"changed": 1}, {}) is False
    with pytest.raises(ValueError, match="invalid GitHub output name"):
        write_github_outputs({"bad name": 1}, {"GITHUB_OUTPUT": str(tmp_path / "o")})


# -------------------------------------------------- the fork-safe workflow's script


def comment_step_script() -> str:
    """The `Post the comment` script of the fork-safe workflow in docs/workflows.md."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "workflows.md").read_text("utf-8")
    blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", text, flags=re.DOTALL)]
    [workflow] = [b for b in blocks if isinstance(b, dict) and b.get("name") == "impactbot comment"]
    [script] = [s["run"] for s in workflow["jobs"]["comment"]["steps"] if s.get("name") == "Post the comment"]
    return str(script)


def run_comment_step(
    fake: FakeGitHub, tmp_path: Path, pr_number: str, head_sha: str
) -> subprocess.CompletedProcess[str]:
    artifact = tmp_path / "impactbot-out"
    artifact.mkdir()
    (artifact / "pr-number").write_text(pr_number + "\n", encoding="utf-8")
    (artifact / "comment.md").write_text(REPORT, encoding="utf-8")
    report = {"status": "complete", "impacted": [{"id": "a.py::f"}], "tests": [], "breaking": []}
    (artifact / "report.json").write_text(json.dumps(report), encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    env = {
        **environ_for(fake),
        "HEAD_SHA": head_sha,
        "PYTHONPATH": str(root),
        "HOME": str(tmp_path),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    return subprocess.run(
        ["bash", "-e", "-c", comment_step_script()],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_fork_safe_workflow_posts_the_artifacts_comment(fake_github: FakeGitHub, tmp_path: Path) -> None:
    process = run_comment_step(fake_github, tmp_path, "7", fake_github.pulls[PR].head_sha)

    assert process.returncode == 0, process.stderr
    assert process.stdout.strip() == "created"
    assert bodies(fake_github) == [REPORT]


def test_the_fork_safe_workflow_ignores_an_artifact_for_another_commit(fake_github: FakeGitHub, tmp_path: Path) -> None:
    process = run_comment_step(fake_github, tmp_path, "7", "f" * 40)

    assert process.returncode == 0, process.stderr
    assert "has new commits since this analysis; not commenting" in process.stdout
    assert fake_github.writes() == []


def test_the_fork_safe_workflow_rejects_a_forged_pr_number(fake_github: FakeGitHub, tmp_path: Path) -> None:
    process = run_comment_step(fake_github, tmp_path, "7; touch pwned", "1" * 40)

    assert process.returncode == 1
    assert "the artifact's pull request number is not a number: '7; touch pwned'" in process.stderr
    assert fake_github.requests == []
    assert not (tmp_path / "pwned").exists()


def test_write_output_to_a_special_file_writes_through_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    write_output("through the pipe", fifo)
    out, _ = reader.communicate(timeout=10)
    assert out == b"through the pipe\n"
    assert fifo.exists() and not fifo.is_file()  # still a pipe, not replaced by a regular file
