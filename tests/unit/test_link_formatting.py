"""Formatting a value in an f-string runs its protocol methods: ``__format__``, or
``__str__`` through object's ``__format__``; ``__repr__`` for ``!r``, ``!a`` and ``{x=}``."""

from __future__ import annotations

import pytest
from helpers.linking import facts

from impactbot.link import link

CLASSES = """
class User:
    def __str__(self):
        return "user"

    def __repr__(self):
        return "User()"


class Money:
    def __format__(self, spec):
        return "1.00"

    def __str__(self):
        return "money"


class Name(str):
    def __str__(self):
        return "name"


class Plain:
    pass

"""


def formats(body: str) -> set[str]:
    """The protocol methods ``show`` calls, as ``Class.method``."""
    graph = link(facts({"m.py": CLASSES + body}))
    return {e.target.split("::", 1)[1].replace("::", ".") for e in graph.edges
            if e.kind == "calls" and e.source == "m.py::show" and "__" in e.target.rsplit("::", 1)[-1]}


FORMATTED = {
    "a plain field: object's __format__ runs __str__": ('def show(u: User):\n    return f"{u}"\n', {"User.__str__"}),
    "a format spec": ('def show(u: User):\n    return f"{u:>10}"\n', {"User.__str__"}),
    "a class's own __format__": ('def show(m: Money):\n    return f"{m:.2f}"\n', {"Money.__format__"}),
    "!r": ('def show(u: User):\n    return f"{u!r}"\n', {"User.__repr__"}),
    "!a": ('def show(u: User):\n    return f"{u!a}"\n', {"User.__repr__"}),
    "!s": ('def show(m: Money):\n    return f"{m!s}"\n', {"Money.__str__"}),
    "a self-documenting field": ('def show(u: User):\n    return f"{u=}"\n', {"User.__repr__"}),
    "a self-documenting field with a spec": ('def show(u: User):\n    return f"{u=:>5}"\n', {"User.__str__"}),
    "a str subclass: str's own __format__ runs": ('def show(n: Name):\n    return f"{n}"\n', set()),
    "a class with neither": ('def show(p: Plain):\n    return f"{p}"\n', set()),
    "nested in a format spec": (
        'def show(u: User, m: Money):\n    return f"{u:{m}}"\n', {"User.__str__", "Money.__format__"}
    ),
}


@pytest.mark.parametrize(("body", "expected"), FORMATTED.values(), ids=FORMATTED.keys())
def test_an_f_string_formats_each_value_with_its_own_methods(body: str, expected: set[str]) -> None:
    assert formats(body) == expected


def test_formatting_in_dead_code_calls_nothing() -> None:
    body = 'def show(u: User):\n    if False:\n        return f"{u}"\n    return ""\n'
    assert formats(body) == set()


OLDER_STYLES = {
    "%s of one value": ('def show(u: User):\n    return "%s" % u\n', {"User.__str__"}),
    "%s and %r by position": ('def show(u: User, m: Money):\n    return "%s: %r" % (m, u)\n',
                              {"Money.__str__", "User.__repr__"}),
    "%d takes no __str__": ('def show(u: User, n):\n    return "%d%% %s" % (n, u)\n', {"User.__str__"}),
    # str() of a str subclass runs its own __str__, unlike its __format__
    "%s of a str subclass": ('def show(n: Name):\n    return "%s" % n\n', {"Name.__str__"}),
    "a count that does not match": ('def show(u: User):\n    return "%s %s" % (u,)\n', set()),
    "mapping keys": ('def show(u: User):\n    return "%(u)s" % {"u": u}\n', set()),
    "a template not written out": ('def show(u: User, t):\n    return t % u\n', set()),
    "str.format by position": ('def show(u: User, m: Money):\n    return "{} {!r}".format(m, u)\n',
                               {"Money.__format__", "User.__repr__"}),
    "str.format by index and name": ('def show(u: User, m: Money):\n    return "{who}: {0!s}".format(m, who=u)\n',
                                     {"Money.__str__", "User.__str__"}),
    "str.format of an attribute": ('def show(u: User):\n    return "{0.name}".format(u)\n', set()),
    "str.format of a template not written out": ('def show(u: User, t):\n    return t.format(u)\n', set()),
}


@pytest.mark.parametrize(("body", "expected"), OLDER_STYLES.values(), ids=OLDER_STYLES.keys())
def test_percent_and_str_format_run_what_each_conversion_names(body: str, expected: set[str]) -> None:
    assert formats(body) == expected
