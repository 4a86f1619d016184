"""Which file an import names when several files have that module name."""

from __future__ import annotations

from collections.abc import Mapping

from helpers.linking import facts

from impactbot.link import _Linker, link
from impactbot.link.modules import ModuleIndex
from impactbot.link.python import IMPORT_LOOKUP_BUDGET, Resolver, Scope, Values
from impactbot.model import FileFacts


def test_a_module_in_the_importers_directory_is_the_one_imported() -> None:
    index = ModuleIndex.build(["tools/a/helpers.py", "tools/b/helpers.py", "tools/a/run.py", "tools/b/run.py"])
    assert index.paths("helpers", "tools/a/run.py") == ["tools/a/helpers.py"]
    assert index.paths("helpers", "tools/b/run.py") == ["tools/b/helpers.py"]
    # from elsewhere under the same root, either may be the one
    assert index.paths("helpers", "tools/c/run.py") == ["tools/a/helpers.py", "tools/b/helpers.py"]


def test_a_package_in_the_importers_directory_counts_too() -> None:
    index = ModuleIndex.build(["ex/one/cfg/__init__.py", "ex/two/cfg/__init__.py", "ex/one/main.py"])
    assert index.paths("cfg", "ex/one/main.py") == ["ex/one/cfg/__init__.py"]


def test_a_directory_without_init_inside_a_package_is_a_namespace_portion_of_it() -> None:
    index = ModuleIndex.build(["src/web/__init__.py", "src/web/app.py", "src/web/sansio/app.py",
                               "src/web/sansio/scaffold.py", "src/web/sansio/deep/more.py"])
    assert index.paths("web.sansio.app") == ["src/web/sansio/app.py"]
    assert index.paths("web.sansio.deep.more") == ["src/web/sansio/deep/more.py"]
    assert index.absolute("src/web/sansio/app.py", "globals", 2) == "web.globals"
    assert index.absolute("src/web/sansio/app.py", "scaffold", 1) == "web.sansio.scaffold"
    # run as a script from its own directory, it still finds its neighbours by their bare names
    assert index.paths("scaffold", "src/web/sansio/app.py") == ["src/web/sansio/scaffold.py"]


def test_a_class_inherits_from_a_base_in_a_namespace_portion_of_its_package() -> None:
    files = {
        "src/web/__init__.py": "",
        "src/web/globals.py": "def current():\n    return 1\n",
        "src/web/sansio/app.py": ("from ..globals import current\n\n\nclass App:\n"
                                  "    def register(self, bp):\n        return current()\n"),
        "src/web/app.py": "from .sansio.app import App\n\n\nclass Flask(App):\n    pass\n",
        "tests/test_app.py": "from web.app import Flask\n\n\ndef test_register():\n    Flask().register(1)\n",
    }
    edges = {(e.source, e.target, e.kind) for e in link(facts(files)).edges}
    assert ("src/web/app.py::Flask", "src/web/sansio/app.py::App", "inherits") in edges
    assert ("tests/test_app.py::test_register", "src/web/sansio/app.py::App::register", "calls") in edges
    assert ("src/web/sansio/app.py::App::register", "src/web/globals.py::current", "calls") in edges


def test_scripts_calling_their_own_helpers() -> None:
    files = {
        f"examples/{d}/{name}.py": text
        for d in ("first", "second")
        for name, text in (("helpers", f"def make():\n    return '{d}'\n"),
                           ("run", "from helpers import make\n\n\ndef main():\n    return make()\n"))
    }
    graph = link(facts(files))
    calls = {(e.source, e.target) for e in graph.edges if e.kind == "calls"}
    assert ("examples/first/run.py::main", "examples/first/helpers.py::make") in calls
    assert ("examples/first/run.py::main", "examples/second/helpers.py::make") not in calls


class CountingResolver(Resolver):
    """Counts the lookups of imported names (the work a cycle of re-exports can multiply)."""

    def __init__(self, facts: Mapping[str, FileFacts]) -> None:
        self.lookups = 0
        super().__init__(facts)

    def _guarded_lookup(self, name: str, scope: Scope) -> Values | None:
        self.lookups += 1
        return super()._guarded_lookup(name, scope)


def test_re_exports_around_same_named_modules_stay_bounded() -> None:
    # eight m.py and eight n.py, none next to what it imports: every m may be any n and back,
    # so following every order of them would never end
    files = {}
    for i in range(8):
        files[f"t/d{i}/m.py"] = "from n import X\n\n\ndef use():\n    return X()\n"
        files[f"t/e{i}/n.py"] = "from m import X\n"
    linker = _Linker(facts(files), resolver=CountingResolver)
    linker.run()
    assert isinstance(linker.r, CountingResolver)
    assert linker.r.lookups < 1000 * IMPORT_LOOKUP_BUDGET  # without the budget: about 8!·8! orders


def test_a_module_imported_by_a_constant_name_at_run_time() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/backends.py": "def connect():\n    pass\n\n\nclass Backend:\n    def open(self):\n        pass\n",
        "main.py": (
            "import importlib\nfrom django.utils.module_loading import import_string\n\n\n"
            "def load(name):\n"
            "    importlib.import_module('pkg.backends').connect()\n"
            "    import_string('pkg.backends.Backend')().open()\n"
            "    importlib.import_module(name).connect()\n"  # a computed name: not known
            "    importlib.import_module('.backends', package='pkg').connect()\n"  # relative: not read
        ),
    }
    called = {e.target for e in link(facts(files)).edges if e.source == "main.py::load"}
    assert called == {"pkg/backends.py::connect", "pkg/backends.py::Backend", "pkg/backends.py::Backend::open"}
