"""Builtins whose value is what a protocol method of their argument returns."""

from __future__ import annotations

from helpers.linking import facts

from impactbot.link import link


def _calls(files: dict[str, str]) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in link(facts(files)).edges if e.kind == "calls"}


def test_iter_and_next_give_what_the_protocol_methods_return() -> None:
    source = """
class Countdown:
    def __iter__(self):
        return self

    def __next__(self):
        return Step()

class Step:
    def run(self):
        pass

it = iter(Countdown())
step = next(it)
step.run()
next(iter(Countdown())).run()
"""
    calls = _calls({"m.py": source})
    assert {("m.py", "m.py::Countdown::__iter__"), ("m.py", "m.py::Countdown::__next__"),
            ("m.py", "m.py::Step::run")} <= calls


def test_a_function_held_by_staticmethod_in_a_class_body_is_called_unchecked() -> None:
    source = """
def shout(text):
    return text.upper()

class Greeter:
    style = staticmethod(shout)

    def greet(self, name):
        return self.style(name)
"""
    graph = link(facts({"m.py": source}))
    assert ("m.py::Greeter::greet", "m.py::shout") in {(e.source, e.target) for e in graph.edges}
    # whether it gets the receiver is the wrapper's rule: the call's arguments are not checked
    assert not [c for c in graph.calls if c.target == "m.py::shout"]
