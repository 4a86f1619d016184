"""`impactbot diff` end to end: real repositories, real parsing, real cache, the CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers.gitrepo import RepoBuilder

from impactbot.cli import main
from impactbot.report import schema

UTIL = """\
def helper(x):
    return x + 1


def unrelated():
    return 0
"""

A = """\
from pkg.util import helper


def a(v):
    return helper(v) * 2
"""

B = """\
from pkg import a as amod


def b():
    return amod.a(1)
"""

TEST_B = """\
from pkg.b import b


def test_b():
    assert b() == 4
"""


def diff(repo: Path, *args: str, cache: Path | None = None, expect: int = 0) -> dict[str, Any]:
    out = repo.parent / "report.json"
    argv = ["diff", *args, "-C", str(repo), "--format", "json", "-o", str(out), "--no-semantic", "-q"]
    argv += ["--cache-dir", str(cache)] if cache else ["--no-cache"]
    assert main(argv) == expect
    report = json.loads(out.read_text())
    jsonschema.validate(report, schema("impact-report"))
    return report


def changed(report: dict[str, Any]) -> dict[str, str]:
    return {c["id"]: c["change"] for c in report["changed"]}


def impacted(report: dict[str, Any]) -> dict[str, int]:
    return {i["id"]: i["depth"] for i in report["impacted"]}


@pytest.fixture
def shop(repo: RepoBuilder) -> RepoBuilder:
    """
        * main   pkg/util.helper <- pkg/a.a <- pkg/b.b <- tests/test_b.test_b
    """
    repo.commit({"pkg/__init__.py": "", "pkg/util.py": UTIL, "pkg/a.py": A, "pkg/b.py": B,
                 "tests/test_b.py": TEST_B}, "base")
    repo.start_branch("feature")
    return repo


def test_modified_function_reaches_callers_through_imports_and_aliases(shop: RepoBuilder) -> None:
    shop.commit({"pkg/util.py": UTIL.replace("x + 1", "x + 2")})
    report = diff(shop.path, "main..feature")
    assert changed(report) == {"pkg/util.py::helper": "modified"}
    assert impacted(report) == {"pkg/a.py::a": 1, "pkg/b.py::b": 2, "tests/test_b.py::test_b": 3}
    by_id = {i["id"]: i for i in report["impacted"]}
    assert by_id["tests/test_b.py::test_b"]["paths"] == [
        ["tests/test_b.py::test_b", "pkg/b.py::b", "pkg/a.py::a", "pkg/util.py::helper"]
    ]
    assert by_id["tests/test_b.py::test_b"]["is_test"] is True
    assert report["tests"] == ["tests/test_b.py::test_b"]
    assert report["changed"][0]["signature_changed"] is False


def test_every_range_form_uses_the_merge_base(shop: RepoBuilder) -> None:
    feature = shop.commit({"pkg/util.py": UTIL.replace("x + 1", "x + 2")})
    shop.checkout("main")
    shop.commit({"pkg/a.py": A.replace("* 2", "* 3")}, "main moves on")
    expected = {"pkg/util.py::helper": "modified"}  # main's own change is not the branch's
    for form in ("main..feature", "main...feature", f"main..{feature[:10]}"):
        assert changed(diff(shop.path, form)) == expected, form
    shop.checkout("feature")
    assert changed(diff(shop.path, "main")) == expected
    assert changed(diff(shop.path, "main..")) == expected


def test_working_tree_mode_sees_uncommitted_and_untracked_files(shop: RepoBuilder) -> None:
    shop.write({"pkg/util.py": UTIL.replace("x + 1", "x + 3"), "pkg/new.py": "def fresh():\n    return 1\n"})
    report = diff(shop.path)
    assert changed(report) == {
        "pkg/util.py::helper": "modified",
        "pkg/new.py": "added",
        "pkg/new.py::fresh": "added",
    }
    assert report["head"]["worktree"] is True


def test_added_removed_and_renamed_symbols(shop: RepoBuilder) -> None:
    shop.commit({"pkg/util.py": UTIL.replace("def unrelated():\n    return 0\n", "def brand_new():\n    return 5\n")})
    report = diff(shop.path, "main..feature")
    assert changed(report) == {"pkg/util.py::brand_new": "added", "pkg/util.py::unrelated": "removed"}


def test_moved_file_reports_renamed_symbols_with_old_ids(shop: RepoBuilder) -> None:
    shop.commit({"pkg/util.py": None, "pkg/tools.py": UTIL, "pkg/a.py": A.replace("pkg.util", "pkg.tools")})
    report = diff(shop.path, "main..feature")
    renamed = {c["id"]: c.get("old_id") for c in report["changed"] if c["change"] == "renamed"}
    assert renamed == {
        "pkg/tools.py": "pkg/util.py",
        "pkg/tools.py::helper": "pkg/util.py::helper",
        "pkg/tools.py::unrelated": "pkg/util.py::unrelated",
    }


def test_moved_file_with_a_stale_importer_breaks_it(shop: RepoBuilder) -> None:
    shop.commit({"pkg/util.py": None, "pkg/tools.py": UTIL})  # pkg/a.py still imports pkg.util
    report = diff(shop.path, "main..feature")
    assert [(b["target"], b["caller"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("pkg/util.py", "pkg/a.py", 1, "imports 'pkg.util', which was moved to pkg/tools.py"),
        ("pkg/util.py::helper", "pkg/a.py::a", 5, "calls 'helper', which was moved to pkg/tools.py"),
    ]
    assert impacted(report)["pkg/a.py::a"] == 1


def test_an_import_of_a_module_that_no_longer_exists_is_breaking(repo: RepoBuilder) -> None:
    repo.commit({
        "pkg/__init__.py": "", "pkg/old.py": "X = 1\n", "pkg/kept.py": "X = 2\n",
        "ns/__init__.py": "", "ns/mod.py": "X = 3\n", "named/__init__.py": "", "named/gone.py": "X = 4\n",
        "use.py": "import pkg.old\nfrom pkg import old as o\nfrom pkg.old import X\nimport ns.mod\n"
                  "from named import gone\nimport pkg.kept\n",
        "pkg/inner.py": "from . import old\n\n\ndef late():\n    from .old import X\n    return X\n",
        "safe.py": "try:\n    import pkg.old\nexcept ImportError:\n    pass\n",
    })
    repo.start_branch("feature")
    # ns is a namespace package now; named binds `gone` itself
    repo.commit({"pkg/old.py": None, "ns/__init__.py": None, "named/gone.py": None,
                 "named/__init__.py": "gone = None\n"})
    report = diff(repo.path, "main..feature")
    assert [(b["target"], b["caller"], b["file"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("pkg/old.py", "pkg/inner.py", "pkg/inner.py", 1, "imports 'pkg.old', which no longer exists"),
        ("pkg/old.py", "pkg/inner.py::late", "pkg/inner.py", 5, "imports 'pkg.old', which no longer exists"),
        ("pkg/old.py", "use.py", "use.py", 1, "imports 'pkg.old', which no longer exists"),
        ("pkg/old.py", "use.py", "use.py", 2, "imports 'pkg.old', which no longer exists"),
        ("pkg/old.py", "use.py", "use.py", 3, "imports 'pkg.old', which no longer exists"),
    ]


def test_a_removed_method_guessed_by_its_name_is_not_broken_by_calls_that_never_fitted_it(
    repo: RepoBuilder,
) -> None:
    lib = ("class Dialect:\n    def set_client_encoding(self, connection, encoding):\n        return encoding\n\n\n"
           "def on_connect(conn):\n    conn.set_client_encoding('utf8')\n\n\n"
           "def reset(conn, raw):\n    conn.set_client_encoding(raw, 'utf8')\n")
    repo.commit({"lib.py": lib})
    repo.start_branch("feature")
    repo.commit({"lib.py": lib.replace("    def set_client_encoding(self, connection, encoding):\n"
                                       "        return encoding\n", "    pass\n")})
    report = diff(repo.path, "main..feature")
    # conn is not known: both calls were linked by the method's name; only reset's fitted it
    assert [(b["caller"], b["reason"]) for b in report["breaking"]] == [
        ("lib.py::reset", "calls 'set_client_encoding', which was removed")]


def test_a_removed_nested_def_is_still_called_only_where_its_name_is_in_scope(repo: RepoBuilder) -> None:
    lib = ("import operator\n\n\nclass Preparer:\n    def __init__(self, names):\n"
           "        def schema_for_object(obj):\n            return names.get(obj)\n\n"
           "        self.schema_for_object = schema_for_object\n        self.first = schema_for_object(None)\n\n\n"
           "def compile_table(preparer: Preparer, table):\n    return preparer.schema_for_object(table)\n")
    repo.commit({"lib.py": lib})
    repo.start_branch("feature")
    # the nested def is gone; the attribute holds another callable, which outside code makes
    repo.commit({"lib.py": lib.replace(
        "        def schema_for_object(obj):\n            return names.get(obj)\n\n"
        "        self.schema_for_object = schema_for_object\n",
        "        self.schema_for_object = operator.attrgetter('schema')\n")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["lib.py::Preparer::__init__::schema_for_object"] == "removed"
    # __init__ still calls the name it no longer defines; compile_table reads the attribute
    assert [(b["caller"], b["reason"]) for b in report["breaking"]] == [
        ("lib.py::Preparer::__init__", "calls 'schema_for_object', which was removed")]


def test_a_call_site_that_reaches_several_removed_methods_is_listed_once(repo: RepoBuilder) -> None:
    lib = ("class Reader:\n    def close(self):\n        return 1\n\n\nclass Writer:\n    def close(self):\n"
           "        return 2\n\n\ndef shut(handle):\n    handle.close()\n\n\n"
           "def main():\n    shut(Reader())\n    shut(Writer())\n")
    repo.commit({"lib.py": lib})
    repo.start_branch("feature")
    repo.commit({"lib.py": lib.replace("    def close(self):\n        return 1\n", "    pass\n")
                 .replace("    def close(self):\n        return 2\n", "    pass\n")})
    report = diff(repo.path, "main..feature")
    assert [(b["target"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("lib.py::Reader::close", 10, "calls 'close', which was removed"),
    ]


def test_a_gone_module_breaks_only_the_imports_that_found_it(repo: RepoBuilder) -> None:
    # data for a tool's tests, named like a module of the standard library, and a helper
    # next to the scripts that import it
    repo.commit({"tests/data/inspect.py": "X = 1\n", "scripts/helper.py": "def help():\n    return 1\n",
                 "scripts/run.py": "import helper\n", "app/main.py": "import inspect\nimport helper\n"})
    repo.start_branch("feature")
    repo.commit({"tests/data/inspect.py": None, "scripts/helper.py": None})
    report = diff(repo.path, "main..feature")
    assert [(b["file"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("scripts/run.py", 1, "imports 'helper', which no longer exists"),
    ]


def test_function_moved_to_another_file_is_one_rename(shop: RepoBuilder) -> None:
    helper = "def helper(x):\n    return x + 1\n"
    shop.commit({
        "pkg/util.py": UTIL.replace(helper + "\n\n", ""),
        "pkg/text.py": "import os\n\n\n" + helper,
        "pkg/a.py": A.replace("pkg.util", "pkg.text"),
    })
    report = diff(shop.path, "main..feature")
    assert {c["id"]: (c["change"], c.get("old_id")) for c in report["changed"]} == {
        "pkg/text.py": ("added", None),
        "pkg/text.py::helper": ("renamed", "pkg/util.py::helper"),
        "pkg/a.py": ("modified", None),
    }
    assert report["breaking"] == []  # its one caller imports it from the new place
    assert report["changed"][1]["signature_changed"] is False


def test_moved_function_left_behind_by_a_caller_is_breaking(shop: RepoBuilder) -> None:
    helper = "def helper(x):\n    return x + 1\n"
    shop.commit({"pkg/util.py": UTIL.replace(helper + "\n\n", ""), "pkg/text.py": helper})
    report = diff(shop.path, "main..feature")
    assert changed(report)["pkg/text.py::helper"] == "renamed"
    assert [(b["caller"], b["reason"]) for b in report["breaking"]] == [
        ("pkg/a.py::a", "calls 'helper', which was moved to pkg/text.py")
    ]


def test_moved_function_named_through_its_old_module_is_breaking(repo: RepoBuilder) -> None:
    helper = "def helper(x):\n    return x + 1\n"
    repo.commit({"pkg/__init__.py": "", "pkg/util.py": UTIL,
                 "pkg/a.py": "from pkg import util\n\n\ndef a(v):\n    return util.helper(v) * 2\n"})
    repo.start_branch("feature")
    repo.commit({"pkg/util.py": UTIL.replace(helper + "\n\n", ""), "pkg/text.py": helper})
    report = diff(repo.path, "main..feature")
    assert changed(report)["pkg/text.py::helper"] == "renamed"
    # the one `helper` left in the repository matches by name only: util.helper is gone all the same
    assert [(b["target"], b["caller"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("pkg/util.py::helper", "pkg/a.py::a", 5, "calls 'helper', which was moved to pkg/text.py")
    ]


def test_an_import_of_a_name_its_module_no_longer_binds_is_breaking(repo: RepoBuilder) -> None:
    lib = ("import os\n\nTIMEOUT = 5\nLIMIT = 3\n\n\ndef helper():\n    return 1\n\n\n"
           "def spare():\n    return 2\n\n\ndef kept():\n    return 3\n\n\ndef on_exit(code):\n    return code\n")
    repo.commit({
        "pkg/__init__.py": "", "pkg/lib.py": lib, "pkg/sub.py": "X = 1\n",
        "use.py": "from pkg.lib import TIMEOUT, helper, kept\n\n\ndef go():\n"
                  "    return sorted([3], key=helper), TIMEOUT, kept()\n",
        "later.py": "def load():\n    from pkg.lib import LIMIT\n    return LIMIT\n",
        "safe.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pkg.lib import spare\n"
                   "try:\n    from pkg.lib import os\nexcept ImportError:\n    os = None\n"
                   "from pkg import sub\n",
        "hooks.py": "from pkg.lib import on_exit, kept\n\nHOOKS = [on_exit]\n\n\ndef run():\n    kept()\n",
    })
    repo.start_branch("feature")
    repo.commit({"pkg/lib.py": "from pkg.sub import X as LIMIT\n\n\ndef kept():\n    return 3\n",
                 "pkg/exits.py": "def on_exit(code):\n    return code\n"})
    report = diff(repo.path, "main..feature")
    assert [(b["target"], b["caller"], b["file"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("pkg/lib.py::on_exit", "hooks.py", "hooks.py", 1, "imports 'on_exit', which was moved to pkg/exits.py"),
        ("pkg/lib.py", "use.py", "use.py", 1, "imports 'TIMEOUT', which pkg/lib.py no longer defines"),
        ("pkg/lib.py::helper", "use.py", "use.py", 1, "imports 'helper', which pkg/lib.py no longer defines"),
    ]  # LIMIT is imported there now; a type-only, a guarded and a submodule import do not fail


def test_a_read_of_a_name_its_module_no_longer_binds_is_breaking(repo: RepoBuilder) -> None:
    lib = "TIMEOUT = 5\n\n\ndef helper(x):\n    return x\n\n\nclass Old:\n    pass\n\n\ndef kept():\n    return 3\n"
    repo.commit({
        "pkg/__init__.py": "", "pkg/lib.py": lib, "pkg/sub/__init__.py": "", "pkg/sub/deep.py": lib,
        "use.py": (
            "from pkg import lib\nimport pkg.sub.deep\n\n"
            "HANDLERS = {'h': lib.helper}\n\n\n"
            "def go(v: lib.Old):\n    local: lib.Old = v\n    return pkg.sub.deep.TIMEOUT, local\n\n\n"
            "def mapped():\n    return list(map(lib.helper, [1]))\n\n\n"
            "def shadowed(lib):\n    return lib.helper\n\n\n"
            "def fine():\n    return lib.kept, pkg.sub.deep, pkg.sub\n"),
        "lazy.py": "from __future__ import annotations\n\nfrom pkg import lib\n\n\n"
                   "def f(v: lib.Old) -> lib.Old:\n    return v\n",
        "guarded.py": "try:\n    from pkg import lib\nexcept ImportError:\n    lib = None\n\nH = lib.helper\n",
    })
    repo.start_branch("feature")
    repo.commit({"pkg/lib.py": "def kept():\n    return 3\n", "pkg/sub/deep.py": "def kept():\n    return 3\n"})
    report = diff(repo.path, "main..feature")
    assert [(b["target"], b["caller"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("pkg/lib.py::helper", "use.py", 4, "reads 'helper', which pkg/lib.py no longer defines"),
        ("pkg/lib.py::Old", "use.py", 7, "reads 'Old', which pkg/lib.py no longer defines"),
        ("pkg/sub/deep.py", "use.py::go", 9, "reads 'TIMEOUT', which pkg/sub/deep.py no longer defines"),
        ("pkg/lib.py::helper", "use.py::mapped", 13, "reads 'helper', which was removed"),
    ]  # the local annotation never runs, nor any under `annotations`; a parameter, a guarded import


def test_an_all_entry_naming_a_removed_def_breaks_star_imports(repo: RepoBuilder) -> None:
    util = ('__all__ = [\n    "slugify",\n    "titlecase",\n]\n\n\n'
            "def slugify(s):\n    return s.lower()\n\n\ndef titlecase(s):\n    return s.title()\n")
    text = '__all__ = ["shout"]\n\n\ndef shout(s):\n    return s.upper()\n'
    repo.commit({"pkg/__init__.py": "", "pkg/util.py": util, "pkg/text.py": text})
    repo.start_branch("feature")
    # util keeps titlecase in __all__; text takes shout out of its __all__ as well
    repo.commit({"pkg/util.py": util.split("\n\n\ndef titlecase")[0] + "\n",
                 "pkg/text.py": "__all__ = []\n"})
    report = diff(repo.path, "main..feature")
    assert [(b["target"], b["caller"], b["file"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("pkg/util.py::titlecase", "pkg/util.py", "pkg/util.py", 1,
         "__all__ lists 'titlecase', which pkg/util.py no longer defines: a star import of the module fails"),
    ]


def test_an_annotation_alone_declares_a_name_in_a_stub_but_binds_none_in_a_module(repo: RepoBuilder) -> None:
    # mypy's typeshed: `PI = ProcessingInstruction` became `PI: Callable[..., Element]` in a
    # stub (which declares PI); the same in a module that runs binds nothing
    before = '__all__ = ["PI", "LIMIT"]\n\n\ndef make(target):\n    return target\n\n\nPI = make\nLIMIT = 5\n'
    after = before.replace("PI = make\nLIMIT = 5\n", "PI: Callable[..., int]\nLIMIT: int\n")
    repo.commit({"stubs/tree.pyi": before, "conf.py": before})
    repo.start_branch("feature")
    repo.commit({"stubs/tree.pyi": after, "conf.py": after})
    report = diff(repo.path, "main..feature")
    assert [(b["file"], b["reason"]) for b in report["breaking"]] == [
        ("conf.py", "__all__ lists 'LIMIT', which conf.py no longer defines: a star import of the module fails"),
        ("conf.py", "__all__ lists 'PI', which conf.py no longer defines: a star import of the module fails"),
    ]


def test_a_removed_def_a_package_re_exports_by_a_star_import_is_breaking(repo: RepoBuilder) -> None:
    repo.commit({
        "pkg/__init__.py": "from .util import *\n",
        "pkg/util.py": "def slugify(s):\n    return s.lower()\n\n\ndef titlecase(s):\n    return s.title()\n",
        "loose/__init__.py": "from .util import *\nfrom os.path import *\n",
        "loose/util.py": "def squash(s):\n    return s.strip()\n",
        "app.py": ("import pkg\nfrom pkg import titlecase\nfrom loose import squash\n\n"
                   "HANDLERS = {'t': pkg.titlecase, 's': squash}\n"),
    })
    repo.start_branch("feature")
    repo.commit({"pkg/util.py": "def slugify(s):\n    return s.lower()\n", "loose/util.py": "X = 1\n"})
    report = diff(repo.path, "main..feature")
    # the package's star import no longer brings the name; loose's star import of os.path may
    assert [(b["target"], b["caller"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("pkg/util.py::titlecase", "app.py", 2, "imports 'titlecase', which pkg/util.py no longer defines"),
        ("pkg/util.py::titlecase", "app.py", 5, "reads 'titlecase', which pkg/util.py no longer defines"),
    ]


def test_a_name_its_module_still_binds_another_way_is_not_breaking(repo: RepoBuilder) -> None:
    """The class gone, the name kept: an alias (`memoized_property = _memoized`, the
    decorator applied through the package), a builtin in its place (`OrderedDict =
    dict`), a module __getattr__ assigned; a property turned into a descriptor of the
    project's own is still read as a value."""
    helpers = ("class memoized_property:\n    def __init__(self, fget):\n        self.fget = fget\n\n\n"
               "class OrderedDict(dict):\n    pass\n")
    box = "class Box:\n    @property\n    def size(self):\n        return 1\n"
    repo.commit({
        "pkg/__init__.py": "", "pkg/util/__init__.py": "from .helpers import OrderedDict, memoized_property\n",
        "pkg/util/helpers.py": helpers, "pkg/legacy.py": "def old():\n    return 1\n",
        "pkg/box.py": box,
        "use.py": ("from pkg import util, legacy\nfrom pkg.box import Box\n\n\nclass Model:\n"
                   "    @util.memoized_property\n    def total(self):\n        return util.OrderedDict()\n\n\n"
                   "def run(box: Box):\n    return legacy.old(), box.size + 1\n"),
    })
    repo.start_branch("feature")
    repo.commit({
        "pkg/util/helpers.py": ("class _memoized:\n    def __init__(self, fget):\n        self.fget = fget\n\n"
                                "    def __get__(self, obj, cls):\n        return self.fget(obj)\n\n\n"
                                "memoized_property = _memoized\nOrderedDict = dict\n"),
        "pkg/legacy.py": "def _moved(name):\n    return None\n\n\n__getattr__ = _moved\n",
        "pkg/box.py": box.replace("    @property", "    @_memoized").replace("class Box", "from pkg.util.helpers "
                                                                            "import _memoized\n\n\nclass Box"),
    })
    report = diff(repo.path, "main..feature")
    assert report["breaking"] == []
    assert {c["id"]: c["change"] for c in report["changed"]}["pkg/util/helpers.py::memoized_property"] == "removed"


def test_a_removed_property_whose_reader_class_binds_the_name_is_not_breaking(repo: RepoBuilder) -> None:
    shapes = ("class Base:\n    def styled(self):\n        return self.style\n\n\n"
              "class Grouping(Base):\n    @property\n    def style(self):\n        return 1\n\n\n"
              "class Lone:\n    def styled(self):\n        return self.style\n\n\n"
              "class LoneGrouping(Lone):\n    @property\n    def style(self):\n        return 1\n")
    repo.commit({"shapes.py": shapes})
    repo.start_branch("feature")
    # both properties go; Base gains the attribute, so its method reads that, Lone's reads nothing
    turned = shapes.replace("    @property\n    def style(self):\n        return 1\n", "    pass\n") \
        .replace("class Base:\n", "class Base:\n    style: int = 0\n\n")
    repo.commit({"shapes.py": turned})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("shapes.py::Lone::styled", "shapes.py::LoneGrouping::style", "reads 'style', which was removed"),
    ]


def test_calls_into_what_another_project_now_provides_are_not_breaking(repo: RepoBuilder) -> None:
    """The fallback module deleted, its name now bound to another project's class
    (`Key = ed25519.Key`, read through the package's module); an object of a class
    that is gone holds another; a zope.interface declaration has no `self`."""
    repo.commit({
        "pkg/__init__.py": "",
        "pkg/_fallback.py": "class Key:\n    @classmethod\n    def generate(cls):\n        return cls()\n\n"
                            "    def public(self):\n        return 1\n",
        "pkg/keys.py": "try:\n    from nacl import Key\nexcept ImportError:\n    from pkg._fallback import Key\n",
        "pkg/boxes.py": "class Box:\n    def size(self):\n        return 1\n\n\ndef make():\n    return Box()\n",
        "pkg/checkers.py": "from zope.interface import Interface\n\n\nclass IChecker(Interface):\n"
                           "    def check(credentials):\n        pass\n",
        "use.py": ("from pkg import keys\nfrom pkg.boxes import Box\nfrom pkg.checkers import IChecker\n\n\n"
                   "def gen():\n    return keys.Key.generate().public()\n\n\n"
                   "def measure():\n    box = Box()\n    return box.size()\n\n\n"
                   "def login(checker: IChecker):\n    return checker.check(1)\n"),
    })
    repo.start_branch("feature")
    repo.commit({
        "pkg/_fallback.py": None,
        "pkg/keys.py": "from cryptography import ed25519\n\nKey = ed25519.Key\n",
        "pkg/boxes.py": "def make():\n    return []\n",
        "pkg/checkers.py": "from zope.interface import Interface\n\n\nclass IChecker(Interface):\n"
                           "    def check(credentials, *, strict=False):\n        pass\n",
    })
    report = diff(repo.path, "main..feature")
    assert {c["id"] for c in report["changed"]} >= {"pkg/_fallback.py::Key::generate", "pkg/boxes.py::Box::size",
                                                    "pkg/checkers.py::IChecker::check"}
    # the class's own removal is what `Box()` meets; `box.size()` follows from it
    assert [(b["caller"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("use.py::measure", 11, "calls 'Box', which was removed"),
    ]


def test_a_removed_dunder_object_provides_is_not_breaking(repo: RepoBuilder) -> None:
    files = ("class File:\n    def __init__(self, path):\n        self.path = path\n\n"
             "    def __eq__(self, other):\n        return self.path == other.path\n\n"
             "    def __repr__(self):\n        return self.path\n\n"
             "    def __lt__(self, other):\n        return self.path < other.path\n")
    use = ("from files import File\n\n\ndef same(a: File, b: File):\n    return a == b, repr(a)\n\n\n"
           "def order(a: File, b: File):\n    return a < b\n")
    repo.commit({"files.py": files, "use.py": use})
    repo.start_branch("feature")
    repo.commit({"files.py": files.split("\n\n    def __eq__")[0] + "\n"})
    report = diff(repo.path, "main..feature")
    assert {c["id"] for c in report["changed"] if c["change"] == "removed"} == {
        "files.py::File::__eq__", "files.py::File::__repr__", "files.py::File::__lt__"}
    assert [(b["caller"], b["target"]) for b in report["breaking"]] == [("use.py::order", "files.py::File::__lt__")]


def test_a_moved_and_edited_function_or_a_common_name_is_not_paired(repo: RepoBuilder) -> None:
    same = "def reset(self):\n        self.items = []\n"
    repo.commit({"a.py": f"class A:\n    {same}\n\ndef work():\n    return 1\n",
                 "b.py": f"class B:\n    {same}\n"})
    repo.start_branch("feature")
    repo.commit({"a.py": "class A:\n    pass\n", "b.py": "class B:\n    pass\n",
                 "c.py": f"class A:\n    {same}\n\nclass B:\n    {same}\n\ndef work():\n    return 2\n"})
    report = diff(repo.path, "main..feature")
    kinds = changed(report)
    # A::reset and B::reset moved unchanged, each with one candidate: renamed
    assert kinds["c.py::A::reset"] == "renamed" and kinds["c.py::B::reset"] == "renamed"
    assert {c["id"]: c["old_id"] for c in report["changed"] if c["change"] == "renamed"} == {
        "c.py::A::reset": "a.py::A::reset", "c.py::B::reset": "b.py::B::reset",
    }
    # work() changed on the way: a removal and an addition, not a silent rename
    assert kinds["a.py::work"] == "removed" and kinds["c.py::work"] == "added"


def test_reformatting_is_not_a_change(shop: RepoBuilder) -> None:
    reformatted = UTIL.replace("def helper(x):\n    return x + 1", "def helper(  x ):\n    # add one\n    return (x+1)")
    shop.commit({"pkg/util.py": reformatted})
    report = diff(shop.path, "main..feature")
    assert report["changed"] == []
    assert report["impacted"] == []


def test_signature_change_is_flagged_and_breaks_callers(shop: RepoBuilder) -> None:
    shop.commit({"pkg/util.py": UTIL.replace("def helper(x):", "def helper(x, scale):")})
    report = diff(shop.path, "main..feature")
    assert report["changed"][0]["signature_changed"] is True
    assert [(b["caller"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("pkg/a.py::a", 5, "missing required argument 'scale'")
    ]


def test_a_changed_default_is_a_signature_change_that_breaks_nothing(repo: RepoBuilder) -> None:
    source = "def fetch(url, retries=3, *, timeout: float = 1.0, headers=None):\n    return url\n"
    repo.commit({"net.py": source, "use.py": "from net import fetch\n\n\ndef go():\n    return fetch('x')\n"})
    repo.start_branch("feature")
    repo.commit({"net.py": source.replace("retries=3", "retries=5").replace("headers=None", "headers = None")})
    report = diff(repo.path, "main..feature")
    assert [(c["id"], c["signature_changed"], c["signature"]) for c in report["changed"]] == [
        ("net.py::fetch", True, "(url, retries=5, *, timeout: float = 1.0, headers=None)"),
    ]  # the spaces around headers' `=` are no change
    assert report["breaking"] == []
    out = repo.path.parent / "report.md"
    assert main(["diff", "main..feature", "-C", str(repo.path), "--format", "markdown", "-o", str(out),
                 "--no-semantic", "-q", "--no-cache"]) == 0
    markdown = out.read_text()
    assert "`(url, retries=3, *, timeout: float = 1.0, headers=None)` → `(url, retries=5, " in markdown


def test_a_removed_method_whose_caller_now_calls_another_of_that_name_is_not_breaking(repo: RepoBuilder) -> None:
    base = ("class Base:\n    def info(self):\n        return {}\n\n\n"
            "class Item:\n    def info(self):\n        return 1\n\n\n"
            "class Cmd(Base):\n    def __init__(self):\n        self.items = [Item()]\n\n"
            "    def info(self):\n        return super().info()\n")
    repo.commit({"cmd.py": base})
    repo.start_branch("feature")
    repo.commit({"cmd.py": base.replace("    def info(self):\n        return {}\n", "    pass\n")
                 .replace("return super().info()", "return [item.info() for item in self.items]")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["cmd.py::Base::info"] == "removed"
    assert report["breaking"] == []  # item.info() is Item.info, inferred: not a call left dangling


def test_a_changed_constructor_or_call_signature_breaks_the_calls_that_run_it(repo: RepoBuilder) -> None:
    models = ("class Box:\n    def __init__(self, w, h):\n        self.w = w\n\n\n"
              "class Scale:\n    def __call__(self, x):\n        return x\n\n\n"
              "class Sized:\n    def __len__(self):\n        return 1\n")
    use = ("from models import Box, Scale, Sized\n\n\ndef box():\n    return Box(1, 2)\n\n\n"
           "def scale():\n    s = Scale()\n    return s(3)\n\n\ndef size():\n    return len(Sized())\n\n\n"
           "class Crate(Box):\n    def __init__(self):\n        super().__init__(1, 2)\n")
    repo.commit({"models.py": models, "use.py": use})
    repo.start_branch("feature")
    repo.commit({"models.py": models.replace("(self, w, h)", "(self, w, h, d)")
                 .replace("(self, x)", "(self, x, factor)").replace("def __len__(self)", "def __len__(self, strict)")})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("use.py::box", "models.py::Box::__init__", "missing required argument 'd'"),
        ("use.py::scale", "models.py::Scale::__call__", "missing required argument 'factor'"),
        ("use.py::Crate::__init__", "models.py::Box::__init__", "missing required argument 'd'"),
    ]  # len() passes no argument of its own: not a breaking call site


MODELS = """\
from dataclasses import dataclass
from typing import NamedTuple


@dataclass
class Point:
    x: int
    y: int


class Pair(NamedTuple):
    left: str
    right: str = ""


@dataclass
class Point3(Point):
    z: int = 0
"""

USE_MODELS = """\
from models import Pair, Point, Point3


def origin():
    return Point(0, 0)


def named():
    return Point(x=1, y=2)


def pair():
    return Pair("a")


def point3():
    return Point3(1, 2, 3)
"""


def test_a_field_added_to_a_dataclass_or_named_tuple_breaks_its_constructor_calls(repo: RepoBuilder) -> None:
    repo.commit({"models.py": MODELS, "use.py": USE_MODELS})
    repo.start_branch("feature")
    repo.commit({"models.py": MODELS.replace("    y: int\n", "    y: int\n    label: str\n")
                 .replace('right: str = ""', "right: str")})
    report = diff(repo.path, "main..feature")
    by_id = {c["id"]: c for c in report["changed"]}
    assert by_id["models.py::Point"]["signature_changed"] is True
    assert by_id["models.py::Point"]["signature"] == "(x: int, y: int, label: str)"
    assert [(b["caller"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("use.py::origin", "models.py::Point", "missing required argument 'label'"),
        ("use.py::named", "models.py::Point", "missing required argument 'label'"),
        ("use.py::pair", "models.py::Pair", "missing required argument 'right'"),
        ("use.py::point3", "models.py::Point3", "argument 3 by position now goes to 'label', not 'z'"),
    ]  # Point3(1, 2, 3) still fits, silently: Point's fields come first, so 3 is the label now


RECORDS = """\
from dataclasses import KW_ONLY, dataclass, field
from typing import ClassVar, NamedTuple


@dataclass
class Record:
    id: int
    tags: list = field(default_factory=list)


class Plain:
    def __init__(self, a):
        self.a = a


@dataclass
class Mixed(Plain):
    b: int = 0


class Pair(NamedTuple):
    left: str
    right: str = ""


class Labeled(Pair):
    def label(self):
        return self.left
"""

NAMED = """\
from dataclasses import KW_ONLY, dataclass, field
from typing import ClassVar

from records import Record


@dataclass
class Named(Record):
    name: str = ""


@dataclass
class Renamed(Named):
    id: int = 0
    kind: ClassVar[str] = "x"
    _: KW_ONLY
    note: str = field(default="")
"""

USE_RECORDS = """\
from named import Named, Renamed
from records import Labeled, Mixed, Record


def plain():
    return Record(1)


def named():
    return Named(1, [], "n")


def short():
    return Named(2)


def named_by_keyword():
    return Named(id=1, owner="me", name="n")


def renamed():
    return Renamed(note="n")


def mixed():
    return Mixed(1)


def labeled():
    return Labeled("a")
"""


def test_a_dataclass_inheriting_fields_gets_its_bases_fields_first(repo: RepoBuilder) -> None:
    repo.commit({"records.py": RECORDS, "named.py": NAMED, "use.py": USE_RECORDS})
    repo.start_branch("feature")
    repo.commit({"records.py": RECORDS.replace("    id: int\n", "    id: int\n    owner: str = ''\n")
                 .replace("@dataclass\nclass Mixed(Plain):\n", "@dataclass\nclass Mixed(Plain):\n    c: int\n")})
    report = diff(repo.path, "main..feature")
    by_id = {c["id"]: c for c in report["changed"]}
    # named.py did not change, but the __init__ its dataclasses get from Record did
    assert by_id["named.py::Named"]["signature"] == "(id: int, owner: str = …, tags: list = …, name: str = …)"
    assert by_id["named.py::Renamed"]["signature"] == (
        "(id: int = …, owner: str = …, tags: list = …, name: str = …, *, note: str = …)")
    assert by_id["named.py::Named"]["signature_changed"] is True
    # every call fits, one silently otherwise: Named(1, [], "n") gives [] to owner now, "n" to tags;
    # Mixed(1) is not checked: Plain is no dataclass
    assert [(b["caller"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("use.py::named", "named.py::Named", "argument 2 by position now goes to 'owner', not 'tags'")]


def test_a_required_field_added_to_a_base_dataclass_breaks_the_subclasses_constructor_calls(
    repo: RepoBuilder,
) -> None:
    repo.commit({"records.py": RECORDS, "named.py": NAMED, "use.py": USE_RECORDS})
    repo.start_branch("feature")
    repo.commit({"records.py": RECORDS.replace("    id: int\n", "    id: int\n    owner: str\n")
                 .replace('right: str = ""', "right: str")})
    report = diff(repo.path, "main..feature")
    assert {c["id"]: c["change"] for c in report["changed"] if c["signature_changed"]} == {
        "records.py::Record": "modified", "records.py::Pair": "modified", "records.py::Labeled": "modified",
        "named.py::Named": "modified", "named.py::Renamed": "modified"}
    # Python refuses Renamed now (its `id = 0` precedes the required owner): no signature, no check
    assert {c["id"]: c["signature"] for c in report["changed"]}["named.py::Renamed"] is None
    assert [(b["caller"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("use.py::plain", "records.py::Record", "missing required argument 'owner'"),
        ("use.py::named", "named.py::Named", "argument 2 by position now goes to 'owner', not 'tags'"),
        ("use.py::short", "named.py::Named", "missing required argument 'owner'"),
        ("use.py::labeled", "records.py::Labeled", "missing required argument 'right'"),
    ]  # Named(1, [], "n") still fits, silently: [] is the owner now, "n" the tags


UNBOUND = """\
class Shape:
    def __new__(cls, size):
        return object.__new__(cls)

    @staticmethod
    def scale(x):
        return x

    @staticmethod
    def shift(x):
        return x

    def grow(self):
        return self.scale(1), self.shift(1)


class Square(Shape):
    def __new__(cls, size):
        return super().__new__(cls, size)


def use():
    shape = Shape(1)
    shape.scale(2)
    shape.shift(2)
    return Shape.shift(3)
"""


def test_a_staticmethod_or_new_read_through_an_instance_or_super_gets_no_receiver(repo: RepoBuilder) -> None:
    repo.commit({"shapes.py": UNBOUND})
    repo.start_branch("feature")
    repo.commit({"shapes.py": UNBOUND.replace("def scale(x)", "def scale(x, *, k=0)")
                 .replace("def shift(x)", "def shift(x, y)")
                 .replace("def __new__(cls, size):\n        return object", "def __new__(cls, size, *, k=0):\n"
                          "        return object")})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["line"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("shapes.py::Shape::grow", 14, "shapes.py::Shape::shift", "missing required argument 'y'"),
        ("shapes.py::use", 25, "shapes.py::Shape::shift", "missing required argument 'y'"),
        ("shapes.py::use", 26, "shapes.py::Shape::shift", "missing required argument 'y'"),
    ]  # scale(1), scale(2) and super().__new__(cls, size) still fit: neither gets a receiver


STORED = """\
def helper(obj, x):
    return x


def tool(x):
    return x


def shared(obj, x):
    return x


class Runner:
    run = helper
    static = staticmethod(tool)

    def go(self):
        return self.run(1)

    def via_class(self):
        return Runner.run(self, 1)

    def via_static(self):
        return self.static(1)


class Holder:
    cb = shared

    def __init__(self, cb):
        self.cb = cb

    def go(self):
        return self.cb(1)


def use():
    runner = Runner()
    runner.run(2)
    return Runner.run(runner, 2)
"""


def test_a_function_stored_in_a_class_body_gets_the_instance_as_its_first_argument(repo: RepoBuilder) -> None:
    repo.commit({"stored.py": STORED})
    repo.start_branch("feature")
    repo.commit({"stored.py": STORED.replace("def helper(obj, x)", "def helper(obj, x, y=0)")
                 .replace("def tool(x)", "def tool(x, y=0)").replace("def shared(obj, x)", "def shared(obj, x, y=0)")})
    report = diff(repo.path, "main..feature")
    assert {c["id"] for c in report["changed"] if c["signature_changed"]} == {
        "stored.py::helper", "stored.py::tool", "stored.py::shared"}
    assert report["breaking"] == []  # self.run(1) is helper(self, 1), Runner.run(runner, 2) passes it


def test_a_call_through_a_class_attribute_that_misses_an_argument_breaks(repo: RepoBuilder) -> None:
    repo.commit({"stored.py": STORED})
    repo.start_branch("feature")
    repo.commit({"stored.py": STORED.replace("def helper(obj, x)", "def helper(obj, x, y)")
                 .replace("def tool(x)", "def tool(x, y)").replace("def shared(obj, x)", "def shared(obj, x, y)")})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["line"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("stored.py::Runner::go", 18, "stored.py::helper", "missing required argument 'y'"),
        ("stored.py::Runner::via_class", 21, "stored.py::helper", "missing required argument 'y'"),
        ("stored.py::use", 39, "stored.py::helper", "missing required argument 'y'"),
        ("stored.py::use", 40, "stored.py::helper", "missing required argument 'y'"),
    ]  # self.static(1) calls staticmethod(tool), which does not bind; in Holder, self.cb may be
    # the instance's own attribute, whose call gets no receiver: neither is checked


COMPAT = """\
import sys

if sys.version_info >= (3, 8):
    def parse(text):
        return text
else:
    def parse(text, strict):
        return text

try:
    from fastjson import loads as _loads

    def load(data):
        return _loads(data)
except ImportError:
    def load(data, strict=False):
        return data


def dump(obj):
    return obj


def dump(obj, indent):
    return obj
"""

USE_COMPAT = """\
from compat import dump, load, parse


def short():
    return parse("x")


def strict():
    return parse("x", True)


def lenient():
    return load("{}", strict=True)


def pretty():
    return dump({}, 2)
"""


def test_a_call_fitting_one_definition_of_a_name_redefined_in_a_branch_is_not_breaking(repo: RepoBuilder) -> None:
    repo.commit({"compat.py": COMPAT, "use.py": USE_COMPAT})
    repo.start_branch("feature")
    repo.commit({"compat.py": COMPAT.replace("def parse(text, strict)", "def parse(text, strict, mode='fast')")
                 .replace("def load(data, strict=False)", "def load(data, strict=False, *, fast=True)")})
    report = diff(repo.path, "main..feature")
    assert {c["id"] for c in report["changed"] if c["signature_changed"]} == {"compat.py::parse", "compat.py::load"}
    # parse("x") fits the first parse, load("{}", strict=True) the second load
    assert report["breaking"] == []


def test_a_call_fitting_no_definition_of_a_redefined_name_breaks(repo: RepoBuilder) -> None:
    repo.commit({"compat.py": COMPAT, "use.py": USE_COMPAT})
    repo.start_branch("feature")
    repo.commit({"compat.py": COMPAT.replace("def parse(text)", "def parse(text, mode)")
                 .replace("def parse(text, strict)", "def parse(text, mode, strict)")
                 .replace("def load(data)", "def load(data, fast)")
                 .replace("def dump(obj, indent)", "def dump(obj, indent, sort)")})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("use.py::short", "compat.py::parse", "missing required argument 'mode'"),
        ("use.py::pretty", "compat.py::dump", "missing required argument 'sort'"),
    ]  # parse("x", True) fits the first parse, load("{}", strict=True) the second load; the first
    # dump is always replaced by the second, so dump({}, 2) does not fit what runs


DECORATED = """\
import functools


def with_db(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(None, *args, **kwargs)
    return wrapper


@with_db
def query(db, sql):
    return sql


@functools.lru_cache
def cached(key):
    return key


class Box:
    @property
    def handler(self):
        return print


def use():
    return query("x"), Box().handler(1, 2), cached(1)
"""


def test_a_call_is_not_checked_against_a_def_that_does_not_receive_its_arguments(repo: RepoBuilder) -> None:
    repo.commit({"lib.py": DECORATED})
    repo.start_branch("feature")
    repo.commit({"lib.py": DECORATED.replace("def query(db, sql)", "def query(db, sql, limit=None)")
                 .replace("def handler(self)", "def handler(self) -> object")
                 .replace("def cached(key)", "def cached(key, scope)")})
    report = diff(repo.path, "main..feature")
    assert {c["id"] for c in report["changed"] if c["signature_changed"]} == {
        "lib.py::query", "lib.py::Box::handler", "lib.py::cached"}
    assert [(b["caller"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("lib.py::use", "lib.py::cached", "missing required argument 'scope'"),
    ]  # the wrapper supplies query's db; Box().handler(1, 2) calls what the getter returns


FORWARDED = """\
import functools


def logged(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)
    return wrapper


def retried(times):
    def decorate(func):
        def again(self, *a, **kw):
            return func(self, *a, **kw)
        return again
    return decorate


def defaulted(func):
    def wrapper(*args, **kwargs):
        kwargs.setdefault("limit", 10)
        return func(*args, **kwargs)
    return wrapper


@logged
def fetch(url):
    return url


@defaulted
def page(url):
    return url


class Client:
    @retried(3)
    def send(self, data):
        return data


def use():
    return fetch("x"), Client().send(b""), page("y")
"""


def test_a_call_through_a_wrapper_handing_on_its_arguments_is_checked(repo: RepoBuilder) -> None:
    repo.commit({"lib.py": FORWARDED})
    repo.start_branch("feature")
    repo.commit({"lib.py": FORWARDED.replace("def fetch(url)", "def fetch(url, timeout)")
                 .replace("def send(self, data)", "def send(self, data, *, to)")
                 .replace("def page(url)", "def page(url, limit)")})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("lib.py::use", "lib.py::Client::send", "missing required argument 'to'"),
        ("lib.py::use", "lib.py::fetch", "missing required argument 'timeout'"),
    ]  # page's wrapper adds the limit it now needs


def test_a_keyword_for_an_argument_passed_by_position_and_a_stale_recursive_call_break(repo: RepoBuilder) -> None:
    lib = "def walk(node):\n    return walk(node - 1) if node else 0\n\n\ndef pick(a, b):\n    return a\n\n\n" \
          "def use():\n    return pick(1, b=2)\n"
    repo.commit({"lib.py": lib})
    repo.start_branch("feature")
    repo.commit({"lib.py": lib.replace("def walk(node)", "def walk(node, depth)")
                 .replace("def pick(a, b)", "def pick(b, a=None)")})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["line"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("lib.py::walk", 2, "lib.py::walk", "missing required argument 'depth'"),
        ("lib.py::use", 10, "lib.py::pick", "got multiple values for argument 'b'"),
    ]


def test_removed_function_keeps_its_callers_impacted(shop: RepoBuilder) -> None:
    shop.commit({"pkg/util.py": UTIL.replace("def helper(x):\n    return x + 1\n\n\n", "")})
    report = diff(shop.path, "main..feature")
    assert changed(report) == {"pkg/util.py::helper": "removed"}
    assert impacted(report)["pkg/a.py::a"] == 1
    assert report["breaking"][0]["caller"] == "pkg/a.py::a"
    assert "removed" in report["breaking"][0]["reason"]
    assert report["tests"] == ["tests/test_b.py::test_b"]


def test_a_removed_function_replaced_by_an_outside_one_of_that_name_is_not_breaking(repo: RepoBuilder) -> None:
    use = "import logging\n\nimport log\n\n\ndef run():\n    log.info('x')\n    return 1\n\n\n" \
          "def stay():\n    log.info('y')\n    logging.info('z')\n"
    repo.commit({"log.py": "def info(msg):\n    print(msg)\n\n\ndef other():\n    return 0\n", "use.py": use})
    repo.start_branch("feature")
    repo.commit({"log.py": "def other():\n    return 0\n", "use.py": use.replace("log.info('x')", "logging.info('x')")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["log.py::info"] == "removed"
    assert [(b["caller"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("use.py::stay", 12, "calls 'info', which was removed"),
    ]  # run() calls logging.info now; stay()'s logging.info('z') was never the removed one


def test_methods_and_relative_imports(repo: RepoBuilder) -> None:
    store = "class Store:\n    def save(self, x):\n        return x\n\n    def save_all(self, xs):\n" \
            "        return [self.save(x) for x in xs]\n"
    service = "from .store import Store\n\n\ndef persist(x):\n    s = Store()\n    return s.save_all([x])\n"
    repo.commit({"app/__init__.py": "", "app/store.py": store, "app/service.py": service})
    repo.start_branch("feature")
    repo.commit({"app/store.py": store.replace("return x\n", "return [x]\n")})
    report = diff(repo.path, "main..feature")
    assert changed(report) == {"app/store.py::Store::save": "modified"}
    assert impacted(report) == {"app/store.py::Store::save_all": 1, "app/service.py::persist": 2}


def test_depth_limit_bounds_the_list_but_not_the_tests(shop: RepoBuilder) -> None:
    shop.commit({"pkg/util.py": UTIL.replace("x + 1", "x + 2")})
    report = diff(shop.path, "main..feature", "--depth", "1")
    assert impacted(report) == {"pkg/a.py::a": 1}
    assert report["truncated"]["depth_limit_hit"] is True
    assert report["tests"] == ["tests/test_b.py::test_b"]


def test_hub_cap_reports_the_hub_without_expanding_it(repo: RepoBuilder) -> None:
    callers = "".join(f"def c{i}():\n    return hub()\n\n\n" for i in range(6))
    repo.commit({"m.py": "def hub():\n    return 1\n\n\n" + callers,
                 "test_m.py": "from m import c0\n\n\ndef test_c0():\n    assert c0() == 1\n"})
    repo.start_branch("feature")
    repo.commit({"m.py": "def hub():\n    return 2\n\n\n" + callers})
    report = diff(repo.path, "main..feature", "--hub-cap", "5")
    assert report["truncated"]["hubs"] == [{"id": "m.py::hub", "callers": 6}]
    assert report["impacted"] == []
    assert report["tests"] == ["test_m.py::test_c0"]  # the tests walk goes through hubs


def test_second_run_is_served_from_the_cache(shop: RepoBuilder, tmp_path: Path) -> None:
    shop.commit({"pkg/util.py": UTIL.replace("x + 1", "x + 2")})
    cache = tmp_path / "cache"
    first = diff(shop.path, "main..feature", cache=cache)
    assert first["stats"]["files_parsed"] > 0
    second = diff(shop.path, "main..feature", cache=cache)
    assert second["stats"]["files_parsed"] == 0
    assert {k: v for k, v in second.items() if k != "stats"} == {k: v for k, v in first.items() if k != "stats"}
    shop.commit({"pkg/a.py": A.replace("* 2", "* 5")})
    third = diff(shop.path, "main..feature", cache=cache)
    assert third["stats"]["files_parsed"] == 1


def test_changed_test_is_in_tests(shop: RepoBuilder) -> None:
    shop.commit({"tests/test_b.py": TEST_B.replace("== 4", "== 5")})
    report = diff(shop.path, "main..feature")
    assert report["tests"] == ["tests/test_b.py::test_b"]


def test_conftest_change_asks_for_all_tests(shop: RepoBuilder) -> None:
    shop.commit({"tests/conftest.py": "import pytest\n"})
    report = diff(shop.path, "main..feature")
    assert report["run_all_tests"] == {"reason": "tests/conftest.py changed: it can affect any test"}


def test_configuration_in_pyproject_is_read_and_flags_win(shop: RepoBuilder) -> None:
    shop.commit({"pyproject.toml": "[tool.impactbot]\ndepth = 1\n", "pkg/util.py": UTIL.replace("x + 1", "x + 2")})
    assert impacted(diff(shop.path, "main..feature")) == {"pkg/a.py::a": 1}
    assert len(impacted(diff(shop.path, "main..feature", "--depth", "3"))) == 3


def test_exclude_glob_leaves_files_out(shop: RepoBuilder) -> None:
    shop.commit({"pkg/util.py": UTIL.replace("x + 1", "x + 2")})
    report = diff(shop.path, "main..feature", "--exclude", "tests/*")
    assert "tests/test_b.py::test_b" not in impacted(report)
    assert report["tests"] == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["diff", "nope..HEAD"], "Could not find revision 'nope'"),
        (["diff", "--depth", "0"], "--depth"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(shop: RepoBuilder, capsys: pytest.CaptureFixture[str],
                                          argv: list[str], message: str) -> None:
    assert main([*argv, "-C", str(shop.path), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_not_a_repository(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "-C", str(tmp_path), "--no-cache"]) == 2
    assert "not inside a git repository" in capsys.readouterr().err


def test_help_explains_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "--help"]) == 0
    text = capsys.readouterr().out
    for option in ("--format", "--output", "--cache-dir", "--no-semantic", "--depth", "--hub-cap",
                   "--include", "--exclude", "--tests", "--time-budget", "--github-comment", "--fail-on"):
        assert option in text
    assert main(["--help"]) == 0
    top = capsys.readouterr().out
    for command in ("diff", "graph", "tests", "cache"):
        assert command in top


def test_time_budget_gives_a_partial_report_never_an_all_clear(repo: RepoBuilder) -> None:
    filler = {f"gen/m{i}.py": "".join(f"def f{j}(x):\n    return x + {i * j}\n\n\n" for j in range(40))
              for i in range(300)}
    repo.commit({**filler, "core.py": "def core():\n    return 1\n", "use.py": "from core import core\n\n\ndef use():\n"
                 "    return core()\n"})
    repo.start_branch("feature")
    repo.commit({"core.py": "def core():\n    return 2\n"})
    report = diff(repo.path, "main..feature", "--time-budget", "0.1")
    assert report["status"] == "partial"
    assert "time budget" in report["truncated"]["reason"]
    # the changed file is read first, so the change itself is still reported
    assert changed(report) == {"core.py::core": "modified"}
    assert not any(c["change"] in ("added", "removed") for c in report["changed"])


def test_a_time_budget_that_runs_out_while_linking_gives_a_partial_report(repo: RepoBuilder, tmp_path: Path) -> None:
    # thousands of calls: far more than a tenth of a second of linking
    filler = {f"gen/m{i}.py": "".join(
        f"def f{j}(x):\n    return f{j + 1}(x) + len(x) + g{j}(x)\n\n\n" for j in range(30)) for i in range(150)}
    repo.commit({**filler, "core.py": "def core():\n    return 1\n", "extra.py": "X = 1\n",
                 "use.py": "from core import core\n\n\ndef use():\n    return core()\n"})
    repo.start_branch("feature")
    repo.commit({"core.py": "def core():\n    return 2\n"})
    cache = tmp_path / "cache"
    assert diff(repo.path, "main..feature", cache=cache)["status"] == "complete"
    # every file is read from the cache; another --exclude asks for graphs not linked yet,
    # whose link the budget stops
    short = diff(repo.path, "main..feature", "--exclude", "extra.py", "--time-budget", "0.1", cache=cache)
    assert short["status"] == "partial"
    assert "ran out while linking the call graph" in short["truncated"]["reason"]
    assert changed(short) == {"core.py::core": "modified"}
    # a graph cut short is not kept: the same run without a budget links it whole
    whole = diff(repo.path, "main..feature", "--exclude", "extra.py", cache=cache)
    assert whole["status"] == "complete"
    assert impacted(whole) == {"use.py::use": 1} and impacted(short) == {}


def test_requirements_change_asks_for_all_tests(shop: RepoBuilder) -> None:
    shop.commit({"requirements.txt": "requests==2.0\n"})
    report = diff(shop.path, "main..feature")
    assert report["run_all_tests"] == {"reason": "requirements.txt changed: it can affect any test"}
    assert report["changed"] == []


def test_documentation_and_example_configuration_does_not_ask_for_all_tests(shop: RepoBuilder) -> None:
    shop.commit({"docs/requirements.txt": "sphinx==8.0\n", "examples/plugin/setup.py": "setup()\n",
                 "doc/en/conftest.py": "collect_ignore = []\n"})
    assert diff(shop.path, "main..feature")["run_all_tests"] is None
    shop.commit({"packages/core/pyproject.toml": "[project]\nname = 'core'\n"})
    assert diff(shop.path, "main..feature")["run_all_tests"] == {
        "reason": "packages/core/pyproject.toml changed: it can affect any test"}


def test_unittest_style_test_classes_are_tests(repo: RepoBuilder) -> None:
    repo.commit({"calc.py": "def add(a, b):\n    return a + b\n",
                 "test_calc.py": "import unittest\n\nfrom calc import add\n\n\nclass Base(unittest.TestCase):\n"
                                 "    pass\n\n\nclass AdditionChecks(Base):\n    def test_add(self):\n"
                                 "        self.assertEqual(add(1, 2), 3)\n\n\nclass Helper:\n"
                                 "    def test_like_name(self):\n        return add(0, 0)\n"})
    repo.start_branch("feature")
    repo.commit({"calc.py": "def add(a, b):\n    return b + a\n"})
    report = diff(repo.path, "main..feature")
    assert report["tests"] == ["test_calc.py::AdditionChecks::test_add"]


def test_overloads_take_the_implementations_signature(repo: RepoBuilder) -> None:
    repo.commit({"lib.py": "def fetch(key):\n    return key\n",
                 "app.py": "from lib import fetch\n\n\ndef run():\n    return fetch(1, 2)\n"})
    repo.start_branch("feature")
    repo.commit({"lib.py": "from typing import overload\n\n\n@overload\ndef fetch(key: int) -> int: ...\n\n\n"
                           "@overload\ndef fetch(key: str) -> str: ...\n\n\ndef fetch(key, default=None):\n"
                           "    return key or default\n"})
    report = diff(repo.path, "main..feature")
    fetch = next(c for c in report["changed"] if c["id"] == "lib.py::fetch")
    assert fetch["signature_changed"] is True
    assert fetch["signature"] == "(key, default=None)"
    assert report["breaking"] == []  # fetch(1, 2) fits the implementation, whatever the stubs say


def test_config_from_base_ignores_the_branchs_own_configuration(shop: RepoBuilder) -> None:
    shop.commit({".impactbot.toml": "depth = 1\n", "pkg/util.py": UTIL.replace("x + 1", "x + 2")})
    assert impacted(diff(shop.path, "main..feature")) == {"pkg/a.py::a": 1}  # .impactbot.toml is read
    assert len(impacted(diff(shop.path, "main..feature", "--config-from-base"))) == 3  # main has none


def test_tests_command_prints_node_ids(shop: RepoBuilder, capsys: pytest.CaptureFixture[str]) -> None:
    shop.commit({"pkg/util.py": UTIL.replace("x + 1", "x + 2")})
    assert main(["tests", "main", "-C", str(shop.path), "--no-cache", "-q"]) == 0
    assert capsys.readouterr().out == "tests/test_b.py::test_b\n"


def test_tests_command_prints_no_ids_when_the_whole_suite_should_run(
    shop: RepoBuilder, capsys: pytest.CaptureFixture[str]
) -> None:
    # with ids, `impactbot tests | xargs pytest` would run those alone and skip what the
    # graph cannot see; with none, pytest runs the whole suite
    shop.commit({"pkg/util.py": UTIL.replace("x + 1", "x + 2"), "requirements.txt": "requests==2.32.3\n"})
    assert diff(shop.path, "main..feature")["tests"] == ["tests/test_b.py::test_b"]
    assert main(["tests", "main", "-C", str(shop.path), "--no-cache", "-q"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == ""
    assert "run the whole test suite: requirements.txt changed: it can affect any test" in err


def test_default_cache_lives_in_the_git_directory_and_can_be_cleared(
    shop: RepoBuilder, capsys: pytest.CaptureFixture[str]
) -> None:
    shop.commit({"pkg/util.py": UTIL.replace("x + 1", "x + 2")})
    assert main(["tests", "main", "-C", str(shop.path), "-q"]) == 0
    capsys.readouterr()
    assert main(["cache", "info", "-C", str(shop.path)]) == 0
    info = capsys.readouterr().out
    assert str(shop.path / ".git" / "impactbot") in info
    assert "facts:      0" not in info
    assert main(["cache", "clear", "-C", str(shop.path)]) == 0
    capsys.readouterr()
    assert main(["cache", "info", "-C", str(shop.path)]) == 0
    assert "facts:      0" in capsys.readouterr().out


ERRORS = """\
class Refused(Exception):
    def __init__(self):
        super().__init__("refused")


def check(ok):
    if not ok:
        raise Refused


def recheck(ok):
    try:
        check(ok)
    except Refused as error:
        raise error
"""


def test_raising_a_class_whose_constructor_now_needs_an_argument_is_breaking(repo: RepoBuilder) -> None:
    repo.commit({"errors.py": ERRORS})
    repo.start_branch("feature")
    repo.commit({"errors.py": ERRORS.replace("def __init__(self):", "def __init__(self, code):")})
    report = diff(repo.path, "main..feature")
    # `raise Refused` constructs it without arguments; re-raising the caught instance constructs nothing
    assert [(b["caller"], b["target"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("errors.py::check", "errors.py::Refused::__init__", 8, "missing required argument 'code'")
    ]
    assert "errors.py::check" in {i["id"] for i in report["impacted"]}


SPLATS = """\
def keep(cb):
    return cb()


def rename(cb):
    return cb()


def pair(first, second):
    return first(), second()


def done():
    return 1


def by_dict():
    return keep(**{"cb": done}), rename(**{"cb": done})


def by_dict_call():
    return rename(**dict(cb=done))


def by_list():
    return rename(*[done]), pair(*[done, done])


def by_name(options, steps):
    return rename(**options), pair(*[*steps])
"""


def test_a_literal_unpacked_into_a_call_is_checked_as_the_arguments_it_holds(repo: RepoBuilder) -> None:
    repo.commit({"splats.py": SPLATS})
    repo.start_branch("feature")
    repo.commit({"splats.py": SPLATS.replace("def keep(cb)", "def keep(cb, label=None)")
                 .replace("def rename(cb):\n    return cb()", "def rename(other):\n    return other()")
                 .replace("def pair(first, second)", "def pair(first)").replace("first(), second()", "first()")})
    report = diff(repo.path, "main..feature")
    # **{"cb": f} is cb=f and *[f, g] two positionals; a name or a literal holding *xs stays open
    assert [(b["caller"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("splats.py::by_dict", "splats.py::rename", "unexpected keyword argument 'cb'"),
        ("splats.py::by_dict_call", "splats.py::rename", "unexpected keyword argument 'cb'"),
        ("splats.py::by_list", "splats.py::pair", "takes 1 positional argument but 2 were given"),
    ]


SHADOWED = """\
def test_int():
    class Number:
        def __int__(self):
            return 8

    if PY3:
        class Number:
            value = 1
"""


def test_a_method_whose_code_is_unchanged_is_not_reported_when_a_redefinition_of_its_class_moves(
    repo: RepoBuilder,
) -> None:
    repo.commit({"test_shapes.py": SHADOWED})
    repo.start_branch("feature")
    # the second class statement leaves its branch: only the catch-all variant goes away
    repo.commit({"test_shapes.py": SHADOWED.replace("    if PY3:\n        class Number:\n            value = 1\n",
                                                    "    class Number:\n        value = 1\n")})
    report = diff(repo.path, "main..feature")
    assert [c["id"] for c in report["changed"]] == ["test_shapes.py::test_int"]


SETS = """\
class OrderedSet(set):
    pass


class Schema:
    @property
    def set_class(self):
        return OrderedSet

    def only(self, names):
        return self.set_class(names)


def nested(schema):
    make = schema.set_class
    return make(["a"])
"""


def test_a_removed_property_whose_name_is_still_bound_on_the_class_is_not_breaking(repo: RepoBuilder) -> None:
    repo.commit({"schema.py": SETS})
    repo.start_branch("feature")
    repo.commit({"schema.py": SETS.replace(
        "    @property\n    def set_class(self):\n        return OrderedSet\n", "    set_class = OrderedSet\n")})
    report = diff(repo.path, "main..feature")
    assert {c["id"]: c["change"] for c in report["changed"]}["schema.py::Schema::set_class"] == "removed"
    assert report["breaking"] == []  # `self.set_class(names)` now constructs an OrderedSet


def test_a_removed_method_called_where_its_name_resolves_to_nothing_is_still_breaking(repo: RepoBuilder) -> None:
    repo.commit({"schema.py": SETS})
    repo.start_branch("feature")
    repo.commit({"schema.py": SETS.replace(
        "    @property\n    def set_class(self):\n        return OrderedSet\n", "")})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["reason"]) for b in report["breaking"]] == [
        ("schema.py::Schema::only", "calls 'set_class', which was removed"),
    ]


CLONES = """\
class Node:
    def __init__(self, value):
        self.value = value

    def copy(self):
        return type(self)(self.value)


class Leaf(Node):
    def __init__(self, value):
        super().__init__(value)
"""


def test_a_construction_through_type_of_self_is_not_checked_against_a_guessed_class(repo: RepoBuilder) -> None:
    repo.commit({"nodes.py": CLONES})
    repo.start_branch("feature")
    # `type(self)` may be any subclass: which constructor runs is a guess, so no call is flagged
    repo.commit({"nodes.py": CLONES.replace("class Leaf(Node):\n    def __init__(self, value):",
                                            "class Leaf(Node):\n    def __init__(self, value, parent):")})
    report = diff(repo.path, "main..feature")
    assert "nodes.py::Leaf::__init__" in {c["id"] for c in report["changed"] if c["signature_changed"]}
    assert report["breaking"] == []
    assert "nodes.py::Node::copy" in {i["id"] for i in report["impacted"]}  # still a caller


UNZIP = """\
from operator import itemgetter as pick


def unzip(rows):
    def itemgetter(i):
        return lambda row: row[i]

    return [list(map(itemgetter(i), rows)) for i in range(2)]
"""


def test_a_removed_local_def_whose_name_is_now_imported_is_not_breaking(repo: RepoBuilder) -> None:
    repo.commit({"rows.py": UNZIP})
    repo.start_branch("feature")
    repo.commit({"rows.py": UNZIP.replace("from operator import itemgetter as pick",
                                          "from operator import itemgetter")
                 .replace("    def itemgetter(i):\n        return lambda row: row[i]\n\n", "")})
    report = diff(repo.path, "main..feature")
    assert {c["id"]: c["change"] for c in report["changed"]}["rows.py::unzip::itemgetter"] == "removed"
    assert report["breaking"] == []  # `itemgetter(i)` is operator's now


def test_a_removed_local_def_whose_name_is_now_undefined_is_breaking(repo: RepoBuilder) -> None:
    repo.commit({"rows.py": UNZIP})
    repo.start_branch("feature")
    repo.commit({"rows.py": UNZIP.replace("    def itemgetter(i):\n        return lambda row: row[i]\n\n", "")})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["reason"]) for b in report["breaking"]] == [
        ("rows.py::unzip", "calls 'itemgetter', which was removed"),
    ]


def test_a_file_that_does_not_parse_is_reported_whether_or_not_its_facts_were_cached(
    shop: RepoBuilder, tmp_path: Path
) -> None:
    shop.commit({"pkg/broken.py": "def broken(:\n    pass\n"})
    first = shop.commit({"pkg/util.py": UTIL.replace("x + 1", "x + 2")})
    shop.commit({"pkg/util.py": UTIL.replace("x + 1", "x + 3")})
    cache = tmp_path / "cache"
    cold = diff(shop.path, f"main..{first}", cache=cache)
    warm = diff(shop.path, "main..feature", cache=cache)  # another range: the facts come from the cache
    for report in (cold, warm):
        assert [(s["path"], s["reason"]) for s in report["skipped"]] == [("pkg/broken.py", "parse-error")]


def test_a_parse_error_the_branch_fixes_is_reported_as_the_base_versions(repo: RepoBuilder) -> None:
    repo.commit({"fixed.py": "def fixed(:\n    pass\n", "still.py": "def still(:\n    pass\n"})
    repo.start_branch("feature")
    repo.commit({"fixed.py": "def fixed():\n    pass\n", "still.py": "def still(:\n    return 1\n"})
    report = diff(repo.path, "main..feature")
    details = {s["path"]: s["detail"] for s in report["skipped"]}
    assert details["fixed.py"].endswith("(the base version; the head version parses)")
    assert "base version" not in details["still.py"]  # the head's own error


def test_a_report_served_from_the_cache_is_the_report_analysed(shop: RepoBuilder, tmp_path: Path) -> None:
    shop.commit({"pkg/util.py": UTIL.replace("x + 1", "x + 2")})
    cache = tmp_path / "cache"
    first = diff(shop.path, "main..feature", cache=cache)
    again = diff(shop.path, "main..feature", cache=cache)
    assert again["stats"]["files_parsed"] == 0  # served whole from the cache
    assert {k: v for k, v in again.items() if k != "stats"} == {k: v for k, v in first.items() if k != "stats"}


# ---------------------------------------------------------- breaking calls found in real history

OVERRIDE = """class Base(dict):
    def __init__(self, data=None):
        super().__init__(data or {})


class Ordered(Base):
    def __init__(self, data=None):
        super().__init__(data)
        self.order = []
"""


def test_removing_an_override_does_not_break_the_base_method_it_overrode(repo: RepoBuilder) -> None:
    # Base.__init__ depends on Ordered.__init__ for impact (calls may dispatch to it), but
    # its own `super().__init__()` never called it: nothing there is left calling a removed def
    repo.commit({"m.py": OVERRIDE})
    repo.start_branch("feature")
    repo.commit({"m.py": OVERRIDE.replace("    def __init__(self, data=None):\n        super().__init__(data)\n"
                                          "        self.order = []\n", "    pass\n")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["m.py::Ordered::__init__"] == "removed"
    assert report["breaking"] == []


def test_calls_expected_to_fail_in_a_test_are_not_breaking(repo: RepoBuilder) -> None:
    lib = "def extend(items, more):\n    return items + more\n"
    tests = (
        "import pytest\n\nfrom lib import extend\n\n\n"
        "def test_refuses_three():\n    with pytest.raises(TypeError):\n        extend([], [], [])\n\n\n"
        "def test_extends():\n    assert extend([1], [2]) == [1, 2]\n"
    )
    repo.commit({"lib.py": lib, "tests/test_lib.py": tests})
    repo.start_branch("feature")
    repo.commit({"lib.py": lib.replace("(items, more)", "(items, more, /)")
                 .replace("return items + more", "return [*items, *more]")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["lib.py::extend"] == "modified"
    assert report["breaking"] == []  # it was, and still is, a call with one argument too many
    # the same wrong call outside the block is reported
    repo.commit({"tests/test_lib.py": tests + "\n\ndef test_wrong():\n    extend([], [], [])\n"})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["reason"]) for b in report["breaking"]] == [
        ("tests/test_lib.py::test_wrong", "takes 2 positional arguments but 3 were given")]


def test_a_stub_of_a_module_with_code_is_not_linked(repo: RepoBuilder) -> None:
    # calls go to the code in x.py, never to the signatures in x.pyi: dropping the stub
    # (its types moved into the code) removes nothing anybody calls
    code = "def area(w, h):\n    return w * h\n"
    repo.commit({
        "shapes.py": code,
        "shapes.pyi": "def area(w: int, h: int) -> int: ...\n",
        "use.py": "from shapes import area\n\n\ndef total():\n    return area(1, 2)\n",
    })
    repo.start_branch("feature")
    repo.commit({"shapes.py": "def area(w: int, h: int) -> int:\n    return w * h\n", "shapes.pyi": None})
    report = diff(repo.path, "main..feature")
    assert report["breaking"] == []
    assert changed(report) == {"shapes.py::area": "modified"}
    assert impacted(report) == {"use.py::total": 1}


def test_a_removed_helper_replaced_by_an_outside_import_of_that_name_is_not_breaking(repo: RepoBuilder) -> None:
    compat = "def get_origin(tp):\n    return getattr(tp, '__origin__', None)\n\n\ndef other():\n    return 1\n"
    use = "from compat import get_origin\n\n\ndef kind(tp):\n    return get_origin(tp)\n"
    repo.commit({"compat.py": compat, "use.py": use})
    repo.start_branch("feature")
    repo.commit({"compat.py": "def other():\n    return 1\n",
                 "use.py": use.replace("from compat import", "from typing_extensions import")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["compat.py::get_origin"] == "removed"
    assert report["breaking"] == []


ADAPTER = """class Adapter:
    def __init__(self, schema):
        self.schema = schema

    @property
    def validator(self):
        return make_validator(self.schema)

    def validate(self, value):
        return self.validator.check(value)


def make_validator(schema):
    return schema
"""


def test_a_removed_property_whose_name_the_instances_still_hold_is_not_breaking(repo: RepoBuilder) -> None:
    repo.commit({"adapter.py": ADAPTER})
    repo.start_branch("feature")
    stored = "        self.schema = schema\n        self.validator = make_validator(schema)\n"
    repo.commit({"adapter.py": ADAPTER.replace("        self.schema = schema\n", stored).replace(
        "    @property\n    def validator(self):\n        return make_validator(self.schema)\n\n", "")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["adapter.py::Adapter::validator"] == "removed"
    assert report["breaking"] == []
    # a property gone with nothing in its place leaves its readers behind
    repo.commit({"adapter.py": ADAPTER.replace(
        "    @property\n    def validator(self):\n        return make_validator(self.schema)\n\n", "")})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["reason"]) for b in report["breaking"]] == [
        ("adapter.py::Adapter::validate", "reads 'validator', which was removed")]


def test_a_removed_property_now_a_named_tuple_field_is_not_breaking(repo: RepoBuilder) -> None:
    layer = ("class Layer:\n    def __init__(self, assets):\n        self._by_key = dict(assets)\n\n"
             "    @property\n    def by_key(self):\n        return self._by_key\n\n"
             "    def has_assets(self):\n        return len(self.by_key) > 0\n")
    repo.commit({"layer.py": layer})
    repo.start_branch("feature")
    # the property becomes a field declared by its annotation alone, a mapping of the repository's class
    repo.commit({"layer.py": "from typing import Mapping, NamedTuple\n\n\nclass Asset:\n    pass\n\n\n"
                 "class Layer(NamedTuple):\n    by_key: Mapping[str, 'Asset']\n\n"
                 "    def has_assets(self):\n        return len(self.by_key) > 0\n"})
    report = diff(repo.path, "main..feature")
    assert changed(report)["layer.py::Layer::by_key"] == "removed"
    assert report["breaking"] == []


def test_a_removed_property_a_getattr_of_the_class_may_answer_is_not_breaking(repo: RepoBuilder) -> None:
    memoized = ("class Memoized:\n    def __getattr__(self, key):\n"
                "        return getattr(self, f'_memoized_attr_{key}')()\n\n\n")
    repo.commit({"adapter.py": memoized + ADAPTER})
    repo.start_branch("feature")
    # the property becomes a memoized attribute that Memoized.__getattr__ computes
    repo.commit({"adapter.py": memoized + ADAPTER.replace("class Adapter:", "class Adapter(Memoized):").replace(
        "    @property\n    def validator(self):", "    def _memoized_attr_validator(self):")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["adapter.py::Adapter::validator"] == "removed"
    assert report["breaking"] == []


def test_a_read_written_otherwise_than_the_removed_property_read_is_not_breaking(repo: RepoBuilder) -> None:
    handler = "class Handler:\n    def __init__(self, schema):\n        self.schema = schema\n\n" \
              "    @property\n    def metadata(self):\n        return self.schema\n"
    use = "from handler import Handler\n\n\ndef describe(schema, info):\n    meta = Handler(schema).metadata\n" \
          "    return meta, info\n"
    repo.commit({"handler.py": handler, "use.py": use})
    repo.start_branch("feature")
    repo.commit({"handler.py": "", "use.py": use.replace("Handler(schema).metadata", "info.metadata")
                 .replace("from handler import Handler\n\n\n", "")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["handler.py::Handler::metadata"] == "removed"
    assert report["breaking"] == []  # `info.metadata` is another object's attribute


MEMO = """import functools


def memoize(method):
    cache = {}

    @functools.wraps(method)
    def new_method(self):
        if self not in cache:
            cache[self] = method(self)
        return cache[self]

    return new_method


class Response:
    @memoize
    def encoding(self):
        return "utf-8"

    def text(self):
        return self.encoding()
"""


def test_a_wrapper_in_a_methods_place_gets_the_instance(repo: RepoBuilder) -> None:
    # `self.encoding()` runs new_method(self): its changed signature still fits the call
    repo.commit({"resp.py": MEMO})
    repo.start_branch("feature")
    repo.commit({"resp.py": MEMO.replace("def new_method(self):", "def new_method(self, *args):")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["resp.py::memoize::new_method"] == "modified"
    assert report["breaking"] == []
    # one that needs another argument is what the call lacks
    repo.commit({"resp.py": MEMO.replace("def new_method(self):", "def new_method(self, strict):")})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["reason"]) for b in report["breaking"]] == [
        ("resp.py::Response::text", "missing required argument 'strict'")]


def test_a_call_in_a_test_marked_xfail_is_not_breaking(repo: RepoBuilder) -> None:
    lib = "def update(values):\n    return dict(values)\n"
    tests = ("import pytest\n\nfrom lib import update\n\n\n@pytest.mark.xfail(raises=TypeError)\n"
             "def test_keywords():\n    update(key=1)\n")
    repo.commit({"lib.py": lib, "tests/test_lib.py": tests})
    repo.start_branch("feature")
    repo.commit({"lib.py": lib.replace("(values)", "(values, /)")})
    assert diff(repo.path, "main..feature")["breaking"] == []


RESPONSES = """class Response:
    def follow_all(self, urls):
        return list(urls)


class TextResponse(Response):
    def follow_all(self, urls=None, css=None):
        return list(urls or [css])


class Base:
    response_class = Response

    def make(self):
        return self.response_class()


class TextChecks(Base):
    response_class = TextResponse

    def check(self):
        return self.make().follow_all(css="a")
"""


def test_a_call_written_for_an_override_is_not_checked_against_the_base_method(repo: RepoBuilder) -> None:
    repo.commit({"resp.py": RESPONSES})
    repo.start_branch("feature")
    repo.commit({"resp.py": RESPONSES.replace("def follow_all(self, urls):", "def follow_all(self, urls, /):")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["resp.py::Response::follow_all"] == "modified"
    assert report["breaking"] == []  # TextResponse.follow_all takes css=


STREAMS = """class Stream:
    def close(self):
        return True


def shut(stream=None):
    target = stream if stream is not None else Stream
    return target.close()


shut(Stream())
"""


def test_a_method_read_from_a_class_or_an_instance_alike_is_checked_as_bound(repo: RepoBuilder) -> None:
    repo.commit({"streams.py": STREAMS})
    repo.start_branch("feature")
    repo.commit({"streams.py": STREAMS.replace("def close(self):", "def close(self, force=False):")})
    report = diff(repo.path, "main..feature")
    [close] = [c for c in report["changed"] if c["id"] == "streams.py::Stream::close"]
    assert close["signature_changed"]
    # `target` may be the class or an instance: which one the call means is not known
    assert report["breaking"] == []


def test_a_removed_helper_re_exported_from_outside_is_not_breaking(repo: RepoBuilder) -> None:
    helpers = "def reify(fn):\n    return property(fn)\n\n\ndef other():\n    return 1\n"
    use = "from pkg.helpers import reify\n\n\nclass Page:\n    @reify\n    def title(self):\n        return 't'\n"
    repo.commit({"pkg/__init__.py": "", "pkg/helpers.py": helpers, "pkg/page.py": use})
    repo.start_branch("feature")
    repo.commit({"pkg/helpers.py": "from propcache.api import under_cached_property as reify\n\n\n"
                                   "def other():\n    return 1\n"})
    report = diff(repo.path, "main..feature")
    assert changed(report)["pkg/helpers.py::reify"] == "removed"
    assert report["breaking"] == []


def test_a_name_only_guess_at_a_removed_method_whose_name_lives_on_is_not_breaking(repo: RepoBuilder) -> None:
    models = "class Reader:\n    def parse_frame(self, data):\n        return data\n"
    use = "def run(parser, data):\n    return parser.parse_frame(data)\n"  # only the name tells
    repo.commit({"models.py": models, "use.py": use})
    repo.start_branch("feature")
    moved = "class ReaderPy:\n    def parse_frame(self, data):\n        return data\n\n\n" \
            "class ReaderC:\n    def parse_frame(self, data):\n        return bytes(data)\n"
    repo.commit({"models.py": moved})
    report = diff(repo.path, "main..feature")
    assert changed(report)["models.py::Reader::parse_frame"] == "removed"
    assert report["breaking"] == []
    # gone from the repository with its class, it was another object's whatever parser is:
    # no Reader is made any more (where one was, the class's removal is listed)
    repo.commit({"models.py": "class Other:\n    pass\n"})
    report = diff(repo.path, "main..feature")
    assert changed(report)["models.py::Reader"] == "removed"
    assert report["breaking"] == []


GRAPHS = """class Graph:
    def add_edge(self, u, v):
        return (u, v)


class EdgeKeyGraph(Graph):
    def add_edge(self, u, v):
        return (v, u)


def grow(g, u, v):
    return g.add_edge(u, v)


def build():
    return grow(EdgeKeyGraph(), 1, 2), grow(Graph(), 3, 4)
"""


def test_a_removed_class_takes_its_methods_out_of_the_dispatch_guesses(repo: RepoBuilder) -> None:
    # grow's `g.add_edge` may have reached EdgeKeyGraph's through the argument; with the
    # class gone nobody makes one: the call is not left behind
    repo.commit({"graphs.py": GRAPHS})
    repo.start_branch("feature")
    head = GRAPHS.replace("class EdgeKeyGraph(Graph):\n    def add_edge(self, u, v):\n        return (v, u)\n\n\n", "")
    repo.commit({"graphs.py": head[: head.index("def build")].rstrip() + "\n"})  # nothing calls grow here
    report = diff(repo.path, "main..feature")
    assert changed(report)["graphs.py::EdgeKeyGraph::add_edge"] == "removed"
    assert report["breaking"] == []


LOADER = """def load_object(path):
    if callable(path):
        return path
    return None


def handler(request):
    return request


def other(a, b):
    return a, b


def register():
    return load_object(handler), load_object(other)


def build(spec):
    cls = load_object(spec)
    return cls(1)
"""


def test_a_callee_from_a_function_returning_its_argument_is_not_checked(repo: RepoBuilder) -> None:
    # load_object(spec) gives whatever that caller passed (the link takes this call's
    # argument, and the check does not follow names bound through such a function), so
    # `cls(1)` is not known to call `other`, which register() passed to another call
    repo.commit({"loader.py": LOADER})
    repo.start_branch("feature")
    repo.commit({"loader.py": LOADER.replace("def other(a, b):", "def other(a, b, c):")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["loader.py::other"] == "modified"
    assert report["breaking"] == []


PYPROJECT = """[project]
name = "shop"
dependencies = ["requests>=2"]

[tool.ruff]
line-length = 100

[tool.coverage.report]
fail_under = 90

[tool.pytest.ini_options]
addopts = "-q"
"""


@pytest.mark.parametrize(("edit", "reason"), [
    (("line-length = 100", "line-length = 120"), None),
    (("fail_under = 90", "fail_under = 95"), None),
    (('name = "shop"\n', 'name = "shop"\nclassifiers = ["Typing :: Typed"]\n'), None),
    (('addopts = "-q"', 'addopts = "-x"'), "pyproject.toml changed (tool.pytest): it can affect any test"),
    (('"requests>=2"', '"requests>=2.31"'), "pyproject.toml changed (project.dependencies): it can affect any test"),
])
def test_pyproject_sections_only_linters_read_do_not_ask_for_all_tests(
    repo: RepoBuilder, edit: tuple[str, str], reason: str | None
) -> None:
    repo.commit({"pyproject.toml": PYPROJECT, "app.py": "def f():\n    return 1\n"}, "base")
    repo.start_branch("feature")
    repo.commit({"pyproject.toml": PYPROJECT.replace(*edit)})
    report = diff(repo.path, "main..feature")
    assert report["run_all_tests"] == (None if reason is None else {"reason": reason})


def test_setup_cfg_and_tox_ini_sections(repo: RepoBuilder) -> None:
    cfg = ("[metadata]\nname = shop\n\n[flake8]\nmax-line-length = 100\n\n[tool:pytest]\naddopts = -q\n"
           "\n[bdist_wheel]\nuniversal = 1\n\n[coverage:run]\nbranch = true\n")
    repo.commit({"setup.cfg": cfg, "tox.ini": "[tox]\nenvlist = py311\n\n[isort]\nprofile = black\n"}, "base")
    repo.start_branch("feature")
    repo.commit({"setup.cfg": cfg.replace("= 100", "= 120").replace("\n[bdist_wheel]\nuniversal = 1\n", "")
                 .replace("branch = true", "branch = false"),
                 "tox.ini": "[tox]\nenvlist = py311\n\n[isort]\n"})
    assert diff(repo.path, "main..feature")["run_all_tests"] is None
    repo.commit({"setup.cfg": cfg.replace("-q", "-x")})
    assert diff(repo.path, "main..feature")["run_all_tests"] == {
        "reason": "setup.cfg changed (tool:pytest): it can affect any test"}
    repo.commit({"setup.cfg": cfg.replace("[flake8]", "[flake8")})  # unreadable: any section may have changed
    assert diff(repo.path, "main..feature")["run_all_tests"] == {"reason": "setup.cfg changed: it can affect any test"}


LOADS_DATA = """import json
from pathlib import Path


def test_totals():
    data = json.loads((Path(__file__).parent / "data" / "orders.json").read_text())
    assert data["total"] == 3
"""


def test_a_data_file_the_code_names_asks_for_every_test(repo: RepoBuilder) -> None:
    # the graph cannot follow a file the code reads: selecting nothing would skip the test it breaks
    repo.commit({"tests/test_orders.py": LOADS_DATA, "tests/data/orders.json": '{"total": 3}\n',
                 "app.py": "def f():\n    return 1\n"}, "base")
    repo.start_branch("feature")
    repo.commit({"tests/data/orders.json": '{"total": 4}\n'})
    report = diff(repo.path, "main..feature")
    assert report["changed"] == [] and report["tests"] == []
    assert report["run_all_tests"] == {"reason": "tests/data/orders.json changed: tests/test_orders.py names it, "
                                                 "and the call graph does not follow files it reads into tests"}


def test_files_no_code_names_and_documentation_do_not_ask_for_every_test(repo: RepoBuilder) -> None:
    repo.commit({
        "setup.py": 'from setuptools import setup\nsetup(long_description=open("README.md").read())\n',
        "README.md": "# shop\n", "docs/conf.py": 'html_logo = "logo.png"\n', "docs/logo.png": "png",
        ".github/workflows/ci.yml": "on: push\n", "pyproject.toml": PYPROJECT,
        "app.py": 'import tomllib\n\n\ndef settings():\n    return tomllib.load(open("pyproject.toml", "rb"))\n',
    }, "base")
    repo.start_branch("feature")
    repo.commit({"README.md": "# shop, the store\n", "docs/logo.png": "png2",
                 ".github/workflows/ci.yml": "on: [push]\n",
                 "pyproject.toml": PYPROJECT.replace("line-length = 100", "line-length = 120")})
    assert diff(repo.path, "main..feature")["run_all_tests"] is None


def test_a_test_reached_only_through_a_fixture_value_is_selected(repo: RepoBuilder) -> None:
    repo.commit({
        "app/__init__.py": "",
        "app/service.py": "class Service:\n    def run(self):\n        return 1\n",
        "tests/conftest.py": "import pytest\nfrom app.service import Service\n\n\n"
                             "@pytest.fixture\ndef service():\n    yield Service()\n",
        "tests/test_service.py": "def test_run(service):\n    assert service.run() == 1\n",
    }, "base")
    repo.start_branch("feature")
    repo.commit({"app/service.py": "class Service:\n    def run(self):\n        return 2\n"})
    report = diff(repo.path, "main..feature")
    assert changed(report) == {"app/service.py::Service::run": "modified"}
    assert report["tests"] == ["tests/test_service.py::test_run"]
    assert impacted(report) == {"tests/test_service.py::test_run": 1}


def test_tests_running_a_fixture_without_its_value_are_selected(repo: RepoBuilder) -> None:
    repo.commit({
        "app.py": "def reset():\n    return 1\n\n\ndef seed():\n    return 1\n",
        "tests/test_app.py": "import pytest\nfrom app import reset, seed\n\n\n"
                             "@pytest.fixture(autouse=True)\ndef clean():\n    reset()\n\n\n"
                             "@pytest.fixture\ndef data():\n    seed()\n\n\n"
                             "def test_one():\n    pass\n\n\n"
                             "@pytest.mark.usefixtures('data')\nclass TestData:\n"
                             "    def test_two(self):\n        pass\n",
    }, "base")
    repo.start_branch("feature")
    repo.commit({"app.py": "def reset():\n    return 2\n\n\ndef seed():\n    return 2\n"})
    report = diff(repo.path, "main..feature")
    assert report["tests"] == ["tests/test_app.py::TestData::test_two", "tests/test_app.py::test_one"]


HOOKED_TESTS = """\
import unittest

from app import make, prepare


def setup_module():
    prepare()


class Base(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        make()

    def test_base(self):
        pass


class Inherits(Base):
    def test_inherited(self):
        pass


class Overrides(Base):
    @classmethod
    def setUpClass(cls):
        pass

    def test_own(self):
        pass
"""


def test_tests_are_reached_through_the_set_up_hooks_that_run_for_them(repo: RepoBuilder) -> None:
    repo.commit({"app.py": "def make():\n    return 1\n\n\ndef prepare():\n    return 1\n",
                 "tests/test_hooks.py": HOOKED_TESTS}, "base")
    repo.start_branch("feature")
    repo.commit({"app.py": "def make():\n    return 2\n\n\ndef prepare():\n    return 1\n"})
    report = diff(repo.path, "main..feature")
    # a subclass with its own setUpClass (not calling the base's) does not run make()
    assert report["tests"] == ["tests/test_hooks.py::Base::test_base", "tests/test_hooks.py::Inherits::test_base",
                               "tests/test_hooks.py::Inherits::test_inherited"]
    by_id = {i["id"]: i for i in report["impacted"]}
    assert by_id["tests/test_hooks.py::Inherits::test_inherited"]["paths"][0] == [
        "tests/test_hooks.py::Inherits::test_inherited", "tests/test_hooks.py::Base::setUpClass", "app.py::make"]
    repo.commit({"app.py": "def make():\n    return 2\n\n\ndef prepare():\n    return 2\n"})
    # setup_module runs for every test of the file, inherited ones too
    assert diff(repo.path, "main..feature")["tests"] == [
        "tests/test_hooks.py::Base::test_base", "tests/test_hooks.py::Inherits::test_base",
        "tests/test_hooks.py::Inherits::test_inherited", "tests/test_hooks.py::Overrides::test_base",
        "tests/test_hooks.py::Overrides::test_own"]


MIXIN_TESTS = """\
import unittest

from app import backend


class BackendChecks:
    def test_roundtrip(self):
        assert backend() == 1

    def test_other(self):
        pass


class TestMemory(BackendChecks):
    pass


class DiskTests(BackendChecks, unittest.TestCase):
    pass


class Overriding(BackendChecks, unittest.TestCase):
    def test_roundtrip(self):
        pass


class Helper(BackendChecks):
    pass
"""


def test_a_test_method_is_selected_as_each_subclass_that_inherits_it_runs_it(repo: RepoBuilder) -> None:
    repo.commit({"app.py": "def backend():\n    return 1\n", "tests/test_backends.py": MIXIN_TESTS}, "base")
    repo.start_branch("feature")
    repo.commit({"app.py": "def backend():\n    return 2\n"})
    report = diff(repo.path, "main..feature")
    # the mixin is not collected, nor is Helper; Overriding runs its own test_roundtrip
    assert report["tests"] == ["tests/test_backends.py::DiskTests::test_roundtrip",
                               "tests/test_backends.py::TestMemory::test_roundtrip"]


TEST_MODULE = """\
import pytest

from app import total

LIMIT = 10


def test_total():
    assert total() < LIMIT


def test_other():
    assert True
"""


def test_module_level_code_of_a_test_file_runs_for_each_of_its_tests(repo: RepoBuilder) -> None:
    repo.commit({"app.py": "def total():\n    return 1\n", "tests/test_app.py": TEST_MODULE}, "base")
    repo.start_branch("feature")
    repo.commit({"tests/test_app.py": TEST_MODULE + "\n\ndef test_new():\n    assert total()\n"})
    # a test added: only it
    assert diff(repo.path, "main..feature")["tests"] == ["tests/test_app.py::test_new"]
    repo.commit({"tests/test_app.py": TEST_MODULE.replace("LIMIT = 10\n", "LIMIT = 10\nprepare_database()\n")})
    # module-level code that binds nothing runs (and may fail) before every test of the file
    tests = diff(repo.path, "main..feature")["tests"]
    assert tests == ["tests/test_app.py::test_other", "tests/test_app.py::test_total"]
    repo.commit({"tests/test_app.py": TEST_MODULE.replace("LIMIT = 10", "LIMIT = 20")})
    # a name bound differently reaches the tests that read it, not the others
    assert diff(repo.path, "main..feature")["tests"] == ["tests/test_app.py::test_total"]


def test_testcase_classes_in_files_unittest_discovers_are_tests(repo: RepoBuilder) -> None:
    repo.commit({
        "shop/__init__.py": "",
        "shop/models.py": "def price():\n    return 1\n",
        "shop/tests.py": "from unittest import TestCase\n\nfrom shop.models import price\n\n\n"
                         "class PriceTests(TestCase):\n    def test_price(self):\n        assert price() == 1\n\n\n"
                         "class Helper:\n    def test_not_collected(self):\n        price()\n\n\n"
                         "def test_function_not_collected():\n    price()\n",
        "shop/checks.py": "from unittest import TestCase\n\nfrom shop.models import price\n\n\n"
                          "class PriceTests(TestCase):\n    def test_price(self):\n        assert price() == 1\n",
    }, "base")
    repo.start_branch("feature")
    repo.commit({"shop/models.py": "def price():\n    return 2\n"})
    # tests.py matches unittest's test*.py (as Django's runner discovers it): only its TestCase
    # methods are tests there; checks.py matches neither pattern
    assert diff(repo.path, "main..feature")["tests"] == ["shop/tests.py::PriceTests::test_price"]


def test_the_repositorys_pytest_python_files_say_which_files_hold_tests(repo: RepoBuilder) -> None:
    tests_py = "from shop.models import price\n\n\ndef test_price():\n    assert price() == 1\n"
    repo.commit({
        "shop/__init__.py": "",
        "shop/models.py": "def price():\n    return 1\n",
        "shop/tests.py": tests_py,
        "shop/test_other.py": tests_py,
        "setup.cfg": "[tool:pytest]\npython_files = tests.py\n",
    }, "base")
    repo.start_branch("feature")
    repo.commit({"shop/models.py": "def price():\n    return 2\n"})
    # pytest-django style: tests.py holds the tests, test_*.py is no longer collected
    assert diff(repo.path, "main..feature")["tests"] == ["shop/tests.py::test_price"]
    repo.commit({"pyproject.toml": '[tool.impactbot]\ntest-files = ["test_*.py", "tests.py"]\n'})
    tests = diff(repo.path, "main..feature")["tests"]
    assert tests == ["shop/test_other.py::test_price", "shop/tests.py::test_price"]


def test_fixtures_of_the_repositorys_own_pytest_plugin_reach_the_tests_using_them(repo: RepoBuilder) -> None:
    plugin = (
        "import pytest\n\nfrom shop.cart import Cart\n\n\n@pytest.fixture\ndef cart():\n    return Cart()\n"
    )
    cart = "class Cart:\n    def total(self):\n        return 1\n"
    repo.commit({
        "shop/__init__.py": "", "shop/cart.py": cart, "shop/testing.py": plugin,
        "pyproject.toml": '[project]\nname = "shop"\n\n[project.entry-points.pytest11]\nshop = "shop.testing"\n',
        "tests/test_cart.py": "def test_total(cart):\n    assert cart.total() == 1\n\n\ndef test_other():\n    pass\n",
    }, "base")
    repo.start_branch("feature")
    repo.commit({"shop/cart.py": cart.replace("return 1", "return 2")})
    # the plugin is installed with the package: pytest hands its `cart` to the test
    assert diff(repo.path, "main..feature")["tests"] == ["tests/test_cart.py::test_total"]


FIXTURE_CONFTEST = """\
import pytest

from app.service import Service


@pytest.fixture
def service():
    return Service()


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: slow tests")
"""


def test_a_conftest_whose_fixtures_alone_changed_selects_their_tests_not_the_suite(repo: RepoBuilder) -> None:
    repo.commit({
        "app/__init__.py": "",
        "app/service.py": "class Service:\n    def run(self):\n        return 1\n",
        "tests/conftest.py": FIXTURE_CONFTEST,
        "tests/test_service.py": "def test_run(service):\n    assert service.run() == 1\n",
        "tests/test_plain.py": "def test_plain():\n    assert True\n",
    }, "base")
    repo.start_branch("feature")
    repo.commit({"tests/conftest.py": FIXTURE_CONFTEST.replace("return Service()", "yield Service()")})
    report = diff(repo.path, "main..feature")
    assert report["run_all_tests"] is None
    assert report["tests"] == ["tests/test_service.py::test_run"]
    # a hook changed: the graph cannot tell which tests it touches
    repo.commit({"tests/conftest.py": FIXTURE_CONFTEST.replace("slow tests", "slow ones")})
    assert diff(repo.path, "main..feature")["run_all_tests"] == {
        "reason": "tests/conftest.py changed: it can affect any test"}


def test_a_changed_view_selects_the_tests_requesting_its_url(repo: RepoBuilder) -> None:
    views = "from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.get('/orders/<int:oid>')\ndef show(oid):\n" \
            "    return str(oid)\n\n\n@app.get('/health')\ndef health():\n    return 'ok'\n"
    repo.commit({
        "app/__init__.py": "",
        "app/views.py": views,
        "tests/test_views.py": "from app.views import app\n\n\ndef test_show():\n"
                               "    assert app.test_client().get(f'/orders/{7}').data == b'7'\n\n\n"
                               "def test_health():\n    assert app.test_client().get('/health').data == b'ok'\n",
    }, "base")
    repo.start_branch("feature")
    repo.commit({"app/views.py": views.replace("return str(oid)", "return str(oid * 1)")})
    report = diff(repo.path, "main..feature")
    assert changed(report) == {"app/views.py::show": "modified"}
    assert report["tests"] == ["tests/test_views.py::test_show"]


SIZED = """\
class Box:
    def size(self):
        return 1

    @property
    def label(self):
        return "box"
"""

SIZED_USES = """\
from box import Box


def total(box: Box):
    return box.size() + 1


def title(box: Box):
    text = box.label
    return text.upper()


def fixed(box: Box):
    return box.size
"""


def test_a_method_turned_property_and_a_property_turned_method_break_their_old_uses(repo: RepoBuilder) -> None:
    repo.commit({"box.py": SIZED, "uses.py": SIZED_USES.replace("return box.size\n", "return box.size()\n")})
    repo.start_branch("feature")
    turned = SIZED.replace("    def size(self):", "    @property\n    def size(self):") \
        .replace("    @property\n    def label(self):", "    def label(self):")
    repo.commit({"box.py": turned, "uses.py": SIZED_USES})
    report = diff(repo.path, "main..feature")
    # `fixed` was changed with them: it reads the property as a property now
    assert [(b["caller"], b["target"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("uses.py::total", "box.py::Box::size", 5, "'size' is now a property: this calls the value it gives"),
        ("uses.py::title", "box.py::Box::label", 9, "'label' is now a method: this reads the method, not a value"),
    ]


STORE = """\
def fetch(x):
    return x


class Store:
    def save(self):
        return 1

    @staticmethod
    def flush():
        return 2


def wrapped(x):
    return x
"""

STORE_USES = """\
import asyncio

from store import Store, fetch, wrapped


def sync_caller(store: Store):
    fetch(1)
    value = fetch(2)
    store.save()
    Store.flush()
    wrapped(3)
    asyncio.run(fetch(4))
    return value
"""


def test_a_call_that_drops_the_value_of_a_def_turned_async_is_breaking(repo: RepoBuilder) -> None:
    repo.commit({"store.py": STORE, "uses.py": STORE_USES})
    repo.start_branch("feature")
    turned = STORE.replace("def fetch", "async def fetch").replace("def save", "async def save") \
        .replace("def flush", "async def flush").replace("def wrapped", "@to_sync\nasync def wrapped")
    repo.commit({"store.py": turned})
    report = diff(repo.path, "main..feature")
    now_async = "is now async: this call only makes a coroutine, which nothing awaits"
    # a value kept may be awaited later, one passed on may be run; a decorator may wrap it back
    assert [(b["caller"], b["target"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("uses.py::sync_caller", "store.py::fetch", 7, f"'fetch' {now_async}"),
        ("uses.py::sync_caller", "store.py::Store::save", 9, f"'save' {now_async}"),
        ("uses.py::sync_caller", "store.py::Store::flush", 10, f"'flush' {now_async}"),
    ]
    assert {c["id"]: c["async_turn"] for c in report["changed"]} == {
        "store.py::Store::save": "now_async", "store.py::Store::flush": "now_async",
        "store.py::fetch": "now_async", "store.py::wrapped": "now_async",
    }


def test_awaiting_a_def_no_longer_async_that_gives_no_awaitable_is_breaking(repo: RepoBuilder) -> None:
    store = ("async def load(x):\n    return x\n\n\nasync def save(x) -> int:\n    return x\n\n\n"
             "async def relay(x):\n    return x\n\n\nasync def ping():\n    pass\n")
    repo.commit({"store.py": store, "uses.py": (
        "from store import load, ping, relay, save\n\n\nasync def caller():\n    await ping()\n"
        "    return await load(1), await save(2), await relay(3)\n")})
    repo.start_branch("feature")
    # relay may hand back a coroutine of another def: awaiting that still works
    repo.commit({"store.py": ("def load(x):\n    print(x)\n\n\ndef save(x) -> int:\n    return x\n\n\n"
                              "def relay(x):\n    return other(x)\n\n\ndef ping():\n    pass\n")})
    report = diff(repo.path, "main..feature")
    fails = "is no longer async: awaiting what it returns fails"
    assert [(b["caller"], b["target"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("uses.py::caller", "store.py::ping", 5, f"'ping' {fails}"),
        ("uses.py::caller", "store.py::load", 6, f"'load' {fails}"),
        ("uses.py::caller", "store.py::save", 6, f"'save' {fails}"),
    ]
    assert {c["id"]: c["async_turn"] for c in report["changed"]} == {
        "store.py::load": "no_longer_async", "store.py::save": "no_longer_async",
        "store.py::relay": "no_longer_async", "store.py::ping": "no_longer_async",
    }


def test_a_positional_argument_that_lands_on_another_parameter_is_breaking(repo: RepoBuilder) -> None:
    lib = ("def transfer(source, target, amount):\n    return source, target, amount\n\n\n"
           "def scale(value, factor):\n    return value * factor\n\n\n"
           "def pad(text, width):\n    return text.ljust(width)\n\n\n"
           "class Account:\n    def move(self, source, target):\n        return source, target\n\n"
           "    def check(self, source):\n        return source\n\n"
           "    def audit(self, source):\n        return self.check(source)\n")
    use = ("from lib import Account, pad, scale, transfer\n\n\n"
           "def left_alone(account: Account):\n"
           "    transfer('a', 'b', 5)\n    account.move('a', 'b')\n    return scale(2, 3), pad('x', 4)\n\n\n"
           "def by_keyword():\n    return transfer(source='a', target='b', amount=5)\n\n\n"
           "def rewritten():\n    return transfer('b', 'a', 5)\n\n\n"
           "def edited(src, dst, amount):\n    return transfer(src, dst, amount)\n")
    repo.commit({"lib.py": lib, "use.py": use})
    repo.start_branch("feature")
    # transfer and move swap two parameters, scale gains one before factor, pad renames one
    repo.commit({
        "lib.py": lib.replace("def transfer(source, target, amount)", "def transfer(target, source, amount)")
        .replace("def move(self, source, target)", "def move(self, target, source)")
        .replace("    def check(self, source):", "    @staticmethod\n    def check(source):")
        .replace("def scale(value, factor)", "def scale(value, offset=0, factor=1)")
        .replace("def pad(text, width)", "def pad(text, size)").replace("ljust(width)", "ljust(size)"),
        "use.py": use.replace("transfer('b', 'a', 5)", "transfer('a', 'b', 5)")
        .replace("    return transfer(src, dst, amount)", "    print(src)\n    return transfer(src, dst, amount)"),
    })
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["target"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("use.py::left_alone", "lib.py::transfer", 5, "argument 1 by position now goes to 'target', not 'source'"),
        ("use.py::left_alone", "lib.py::Account::move", 6, "argument 1 by position now goes to 'target', not 'source'"),
        ("use.py::left_alone", "lib.py::scale", 7, "argument 2 by position now goes to 'offset', not 'factor'"),
        ("use.py::edited", "lib.py::transfer", 20, "argument 1 by position now goes to 'target', not 'source'"),
    ]  # `rewritten` was changed with its call: the literals it passes are not known, so it is let be;
    # check turned a staticmethod: self.check(source) passes source to the same parameter


def test_a_call_that_fit_no_signature_in_base_either_is_not_broken_by_the_change(repo: RepoBuilder) -> None:
    # jar holds a Cookies or a CookieJar of the standard library, whose clear takes three
    lib = ("from http.cookiejar import CookieJar\n\n\nclass Cookies:\n"
           "    def __init__(self, cookies: 'Cookies | None' = None):\n"
           "        self.jar = cookies if cookies is not None else CookieJar()\n\n"
           "    def delete(self, name, domain, path):\n        self.jar.clear(domain, path, name)\n\n"
           "    def drop(self, domain):\n        self.jar.clear(domain)\n\n"
           "    def clear(self, domain=None, path=None):\n        self.jar.clear(domain, path)\n\n\n"
           "def wipe(cookies: Cookies):\n    cookies.clear('a', 'b')\n")
    repo.commit({"lib.py": lib})
    repo.start_branch("feature")
    # clear loses a parameter, and wipe starts passing three
    repo.commit({"lib.py": lib.replace("def clear(self, domain=None, path=None):\n        self.jar.clear(domain, path)",
                                       "def clear(self, domain=None):\n        self.jar.clear(domain)")
                 .replace("cookies.clear('a', 'b')", "cookies.clear('a', 'b', 'c')")
                 .replace("self.jar.clear(domain)\n\n    def clear", "self.jar.clear(domain, None)\n\n    def clear")})
    report = diff(repo.path, "main..feature")
    # delete's call did not fit before either; drop's and wipe's did, or were rewritten not to
    assert [(b["caller"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("lib.py::Cookies::drop", 12, "takes 1 positional argument but 2 were given"),
        ("lib.py::wipe", 19, "takes 1 positional argument but 3 were given"),
    ]


def test_a_path_git_stores_in_bytes_that_are_not_utf8_is_read_and_shown_escaped(repo: RepoBuilder) -> None:
    """Git paths are bytes; one in Latin-1 comes back with a lone surrogate, which no
    UTF-8 output can hold: the report shows its escape, every format, no crash."""
    name = b"caf\xe9.py".decode("utf-8", "surrogateescape")
    repo.commit({name: "def price():\n    return 1\n", "use.py": "from caf import price\n"})
    repo.commit({name: "def price():\n    return 2\n"})
    report = diff(repo.path, "HEAD~1..HEAD")
    assert changed(report) == {"caf\udce9.py::price": "modified"}
    for fmt in ("markdown", "text"):
        out = repo.path.parent / f"report.{fmt}"
        argv = ["diff", "HEAD~1..HEAD", "-C", str(repo.path), "--format", fmt, "-o", str(out), "--no-cache", "-q"]
        assert main(argv) == 0
        assert "caf\\udce9.py" in out.read_text(encoding="utf-8")


DISPATCH = """\
class Dist:
    def include(self, **attrs):
        for name, value in attrs.items():
            handler = getattr(self, "_include_" + name, None)
            if handler:
                handler(value)
            else:
                self._include_misc(name, value)

    def _include_misc(self, name, value):
        return name, value

    def _include_packages(self, packages):
        return packages
"""


def test_a_call_a_computed_name_may_dispatch_is_not_checked_against_its_guesses(repo: RepoBuilder) -> None:
    # `handler(value)` may pick _include_misc by its name's start, but never with one
    # argument: only the direct call, which fits, is checked
    repo.commit({"dist.py": DISPATCH})
    repo.start_branch("feature")
    repo.commit({"dist.py": DISPATCH.replace("def _include_misc(self, name, value)",
                                             "def _include_misc(self, name, value, strict=False)")})
    report = diff(repo.path, "main..feature")
    assert [c["id"] for c in report["changed"] if c["signature_changed"]] == ["dist.py::Dist::_include_misc"]
    assert report["breaking"] == []
    stricter = DISPATCH.replace("def _include_misc(self, name, value)", "def _include_misc(self, name, value, strict)")
    repo.commit({"dist.py": stricter})
    breaking = diff(repo.path, "main..feature")["breaking"]
    assert [(b["caller"], b["line"], b["reason"]) for b in breaking] == [
        ("dist.py::Dist::include", 8, "missing required argument 'strict'")]


CONVERTERS = """\
class Converter:
    def __init__(self, converter, takes_field=False):
        self.converter = converter
        self.takes_field = takes_field

    def convert(self, value, field):
        if self.takes_field:
            return self.converter(value, field)
        return self.converter(value)


def to_int(value):
    return int(value)


def pipe_converter(value):
    return value


plain = Converter(to_int)
piped = Converter(pipe_converter, takes_field=True)
"""


def test_a_callback_that_may_be_one_of_several_is_checked_against_those_it_fits(repo: RepoBuilder) -> None:
    # `self.converter(value)` may be any converter passed in; the call is written for the
    # one-argument ones, so pipe_converter now taking the field is not reported there
    repo.commit({"conv.py": CONVERTERS})
    repo.start_branch("feature")
    repo.commit({"conv.py": CONVERTERS.replace("def pipe_converter(value):", "def pipe_converter(value, field):")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["conv.py::pipe_converter"] == "modified"
    assert report["breaking"] == []
    # when none of them fits any more, the call is what breaks
    both = CONVERTERS.replace("def pipe_converter(value):", "def pipe_converter(value, field):").replace(
        "def to_int(value):", "def to_int(value, base):")
    repo.commit({"conv.py": both})
    reasons = {(b["target"], b["line"]) for b in diff(repo.path, "main..feature")["breaking"]}
    assert ("conv.py::to_int", 9) in reasons and ("conv.py::pipe_converter", 9) in reasons


def test_arguments_a_partial_holds_are_checked_against_the_new_signature(repo: RepoBuilder) -> None:
    core = ("from functools import partial, partialmethod\n\n\n"
            "def send(msg, retries=3, timeout=10):\n    return msg\n\n\n"
            "class Conn:\n    def _set(self, state, loud=False):\n        self.state = state\n\n"
            "    opened = partialmethod(_set, True, loud=True)\n\n"
            "    def closer(self):\n        return partial(self._set, False, loud=False)\n")
    use = ("import functools\nfrom functools import partial\n\nfrom core import Conn, send\n\n"
           "quick = partial(send, retries=1)\nslow = functools.partial(send, timeout=100)\n"
           "three = partial(send, 'a', 2, 3)\nlater = partial(send, 'b')\n\n\n"
           "def go():\n    return quick('x'), slow('y'), three(), later()\n\n\n"
           "def unbound(conn):\n    return partial(Conn._set, conn, True, loud=True)\n")
    repo.commit({"core.py": core, "use.py": use})
    repo.start_branch("feature")
    repo.commit({"core.py": core.replace("def send(msg, retries=3, timeout=10)", "def send(msg, attempts=3)")
                 .replace("def _set(self, state, loud=False)", "def _set(self, state)")})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["target"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("core.py::Conn", "core.py::Conn::_set", 12, "unexpected keyword argument 'loud' (bound by partialmethod())"),
        ("core.py::Conn::closer", "core.py::Conn::_set", 15, "unexpected keyword argument 'loud' (bound by partial())"),
        ("use.py", "core.py::send", 6, "unexpected keyword argument 'retries' (bound by partial())"),
        ("use.py", "core.py::send", 7, "unexpected keyword argument 'timeout' (bound by partial())"),
        ("use.py", "core.py::send", 8, "takes 2 positional arguments but 3 were given (bound by partial())"),
        ("use.py::unbound", "core.py::Conn::_set", 17, "unexpected keyword argument 'loud' (bound by partial())"),
    ]  # `partial(send, 'b')` holds what send still takes; its call passes the rest


def test_methods_moved_up_into_a_base_in_a_namespace_portion_are_not_breaking(repo: RepoBuilder) -> None:
    # flask 3.0: Flask's setup methods moved to App in flask/sansio/, which has no __init__.py
    app = ("class Flask:\n    def __init__(self, name):\n        self.name = name\n\n"
           "    def register_blueprint(self, bp):\n        return bp\n\n"
           "    def route(self, rule):\n        return rule\n")
    test = ("from web.app import Flask\n\n\ndef test_blueprints():\n"
            "    app = Flask('x')\n    app.register_blueprint(1)\n    assert app.route('/')\n")
    repo.commit({"src/web/__init__.py": "", "src/web/app.py": app, "tests/test_app.py": test})
    repo.start_branch("feature")
    repo.commit({
        "src/web/sansio/app.py": "class App:\n" + app.split("\n", 1)[1].split("\n    def route")[0] + "\n",
        "src/web/app.py": "from .sansio.app import App\n\n\nclass Flask(App):\n"
                          "    def route(self, rule):\n        return rule\n",
    })
    report = diff(repo.path, "main..feature")
    assert {c["id"]: c["change"] for c in report["changed"]}["src/web/app.py::Flask::register_blueprint"] == "removed"
    assert report["breaking"] == []
    assert "tests/test_app.py::test_blueprints" in report["tests"]


CLASS_NAMES = """from enum import Enum

import vendor


class Color(Enum):
    RED = 1
    GREEN = 2


class Base:
    LIMIT = 1


class Config(Base):
    TIMEOUT = 5
    LIMIT = 2


class Remote(vendor.Client):
    SIZE = 3


class Late:
    MODE = 1
"""

CLASS_READERS = """from pkg import core
from pkg.core import Color, Config as Settings, Late, Remote


def paint():
    return Color.GREEN


def timeout():
    return Settings.TIMEOUT, Settings.LIMIT


def qualified():
    return core.Config.TIMEOUT


def remote():
    return Remote.SIZE


def late():
    Late.MODE = 3
    return Late.MODE


def unrelated(color):
    return color.GREEN
"""


def test_reads_of_a_class_level_name_through_the_class_are_impacted(repo: RepoBuilder) -> None:
    tests = "from pkg.use import paint, timeout\n\n\ndef test_paint():\n    assert paint()\n\n\n" \
            "def test_timeout():\n    assert timeout()\n"
    repo.commit({"pkg/__init__.py": "", "pkg/core.py": CLASS_NAMES, "pkg/use.py": CLASS_READERS,
                 "tests/test_use.py": tests})
    repo.start_branch("feature")
    repo.commit({"pkg/core.py": CLASS_NAMES.replace("GREEN = 2", "GREEN = 3").replace("TIMEOUT = 5", "TIMEOUT = 6")})
    report = diff(repo.path, "main..feature")
    assert set(impacted(report)) == {"pkg/use.py::paint", "pkg/use.py::timeout", "pkg/use.py::qualified",
                                     "tests/test_use.py::test_paint", "tests/test_use.py::test_timeout"}
    assert report["breaking"] == []


def test_a_class_level_name_the_class_no_longer_binds_breaks_its_reads(repo: RepoBuilder) -> None:
    repo.commit({"pkg/__init__.py": "", "pkg/core.py": CLASS_NAMES, "pkg/use.py": CLASS_READERS})
    repo.start_branch("feature")
    repo.commit({"pkg/core.py": CLASS_NAMES.replace("    GREEN = 2\n", "    BLUE = 2\n")
                 .replace("    TIMEOUT = 5\n    LIMIT = 2\n", "    DELAY = 5\n")
                 .replace("    SIZE = 3\n", "    SIZES = 3\n").replace("    MODE = 1\n", "    MODES = 1\n")})
    report = diff(repo.path, "main..feature")
    # LIMIT is still Base's, Remote's base may give SIZE, and late() sets MODE itself
    assert [(b["caller"], b["target"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("pkg/use.py::paint", "pkg/core.py::Color", 6, "reads 'GREEN', which pkg/core.py::Color no longer defines"),
        ("pkg/use.py::timeout", "pkg/core.py::Config", 10,
         "reads 'TIMEOUT', which pkg/core.py::Config no longer defines"),
        ("pkg/use.py::qualified", "pkg/core.py::Config", 14,
         "reads 'TIMEOUT', which pkg/core.py::Config no longer defines"),
    ]


def test_a_removed_method_a_standard_library_base_still_gives_is_not_breaking(repo: RepoBuilder) -> None:
    streams = ("import io\nimport unittest\nfrom io import TextIOWrapper as Text\n\nimport vendor\n\n\n"
               "class Wrapper(io.TextIOWrapper):\n    def write(self, x):\n        return 1\n\n\n"
               "class Lines(Text):\n    def writelines(self, lines):\n        return 2\n\n\n"
               "class Case(unittest.TestCase):\n    def assertNoLogs(self, logger=None):\n        return 3\n\n\n"
               "class Sub(Case):\n    pass\n\n\n"
               "class Vendored(vendor.Base):\n    def helper(self):\n        return 4\n\n\n"
               "class Headers(typing.MutableMapping[str, str]):\n    def pop(self, key):\n        return 5\n\n\n"
               "class URL(namedtuple('URL', ['host', 'password'])):\n    def password(self):\n        return 6\n\n\n"
               "class Registry(dict):\n    def get(self, key, default=None):\n        return 7\n")
    streams = "import typing\nfrom collections import namedtuple\n" + streams
    use = ("from streams import URL, Case, Headers, Lines, Registry, Sub, Vendored, Wrapper\n\n\n"
           "def go(w: Wrapper, o: Lines, c: Case, s: Sub, v: Vendored, h: Headers):\n"
           "    w.write('x')\n    o.writelines([])\n    c.assertNoLogs()\n    s.assertNoLogs()\n    v.helper()\n"
           "    h.pop('a')\n\n\ndef secret(u: URL, r: Registry):\n    return u.password(), r.get('a')\n")
    repo.commit({"streams.py": streams, "use.py": use})
    repo.start_branch("feature")
    head = streams
    for name in ("write(self, x)", "writelines(self, lines)", "assertNoLogs(self, logger=None)", "helper(self)",
                 "pop(self, key)", "password(self)", "get(self, key, default=None)"):
        start = head.index(f"    def {name}")
        head = head[:start] + "    pass\n" + head[head.index("\n", head.index("return", start)) + 1:]
    repo.commit({"streams.py": head})
    report = diff(repo.path, "main..feature")
    assert {c["id"] for c in report["changed"] if c["change"] == "removed"} == {
        "streams.py::Wrapper::write", "streams.py::Lines::writelines", "streams.py::Case::assertNoLogs",
        "streams.py::Vendored::helper", "streams.py::Headers::pop", "streams.py::URL::password",
        "streams.py::Registry::get"}
    # io.TextIOWrapper, unittest.TestCase, MutableMapping and dict have the others, the namedtuple
    # may have a field of that name; what vendor.Base has is not known
    assert [(b["caller"], b["target"], b["line"]) for b in report["breaking"]] == [
        ("use.py::go", "streams.py::Vendored::helper", 9)]


SHAPES = """from abc import ABC, ABCMeta, abstractmethod


class Shape(ABC):
    def area(self):
        return 0


class Square(Shape):
    def area(self):
        return 4

    def perimeter(self):
        return 8


class Circle(Shape):
    pass


class Plain:
    def area(self):
        return 1


class Flat(Plain):
    pass


class Meta(metaclass=ABCMeta):
    def size(self):
        return 0


class Sized(Meta):
    pass
"""


def test_making_a_class_that_does_not_implement_a_new_abstract_method_is_breaking(repo: RepoBuilder) -> None:
    use = ("from shapes import Circle, Flat, Shape, Sized, Square\n\n\n"
           "def make():\n    a = Square()\n    b = Circle()\n    c = Shape()\n    return a, b, c, Flat(), Sized()\n")
    repo.commit({"shapes.py": SHAPES, "use.py": use})
    repo.start_branch("feature")
    abstract = "    @abstractmethod\n    def "
    repo.commit({"shapes.py": SHAPES.replace("class Shape(ABC):\n    def area(self):\n        return 0\n",
                                             f"class Shape(ABC):\n{abstract}area(self):\n        return 0\n\n"
                                             f"{abstract}perimeter(self):\n        ...\n")
                 .replace("class Plain:\n    def area", f"class Plain:\n{abstract}area")
                 .replace("(metaclass=ABCMeta):\n    def size", f"(metaclass=ABCMeta):\n{abstract}size")})
    report = diff(repo.path, "main..feature")
    # Square implements both; Plain is no ABC, so its abstract method binds nobody
    assert [(b["target"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("shapes.py::Shape::area", 6, "makes a Circle, which does not implement the abstract method 'area'"),
        ("shapes.py::Shape::perimeter", 6, "makes a Circle, which does not implement the abstract method 'perimeter'"),
        ("shapes.py::Shape::area", 7, "makes a Shape, whose method 'area' is abstract now"),
        ("shapes.py::Shape::perimeter", 7, "makes a Shape, whose method 'perimeter' is abstract now"),
        ("shapes.py::Meta::size", 8, "makes a Sized, which does not implement the abstract method 'size'"),
    ]


def test_methods_of_a_class_whose_name_now_stands_for_another_class_are_not_breaking(repo: RepoBuilder) -> None:
    # tornado 6.0: its own Future class gone, `Future = asyncio.Future` in its place
    concurrent = ("import asyncio\n\n\nclass Future:\n"
                  "    def add_done_callback(self, fn):\n        return fn(self)\n")
    use = "def watch(stream):\n    fut = stream.write(b'x')\n    fut.add_done_callback(print)\n"
    repo.commit({"concurrent.py": concurrent, "use.py": use})
    repo.start_branch("feature")
    repo.commit({"concurrent.py": "import asyncio\n\nFuture = asyncio.Future\n"})
    report = diff(repo.path, "main..feature")
    assert changed(report)["concurrent.py::Future::add_done_callback"] == "removed"
    assert report["breaking"] == []


def test_a_property_turned_method_and_called_now_is_not_breaking_beside_other_reads(repo: RepoBuilder) -> None:
    box = "class Box:\n    width = 3\n\n    @property\n    def label(self):\n        return 'box'\n"
    use = "from box import Box\n\n\ndef same(box: Box):\n    return box.width == box.label\n"
    repo.commit({"box.py": box, "use.py": use})
    repo.start_branch("feature")
    repo.commit({"box.py": box.replace("    @property\n", ""), "use.py": use.replace("box.label", "box.label()")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["box.py::Box::label"] == "modified"
    assert report["breaking"] == []  # `box.width`, read on that line too, is not the property


def test_a_name_only_guess_into_a_deleted_module_is_not_breaking(repo: RepoBuilder) -> None:
    # twisted 23.8 deleted its fallback keys (`_keys_pynacl.py`); `key.public_key()` was only
    # guessed, by its name, to be theirs: the key is the cryptography library's
    fallback = "class Ed25519PrivateKey:\n    def public_key(self):\n        return self\n"
    keys = "def blob(key):\n    return key.public_key()\n"
    repo.commit({"pkg/__init__.py": "", "pkg/_keys_fallback.py": fallback, "pkg/keys.py": keys})
    repo.start_branch("feature")
    repo.commit({"pkg/_keys_fallback.py": None})
    report = diff(repo.path, "main..feature")
    assert changed(report)["pkg/_keys_fallback.py::Ed25519PrivateKey::public_key"] == "removed"
    assert report["breaking"] == []


def test_a_name_only_guess_into_a_class_gone_from_its_module_is_not_breaking(repo: RepoBuilder) -> None:
    # jupyter_client 8.4.0 dropped its own `tzUTC`; `dt.tzinfo.utcoffset(ref)` had been
    # guessed, by its name, to be that class's: the tzinfo is the standard library's
    utils = ("from datetime import tzinfo\n\n\nclass Utc(tzinfo):\n    def utcoffset(self, d):\n"
             "        return None\n\n\ndef stamp():\n    return 1\n")
    parse = ("from datetime import datetime\n\n\ndef parse_all(obj):\n    if isinstance(obj, list):\n"
             "        obj = [parse_all(o) for o in obj]\n    elif isinstance(obj, str):\n"
             "        obj = datetime.fromisoformat(obj)\n    return obj\n")
    tests = ("from pkg import parsing\n\n\ndef test_offsets():\n    parsed = parsing.parse_all(['2013-07-03'])\n"
             "    assert parsed[0].tzinfo.utcoffset(None) is None\n")
    repo.commit({"pkg/__init__.py": "", "pkg/utils.py": utils, "pkg/parsing.py": parse, "tests/test_dates.py": tests})
    repo.start_branch("feature")
    repo.commit({"pkg/utils.py": "def stamp():\n    return 1\n"})
    report = diff(repo.path, "main..feature")
    assert changed(report)["pkg/utils.py::Utc::utcoffset"] == "removed"
    assert report["breaking"] == []


def test_a_class_made_through_a_variable_or_new_in_the_change_is_not_judged_for_abstract_methods(
        repo: RepoBuilder) -> None:
    source = ("from abc import ABC, abstractmethod\n\n\n"
              "class Source(ABC):\n    def envs(self):\n        return []\n\n\n"
              "class Ini(Source):\n    def envs(self):\n        return ['py']\n")
    use = ("from source import Ini, Source\n\n\n"
           "def discover(kinds: 'list[type[Source]]'):\n    for kind in kinds:\n        return kind()\n\n\n"
           "def first():\n    return discover([Ini])\n")
    repo.commit({"source.py": source, "use.py": use})
    repo.start_branch("feature")
    new = ("\n\nclass Toml(ABC):\n    @abstractmethod\n    def envs(self):\n        ...\n\n\n"
           "def toml():\n    return Toml()\n")
    repo.commit({"source.py": source.replace("    def envs(self):\n        return []",
                                             "    @abstractmethod\n    def envs(self):\n        ...") + new})
    report = diff(repo.path, "main..feature")
    assert changed(report)["source.py::Source::envs"] == "modified"
    # kind() makes whichever subclass it is given; Toml is new, abstract from the start
    assert report["breaking"] == []


def test_a_call_through_a_partial_is_checked_with_what_the_partial_holds(repo: RepoBuilder) -> None:
    use = ("from functools import partial\n\nfrom core import send\n\n"
           "quick = partial(send, retries=1)\nloud = partial(send, timeout=1)\n\n\n"
           "def go():\n    a = quick('x', timeout=5)\n    b = quick('y')\n    c = loud('z', 2)\n"
           "    return a, b, c\n\n\n"
           "def local():\n    p = partial(send, 'm')\n    return p(timeout=3), p(retries=2), p('n')\n")
    repo.commit({"core.py": "def send(msg, retries=3, timeout=10):\n    return msg\n", "use.py": use})
    repo.start_branch("feature")
    repo.commit({"core.py": "def send(msg, retries=3, *, wait=10):\n    return msg\n"})
    report = diff(repo.path, "main..feature")
    # loud's call is not listed again (its making is); quick('y'), p(retries=2) and p('n') still fit
    assert [(b["caller"], b["line"], b["reason"]) for b in report["breaking"]] == [
        ("use.py", 6, "unexpected keyword argument 'timeout' (bound by partial())"),
        ("use.py::go", 10, "unexpected keyword argument 'timeout' (through the partial 'quick')"),
        ("use.py::local", 18, "unexpected keyword argument 'timeout' (through the partial 'p')"),
    ]


def test_super_calls_of_a_mixins_removed_hook_reach_the_next_class(repo: RepoBuilder) -> None:
    # django 5.1's mail tests: a mixin's setUp and tearDown gone, unittest.TestCase's are next
    tests = ("import unittest\n\n\nclass MailMixin:\n    def setUp(self):\n        super().setUp()\n\n"
             "    def tearDown(self):\n        super().tearDown()\n\n    def check(self):\n        return 1\n\n\n"
             "class LocmemTests(MailMixin, unittest.TestCase):\n    def setUp(self):\n        super().setUp()\n\n"
             "    def tearDown(self):\n        super(LocmemTests, self).tearDown()\n\n"
             "    def test_send(self):\n        assert self.check()\n")
    repo.commit({"tests/test_mail.py": tests})
    repo.start_branch("feature")
    mixin = tests[tests.index("class MailMixin"):tests.index("class LocmemTests")]
    repo.commit({"tests/test_mail.py": tests.replace(mixin, "class MailMixin:\n    pass\n\n\n")})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("tests/test_mail.py::LocmemTests::test_send", "tests/test_mail.py::MailMixin::check",
         "calls 'check', which was removed")]


def test_a_removed_override_whose_class_inherits_the_name_is_not_breaking(repo: RepoBuilder) -> None:
    # astroid 3.0.0 -> 2.15.8: FunctionDef.getattr gone, Lambda.getattr runs; the receiver's
    # annotation went with it, so head no longer links the call
    shapes = ("class Node:\n    def lookup(self, name, default=None):\n        return default\n\n\n"
              "class Leaf(Node):\n    def lookup(self, name, default=None):\n        return name\n\n"
              "    def describe(self, name, context):\n        return context\n\n\n"
              "class Wrapper:\n    def __init__(self, inner: Leaf):\n        self.inner = inner\n\n"
              "    def lookup(self, name):\n        return self.inner.lookup(name)\n\n"
              "    def describe(self, name):\n        return self.inner.describe(name, None)\n")
    repo.commit({"tree.py": shapes})
    repo.start_branch("feature")
    leaf = shapes[shapes.index("class Leaf(Node):"):shapes.index("class Wrapper")]
    stripped = shapes.replace(leaf, "class Leaf(Node):\n    def describe(self, name, context):\n"
                                    "        return context\n\n\n").replace("inner: Leaf", "inner")
    repo.commit({"tree.py": stripped})
    report = diff(repo.path, "main..feature")
    assert changed(report)["tree.py::Leaf::lookup"] == "removed"
    assert report["breaking"] == []


def test_a_removed_override_whose_inherited_method_refuses_the_call_is_breaking(repo: RepoBuilder) -> None:
    shapes = ("class Node:\n    def lookup(self, name):\n        return name\n\n\n"
              "class Leaf(Node):\n    def lookup(self, name, default=None):\n        return default\n\n\n"
              "class Wrapper:\n    def __init__(self, inner: Leaf):\n        self.inner = inner\n\n"
              "    def find(self, name):\n        return self.inner.lookup(name, default=0)\n")
    repo.commit({"tree.py": shapes})
    repo.start_branch("feature")
    leaf = shapes[shapes.index("class Leaf(Node):"):shapes.index("class Wrapper")]
    repo.commit({"tree.py": shapes.replace(leaf, "class Leaf(Node):\n    pass\n\n\n").replace("inner: Leaf", "inner")})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("tree.py::Wrapper::find", "tree.py::Leaf::lookup",
         "unexpected keyword argument 'default' (the override was removed: Node::lookup runs)")]


def test_a_removed_property_override_whose_base_binds_the_name_is_not_breaking(repo: RepoBuilder) -> None:
    # django 4.2 -> 4.1.13: a backend's cached_property gone, the base's class attribute is read
    features = ("from functools import cached_property\n\n\nclass Capabilities:\n    skipped = ()\n\n\n"
                "class SqliteCapabilities(Capabilities):\n    @cached_property\n    def skipped(self):\n"
                "        return ('a',)\n\n\nclass Runner:\n    def __init__(self, caps: SqliteCapabilities):\n"
                "        self.caps = caps\n\n    def run(self):\n        return [s for s in self.caps.skipped]\n")
    repo.commit({"caps.py": features})
    repo.start_branch("feature")
    own = features[features.index("    @cached_property"):features.index("class Runner")]
    repo.commit({"caps.py": features.replace(own, "    pass\n\n\n").replace("caps: SqliteCapabilities", "caps")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["caps.py::SqliteCapabilities::skipped"] == "removed"
    assert report["breaking"] == []


def test_a_call_base_linked_to_several_methods_is_not_broken_by_one_removed(repo: RepoBuilder) -> None:
    # kombu 5.3.0 -> 5.2.4: the filesystem channel's _put_fanout gone, the redis one's stays
    transports = ("class RedisChannel:\n    def publish(self, msg):\n        return msg\n\n\n"
                  "class FileChannel:\n    def publish(self, msg):\n        return msg\n\n"
                  "    def purge(self):\n        return 0\n\n\n"
                  "class Producer:\n    def __init__(self, channel: RedisChannel | FileChannel):\n"
                  "        self.channel = channel\n\n    def send(self):\n        return self.channel.publish('m')\n\n"
                  "    def clear(self):\n        return self.channel.purge()\n")
    repo.commit({"transports.py": transports})
    repo.start_branch("feature")
    gone = transports[transports.index("class FileChannel:"):transports.index("class Producer")]
    repo.commit({"transports.py": transports.replace(gone, "class FileChannel:\n    pass\n\n\n")
                 .replace("channel: RedisChannel | FileChannel", "channel")})
    report = diff(repo.path, "main..feature")
    # purge was FileChannel's alone: the call of it is still left behind
    assert [(b["caller"], b["target"], b["reason"]) for b in report["breaking"]] == [
        ("transports.py::Producer::clear", "transports.py::FileChannel::purge", "calls 'purge', which was removed")]


def test_a_removed_property_whose_name_a_base_stores_on_every_instance_is_not_breaking(repo: RepoBuilder) -> None:
    # wagtail 5.2 -> 5.1.3: PageListingButton's cached_property url gone; Button.__init__
    # stores url on every button, `other.url` included
    widgets = ("from functools import cached_property\n\n\nclass Link:\n    def __init__(self, href):\n"
               "        self.href = href\n\n    def __eq__(self, other):\n        if not isinstance(other, Link):\n"
               "            return NotImplemented\n        return self.href == other.href\n\n\n"
               "class PageLink(Link):\n    @cached_property\n    def href(self):\n        return '/page/'\n")
    repo.commit({"widgets.py": widgets})
    repo.start_branch("feature")
    own = widgets[widgets.index("    @cached_property"):]
    repo.commit({"widgets.py": widgets.replace(own, "    pass\n")})
    report = diff(repo.path, "main..feature")
    assert changed(report)["widgets.py::PageLink::href"] == "removed"
    assert report["breaking"] == []


def test_an_override_that_left_a_class_for_a_same_named_subclass_is_not_a_move(repo: RepoBuilder) -> None:
    # wagtail 5.2 -> 5.1.3: IndexView.render_to_response went from the generic view to the
    # snippets' IndexView (its subclass); it ended in super(), so the generic one still has one
    override = ("    def render(self, context, **extra):\n        if getattr(self, 'export', False):\n"
                "            return None\n        return super().render(context, **extra)\n")
    generic = "from outside.views import TemplateMixin\n\n\nclass ListView(TemplateMixin):\n"
    snippets = "from pkg import generic\n\n\nclass ListView(generic.ListView):\n"
    reports = ("from pkg.generic import ListView\n\n\nclass ReportView(ListView):\n    def get(self, request):\n"
               "        return self.render({})\n")
    repo.commit({"pkg/__init__.py": "", "pkg/generic.py": generic + override,
                 "pkg/snippets.py": snippets + "    pass\n", "pkg/reports.py": reports})
    repo.start_branch("feature")
    repo.commit({"pkg/generic.py": generic + "    pass\n", "pkg/snippets.py": snippets + override})
    report = diff(repo.path, "main..feature")
    assert changed(report)["pkg/generic.py::ListView::render"] == "removed"
    assert changed(report)["pkg/snippets.py::ListView::render"] == "added"
    assert report["breaking"] == []


def test_a_base_method_gone_to_many_subclasses_is_not_left_behind(repo: RepoBuilder) -> None:
    # transformers 4.35.0 -> 4.34.1: _set_gradient_checkpointing lives on each of 171 model
    # classes instead of their base; past the targets the link lists, the call says nothing
    subclasses = "".join(f"\n\nclass Model{i}(Base):\n    flag = True\n" for i in range(20))
    own = "    def toggle(self, on):\n        return on\n\n"
    base = "class Base:\n    def enable(self):\n        return self.toggle(True)\n\n"
    repo.commit({"models.py": base + own + subclasses})
    repo.start_branch("feature")
    moved = subclasses.replace("    flag = True\n", "    flag = True\n\n" + own.rstrip("\n") + "\n")
    repo.commit({"models.py": base + moved})
    report = diff(repo.path, "main..feature")
    assert changed(report)["models.py::Base::toggle"] == "removed"
    assert report["breaking"] == []
    # with no class left that has it, the call is left behind
    repo.commit({"models.py": base + subclasses})
    report = diff(repo.path, "main..feature")
    assert [(b["caller"], b["reason"]) for b in report["breaking"]] == [
        ("models.py::Base::enable", "calls 'toggle', which was removed")]


def test_arguments_named_as_the_parameters_they_now_reach_are_not_shifted(repo: RepoBuilder) -> None:
    # paho-mqtt 2.0.0 -> 1.6.1: __init__ lost its first parameter; reinitialise's
    # self.__init__(client_id, clean_session) lands each on its namesake again
    client = ("class Client:\n    def __init__(self, api_version, client_id='', clean_session=None):\n"
              "        self.client_id = client_id\n\n"
              "    def reinitialise(self, client_id='', clean_session=True):\n"
              "        self.__init__(client_id, clean_session)\n\n"
              "    def copy(self, api_version, client_id):\n        self.__init__(api_version, client_id)\n")
    repo.commit({"client.py": client})
    repo.start_branch("feature")
    repo.commit({"client.py": client.replace("def __init__(self, api_version, client_id=''",
                                             "def __init__(self, client_id=''")})
    report = diff(repo.path, "main..feature")
    # copy's api_version now lands on client_id: still listed
    assert [(b["caller"], b["reason"]) for b in report["breaking"]] == [
        ("client.py::Client::copy", "argument 1 by position now goes to 'client_id', not 'api_version'")]


def test_a_file_too_large_to_read_is_skipped_and_the_walk_goes_on(repo: RepoBuilder) -> None:
    # moto 4.2.14 -> 5.0.0: a generated policy table beside a removed def (a KeyError);
    # altair 5.2.0: a generated schema grown past the limit, whose classes looked removed
    big = "x" * 10_000_100
    schema = "class NamedData:\n    def __init__(self, name):\n        self.name = name\n"
    api = "from schema import NamedData\n\n\ndef named(n):\n    return NamedData(n)\n"
    repo.commit({"big.py": f"POLICIES = {big!r}\n", "schema.py": schema, "api.py": api,
                 "m.py": "def gone():\n    return 1\n\n\ndef keep():\n    return gone()\n"})
    repo.start_branch("feature")
    repo.commit({"m.py": "def keep():\n    return 2\n", "schema.py": schema + f"\nTABLE = {big!r}\n"})
    report = diff(repo.path, "main..feature")
    # schema.py is not read in head: neither its class nor the import of it is gone
    assert changed(report) == {"m.py::gone": "removed", "m.py::keep": "modified"}
    assert report["breaking"] == []
    assert sorted((s["path"], s["reason"]) for s in report.get("skipped", [])) == [
        ("big.py", "too-large"), ("schema.py", "too-large")]


def test_methods_of_a_class_replaced_by_a_factory_of_its_name_are_not_left_behind(repo: RepoBuilder) -> None:
    # robotframework 7.0 -> 6.1.1: TestLibrary, a class with properties, became a function
    # making objects of other classes, which store those attributes themselves
    before = ("class Library:\n    def __init__(self, name):\n        self.name = name\n\n"
              "    @property\n    def version(self):\n        return '1.0'\n")
    after = ("class _Base:\n    def __init__(self, name):\n        self.name = name\n        self.version = '1.0'\n\n\n"
             "class _ClassLibrary(_Base):\n    pass\n\n\ndef Library(name):\n    return _ClassLibrary(name)\n")
    use = "from libs import Library\n\n\ndef build(name):\n    lib = Library(name)\n    return lib.version\n"
    repo.commit({"libs.py": before, "use.py": use})
    repo.start_branch("feature")
    repo.commit({"libs.py": after})
    report = diff(repo.path, "main..feature")
    assert changed(report)["libs.py::Library::version"] == "removed"
    assert report["breaking"] == []


def test_a_removed_property_every_subclass_object_stores_is_not_left_behind(repo: RepoBuilder) -> None:
    # robotframework 6.1.1 -> 7.0: a mixin's deprecated `message` property gone, each result
    # class storing self.message in its __init__; _write_status(item) reads item.message
    model = ("class Deprecated:\n    @property\n    def message(self):\n        return ''\n\n\n"
             "class For(Deprecated):\n    def __init__(self):\n        self.kind = 'for'\n")
    logger = ("from model import Deprecated, For\n\n\ndef status(item):\n    return item.message\n\n\n"
              "def run():\n    return status(For())\n\n\ndef plain():\n    return Deprecated().message\n")
    repo.commit({"model.py": model, "logger.py": logger})
    repo.start_branch("feature")
    repo.commit({"model.py": model.replace("    @property\n    def message(self):\n        return ''\n", "    pass\n")
                 .replace("self.kind = 'for'", "self.kind = 'for'\n        self.message = ''")})
    report = diff(repo.path, "main..feature")
    # a Deprecated made right there has no message any more
    assert [(b["caller"], b["reason"]) for b in report["breaking"]] == [
        ("logger.py::plain", "reads 'message', which was removed")]


def test_a_call_of_a_removed_method_under_a_hasattr_test_is_not_left_behind(repo: RepoBuilder) -> None:
    # pymongo 4.0 -> 3.13.0: its SSLContext wrapper lost load_default_certs, which
    # get_ssl_context calls only where hasattr(ctx, "load_default_certs") says it is there
    ssl = ("class Context:\n    def load_certs(self):\n        return 1\n\n"
           "    def verify(self):\n        return 2\n\n\n"
           "def make(flag):\n    ctx = Context()\n    if flag and hasattr(ctx, 'load_certs'):\n"
           "        ctx.load_certs()\n    ctx.verify()\n    return ctx\n")
    repo.commit({"ssl_support.py": ssl})
    repo.start_branch("feature")
    repo.commit({"ssl_support.py": ssl.replace("    def load_certs(self):\n        return 1\n\n", "")
                 .replace("    def verify(self):\n        return 2\n", "    pass\n")})
    report = diff(repo.path, "main..feature")
    # verify is called unguarded: that call is left behind
    assert [(b["line"], b["reason"]) for b in report["breaking"]] == [(9, "calls 'verify', which was removed")]
