"""Run one child process and measure its wall time and peak memory.

Peak memory is the larger of two views, because each misses something:
- ``os.wait4``'s ``ru_maxrss``: exact, but for one process only (the child, or
  its largest waited-for descendant; Linux does not add them up);
- the sum of PSS over the child's whole process tree, sampled every 100 ms:
  counts a worker pool together (PSS splits pages shared after ``fork`` instead
  of counting them once per worker), but can miss a peak shorter than a sample.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

SAMPLE_SECONDS = 0.1
KIB_PER_MIB = 1024


@dataclass(frozen=True, slots=True)
class ChildRun:
    """The outcome of one child process."""

    argv: tuple[str, ...]
    returncode: int
    seconds: float
    peak_rss_mib: float
    stdout: str
    stderr: str
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    def stderr_tail(self, lines: int = 15) -> str:
        return "\n".join(self.stderr.rstrip().splitlines()[-lines:])


# ------------------------------------------------------------------ /proc reading


def _parent_map() -> dict[int, int]:
    """pid -> parent pid for every live process."""
    parents = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue  # exited while we looked
        # The command name may hold spaces and parentheses: split after the last ")".
        fields = stat[stat.rfind(")") + 2 :].split()
        parents[int(entry.name)] = int(fields[1])
    return parents


def _tree_pids(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, parent in _parent_map().items():
        children.setdefault(parent, []).append(pid)
    found, stack = set(), [root]
    while stack:
        pid = stack.pop()
        found.add(pid)
        stack.extend(children.get(pid, ()))
    return found


def _memory_kib(pid: int) -> int:
    """PSS of one process (falls back to RSS where smaps_rollup is missing); 0 if gone."""
    for name, key in (("smaps_rollup", "Pss:"), ("status", "VmRSS:")):
        try:
            text = Path(f"/proc/{pid}/{name}").read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith(key):
                return int(line.split()[1])
    return 0


class TreeMemorySampler:
    """Samples the summed memory of a process tree on a thread until stopped."""

    def __init__(self, root_pid: int) -> None:
        self._root = root_pid
        self._stop = threading.Event()
        self.peak_kib = 0
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeMemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            total = sum(_memory_kib(pid) for pid in _tree_pids(self._root))
            self.peak_kib = max(self.peak_kib, total)
            self._stop.wait(SAMPLE_SECONDS)


# -------------------------------------------------------------------- running


def _kill_group(pgid: int) -> None:
    # The child leads its own session, so this reaches exactly the processes it
    # started; it may already be gone.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def run_child(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str] | None = None,
    timeout: float = 900.0,
) -> ChildRun:
    """Run ``argv`` to completion; time it and measure its peak memory."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
        expired = threading.Event()

        def on_timeout() -> None:
            expired.set()
            _kill_group(proc.pid)

        timer = threading.Timer(timeout, on_timeout)
        timer.start()
        with TreeMemorySampler(proc.pid) as sampler:
            _, status, usage = os.wait4(proc.pid, 0)
            seconds = time.perf_counter() - start
        timer.cancel()
        timed_out = expired.is_set()
        # wait4 reaped the child; tell Popen so it does not wait again.
        proc.returncode = os.waitstatus_to_exitcode(status)
        # Pool workers orphaned by a crash or timeout must not outlive the run.
        if proc.returncode != 0 or timed_out:
            _kill_group(proc.pid)
        out.seek(0)
        err.seek(0)
        return ChildRun(
            argv=tuple(argv),
            returncode=proc.returncode,
            seconds=seconds,
            peak_rss_mib=max(usage.ru_maxrss, sampler.peak_kib) / KIB_PER_MIB,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
            timed_out=timed_out,
        )
