"""Score impactbot's Python call resolution on the benchmark cases (``make callgraph``).

Prints precision and recall per category and overall; ``--verbose`` also lists the
wrong (FP) and missing (FN) edges of each case. It reports, it does not gate: the
exit status is 0 whenever the table was printed.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The scorer lives with the tests (tests/callgraph) and builds repositories with
# tests/helpers; make both importable the way pytest does.
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "callgraph")]

from scorer import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
