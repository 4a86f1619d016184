"""The impactbot rows against the real CLI, on a small generated repository."""

from __future__ import annotations

from pathlib import Path

from perf import gitrepo, runs
from perf.scripted_pr import script_pull_request
from perf.tests.corpus import generated


def test_cold_warm_incremental_rows_parse_what_each_should(tmp_path: Path) -> None:
    files = generated(modules=10)
    pr = script_pull_request(files, seed=1)
    built = gitrepo.build(tmp_path / "repo", "generated", files, pr)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    log = runs.Log("generated")

    rows = runs.impactbot_rows(built.path, scratch, repeat=2, semantic=False, log=log)

    assert log.crashes == []
    parsed = {row.name: row.files_parsed for row in rows}
    assert parsed == {
        "cold": str(len(files) + len(pr.feature.files)),
        "warm": "0",
        "incremental": str(len(pr.followup.files)),
    }
    assert all(row.seconds and row.peak_rss_mib for row in rows)


def test_a_failing_run_is_a_crash_row_and_the_rest_is_skipped(tmp_path: Path) -> None:
    files = generated(modules=6)
    built = gitrepo.build(tmp_path / "repo", "generated", files, script_pull_request(files, seed=1))
    bot = runs.Impactbot(built.path, tmp_path)
    log = runs.Log("generated")
    step = runs.Step("cold", "main..no-such-branch", False, lambda _: tmp_path / "cache")

    row = runs.run_step(bot, step, repeat=3, log=log)

    assert row.crashed and row.seconds is None
    assert row.problem is not None and row.problem.startswith("failed: exit 2: ")
    assert len(log.crashes) == 1
