"""Import cycles and self-references end in unresolved calls, never in a crash."""

from __future__ import annotations

import pytest

from impactbot.extract import extract
from impactbot.link import link

CYCLES = {
    "star imports of each other": {"pkg/a.py": "from pkg.b import *\n\ndef f():\n    return g()\n",
                                   "pkg/b.py": "from pkg.a import *\n"},
    "names imported from each other": {"pkg/a.py": "from pkg.b import g\n\ndef f():\n    return g()\n",
                                       "pkg/b.py": "from pkg.a import g\n"},
    "a module importing from itself": {"pkg/a.py": "from pkg.a import g\n\ndef f():\n    return g()\n"},
}


@pytest.mark.parametrize("files", CYCLES.values(), ids=CYCLES.keys())
def test_import_cycles_leave_the_call_unresolved(files: dict[str, str]) -> None:
    facts = {p: extract(t.encode(), "python") for p, t in {"pkg/__init__.py": "", **files}.items()}
    graph = link(facts)
    assert [e for e in graph.edges if e.kind == "calls"] == []
    assert dict(graph.unresolved) == {"pkg/a.py::f": 1}


def test_deep_alias_chains_are_cut_not_crashing() -> None:
    chain = "def f0():\n    return 1\n\n" + "".join(f"f{i} = f{i - 1}\n" for i in range(1, 3000)) + "f2999()\n"
    graph = link({"m.py": extract(chain.encode(), "python")})
    assert graph.symbols  # linked; a chain deeper than the resolver follows is just unknown
