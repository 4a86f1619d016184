"""Whether a resolved call passes its callee a receiver: the ``bound`` flag breaking calls rely on."""

from __future__ import annotations

from impactbot.extract import extract
from impactbot.link import link

STORED = """\
import functools
from dataclasses import dataclass
from typing import Callable


def helper(obj, x):
    return x


def deco(func):
    return func


@functools.lru_cache
def cached(obj, x):
    return x


class Other:
    def method(self, x):
        return x

    @staticmethod
    def tool(x):
        return x

    @classmethod
    def make(cls, x):
        return x


class Host:
    run = helper
    alias = Other.method
    tool = Other.tool
    make = Other.make
    wrapped = deco(helper)
    cached_run = cached
    lam = lambda self, x: x  # noqa: E731
    part = functools.partial(helper, None)
    static = staticmethod(helper)

    @staticmethod
    def own(x):
        return x

    own_alias = own

    def __init__(self):
        self.callback = helper
        self.unbound = Other.method

    def calls(self):
        self.run(1)
        self.alias(1)
        self.tool(1)
        self.make(1)
        self.wrapped(1)
        self.cached_run(1)
        self.lam(1)
        self.part(1)
        self.static(None, 1)
        self.own_alias(1)
        self.callback(None, 1)
        self.unbound(None, 1)
        Host.run(self, 1)


class Child(Host):
    def more(self):
        super().run(1)
        return Child().run(1)


class Shadowed:
    run = helper

    def start(self):
        self.run = print

    def go(self):
        return self.run(1)


@dataclass
class Field:
    handler: Callable = helper

    def go(self):
        return self.handler(None, 1)


class Table:
    checkers = {"int": helper, "method": Other.method}
    pick = helper

    def __init_subclass__(cls):
        cls.pick = helper

    def check(self, kind):
        checker = self.checkers[kind]
        self.pick(1)
        return checker(self, 1)
"""


def _bound(caller: str) -> list[tuple[int, str, bool]]:
    graph = link({"m.py": extract(STORED.encode(), "python")})
    return sorted((c.line, c.target.removeprefix("m.py::"), c.bound) for c in graph.calls
                  if c.caller == f"m.py::{caller}")


def test_a_function_in_a_class_body_binds_through_an_instance_only() -> None:
    assert _bound("Host::calls") == [
        (54, "helper", True),  # self.run(1) is helper(self, 1)
        (55, "Other::method", True),
        (57, "Other::make", True),  # a classmethod is bound to its class however it is read
        (58, "helper", True),  # deco returned the function itself
        (59, "cached", True),  # lru_cache's wrapper binds like a function
        (63, "Host::own", False),  # the staticmethod object of this body: no receiver
        (64, "helper", False),  # an instance's own attribute: no receiver
        (65, "Other::method", False),
        (66, "helper", False),  # read through the class
    ]  # not checked: Other.tool read through Other is a plain function again, but the same
    # name in its own body would be the staticmethod; a lambda, a partial and a
    # staticmethod() call are not functions of ours


def test_super_and_a_subclass_instance_bind_too() -> None:
    assert [c for c in _bound("Child::more") if c[1] == "helper"] == [(71, "helper", True), (72, "helper", True)]


def test_a_function_an_instance_may_hide_with_its_own_attribute_is_not_checked() -> None:
    assert _bound("Shadowed::go") == []  # self.run may be print by then
    assert _bound("Field::go") == []  # a dataclass field: the instance holds the value


def test_an_element_of_a_container_in_a_class_body_gets_no_receiver() -> None:
    assert _bound("Table::check") == [
        (102, "helper", True),  # cls.pick = ... stores into a class body: it still binds
        (103, "Other::method", False),
        (103, "helper", False),
    ]
