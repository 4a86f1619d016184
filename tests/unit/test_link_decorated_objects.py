"""A decorator returning an object made of the function (``@group()`` returning
``Group(callback=f)``, as click's do): a call written on the decorated name
(``cli.main()``, ``@cli.command()``) runs the object's method."""

from __future__ import annotations

import pytest
from helpers.linking import assert_derived_both_ways, facts

from impactbot.link import incremental, link

COMMANDS = """
class Command:
    def __init__(self, callback):
        self.callback = callback

    def main(self):
        return self.callback()


class Group(Command):
    def command(self):
        def decorator(f):
            return Command(f)
        return decorator


def group():
    def decorator(f):
        return Group(f)
    return decorator


def plain(f):
    return f
"""

USES = """
from cli.commands import group, plain


@group()
def tool():
    pass


@tool.command()
def build():
    pass


@plain
def helper():
    pass


def run():
    tool.main()
    helper.main()
"""


def calls(files: dict[str, str], caller: str) -> set[str]:
    return {e.target for e in link(facts(files)).edges if e.kind == "calls" and e.source == caller}


FILES = {"cli/__init__.py": "", "cli/commands.py": COMMANDS, "cli/uses.py": USES}


def test_a_method_called_on_the_decorated_name_is_the_objects() -> None:
    assert calls(FILES, "cli/uses.py::run") == {"cli/commands.py::Command::main"}  # not for helper


def test_the_decorated_name_decorating_another_runs_the_objects_method() -> None:
    found = calls(FILES, "cli/uses.py")
    assert {"cli/commands.py::Group::command", "cli/commands.py::Group::command::decorator"} <= found


def test_a_decorator_returning_the_function_gives_no_object() -> None:
    kept = USES.replace("@group()\ndef tool", "@plain\ndef tool")
    assert calls({**FILES, "cli/uses.py": kept}, "cli/uses.py::run") == set()


def test_a_derived_graph_follows_what_the_decorator_returns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    returning_f = COMMANDS.replace("        return Group(f)\n", "        return f\n")
    files = {"cli/__init__.py": "", "cli/uses.py": USES}
    assert_derived_both_ways(files, "cli/commands.py", COMMANDS, returning_f)
