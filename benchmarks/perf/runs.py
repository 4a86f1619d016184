"""The measured runs of one corpus: floor, cold, warm, incremental, and semantic rows.

Each run is a fresh child process, repeated; a row keeps the median time and
the highest peak memory of its repeats. A failed child never stops the
benchmark: its row says what failed, its stderr tail is printed, and the rows
that need its cache are skipped.
"""

from __future__ import annotations

import compileall
import json
import os
import re
import shutil
import statistics
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .measure import ChildRun, run_child

PROJECT_ROOT = Path(__file__).resolve().parents[2]
FLOOR_SCRIPT = Path(__file__).resolve().with_name("floor.py")
CHILD_TIMEOUT_SECONDS = 600.0
# Four times the 1 GiB target: far enough to measure a miss, near enough that a
# runaway run is stopped before the OOM killer picks a process on this shared machine.
MEMORY_CAP_MIB = 4096.0
# A run slower than this is not repeated: one such run already says the target
# is far off, and three of each on the stdlib would take make bench past 15 minutes.
SLOW_RUN_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a corpus table."""

    name: str
    seconds: float | None = None  # median over the repeats
    peak_rss_mib: float | None = None  # highest over the repeats
    files_parsed: str | None = None  # one value, or "min-max" when repeats differ
    problem: str | None = None  # why there are no numbers ("failed: ...", "n/a: ...")
    crashed: bool = False  # the problem is a failure, not a known limitation
    runs: int = 0  # how many repeats the numbers come from


@dataclass(slots=True)
class Log:
    """Progress and failure output, to stderr so that stdout holds only the tables."""

    corpus: str
    crashes: list[str] = field(default_factory=list)

    def progress(self, text: str) -> None:
        print(f"[{self.corpus}] {text}", file=sys.stderr, flush=True)

    def crash(self, what: str, run: ChildRun | None, reason: str) -> None:
        self.crashes.append(f"{self.corpus} {what}: {reason}")
        self.progress(f"{what} FAILED: {reason}")
        if run is not None and run.stderr.strip():
            tail = "\n".join("    " + line for line in run.stderr_tail().splitlines())
            print(f"  stderr (last lines):\n{tail}", file=sys.stderr, flush=True)


def child_environment() -> dict[str, str]:
    """The environment for impactbot children: this checkout first, no user overrides."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("IMPACTBOT_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PROJECT_ROOT), env.get("PYTHONPATH", "")) if p)
    # The model ships inside a package; a hub lookup could only hang on this network.
    env["HF_HUB_OFFLINE"] = "1"
    env["TRANSFORMERS_OFFLINE"] = "1"
    return env


def impactbot_problem(cwd: Path) -> str | None:
    """None when ``python -m impactbot diff --help`` works, else why not.

    First compiles the package's bytecode, as ``pip install`` does for an
    installed package: a checkout (editable install), run with
    PYTHONDONTWRITEBYTECODE set, would otherwise compile every module from
    source in every measured run.
    """
    compileall.compile_dir(str(PROJECT_ROOT / "impactbot"), quiet=1)
    run = run_child(
        [sys.executable, "-m", "impactbot", "diff", "--help"],
        cwd=cwd,
        env=child_environment(),
        timeout=120,
    )
    if run.ok:
        return None
    last = (run.stderr.strip().splitlines() or [f"exit {run.returncode}"])[-1]
    return f"impactbot CLI not usable ({last})"


def _median_row(name: str, runs: list[ChildRun], parsed: list[int]) -> Row:
    shown = str(parsed[0]) if len(set(parsed)) == 1 else f"{min(parsed)}-{max(parsed)}"
    return Row(
        name=name,
        seconds=statistics.median(r.seconds for r in runs),
        peak_rss_mib=max(r.peak_rss_mib for r in runs),
        files_parsed=shown if parsed else None,
        runs=len(runs),
    )


def _failure_reason(run: ChildRun) -> str:
    if run.over_memory_cap:
        return f"killed: its memory passed {MEMORY_CAP_MIB:.0f} MiB after {run.seconds:.0f} s"
    if run.timed_out:
        return f"timed out after {run.seconds:.0f} s"
    last = (run.stderr.strip().splitlines() or ["no output on stderr"])[-1]
    return f"exit {run.returncode}: {last}"


# ----------------------------------------------------------------------- floor


def floor_row(repo: Path, repeat: int, log: Log) -> Row:
    """Parse every .py blob at ``feature`` with tree-sitter, nothing else."""
    runs, parsed = [], []
    for i in range(repeat):
        argv = [sys.executable, str(FLOOR_SCRIPT), str(repo), "feature"]
        run = run_child(argv, cwd=repo, timeout=CHILD_TIMEOUT_SECONDS, memory_cap_mib=MEMORY_CAP_MIB)
        if not run.ok:
            log.crash("floor", run, _failure_reason(run))
            return Row("floor", problem="failed: " + _failure_reason(run), crashed=True)
        files = int(json.loads(run.stdout)["files"])
        log.progress(f"floor {i + 1}/{repeat}: {run.seconds:.2f} s, {run.peak_rss_mib:.0f} MiB")
        runs.append(run)
        parsed.append(files)
    return _median_row("floor", runs, parsed)


# ------------------------------------------------------------------- impactbot


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished impactbot run: the child, and its report when it wrote one."""

    run: ChildRun
    report: Mapping[str, object] | None


class Impactbot:
    """Runs ``python -m impactbot diff`` in the corpus repository."""

    def __init__(self, repo: Path, scratch: Path) -> None:
        self.repo = repo
        self.scratch = scratch
        self.env = child_environment()

    def diff(self, revisions: str, cache: Path, *, semantic: bool) -> Outcome:
        out = self.scratch / "out.json"
        out.unlink(missing_ok=True)
        argv = [sys.executable, "-m", "impactbot", "diff", revisions, "--format", "json"]
        argv += ["--semantic"] if semantic else ["--no-semantic"]
        argv += ["--cache-dir", str(cache), "-o", str(out)]
        run = run_child(argv, cwd=self.repo, env=self.env, timeout=CHILD_TIMEOUT_SECONDS, memory_cap_mib=MEMORY_CAP_MIB)
        return Outcome(run, _read_report(out) if run.ok else None)


def _read_report(path: Path) -> Mapping[str, object] | None:
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return report if isinstance(report, dict) else None


def files_parsed(report: Mapping[str, object]) -> int | None:
    stats = report.get("stats")
    value = stats.get("files_parsed") if isinstance(stats, dict) else None
    return value if isinstance(value, int) else None


# A failure whose last line names one of these is the model not loading (no
# sentence-transformers, no weights, ...); anything else is a crash.
MODEL_WORDS = re.compile(r"(?i)\b(model|sentence[-_ ]transformers|torch|embedd\w*|semantic)\b")


def _semantic_unavailable(outcome: Outcome) -> str | None:
    """Why a semantic run did not rank semantically, when the model is what failed.

    Either impactbot stopped with an error about the model, or it wrote a
    report whose ranking fell back to "structural".
    """
    run, report = outcome.run, outcome.report
    if not run.ok:
        last = (run.stderr.strip().splitlines() or [""])[-1]
        return last if not run.timed_out and MODEL_WORDS.search(last) else None
    if report is not None and report.get("ranking") == "structural":
        # Structural ranking alone is fine (nothing to rank); a note about the model is not.
        notes = report.get("notes")
        about_model = [str(n) for n in notes if MODEL_WORDS.search(str(n))] if isinstance(notes, list) else []
        if about_model:
            return "impactbot fell back to structural ranking: " + "; ".join(about_model)
    return None


def _fresh(path: Path, copy_of: Path | None = None) -> Path:
    if path.exists():
        shutil.rmtree(path)
    if copy_of is None:
        path.mkdir(parents=True)
    else:
        shutil.copytree(copy_of, path)
    return path


@dataclass(frozen=True, slots=True)
class Step:
    """One row's repeated runs: which range, which cache before each repeat."""

    name: str
    revisions: str
    semantic: bool
    cache_for: Callable[[int], Path]


def run_step(bot: Impactbot, step: Step, repeat: int, log: Log) -> Row:
    """Repeat one impactbot run and reduce it to a row.

    Stops at the first failure, and after a first run slower than SLOW_RUN_SECONDS.
    """
    runs, parsed = [], []
    for i in range(repeat):
        outcome = bot.diff(step.revisions, step.cache_for(i), semantic=step.semantic)
        run = outcome.run
        if step.semantic and (why := _semantic_unavailable(outcome)):
            log.progress(f"{step.name}: n/a: {why}")
            return Row(step.name, problem=f"n/a: {why}")
        if not run.ok or outcome.report is None:
            reason = _failure_reason(run) if not run.ok else "exit 0 but no JSON report written"
            log.crash(step.name, run, reason)
            return Row(step.name, problem="failed: " + reason, crashed=True)
        count = files_parsed(outcome.report)
        log.progress(
            f"{step.name} {i + 1}/{repeat}: {run.seconds:.2f} s, {run.peak_rss_mib:.0f} MiB, files_parsed={count}"
        )
        runs.append(run)
        parsed += [count] if count is not None else []
        if run.seconds > SLOW_RUN_SECONDS and i + 1 < repeat:
            log.progress(f"{step.name}: over {SLOW_RUN_SECONDS:.0f} s, so not repeated")
            break
    return _median_row(step.name, runs, parsed)


def impactbot_rows(repo: Path, scratch: Path, repeat: int, semantic: bool, log: Log) -> list[Row]:
    """Cold, warm and incremental rows, then the semantic ones when asked for."""
    bot = Impactbot(repo, scratch)
    rows = _cache_rows(bot, scratch, repeat, log, semantic=False)
    if semantic:
        rows += _cache_rows(bot, scratch, repeat, log, semantic=True)
    return rows


def _cache_rows(bot: Impactbot, scratch: Path, repeat: int, log: Log, *, semantic: bool) -> list[Row]:
    suffix = " (semantic)" if semantic else ""
    tag = "semantic-" if semantic else ""

    def cold_cache(i: int) -> Path:
        return _fresh(scratch / f"{tag}cache-cold-{i}")

    cold = run_step(bot, Step("cold" + suffix, "main..feature", semantic, cold_cache), repeat, log)
    if cold.problem:
        return [cold]
    # the last cold run's cache (a slow first run is not repeated)
    warm = scratch / f"{tag}cache-cold-{max(cold.runs, 1) - 1}"
    warm_row = run_step(bot, Step("warm" + suffix, "main..feature", semantic, lambda _: warm), repeat, log)
    if semantic:
        return [cold, warm_row]
    snapshot = _fresh(scratch / "cache-warm", copy_of=warm)

    def incremental_cache(i: int) -> Path:
        # Every repeat starts from the same warm cache of main..feature.
        return _fresh(scratch / f"cache-incremental-{i}", copy_of=snapshot)

    step = Step("incremental", "main..feature2", False, incremental_cache)
    return [cold, warm_row, run_step(bot, step, repeat, log)]
