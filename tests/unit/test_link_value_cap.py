"""More values than a value may list are not knowledge, unless an instance of a class
or subclass among them (an annotation's) already stands for the others."""

from __future__ import annotations

from helpers.linking import facts

from impactbot.link import link

TYPES = "class ParamType:\n    def describe(self):\n        pass\n\n\n" + "".join(
    f"class Type{i}(ParamType):\n    def describe(self):\n        pass\n\n\n" for i in range(14)
)


def parameter(annotation: str) -> str:
    choices = "".join(f"    if kind == {i}:\n        return Type{i}()\n" for i in range(14))
    return (
        TYPES + f"def convert(kind):\n{choices}    return ParamType()\n\n\n"
        f"class Parameter:\n    def __init__(self, kind):\n        self.type{annotation} = convert(kind)\n\n"
        "    def describe(self):\n        return self.type.describe()\n"
    )


def called(source: str) -> set[str]:
    graph = link(facts({"m.py": source}))
    return {e.target for e in graph.edges if e.kind == "calls" and e.source == "m.py::Parameter::describe"}


def test_an_annotation_stands_for_the_many_instances_of_its_subclasses() -> None:
    # (the 14 overrides are a crowded dispatch: the walk reaches them through `overrides` edges)
    assert called(parameter(": ParamType")) == {"m.py::ParamType::describe"}


def test_without_one_too_many_values_are_unknown() -> None:
    assert called(parameter("")) == set()
