"""A getattr whose name is computed from a constant start (``"visit_" + kind``): every
method whose name fits is a guess (name_match), and the call stays unresolved."""

from __future__ import annotations

from helpers.linking import assert_derived_both_ways, facts

from impactbot.link import link

VISITOR = """\
class Visitor:
    def visit(self, node):
        method = getattr(self, "visit_" + type(node).__name__, self.generic_visit)
        return method(node)

    def dispatch(self, node):
        return getattr(self, f"visit_{node.kind}")(node)

    def generic_visit(self, node):
        return node

    def visit_Name(self, node):
        return node.id
"""

PRINTER = """\
from visitor import Visitor


class Printer(Visitor):
    def visit_Call(self, node):
        return node.func

    def visit_count(self):
        return 0
"""


def _edges(files: dict[str, str]) -> dict[tuple[str, str], str]:
    graph = link(facts(files))
    return {(e.source, e.target): e.confidence for e in graph.edges if e.kind == "calls"}


def test_every_method_whose_name_fits_is_a_guess_and_the_call_stays_unresolved() -> None:
    files = {"visitor.py": VISITOR, "printer.py": PRINTER}
    graph = link(facts(files))
    edges = {(e.source, e.target): e.confidence for e in graph.edges if e.kind == "calls"}
    dispatch = {t: c for (s, t), c in edges.items() if s == "visitor.py::Visitor::dispatch"}
    # self may be a Printer, whose methods fit as well (visit_count too: only the start is known)
    assert dispatch == {
        "visitor.py::Visitor::visit_Name": "name_match",
        "printer.py::Printer::visit_Call": "name_match",
        "printer.py::Printer::visit_count": "name_match",
    }
    visit = {t: c for (s, t), c in edges.items() if s == "visitor.py::Visitor::visit"}
    assert visit["visitor.py::Visitor::generic_visit"] == "name_match"  # the default, through the same local
    assert visit["printer.py::Printer::visit_Call"] == "name_match"
    unresolved = dict(graph.unresolved)
    assert unresolved["visitor.py::Visitor::dispatch"] == 1 and unresolved["visitor.py::Visitor::visit"] == 1


def test_a_suffix_narrows_the_candidates() -> None:
    source = """\
    class Backend:
        def permissions(self, kind):
            return getattr(self, "_get_%s_permissions" % kind)()

        def _get_user_permissions(self):
            return 1

        def _get_group_permissions(self):
            return 2

        def _get_permissions_cache(self):
            return 3
    """
    edges = _edges({"backend.py": source})
    assert {t for (s, t) in edges if s == "backend.py::Backend::permissions"} == {
        "backend.py::Backend::_get_user_permissions", "backend.py::Backend::_get_group_permissions"}


def test_a_derived_graph_sees_a_fitting_method_come_and_go() -> None:
    padding = {f"pad{i}.py": f"def f{i}():\n    return {i}\n" for i in range(8)}
    added = PRINTER + "\n    def visit_Attribute(self, node):\n        return node.value\n"
    assert_derived_both_ways({"visitor.py": VISITOR, **padding}, "printer.py", PRINTER, added)


COMMANDS = """\
def cmd_start():
    return 1


def cmd_stop():
    return 0


def helper():
    return 2
"""

CLI = """\
import commands


def run(name):
    return getattr(commands, "cmd_" + name)()
"""


def test_a_computed_name_on_a_module_guesses_its_functions_so_named() -> None:
    edges = _edges({"commands.py": COMMANDS, "cli.py": CLI})
    assert {t: c for (s, t), c in edges.items() if s == "cli.py::run"} == {
        "commands.py::cmd_start": "name_match", "commands.py::cmd_stop": "name_match"}


def test_a_derived_graph_sees_a_module_function_so_named_come_and_go() -> None:
    padding = {f"pad{i}.py": f"def f{i}():\n    return {i}\n" for i in range(8)}
    added = COMMANDS + "\n\ndef cmd_status():\n    return 3\n"
    assert_derived_both_ways({"cli.py": CLI, **padding}, "commands.py", COMMANDS, added)


def test_every_fitting_method_is_guessed_however_many_a_visitor_has() -> None:
    # the handlers are written out in the classes: many of them are no vaguer than a few
    handlers = "".join(f"    def visit_K{i}(self, node):\n        return {i}\n\n" for i in range(30))
    source = f"""\
class Visitor:
    def get_visitor(self, node):
        return getattr(self, f"visit_{{type(node).__name__}}", None)

    def visit(self, node):
        handler = self.get_visitor(node)
        return handler(node) if handler is not None else None

    def dispatch(self, node):
        return getattr(self, "visit_" + node.kind)(node)


class Generator(Visitor):
{handlers}"""
    edges = _edges({"visitor.py": source})
    expected = {f"visitor.py::Generator::visit_K{i}" for i in range(30)}
    assert {t for (s, t) in edges if s == "visitor.py::Visitor::dispatch"} == expected
    assert {t for (s, t) in edges if s == "visitor.py::Visitor::visit"} == expected | {
        "visitor.py::Visitor::get_visitor"}
