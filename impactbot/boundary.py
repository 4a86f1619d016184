"""Exit codes and the one error boundary shared by the CLI and the Action."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from impactbot.errors import ImpactbotError

EXIT_OK = 0
EXIT_GATE = 1  # a --fail-on threshold tripped
EXIT_USAGE = 2  # bad arguments, configuration or input
EXIT_FAILED = 3  # could not analyse
EXIT_INTERRUPTED = 130


@dataclass
class Outcome:
    code: int = EXIT_OK


def _say(message: str) -> None:
    print(f"impactbot: {message}", file=sys.stderr)


@contextmanager
def error_handler(*, debug: bool = False) -> Iterator[Outcome]:
    """Turn every failure into a one-line message and an exit code, never a traceback."""
    outcome = Outcome()
    try:
        yield outcome
    except ImpactbotError as exc:
        _say(f"error: {exc}")
        outcome.code = exc.exit_code
    except KeyboardInterrupt:
        _say("interrupted")
        outcome.code = EXIT_INTERRUPTED
    except BrokenPipeError:
        outcome.code = EXIT_OK  # `impactbot diff | head` is not an error
    except Exception as exc:  # the boundary: anything unexpected is a bug to report
        if debug:
            traceback.print_exc()
        _say(
            f"unexpected error: {type(exc).__name__}: {exc}. This is a bug; please report it "
            "(run with --debug for the traceback)."
        )
        outcome.code = EXIT_FAILED
