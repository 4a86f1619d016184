"""impactbot's reports for one release pair, in structural and in semantic order.

impactbot runs as a child process (``python -m impactbot diff``) from a copy
of this checkout's source taken when the benchmark starts, so that edits made
to the tree meanwhile cannot mix two versions into one set of numbers. A report
is kept under ``<work>/reports`` keyed by a hash of that source, so a rerun
reuses it until impactbot itself changes.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PACKAGE_DIR = PROJECT_ROOT / "impactbot"
TEMPLATES_DIR = PROJECT_ROOT / "templates"
RUN_TIMEOUT_SECONDS = 600
Order = Literal["structural", "semantic"]
ORDERS: tuple[Order, ...] = ("structural", "semantic")


class ImpactRunError(Exception):
    """impactbot failed on a pair, or did not rank the way it was asked to."""


@dataclass(frozen=True, slots=True)
class ImpactedItem:
    id: str
    score: float
    depth: int
    is_test: bool


@dataclass(frozen=True, slots=True)
class PairReport:
    """The parts of one JSON report the benchmark reads."""

    changed: tuple[tuple[str, str], ...]  # (id, change)
    impacted: tuple[ImpactedItem, ...]  # in report order: the ranking under test
    ranking: str
    skipped: tuple[tuple[str, str, str], ...] = ()  # (path, reason, detail)
    tests: tuple[str, ...] = ()  # the tests to run: the selection

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(item.id for item in self.impacted)


def analyser_version(package: Path = PACKAGE_DIR) -> str:
    """A hash of impactbot's source: reports from another version are not reused."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def snapshot_analyser(work: Path) -> tuple[Path, str]:
    """Copy impactbot's package and templates under ``work``; return (source root, version)."""
    root = work / "impactbot-source"
    staging = root / f"staging-{os.getpid()}"
    if staging.exists():
        shutil.rmtree(staging)
    shutil.copytree(PACKAGE_DIR, staging / "impactbot", ignore=shutil.ignore_patterns("__pycache__"))
    if TEMPLATES_DIR.is_dir():
        shutil.copytree(TEMPLATES_DIR, staging / "templates")
    version = analyser_version(staging / "impactbot")
    final = root / version
    if final.exists():
        shutil.rmtree(staging)
    else:
        staging.rename(final)
    return final, version


def child_environment(source: Path = PROJECT_ROOT) -> dict[str, str]:
    """impactbot's ``source`` first on the path, no user overrides, the model read offline."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("IMPACTBOT_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(source), env.get("PYTHONPATH", "")) if p)
    env["HF_HUB_OFFLINE"] = "1"
    env["TRANSFORMERS_OFFLINE"] = "1"
    # Two children share two cores; more threads per child only contend.
    env["OMP_NUM_THREADS"] = "1"
    env["MKL_NUM_THREADS"] = "1"
    return env


def run_impactbot(repo: Path, revisions: str, order: Order, out: Path, source: Path = PROJECT_ROOT) -> Path:
    """Write the JSON report of impactbot (from ``source``) for ``revisions`` to ``out`` unless it is there."""
    if out.exists():
        return out
    tmp = out.with_name(out.name + ".tmp")
    flag = "--semantic" if order == "semantic" else "--no-semantic"
    argv = [sys.executable, "-m", "impactbot", "diff", revisions, "--format", "json",
            "--no-cache", "--quiet", flag, "-o", str(tmp)]  # fmt: skip
    try:
        done = subprocess.run(
            argv,
            cwd=repo,
            env=child_environment(),
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise ImpactRunError(f"impactbot diff {revisions} ({order}) timed out") from exc
    if done.returncode != 0 or not tmp.exists():
        last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        raise ImpactRunError(f"impactbot diff {revisions} ({order}) failed: {last}")
    report = read_report(tmp)
    # An empty list has nothing to order: impactbot then says "structural" either way.
    if report.ranking != order and report.impacted:
        raise ImpactRunError(f"impactbot diff {revisions} was asked for {order} order but ranked {report.ranking}")
    tmp.replace(out)
    return out


def read_report(path: Path) -> PairReport:
    """The changed ids and the ranked impacted list of a JSON report."""
    data: Mapping[str, Any] = json.loads(path.read_text())
    return PairReport(
        changed=tuple((c["id"], c["change"]) for c in data["changed"]),
        impacted=tuple(
            ImpactedItem(i["id"], float(i["score"]), int(i["depth"]), bool(i["is_test"])) for i in data["impacted"]
        ),
        ranking=str(data.get("ranking", "structural")),
        skipped=tuple((s["path"], s["reason"], s.get("detail", "")) for s in data.get("skipped", ())),
        tests=tuple(data.get("tests", ())),
    )
