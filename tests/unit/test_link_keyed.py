"""Elements read by a constant key: ``ops["a"]``, ``fs[-1]``, ``ops.get("a")``, ``a, b = get()``.

A literal the file never changes but through constant-key stores gives the member under
that key; anything else that may change it leaves the bag of all its elements, as before.
"""

from __future__ import annotations

import textwrap

import pytest
from helpers.linking import derived_from, facts

from impactbot.link import incremental, link

FUNCS = "def f(): pass\ndef g(): pass\ndef h(): pass\n"


def called(source: str, line_text: str) -> set[str]:
    """What the call on the (unique) line ``line_text`` of main.py reaches."""
    text = FUNCS + textwrap.dedent(source)
    line = [t.strip() for t in text.splitlines()].index(line_text) + 1
    graph = link(facts({"main.py": text}))
    return {c.target.removeprefix("main.py::") for c in graph.calls if c.line == line}


KEYED = {
    "a dict read by a constant key": ('ops = {"a": f, "b": g}\nops["a"]()\n', 'ops["a"]()', {"f"}),
    "get with a constant key": ('ops = {"a": f, "b": g}\nops.get("b")()\n', 'ops.get("b")()', {"g"}),
    "get with a default": ('ops = {"a": f, "b": g}\nops.get("b", h)()\n', 'ops.get("b", h)()', {"g", "h"}),
    "get by a computed key with a default": (
        'ops = {"a": f, "b": g}\nops.get(k, h)()\n', "ops.get(k, h)()", {"f", "g", "h"}
    ),
    "a list index": ("fs = [f, g]\nfs[0]()\n", "fs[0]()", {"f"}),
    "a negative index": ("fs = [f, g]\nfs[-1]()\n", "fs[-1]()", {"g"}),
    "a tuple returned and unpacked": ("def get(): return (f, g)\na, b = get()\nb()\n", "b()", {"g"}),
    "every tuple a function returns": (
        "def get():\n    if x:\n        return f, g\n    return g, h\na, b = get()\nb()\n", "b()", {"g", "h"}
    ),
    "an instance from a list": (
        "class A:\n    def m(self): pass\nclass B:\n    def m(self): pass\nobjs = [A(), B()]\nobjs[1].m()\n",
        "objs[1].m()",
        {"B::m"},
    ),
    "a starred target": ("first, *rest = f, g, h\nrest[0]()\n", "rest[0]()", {"g"}),
    "dict() with keywords": ('d = dict(a=f, b=g)\nd["a"]()\n', 'd["a"]()', {"f"}),
    "dict() subscripted as it is built": ('dict(a=f)["a"]()\n', 'dict(a=f)["a"]()', {"f"}),
    "a nested literal": ('cfg = {"h": {"on": f, "off": g}}\ncfg["h"]["on"]()\n', 'cfg["h"]["on"]()', {"f"}),
    "a nested literal subscripted as it is built": ("[[f], [g]][1][0]()\n", "[[f], [g]][1][0]()", {"g"}),
    "a computed key after a constant one": (
        'cfg = {"h": {"on": f, "off": g}, "k": h}\ncfg["h"][key]()\n', "cfg[\"h\"][key]()", {"f", "g"}
    ),
    "a constant-key store replaces its key's value for what the body runs next": (
        'ops = {"a": f, "b": g}\nops["a"] = h\nops["a"]()\n', 'ops["a"]()', {"h"}
    ),
    "a constant-key store under a branch adds to its key": (
        'ops = {"a": f, "b": g}\nif flag:\n    ops["a"] = h\nops["a"]()\n', 'ops["a"]()', {"f", "h"}
    ),
    "a nested constant-key store replaces the member's value": (
        'cfg = {"h": {"on": f}}\ncfg["h"]["on"] = g\ncfg["h"]["on"]()\n', 'cfg["h"]["on"]()', {"g"}
    ),
    "a nested constant-key store joins the member's elements": (
        'cfg = {"h": {"on": f}}\ncfg["h"]["off"] = g\nfor hook in cfg["h"].values():\n    hook()\n',
        "hook()", {"f", "g"}
    ),
    "a function reads what the module stored last": (
        'ops = {"a": f}\nops["a"] = g\ndef run():\n    return ops["a"]()\n', 'return ops["a"]()', {"g"}
    ),
    "a function the module calls before its store sees both": (
        'ops = {"a": f}\ndef run():\n    return ops["a"]()\nrun()\nops["a"] = g\n', 'return ops["a"]()', {"f", "g"}
    ),
    "a read before a constant-key store sees the literal's value": (
        'ops = {"a": f, "b": g}\nops["a"]()\nops["a"] = h\n', 'ops["a"]()', {"f"}
    ),
    "update with keywords stores under their keys": (
        'ops = {"a": f, "b": g}\nops.update(a=h)\nops["a"]()\n', 'ops["a"]()', {"h"}
    ),
    "update with a dict literal stores under its keys": (
        'ops = {"a": f, "b": g}\nops.update({"b": h}, a=h)\nops["b"]()\n', 'ops["b"]()', {"h"}
    ),
    "update leaves the other keys as they were": (
        'ops = {"a": f, "b": g}\nops.update({"a": h})\nops["b"]()\n', 'ops["b"]()', {"g"}
    ),
    "update under a branch adds to its key": (
        'ops = {"a": f}\nif flag:\n    ops.update(a=g)\nops["a"]()\n', 'ops["a"]()', {"f", "g"}
    ),
    "a constant-key store from a function": (
        'ops = {"a": f}\ndef fill():\n    ops["b"] = g\nops["b"]()\n', 'ops["b"]()', {"g"}
    ),
    "a key the literal lacks is not there": ('ops = {"a": f, "b": g}\nops["z"]()\n', 'ops["z"]()', set()),
    "get of a key the literal lacks gives its default": (
        'ops = {"a": f, "b": g}\nops.get("z", h)()\n', 'ops.get("z", h)()', {"h"}
    ),
    "a string member calls nothing": ('ops = {"a": "text", "b": g}\nops["a"]()\n', 'ops["a"]()', set()),
    "a class attribute through self": (
        'class C:\n    T = {"a": f, "b": g}\n    def run(self):\n        self.T["b"]()\n', 'self.T["b"]()', {"g"}
    ),
    "a local literal": ('def run():\n    t = {"a": f, "b": g}\n    t["a"]()\n', 't["a"]()', {"f"}),
}

BAG = {
    "a computed key": ('ops = {"a": f, "b": g}\nops[k]()\n', "ops[k]()", {"f", "g"}),
    "a computed-key store": ('ops = {"a": f, "b": g}\nops[k] = h\nops["a"]()\n', 'ops["a"]()', {"f", "g", "h"}),
    # what the call put in the container joins the bag
    "update from a mapping not known": (
        'ops = {"a": f, "b": g}\nops.update(more)\nops["a"]()\n', 'ops["a"]()', {"f", "g"}
    ),
    "update whose value is used": (
        'ops = {"a": f, "b": g}\nx = ops.update(a=h)\nops["a"]()\n', 'ops["a"]()', {"f", "g", "h"}
    ),
    "insert": ("fs = [f, g]\nfs.insert(0, h)\nfs[1]()\n", "fs[1]()", {"f", "g", "h"}),
    "append": ("fs = [f, g]\nfs.append(h)\nfs[-1]()\n", "fs[-1]()", {"f", "g", "h"}),
    "+=": ("fs = [f, g]\nfs += [h]\nfs[0]()\n", "fs[0]()", {"f", "g", "h"}),
    "passed to a function": ('ops = {"a": f, "b": g}\nfill(ops)\nops["a"]()\n', 'ops["a"]()', {"f", "g"}),
    "aliased": ('ops = {"a": f, "b": g}\nother = ops\nops["a"]()\n', 'ops["a"]()', {"f", "g"}),
    "rebound": ('ops = {"a": f, "b": g}\nops = {"a": h}\nops["a"]()\n', 'ops["a"]()', {"f", "g", "h"}),
    "deleted from": ('ops = {"a": f, "b": g}\ndel ops["b"]\nops["a"]()\n', 'ops["a"]()', {"f", "g"}),
    "a splat in the literal": ('ops = {"a": f, **more}\nops["a"]()\n', 'ops["a"]()', {"f"}),
    "a tuple from a generator": (
        "def get():\n    yield f\n    return g, h\na, b = get()\nb()\n", "b()", {"f", "g", "h"}
    ),
    "a list returned (the caller may reorder it)": (
        "def get(): return [f, g]\nfs = get()\nfs[0]()\n", "fs[0]()", {"f", "g"}
    ),
}


@pytest.mark.parametrize(("source", "line", "expected"), KEYED.values(), ids=KEYED.keys())
def test_a_constant_key_reads_the_member_under_it(source: str, line: str, expected: set[str]) -> None:
    assert called(source, line) == expected


@pytest.mark.parametrize(("source", "line", "expected"), BAG.values(), ids=BAG.keys())
def test_a_container_that_may_change_keeps_its_bag(source: str, line: str, expected: set[str]) -> None:
    assert called(source, line) == expected


def test_a_nested_member_that_may_change_reads_nothing_of_the_literal() -> None:
    source = 'cfg = {"h": {"on": f}}\ninner = cfg["h"]\ncfg["h"]["on"]()\n'
    assert called(source, 'cfg["h"]["on"]()') == set()


# ----------------------------------------------------------------- incremental

SHARED = {  # one reader a file: a file's sites are resolved again when any of its reads changed
    "pkg/__init__.py": "",
    "pkg/use_pick.py": "from pkg.table import pick\n\n\ndef run():\n    pick()()\n",
    "pkg/use_pick2.py": "from pkg.table import pick2\n\n\ndef run():\n    pick2()()\n",
    "pkg/use_pair.py": "from pkg.table import pair\n\n\ndef run():\n    a, b = pair()\n    b()\n",
    "pkg/use_attr.py": "import pkg.table as t\n\n\ndef run():\n    t.OPS['b']()\n",
    "pkg/other.py": "def unrelated():\n    return 0\n",
}
HEAD = FUNCS + "def pick():\n    return OPS['a']\n\n\n"
TABLES = {
    "a member": ("OPS = {'a': f, 'b': g}\n", "OPS = {'a': h, 'b': g}\n"),
    "a mutation": ("OPS = {'a': f, 'b': g}\n", "OPS = {'a': f, 'b': g}\nOPS.update(a=h)\n"),
    "a constant-key store": ("OPS = {'a': f, 'b': g}\n", "OPS = {'a': f, 'b': g}\ndef fill():\n    OPS['a'] = h\n"),
    "a returned tuple": (
        "OPS = {'a': f, 'b': g}\ndef pair():\n    return f, g\n",
        "OPS = {'a': f, 'b': g}\ndef pair():\n    return f, h\n",
    ),
    "a key comes and goes": (
        "OPS = {'a': f, 'b': g}\ndef pick2():\n    return OPS.get('c', h)\n",
        "OPS = {'a': f, 'b': g}\ndef pick2():\n    return OPS.get('c', h)\nOPS['c'] = g\n",
    ),
    "the literal turns static": (
        "OPS = {'a': f, 'b': g}\nOPS.update(c=h)\ndef pick2():\n    return OPS['c']\n",
        "OPS = {'a': f, 'b': g}\nOPS.keys()\ndef pick2():\n    return OPS['c']\n",
    ),
    "a returned tuple becomes a generator's": (
        "OPS = {'a': f, 'b': g}\ndef pair():\n    return f, g\n",
        "OPS = {'a': f, 'b': g}\ndef pair():\n    yield h\n    return f, g\n",
    ),
}


@pytest.mark.parametrize(("before", "after"), TABLES.values(), ids=TABLES.keys())
def test_a_derived_graph_follows_a_keyed_member_read_from_another_file(
    before: str, after: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    for old, new in ((before, after), (after, before)):
        old_facts = facts({**SHARED, "pkg/table.py": HEAD + old})
        new_facts = facts({**SHARED, "pkg/table.py": HEAD + new})
        _graph, derived = derived_from(old_facts, new_facts)
        assert derived == link(new_facts)


ITEMS = """
class Handler:
    def run(self):
        pass

HANDLERS = {"a": Handler()}

def use(extra):
    for name, handler in HANDLERS.items():
        handler.run()
        name.run()
    for i, (name, handler) in enumerate(sorted(HANDLERS.items())):
        name.run()
"""


@pytest.mark.parametrize(("line_text", "expected"), [
    ("handler.run()", {"Handler::run"}),
    # a dict's keys are not its values: nothing known about them calls the handlers' method
    ("name.run()", set()),
])
def test_a_dicts_items_give_its_values_as_the_second_of_each_pair_only(line_text: str, expected: set[str]) -> None:
    text = FUNCS + ITEMS
    lines = [i + 1 for i, t in enumerate(text.splitlines()) if t.strip() == line_text]
    graph = link(facts({"main.py": text}))
    assert {c.target.removeprefix("main.py::") for c in graph.calls if c.line in lines} == expected
