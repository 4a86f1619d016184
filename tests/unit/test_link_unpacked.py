"""Arguments unpacked from a name into a call: ``f(*xs)``, ``f(**opts)``."""

from __future__ import annotations

from helpers.linking import derived_from, facts

from impactbot.link import link
from impactbot.model import LinkedGraph

HANDLERS = """
def save():
    pass

def load():
    pass

def run(handler, other=None):
    return handler()
"""


def called_by_run(source: str) -> set[str]:
    graph = link(facts({"m.py": HANDLERS + source}))
    return called_by(graph, "m.py::run")


def called_by(graph: LinkedGraph, caller: str) -> set[str]:
    return {e.target for e in graph.edges if e.kind == "calls" and e.source == caller}


def test_a_literal_dict_gives_each_parameter_its_own_key() -> None:
    assert called_by_run('OPTS = {"handler": save, "other": load}\nrun(**OPTS)\n') == {"m.py::save"}


def test_a_literal_tuple_gives_each_position_its_element() -> None:
    assert called_by_run("ARGS = (load, save)\nrun(*ARGS)\n") == {"m.py::load"}
    assert called_by_run("REST = (save,)\nrun(load, *REST)\n") == {"m.py::load"}


def test_an_explicit_keyword_wins_over_the_unpacked_key() -> None:
    assert called_by_run('OPTS = {"handler": save}\nrun(handler=load, **OPTS)\n') == {"m.py::load"}


def test_a_container_the_code_changes_passes_no_element() -> None:
    # its bag holds every value: no parameter is told which one it gets
    source = 'OPTS = {"other": load}\nOPTS.update(extra())\nOPTS["handler"] = save\nrun(**OPTS)\n'
    assert called_by_run(source) == set()


def test_forwarded_keywords_reach_the_callee_s_own_keywords() -> None:
    graph = link(facts({"m.py": HANDLERS + """
class Base:
    def __init__(self, **options):
        self.callback = options.get("callback")

    def fire(self):
        return self.callback()

class Child(Base):
    def __init__(self, **options):
        super().__init__(**options)

Child(callback=save).fire()
"""}))
    assert called_by(graph, "m.py::Base::fire") == {"m.py::save"}


def test_a_derived_graph_follows_a_renamed_parameter() -> None:
    use = "from m import run, save\nOPTS = {'handler': save}\nrun(**OPTS)\n"
    old = facts({"m.py": HANDLERS, "u.py": use})
    renamed = HANDLERS.replace("run(handler, other=None):\n    return handler()",
                               "run(callback, other=None):\n    return callback()")
    new = dict(old, **facts({"m.py": renamed}))
    graph, derived = derived_from(old, new)
    assert called_by(graph, "m.py::run") == {"m.py::save"}
    assert derived == link(new)
    assert called_by(derived, "m.py::run") == set()
