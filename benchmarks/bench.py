"""impactbot's performance benchmark (``make bench``); see benchmarks/README.md.

For each corpus: fetch it, commit it into a fresh repository with a scripted
pull request, time impactbot against the tree-sitter floor, print a table. The
run reports, it does not gate: it exits 0 when targets are missed and 1 only
when something crashed, naming what.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
import time
import traceback
from pathlib import Path

from perf import corpora, prepare, report, runs

DEFAULT_WORK = Path("/tmp/impactbot-bench")
DEFAULT_SEED = 1


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bench.py", description="Time impactbot on real corpora against a parse-only floor."
    )
    parser.add_argument("--corpus", choices=[*corpora.NAMES, "all"], default="all")
    parser.add_argument("--repeat", type=_positive, default=3, help="runs per row (median)")
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK, help="download and scratch dir")
    parser.add_argument("--no-semantic-rows", action="store_true", help="skip the runs with semantic ranking")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="picks the scripted PR")
    return parser.parse_args(argv)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def bench_corpus(name: str, options: argparse.Namespace, cli_problem: str | None, log: runs.Log) -> report.CorpusResult:
    """Set up one corpus, measure every row, and return its table's data."""
    prepared = prepare.in_fresh_process(name, options.work, options.seed)
    scratch = options.work / "runs" / name
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    rows = [runs.floor_row(prepared.repo, options.repeat, log)]
    if cli_problem is None:
        semantic = not options.no_semantic_rows
        rows += runs.impactbot_rows(prepared.repo, scratch, options.repeat, semantic, log)
    return report.CorpusResult(
        name=name,
        label=prepared.label,
        files=prepared.files,
        megabytes=prepared.megabytes,
        pull_request=prepared.pull_request,
        repeat=options.repeat,
        rows=tuple(rows),
    )


def _run_all(options: argparse.Namespace, names: list[str]) -> tuple[list[report.CorpusResult], list[str]]:
    options.work.mkdir(parents=True, exist_ok=True)
    cli_problem = runs.impactbot_problem(options.work)
    crashes = [cli_problem] if cli_problem else []
    if cli_problem:
        print(f"{cli_problem}: measuring the floor only", file=sys.stderr)
    results = []
    for name in names:
        log = runs.Log(name)
        try:
            result = bench_corpus(name, options, cli_problem, log)
        except Exception as exc:  # one corpus failing must not hide the others' numbers
            traceback.print_exc(file=sys.stderr)
            log.crashes.append(f"{name} setup: {type(exc).__name__}: {exc}")
        else:
            results.append(result)
            print(report.table(result) + "\n", flush=True)
        crashes += log.crashes
    return results, crashes


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; 0 when everything ran (targets met or not), 1 on a crash."""
    options = parse_args(argv)
    # SIGTERM (a CI time-out, `kill`) unwinds like Ctrl-C, so the running child is killed too.
    signal.signal(signal.SIGTERM, _interrupt)
    names = list(corpora.NAMES) if options.corpus == "all" else [options.corpus]
    started = time.monotonic()
    try:
        results, crashes = _run_all(options, names)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    minutes, seconds = divmod(round(time.monotonic() - started), 60)
    print(f"[bench] finished in {minutes} min {seconds} s", file=sys.stderr)
    if crashes:
        print("crashed:\n" + "\n".join(f"  {c}" for c in crashes))
    _print_headline(options.corpus, results)
    return 1 if crashes else 0


def _print_headline(corpus: str, results: list[report.CorpusResult]) -> None:
    """The targets, then the ratios as the very last line (what the README quotes)."""
    headline = "django" if corpus == "all" else corpus
    measured = next((r for r in results if r.name == headline), None)
    if measured is None:
        print(f"ratios: n/a ({headline} did not run)")
        return
    print(report.targets_line(measured))
    print(report.ratios_line(measured))


if __name__ == "__main__":
    raise SystemExit(main())
