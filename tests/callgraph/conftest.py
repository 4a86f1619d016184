"""Show the call-graph score table at the end of a pytest-xdist run."""

from __future__ import annotations

import pytest

TABLE_PROPERTY = "callgraph_table"  # recorded by test_overall_precision_and_recall


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for reports in terminalreporter.stats.values():
        for report in reports:
            # Only reports sent back by an xdist worker: in a plain run the test printed it.
            if not hasattr(report, "node") or report.when != "call":
                continue
            for name, value in getattr(report, "user_properties", ()):
                if name == TABLE_PROPERTY:
                    terminalreporter.write_sep("=", "Python call-graph benchmark")
                    terminalreporter.write_line(str(value))
