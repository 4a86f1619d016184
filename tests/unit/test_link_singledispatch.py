"""functools.singledispatch: a call of the generic function may run every implementation
registered on it, in whichever module registers it."""

from __future__ import annotations

from helpers.linking import assert_derived_both_ways, facts

from impactbot.link import link
from impactbot.model import LinkedGraph

GENERIC = """
from functools import singledispatch


@singledispatch
def render(obj):
    raise TypeError(obj)


@render.register
def _(obj: int):
    return str(obj)


@render.register(float)
def _float(obj):
    return fmt(obj)


def fmt(x):
    return x


def show(x):
    return render(x)
"""


def calls_of(graph: LinkedGraph, caller: str) -> dict[str, str]:
    """callee -> confidence of the calls edges out of ``caller``."""
    return {e.target: e.confidence for e in graph.edges if e.kind == "calls" and e.source == caller}


def test_a_call_of_the_generic_function_reaches_each_registered_implementation() -> None:
    found = calls_of(link(facts({"m.py": GENERIC})), "m.py::show")
    assert found == {"m.py::render": "resolved", "m.py::_": "inferred", "m.py::_float": "inferred"}


def test_implementations_registered_in_another_module_in_every_form() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/base.py": "from functools import singledispatch\n\n\n@singledispatch\ndef render(obj):\n    pass\n",
        "pkg/impls.py": (
            "from pkg.base import render\nfrom pkg import base\n\n\n"
            "@base.render.register(bytes)\ndef _bytes(obj):\n    pass\n\n\n"
            "def _list(obj):\n    pass\n\n\ndef _dict(obj):\n    pass\n\n\n"
            "render.register(list, _list)\nrender.register(dict)(_dict)\n"
        ),
        "pkg/use.py": "from pkg.base import render\n\n\ndef show(x):\n    return render(x)\n",
    }
    found = calls_of(link(facts(files)), "pkg/use.py::show")
    assert set(found) == {"pkg/base.py::render", "pkg/impls.py::_bytes", "pkg/impls.py::_list",
                          "pkg/impls.py::_dict"}


def test_a_singledispatchmethod_reaches_the_methods_registered_on_it() -> None:
    source = """
    import functools


    class Visitor:
        @functools.singledispatchmethod
        def visit(self, node):
            pass

        @visit.register
        def _(self, node: int):
            self.leaf()

        def leaf(self):
            pass


    def walk(v: Visitor):
        v.visit(1)
    """
    graph = link(facts({"m.py": source}))
    assert set(calls_of(graph, "m.py::walk")) == {"m.py::Visitor::visit", "m.py::Visitor::_"}


def test_a_register_on_anything_else_is_no_implementation() -> None:
    # `render` of other.py is no generic function, and `atexit.register` registers nothing on one
    other = (
        "import atexit\n\n\ndef render(obj):\n    pass\n\n\n@atexit.register\ndef bye():\n    pass\n\n\n"
        "def show(x):\n    return render(x)\n"
    )
    graph = link(facts({"m.py": GENERIC, "other.py": other}))
    assert calls_of(graph, "other.py::show") == {"other.py::render": "resolved"}


def test_a_function_that_only_registers_is_not_called_by_registering() -> None:
    graph = link(facts({"m.py": GENERIC}))
    assert "m.py::_" not in {e.target for e in graph.edges if e.source == "m.py"}


CALLER = {
    "base.py": "from functools import singledispatch\n\n\n@singledispatch\ndef render(obj):\n    pass\n",
    "use.py": "from base import render\n\n\ndef show(x):\n    return render(x)\n",
    # files no change reaches: the graph is derived, not linked again
    **{f"plain{i}.py": f"def f{i}():\n    return g{i}()\n\n\ndef g{i}():\n    pass\n" for i in range(4)},
}


def test_a_derived_graph_sees_implementations_registered_in_other_files() -> None:
    before = "from base import render\n"
    after = before + "\n\n@render.register\ndef _(obj: int):\n    pass\n"
    assert_derived_both_ways(CALLER, "impls.py", before, after)


def test_a_derived_graph_sees_a_registration_move_to_another_function() -> None:
    files = {**CALLER, "other.py": "from functools import singledispatch\n\n\n@singledispatch\ndef render(o):\n"
                                   "    pass\n"}
    before = "from base import render\n\n\n@render.register\ndef _(obj: int):\n    pass\n"
    assert_derived_both_ways(files, "impls.py", before, before.replace("from base", "from other"))


def test_a_derived_graph_sees_a_function_become_generic_by_its_import_alone() -> None:
    files = {**CALLER, "impls.py": "from base import render\n\n\n@render.register\ndef _(obj: int):\n    pass\n"}
    generic = "from functools import singledispatch as dispatch\n\n\n@dispatch\ndef render(obj):\n    pass\n"
    plain = generic.replace("from functools import singledispatch as dispatch", "from mylib import dispatch")
    assert_derived_both_ways(files, "base.py", plain, generic)
    assert "impls.py::_" in {e.target for e in link(facts({**files, "base.py": generic})).edges}
