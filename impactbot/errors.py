"""Errors a user can act on. Each carries the one line the CLI prints."""

from __future__ import annotations


class ImpactbotError(Exception):
    """Base class: ``str(error)`` is a complete, user-facing sentence."""

    exit_code = 2


class OutOfTime(Exception):
    """The time budget ran out in the middle of a stage (caught where the stage stops)."""


class UsageError(ImpactbotError):
    """Bad arguments or bad input (exit 2)."""


class ConfigError(UsageError):
    """The configuration file or an option value is invalid."""


class NotAGitRepository(UsageError):
    def __init__(self, path: str) -> None:
        super().__init__(
            f"{path} is not inside a git repository. Run impactbot from a git "
            "working tree, or pass --repo PATH."
        )


class RefNotFound(UsageError):
    def __init__(self, ref: str, no_commits: bool = False) -> None:
        if no_commits:
            super().__init__(
                f"Could not find revision '{ref}': the repository has no commits yet "
                "(`impactbot diff` with no range compares the working tree with nothing)."
            )
            return
        super().__init__(
            f"Could not find revision '{ref}'. Does it exist? In GitHub Actions, check out "
            "with `fetch-depth: 0` or pass the base commit's sha."
        )


class NoMergeBase(UsageError):
    def __init__(self, a: str, b: str, shallow: bool) -> None:
        hint = (
            " The repository is a shallow clone: fetch more history "
            "(`git fetch --deepen=200`, or `fetch-depth: 0` in actions/checkout)."
            if shallow
            else " The two histories are unrelated."
        )
        super().__init__(f"'{a}' and '{b}' have no common ancestor.{hint}")


class AnalysisError(ImpactbotError):
    """The analysis could not run at all (exit 3)."""

    exit_code = 3


class CannotPostComment(ImpactbotError):
    """GitHub refused the comment; the report itself is still valid."""

    exit_code = 3
