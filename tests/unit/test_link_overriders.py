"""A method with more overrides than a call is linked to: the call through an instance
stays unlinked to them, but each override still gets the call's arguments."""

from __future__ import annotations

from helpers.linking import assert_derived_both_ways, facts

from impactbot.link import link
from impactbot.link.python import MAX_VALUES

BASE = """
class Parser:
    def add_argument(self, name):
        return name


class Command:
    def create_parser(self):
        parser = Parser()
        self.add_arguments(parser)
        return parser

    def add_arguments(self, parser):
        pass
"""


def commands(n: int, start: int = 0) -> str:
    return "".join(
        f"\n\nclass Command{i}(Command):\n    def add_arguments(self, parser):\n        parser.add_argument('--n{i}')\n"
        for i in range(start, start + n)
    )


def calls(source: str) -> set[tuple[str, str]]:
    """The calls linked by resolution (not the guesses by a unique method name)."""
    graph = link(facts({"m.py": source}))
    return {(e.source, e.target) for e in graph.edges if e.kind == "calls" and e.confidence != "name_match"}


def callers_of_add_argument(source: str) -> set[str]:
    return {s for s, t in calls(source) if t == "m.py::Parser::add_argument"}


def test_each_of_many_overrides_gets_what_the_template_method_passes() -> None:
    n = MAX_VALUES + 5
    overrides = {f"m.py::Command{i}::add_arguments" for i in range(n)}
    assert callers_of_add_argument(BASE + commands(n)) == overrides
    # the call itself links to the declared method only: which override runs is not told
    linked = {t for s, t in calls(BASE + commands(n)) if s == "m.py::Command::create_parser"}
    assert "m.py::Command::add_arguments" in linked and not linked & overrides


def test_below_the_cap_the_call_links_to_each_override() -> None:
    linked = {t for s, t in calls(BASE + commands(3)) if s == "m.py::Command::create_parser"}
    assert {f"m.py::Command{i}::add_arguments" for i in range(3)} <= linked
    assert callers_of_add_argument(BASE + commands(3)) == {f"m.py::Command{i}::add_arguments" for i in range(3)}


def test_a_constructed_instance_passes_nothing_to_the_overrides() -> None:
    exact = BASE.replace("self.add_arguments(parser)", "Command().add_arguments(parser)")
    assert callers_of_add_argument(exact + commands(MAX_VALUES + 1)) == set()


def test_derived_graphs_equal_full_links_when_overrides_cross_the_cap() -> None:
    below = BASE + commands(MAX_VALUES - 1)
    assert_derived_both_ways({}, "m.py", below, below + commands(2, start=MAX_VALUES - 1))
    assert_derived_both_ways({"n.py": "from m import Command\n" + commands(MAX_VALUES - 1, start=100)},
                             "m.py", BASE, BASE + commands(1))
