"""The projects whose release history the ranking benchmark replays.

Each is pure Python, ships its test suite in the sdist and runs it with pytest
on the running interpreter. ``versions`` are consecutive PyPI releases, oldest
first; each consecutive pair is one measured change.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Project:
    """A PyPI project, the releases to replay and what its tests need."""

    name: str
    versions: tuple[str, ...]
    tests: tuple[str, ...]  # test paths, relative to the sdist root
    test_requirements: tuple[str, ...] = ("pytest",)

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        """(base, head) for every consecutive pair of releases."""
        return tuple(zip(self.versions[:-1], self.versions[1:], strict=True))


PROJECTS: dict[str, Project] = {
    p.name: p
    for p in (
        Project(
            "click",
            ("8.1.3", "8.1.4", "8.1.5", "8.1.6", "8.1.7", "8.1.8", "8.2.0", "8.2.1", "8.3.0"),
            ("tests",),
        ),
        Project(
            "marshmallow",
            ("3.19.0", "3.20.0", "3.20.1", "3.20.2", "3.21.0", "3.21.1", "3.21.2", "3.21.3", "3.22.0", "3.23.0"),
            ("tests",),
            ("pytest", "simplejson", "pytz"),
        ),
        Project(
            "more-itertools",
            ("10.0.0", "10.1.0", "10.2.0", "10.3.0", "10.4.0", "10.5.0", "10.6.0", "10.7.0", "10.8.0"),
            ("tests",),
        ),
        Project(
            "toolz",
            ("0.10.0", "0.11.0", "0.11.1", "0.11.2", "0.12.0", "0.12.1", "1.0.0"),
            ("toolz/tests",),
        ),
        Project(
            "itsdangerous",
            ("2.0.0", "2.0.1", "2.1.0", "2.1.1", "2.1.2", "2.2.0"),
            ("tests",),
            ("pytest", "freezegun"),
        ),
        Project(
            "boltons",
            ("23.0.0", "23.1.0", "23.1.1", "24.0.0", "24.1.0", "25.0.0"),
            ("tests",),
            ("pytest<8",),
        ),
        Project(
            "cachetools",
            ("5.3.0", "5.3.1", "5.3.2", "5.3.3", "5.4.0", "5.5.0", "5.5.1", "5.5.2"),
            ("tests",),
        ),
    )
}
