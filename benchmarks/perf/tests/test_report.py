from __future__ import annotations

from perf.measure import ChildRun
from perf.report import CorpusResult, ratios_line, table, targets_line
from perf.runs import Outcome, Row, _semantic_unavailable, files_parsed


def _result(*rows: Row) -> CorpusResult:
    return CorpusResult(
        name="django",
        label="django==5.1.4",
        files=800,
        megabytes=5.5,
        pull_request="PR: feature 12 functions in 7 files; feature2 3 functions in 2 files",
        repeat=3,
        rows=(Row("floor", 2.0, 40.0, "800", runs=3), *rows),
    )


def test_table_shows_ratio_to_floor_and_throughput() -> None:
    lines = table(_result(Row("cold", 3.0, 300.0, "806", runs=3))).splitlines()
    assert lines[0] == "django: django==5.1.4, 800 .py files, 5.5 MB; median of 3"
    assert lines[3].split() == ["floor", "2.000", "1.00x", "400", "40", "800"]
    assert lines[4].split() == ["cold", "3.000", "1.50x", "267", "300", "806"]


def test_a_row_measured_fewer_times_says_so() -> None:
    lines = table(_result(Row("cold (semantic)", 90.0, 900.0, "806", runs=1))).splitlines()
    assert lines[4].startswith("cold (semantic) [1 run]   ")
    assert lines[4].split()[4:] == ["90.000", "45.00x", "9", "900", "806"]


def test_a_row_without_numbers_shows_why() -> None:
    lines = table(_result(Row("warm", problem="failed: exit 3: boom", crashed=True))).splitlines()
    assert lines[-1] == "warm" + " " * 20 + "failed: exit 3: boom"


def test_ratios_and_targets_lines() -> None:
    result = _result(
        Row("cold", 3.0, 300.0, "806"),
        Row("warm", 0.6, 120.0, "0"),
        Row("incremental", 0.7, 1100.0, "2"),
    )
    assert ratios_line(result) == "ratios: cold=1.50x warm=0.30x incremental=0.35x"
    assert targets_line(result) == (
        "targets (django): cold <= 2.00x met; warm <= 0.25x MISSED; "
        "incremental <= 0.40x met; peak RSS < 1 GiB MISSED (1100 MiB, incremental)"
    )


def test_missing_rows_are_never_counted_as_met() -> None:
    result = _result(Row("cold", problem="failed: exit 3", crashed=True))
    assert ratios_line(result) == "ratios: cold=n/a warm=n/a incremental=n/a"
    assert "cold <= 2.00x n/a" in targets_line(result)
    assert targets_line(result).endswith("peak RSS < 1 GiB n/a")


def _outcome(returncode: int, stderr: str, report: dict[str, object] | None = None) -> Outcome:
    run = ChildRun(("impactbot",), returncode, 1.0, 50.0, "", stderr)
    return Outcome(run, report)


def test_model_failures_are_not_available_other_failures_are_crashes() -> None:
    no_model = _outcome(3, "impactbot: cannot load the model 'all-MiniLM-L6-v2': no weights\n")
    assert _semantic_unavailable(no_model) == "impactbot: cannot load the model 'all-MiniLM-L6-v2': no weights"
    bug = _outcome(3, "impactbot: unexpected error: KeyError: 'x'. This is a bug\n")
    assert _semantic_unavailable(bug) is None
    fallback = _outcome(0, "", {"ranking": "structural", "notes": ["model 'm' could not be loaded"]})
    assert _semantic_unavailable(fallback) == (
        "impactbot fell back to structural ranking: model 'm' could not be loaded"
    )
    assert _semantic_unavailable(_outcome(0, "", {"ranking": "structural", "notes": []})) is None
    assert _semantic_unavailable(_outcome(0, "", {"ranking": "semantic"})) is None


def test_files_parsed_is_read_from_the_report_stats() -> None:
    assert files_parsed({"stats": {"files_parsed": 12, "files_cached": 3}}) == 12
    assert files_parsed({"stats": {}}) is None
    assert files_parsed({}) is None
