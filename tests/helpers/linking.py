"""Facts of small in-memory sources, and graphs derived from them, for link tests."""

from __future__ import annotations

import textwrap

from impactbot.extract import extract
from impactbot.link.incremental import derive, link_traced
from impactbot.model import FileFacts, LinkedGraph


def facts(files: dict[str, str]) -> dict[str, FileFacts]:
    """Facts of each source, dedented: tests write them indented."""
    return {path: extract(textwrap.dedent(text).encode(), "python") for path, text in files.items()}


def derived_from(old_facts: dict[str, FileFacts], new_facts: dict[str, FileFacts]) -> tuple[LinkedGraph, LinkedGraph]:
    """The traced link of ``old_facts``, and the graph of ``new_facts`` derived from it."""
    graph, trace = link_traced(old_facts)
    derived, _ = derive(graph, old_facts, new_facts, trace)
    return graph, derived


def assert_derived_both_ways(files: dict[str, str], path: str, before: str, after: str) -> None:
    """With the other ``files`` unchanged, ``path`` going from ``before`` to ``after`` and
    back: each derived graph equals a full link of the new facts."""
    from impactbot.link import link

    for old, new in ((before, after), (after, before)):
        old_facts = facts({**files, path: old})
        new_facts = facts({**files, path: new})
        _graph, derived = derived_from(old_facts, new_facts)
        assert derived == link(new_facts), f"{path}: the derived graph differs from a full link"
