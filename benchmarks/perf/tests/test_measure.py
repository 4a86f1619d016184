from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

from perf.measure import run_child

ALLOCATE = "block = bytearray({mib} * 1024 * 1024); block[::4096] = b'x' * len(block[::4096])"


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(code)]


def test_peak_memory_of_one_process(tmp_path: Path) -> None:
    run = run_child(_python(ALLOCATE.format(mib=200)), cwd=tmp_path)
    assert run.ok
    # no upper bound: a forked child's ru_maxrss can start from its parent's peak
    assert run.peak_rss_mib >= 200


def test_peak_memory_adds_up_a_worker_pool(tmp_path: Path) -> None:
    # Each worker holds 150 MiB at once: ru_maxrss alone would say about 150.
    code = f"""
        import multiprocessing, time
        def hold(_):
            {ALLOCATE.format(mib=150)}
            time.sleep(1.0)
        if __name__ == "__main__":
            with multiprocessing.get_context("spawn").Pool(2) as pool:
                pool.map(hold, [0, 1], chunksize=1)
    """
    script = tmp_path / "pool.py"
    script.write_text(textwrap.dedent(code))
    run = run_child([sys.executable, str(script)], cwd=tmp_path)
    assert run.ok, run.stderr
    assert run.peak_rss_mib >= 300


def test_failure_keeps_exit_code_and_stderr(tmp_path: Path) -> None:
    run = run_child(_python("import sys; print('out'); sys.exit('impactbot: no such ref')"), cwd=tmp_path)
    assert (run.ok, run.returncode, run.stdout) == (False, 1, "out\n")
    assert run.stderr_tail(1) == "impactbot: no such ref"


def test_timeout_kills_the_child_and_its_children(tmp_path: Path) -> None:
    marker = tmp_path / "survived"
    code = f"""
        import subprocess, sys, time
        subprocess.Popen([sys.executable, "-c",
            "import time, pathlib; time.sleep(2); pathlib.Path({str(marker)!r}).touch()"])
        time.sleep(30)
    """
    run = run_child(_python(code), cwd=tmp_path, timeout=1.0)
    assert run.timed_out and not run.ok
    assert run.seconds < 10
    time.sleep(2.5)
    assert not marker.exists()


def test_a_child_past_the_memory_cap_is_killed(tmp_path: Path) -> None:
    code = ALLOCATE.format(mib=300) + "; import time; time.sleep(20)"
    run = run_child(_python(code), cwd=tmp_path, memory_cap_mib=150)
    assert run.over_memory_cap and not run.ok
    assert run.returncode == -9
    assert run.seconds < 10
