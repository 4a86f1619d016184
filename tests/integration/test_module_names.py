"""A change to module-level code impacts the symbols that read the names it rebinds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
from helpers.gitrepo import RepoBuilder

from impactbot.cli import main
from impactbot.extract import extract
from impactbot.link.reads import readers
from impactbot.report import schema

CONF = """\
import os

TIMEOUT = 30
RETRIES = 3


def timeout_ms():
    return TIMEOUT * 1000


def local_only():
    TIMEOUT = 5
    return TIMEOUT
"""

NET = """\
from pkg.conf import TIMEOUT as T, RETRIES
from pkg import conf
import pkg.conf


def fetch(url):
    return get(url, timeout=T)


def retry():
    return RETRIES


def via_module():
    return conf.TIMEOUT


def via_package_path():
    return pkg.conf.TIMEOUT


def shadowed(T):
    return T


def get(url, timeout):
    return url


class Client:
    timeout = T

    def call(self):
        return fetch("x")
"""

FILES = {
    "pkg/__init__.py": "from .conf import *\n",
    "pkg/conf.py": CONF,
    "pkg/net.py": NET,
    "app.py": "from pkg import TIMEOUT\n\n\ndef main():\n    return TIMEOUT\n",
    "tests/test_app.py": "from app import main\n\n\ndef test_main():\n    assert main()\n",
    "tests/test_retry.py": "from pkg.net import retry\n\n\ndef test_retry():\n    assert retry()\n",
}


def diff(repo: Path, *args: str) -> dict[str, Any]:
    out = repo.parent / "report.json"
    assert main(["diff", "main..feature", "-C", str(repo), "--format", "json", "-o", str(out), "--no-cache",
                 "-q", *args]) == 0
    report = json.loads(out.read_text())
    jsonschema.validate(report, schema("impact-report"))
    return report


def impacted(report: dict[str, Any]) -> dict[str, int]:
    return {i["id"]: i["depth"] for i in report["impacted"]}


def _branch(repo: RepoBuilder, files: dict[str, str | None]) -> None:
    repo.commit(dict(FILES))
    repo.start_branch("feature")
    repo.commit(dict(files))


def test_readers_of_a_changed_constant_are_impacted(repo: RepoBuilder) -> None:
    _branch(repo, {"pkg/conf.py": CONF.replace("TIMEOUT = 30", "TIMEOUT = 60")})
    report = diff(repo.path)
    assert [(c["id"], c["change"], c["names"]) for c in report["changed"]] == [
        ("pkg/conf.py", "modified", ["TIMEOUT"])
    ]
    by_id = {i["id"]: i for i in report["impacted"]}
    assert set(by_id) == {
        "pkg/conf.py::timeout_ms",  # in the module itself
        "pkg/net.py::fetch",  # from-import under an alias
        "pkg/net.py::via_module",  # conf.TIMEOUT
        "pkg/net.py::via_package_path",  # pkg.conf.TIMEOUT
        "pkg/net.py::Client",  # a class body
        "pkg/net.py::Client::call",  # calls fetch
        "app.py::main",  # re-exported by pkg/__init__.py's star import
        "tests/test_app.py::test_main",
    }  # not local_only or shadowed (a local and a parameter of that name), not retry (RETRIES is unchanged)
    assert by_id["pkg/net.py::fetch"]["paths"] == [["pkg/net.py::fetch", "pkg/conf.py"]]
    assert by_id["pkg/net.py::fetch"]["depth"] == 1
    assert by_id["pkg/net.py::Client::call"]["paths"] == [["pkg/net.py::Client::call", "pkg/net.py::fetch",
                                                            "pkg/conf.py"]]
    assert report["tests"] == ["tests/test_app.py::test_main"]


def test_an_import_bound_elsewhere_impacts_the_code_using_it(repo: RepoBuilder) -> None:
    files = {
        "old.py": "def helper():\n    return 1\n",
        "new.py": "def helper():\n    return 2\n",
        "use.py": "from old import helper\n\n\ndef run():\n    return helper()\n\n\ndef other():\n    return 0\n",
    }
    repo.commit(files)
    repo.start_branch("feature")
    repo.commit({"use.py": files["use.py"].replace("from old", "from new")})
    report = diff(repo.path)
    assert [(c["id"], c["names"]) for c in report["changed"]] == [("use.py", ["helper"])]
    assert [i["id"] for i in report["impacted"]] == ["use.py::run"]


def test_layout_and_import_order_change_nothing(repo: RepoBuilder) -> None:
    _branch(repo, {"pkg/conf.py": "import os\n\n" + CONF.replace("import os\n", "").replace(
        "TIMEOUT = 30\nRETRIES = 3", "# tuned\nTIMEOUT = 30  # seconds\nRETRIES = 3")})
    report = diff(repo.path)
    assert report["changed"] == [] and report["impacted"] == []


def test_a_new_module_level_name_impacts_nothing_that_existed(repo: RepoBuilder) -> None:
    _branch(repo, {"pkg/conf.py": CONF + "\nBACKOFF = 2\n"})
    report = diff(repo.path)
    assert [(c["id"], c["names"]) for c in report["changed"]] == [("pkg/conf.py", ["BACKOFF"])]
    assert report["impacted"] == []


def test_a_constant_read_everywhere_is_a_hub(repo: RepoBuilder) -> None:
    readers = "".join(f"def r{i}():\n    return LIMIT\n\n\n" for i in range(6))
    repo.commit({"conf.py": "LIMIT = 1\n", "use.py": "from conf import LIMIT\n\n\n" + readers,
                 "test_use.py": "from use import r0\n\n\ndef test_r0():\n    assert r0()\n"})
    repo.start_branch("feature")
    repo.commit({"conf.py": "LIMIT = 2\n"})
    report = diff(repo.path, "--hub-cap", "5")
    assert report["truncated"]["hubs"] == [{"id": "conf.py", "callers": 6}]
    assert report["impacted"] == []
    assert report["tests"] == ["test_use.py::test_r0"]  # tests still follow every path


def test_text_and_markdown_name_the_rebound_names(repo: RepoBuilder) -> None:
    _branch(repo, {"pkg/conf.py": CONF.replace("TIMEOUT = 30\nRETRIES = 3", "TIMEOUT = 60\nRETRIES = 4")})
    for fmt, expected in (("text", "modified: RETRIES, TIMEOUT"), ("markdown", "modified: `RETRIES`, `TIMEOUT`")):
        out = repo.path.parent / f"report.{fmt}"
        assert main(["diff", "main..feature", "-C", str(repo.path), "--format", fmt, "-o", str(out),
                     "--no-cache", "-q"]) == 0
        assert expected in out.read_text()


def test_module_level_code_passes_a_change_on(repo: RepoBuilder) -> None:
    conf = "TIMEOUT = 30\nDEFAULTS = {\n    'timeout': TIMEOUT,\n}\nUNRELATED = 1\n"
    repo.commit({
        "conf.py": conf,
        "settings.py": "from conf import DEFAULTS, UNRELATED\n\nOPTIONS = dict(DEFAULTS)\nOTHER = UNRELATED\n",
        "app.py": ("from settings import OPTIONS, OTHER\nimport conf\n\n\ndef run():\n    return OPTIONS\n\n\n"
                   "def direct():\n    return conf.DEFAULTS\n\n\ndef other():\n    return OTHER\n"),
    })
    repo.start_branch("feature")
    repo.commit({"conf.py": conf.replace("30", "60")})
    report = diff(repo.path)
    assert [(c["id"], c["names"]) for c in report["changed"]] == [("conf.py", ["TIMEOUT"])]
    by_id = {i["id"]: i for i in report["impacted"]}
    assert set(by_id) == {"settings.py", "app.py::run", "app.py::direct"}  # not other(): OTHER keeps its value
    assert by_id["settings.py"]["paths"] == [["settings.py", "conf.py"]]
    assert by_id["app.py::run"]["paths"] == [["app.py::run", "settings.py", "conf.py"]]
    assert by_id["app.py::direct"]["paths"] == [["app.py::direct", "conf.py"]]


def test_a_moved_module_with_a_new_value_impacts_its_readers(repo: RepoBuilder) -> None:
    conf = "TIMEOUT = 30\nRETRIES = 3\nBACKOFF = 2\nJITTER = 1\n\n\ndef timeout_ms():\n    return TIMEOUT * 1000\n"
    repo.commit({"pkg/__init__.py": "from .conf import *\n", "pkg/conf.py": conf,
                 "app.py": "from pkg import TIMEOUT, RETRIES\n\n\ndef main():\n    return TIMEOUT\n\n\n"
                           "def other():\n    return RETRIES\n"})
    repo.start_branch("feature")
    # git sees a rename: the importers of pkg are not touched
    repo.commit({"pkg/conf.py": None, "pkg/settings.py": conf.replace("30", "60"),
                 "pkg/__init__.py": "from .settings import *\n"})
    report = diff(repo.path)
    by_id = {c["id"]: c for c in report["changed"]}
    assert (by_id["pkg/settings.py"]["change"], by_id["pkg/settings.py"]["names"]) == ("renamed", ["TIMEOUT"])
    assert [(i["id"], i["paths"]) for i in report["impacted"]] == [
        ("app.py::main", [["app.py::main", "pkg/settings.py"]])
    ]  # not other(): RETRIES keeps its value


def test_a_changed_condition_rebinds_the_names_it_guards(repo: RepoBuilder) -> None:
    conf = "DEBUG = False\nif DEBUG:\n    LEVEL = 10\nelse:\n    LEVEL = 20\n"
    log = "import sys\nif sys.platform == 'win32':\n    PATH = 'NUL'\nelse:\n    PATH = '/dev/null'\n"
    repo.commit({
        "conf.py": conf,
        "log.py": log,
        "app.py": ("from conf import LEVEL\nfrom log import PATH\n\n\ndef level():\n    return LEVEL\n\n\n"
                   "def path():\n    return PATH\n"),
    })
    repo.start_branch("feature")
    repo.commit({"conf.py": conf.replace("False", "True"), "log.py": log.replace("'win32'", "'cygwin'")})
    report = diff(repo.path)
    assert [(c["id"], c["names"]) for c in report["changed"]] == [("conf.py", ["DEBUG"]), ("log.py", ["PATH"])]
    assert [(i["id"], i["paths"]) for i in report["impacted"]] == [
        ("app.py::level", [["app.py::level", "conf.py"]]),  # LEVEL is bound under `if DEBUG:`
        ("app.py::path", [["app.py::path", "log.py"]]),
    ]


def test_a_global_declaration_reads_the_module_name_past_enclosing_locals(repo: RepoBuilder) -> None:
    use = ("from conf import LIMIT\n\n\ndef outer():\n    LIMIT = 0\n\n    def inner():\n        global LIMIT\n"
           "        return LIMIT\n\n    def local():\n        return LIMIT\n\n    return inner() + local()\n")
    repo.commit({"conf.py": "LIMIT = 1\n", "use.py": use})
    repo.start_branch("feature")
    repo.commit({"conf.py": "LIMIT = 2\n"})
    report = diff(repo.path)
    assert [(i["id"], i["paths"]) for i in report["impacted"]] == [
        ("use.py::outer::inner", [["use.py::outer::inner", "conf.py"]]),  # not local(): outer's LIMIT
        ("use.py::outer", [["use.py::outer", "use.py::outer::inner", "conf.py"]]),
    ]


def test_every_one_of_thousands_of_readers_in_one_file_is_found() -> None:
    # (the scopes of a file are indexed once; searching them for each read made this take 13 s)
    count = 5_000
    use = "from conf import LIMIT\n\n\n" + "".join(
        f"def r{i}(a):\n    b = a + 1\n    return LIMIT + b\n\n\n" for i in range(count))
    files = {"conf.py": b"LIMIT = 1\n", "use.py": use.encode()}
    facts = {path: extract(data, "python") for path, data in files.items()}
    found = readers({"conf.py": ("LIMIT",)}, facts, files.__getitem__)
    assert sorted(r.reader for r in found) == sorted(f"use.py::r{i}" for i in range(count))
    assert {(r.owner, r.name) for r in found} == {("conf.py", "LIMIT")}
    assert found[0].line == 6  # the first read of r0 (sorted by reader id)


def test_a_submodule_read_through_an_imported_package_is_a_read(repo: RepoBuilder) -> None:
    use = ("import pkg\nimport pkg as p\n\n\ndef full():\n    return pkg.conf.TIMEOUT\n\n\n"
           "def aliased():\n    return p.conf.TIMEOUT\n\n\ndef other():\n    return pkg.conf.RETRIES\n")
    repo.commit({"pkg/__init__.py": "from . import conf\n", "pkg/conf.py": "TIMEOUT = 30\nRETRIES = 3\n",
                 "use.py": use})
    repo.start_branch("feature")
    repo.commit({"pkg/conf.py": "TIMEOUT = 60\nRETRIES = 3\n"})
    report = diff(repo.path)
    assert [(i["id"], i["paths"]) for i in report["impacted"]] == [
        ("use.py::aliased", [["use.py::aliased", "pkg/conf.py"]]),
        ("use.py::full", [["use.py::full", "pkg/conf.py"]]),
    ]


CONFIG = """\
class Retry:
    attempts = 3
    delay: float = 1.0

    def plan(self):
        return [self.delay] * self.attempts

    def first(self):
        return self.delay

    @classmethod
    def default_attempts(cls):
        return cls.attempts

    @staticmethod
    def unrelated(attempts):
        return attempts


class Patient(Retry):
    def plan(self):
        return self.attempts * 2


class Stubborn(Retry):
    attempts = 10

    def total(self):
        return self.attempts
"""


def test_methods_reading_a_changed_class_attribute_are_impacted(repo: RepoBuilder) -> None:
    repo.commit({
        "retry.py": CONFIG,
        "use.py": "from retry import Patient\n\n\ndef run(p: Patient):\n    return p.plan()\n",
    })
    repo.start_branch("feature")
    repo.commit({"retry.py": CONFIG.replace("attempts = 3", "attempts = 5")})
    report = diff(repo.path)
    assert [(c["id"], c["change"], c["names"]) for c in report["changed"]] == [
        ("retry.py::Retry", "modified", ["attempts"])
    ]
    by_id = {i["id"]: i for i in report["impacted"]}
    # not first() (reads delay only), unrelated() (a parameter), Stubborn.total (its own attempts)
    assert {i: v["depth"] for i, v in by_id.items()} == {
        "retry.py::Retry::plan": 1, "retry.py::Retry::default_attempts": 1, "retry.py::Patient::plan": 1,
        "retry.py::Patient": 1, "retry.py::Stubborn": 1,  # subclasses depend on their base anyway
        "use.py::run": 2,
    }
    assert by_id["retry.py::Patient::plan"]["paths"] == [["retry.py::Patient::plan", "retry.py::Retry"]]
    assert by_id["use.py::run"]["paths"] == [["use.py::run", "retry.py::Patient::plan", "retry.py::Retry"]]


def test_reads_through_a_class_name_follow_imports_subclasses_and_scopes(repo: RepoBuilder) -> None:
    base = "class Retry:\n    attempts = 3\n    delay = 1\n\n\nclass Patient(Retry):\n    pass\n\n\n" \
           "class Stubborn(Retry):\n    attempts = 9\n"
    use = ("import retry as policy\nfrom retry import Patient, Retry, Stubborn\n\n\n"
           "def direct():\n    return Retry.attempts\n\n\n"
           "def through_module():\n    return policy.Retry.attempts\n\n\n"
           "def inherited():\n    return Patient.attempts\n\n\n"
           "def own_value():\n    return Stubborn.attempts\n\n\n"
           "def other_name():\n    return Retry.delay\n\n\n"
           "def hidden(Retry):\n    return Retry.attempts\n\n\n"
           "def local():\n    from other import Retry\n    return Retry.attempts\n\n\n"
           "LIMIT = Retry.attempts * 2\n\n\ndef limit():\n    return LIMIT\n")
    repo.commit({"retry.py": base, "use.py": use, "other.py": "class Retry:\n    attempts = 1\n"})
    repo.start_branch("feature")
    repo.commit({"retry.py": base.replace("attempts = 3", "attempts = 5")})
    report = diff(repo.path)
    by_id = {i["id"]: i for i in report["impacted"]}
    # not own_value (Stubborn binds its own), other_name (delay is unchanged), hidden (a
    # parameter of that name) or local (another module's Retry)
    # and limit(), reading what the module-level code reading it assigns
    assert {"use.py::direct", "use.py::through_module", "use.py::inherited", "use.py", "use.py::limit"} <= set(by_id)
    assert not {"use.py::own_value", "use.py::other_name", "use.py::hidden", "use.py::local"} & set(by_id)
    assert by_id["use.py::inherited"]["paths"] == [["use.py::inherited", "retry.py::Retry"]]


def test_django_settings_read_through_django_conf_are_reads_of_the_settings_module(repo: RepoBuilder) -> None:
    views = ("from django.conf import settings\nfrom django.conf import settings as conf\n\n\n"
             "def page():\n    return settings.PAGE_SIZE\n\n\n"
             "def aliased():\n    return conf.PAGE_SIZE\n\n\n"
             "def debug():\n    return settings.DEBUG\n")
    tests = ("from django.test import TestCase\n\nfrom shop.views import debug, page\n\n\n"
             "class ViewTests(TestCase):\n    def test_page(self):\n        self.assertEqual(page(), 10)\n\n"
             "    def test_debug(self):\n        self.assertFalse(debug())\n")
    repo.commit({"mysite/__init__.py": "", "mysite/settings/__init__.py": "from .base import *\n",
                 "mysite/settings/base.py": "DEBUG = False\nPAGE_SIZE = 10\n", "shop/__init__.py": "",
                 "shop/views.py": views, "shop/tests.py": tests})
    repo.start_branch("feature")
    repo.commit({"mysite/settings/base.py": "DEBUG = False\nPAGE_SIZE = 20\n"})
    report = diff(repo.path)
    assert set(impacted(report)) == {"shop/views.py::page", "shop/views.py::aliased",
                                     "shop/tests.py::ViewTests::test_page"}
    assert report["tests"] == ["shop/tests.py::ViewTests::test_page"]
