"""Run one child process and measure its wall time and peak memory.

Peak memory is the larger of two views, because each misses something:
- ``os.wait4``'s ``ru_maxrss``: exact, but for one process only (the child, or
  its largest waited-for descendant; Linux does not add them up);
- the RSS summed over the child's whole process tree, sampled every 100 ms:
  counts a worker pool together, but can miss a peak shorter than a sample.
  (RSS, not PSS: reading PSS walks every page table and cost a third of a core
  on a large child; RSS counts pages shared after ``fork`` once per worker, so
  this view errs high, never low.)

The same sampler is a watchdog: a child tree whose memory passes the cap is
killed, because on a shared machine a runaway child gets a neighbour's process
killed by the OOM killer, not only itself.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

SAMPLE_SECONDS = 0.1
KIB_PER_MIB = 1024
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


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
    over_memory_cap: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not (self.timed_out or self.over_memory_cap)

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


def _rss_kib(pid: int) -> int:
    """Resident memory of one process; 0 once it is gone."""
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_KIB
    except (OSError, IndexError, ValueError):
        return 0


class TreeMemorySampler:
    """Samples the summed RSS of a process tree on a thread until stopped.

    ``on_cap`` is called once, from the sampling thread, when the sum passes
    ``cap_kib``.
    """

    def __init__(self, root_pid: int, cap_kib: int | None = None, on_cap: Callable[[], None] | None = None) -> None:
        self._root = root_pid
        self._cap_kib = cap_kib
        self._on_cap = on_cap
        self._stop = threading.Event()
        self.peak_kib = 0
        self.capped = False
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeMemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            total = sum(_rss_kib(pid) for pid in _tree_pids(self._root))
            self.peak_kib = max(self.peak_kib, total)
            if self._cap_kib is not None and total > self._cap_kib and not self.capped:
                self.capped = True
                if self._on_cap is not None:
                    self._on_cap()
            self._stop.wait(SAMPLE_SECONDS)


# -------------------------------------------------------------------- running


def _kill_group(pgid: int) -> None:
    # The child leads its own session, so this reaches exactly the processes it
    # started; it may already be gone.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def _wait(proc: subprocess.Popen[bytes]) -> tuple[int, int]:
    """Reap ``proc``: its exit code and its ru_maxrss in KiB."""
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    except BaseException:
        # Interrupted (Ctrl-C, SIGTERM): the child must not run on without us.
        _kill_group(proc.pid)
        raise
    # wait4 reaped the child; tell Popen so that it does not wait again.
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_maxrss


def run_child(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str] | None = None,
    timeout: float = 900.0,
    memory_cap_mib: float | None = None,
) -> ChildRun:
    """Run ``argv`` to completion; time it and measure its peak memory.

    The child's process group is killed after ``timeout`` seconds, or as soon as
    its tree's memory passes ``memory_cap_mib``.
    """
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
        cap_kib = int(memory_cap_mib * KIB_PER_MIB) if memory_cap_mib is not None else None
        with TreeMemorySampler(proc.pid, cap_kib, lambda: _kill_group(proc.pid)) as sampler:
            returncode, maxrss_kib = _wait(proc)
            seconds = time.perf_counter() - start
        timer.cancel()
        # Pool workers orphaned by a crash, a timeout or the cap must not outlive the run.
        if returncode != 0:
            _kill_group(proc.pid)
        out.seek(0)
        err.seek(0)
        return ChildRun(
            argv=tuple(argv),
            returncode=returncode,
            seconds=seconds,
            peak_rss_mib=max(maxrss_kib, sampler.peak_kib) / KIB_PER_MIB,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
            timed_out=expired.is_set(),
            over_memory_cap=sampler.capped,
        )
