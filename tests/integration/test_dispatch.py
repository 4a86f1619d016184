"""A method reached only through a call on ``self`` reaches the change only for the
classes whose ``self`` dispatches there (impactbot.dispatch)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers.gitrepo import RepoBuilder

from impactbot.cli import main

FIELDS = """\
class Field:
    def serialize(self, value):
        return self._serialize(value)

    def _serialize(self, value):
        return value


class Nested(Field):
    def _serialize(self, value):
        return dump(value)


class Plain(Field):
    pass


def dump(value):
    return value
"""

FIELD_TESTS = """\
from fields import Field, Nested, Plain


def test_base():
    field = Field()
    assert field.serialize(1) == 1


def test_inline():
    assert Field().serialize(1) == 1


def test_nested():
    assert Nested().serialize(1) == 1


def test_plain():
    field = Plain()
    if field:
        field = Plain()
    assert field.serialize(1) == 1


def test_given(field):
    assert field.serialize(1)


def test_either(flag):
    field = Nested() if flag else Plain()
    assert field.serialize(1)
"""

CONFTEST = """\
import pytest

from fields import Nested


@pytest.fixture
def field():
    return Nested()
"""


def diff(repo: Path) -> dict[str, Any]:
    out = repo.parent / "report.json"
    assert main(["diff", "main..feature", "-C", str(repo), "--format", "json", "-o", str(out),
                 "--no-cache", "-q"]) == 0
    return json.loads(out.read_text())


def report_after(repo: RepoBuilder, files: dict[str, str], edit: dict[str, str]) -> dict[str, Any]:
    """The report once ``edit`` is committed on a branch over ``files``."""
    repo.commit(files, "base")
    repo.start_branch("feature")
    repo.commit(edit)
    return diff(repo.path)


def diff_ids(repo: RepoBuilder, files: dict[str, str], edit: dict[str, str]) -> list[str]:
    """The tests listed once ``edit`` is committed on a branch over ``files``."""
    return list(report_after(repo, files, edit)["tests"])


def selected_after(repo: RepoBuilder, files: dict[str, str], edit: dict[str, str]) -> list[str]:
    """:func:`diff_ids`, by test name alone."""
    return [t.rpartition("::")[2] for t in diff_ids(repo, files, edit)]


def test_a_change_to_an_override_reaches_only_callers_whose_receiver_can_run_it(repo: RepoBuilder) -> None:
    changed = FIELDS.replace("return dump(value)", "return dump(value) or 0")
    tests = selected_after(repo, {"fields.py": FIELDS, "test_fields.py": FIELD_TESTS, "conftest.py": CONFTEST},
                        {"fields.py": changed})
    # a constructed Field or Plain never runs Nested._serialize; a fixture's value is not
    # read from the call site, and `Nested() if flag else Plain()` is not one assignment
    assert tests == ["test_either", "test_given", "test_nested"]


def test_a_change_to_the_base_method_skips_receivers_that_override_it(repo: RepoBuilder) -> None:
    changed = FIELDS.replace("        return value\n\n\nclass Nested", "        return value or 0\n\n\nclass Nested")
    tests = selected_after(repo, {"fields.py": FIELDS, "test_fields.py": FIELD_TESTS, "conftest.py": CONFTEST},
                        {"fields.py": changed})
    assert tests == ["test_base", "test_either", "test_given", "test_inline", "test_plain"]


def test_a_class_whose_new_may_make_another_class_is_not_taken_at_its_word(repo: RepoBuilder) -> None:
    factory = FIELDS.replace("class Field:\n", "class Field:\n    def __new__(cls, *args):\n"
                             "        return super().__new__(Nested if args else cls)\n\n")
    changed = factory.replace("return dump(value)", "return dump(value) or 0")
    tests = selected_after(repo, {"fields.py": factory, "test_fields.py": FIELD_TESTS}, {"fields.py": changed})
    assert {"test_base", "test_inline", "test_plain"} <= set(tests)


def test_an_override_making_calls_the_graph_could_not_resolve_keeps_its_callers(repo: RepoBuilder) -> None:
    # Plain's own _serialize calls a method of an object nothing tells: it might reach the change
    unknown = FIELDS.replace("class Plain(Field):\n    pass\n", "class Plain(Field):\n"
                             "    def _serialize(self, value):\n        return self.delegate.serialize(value)\n")
    changed = unknown.replace("def dump(value):\n    return value", "def dump(value):\n    return value or 0")
    tests = selected_after(repo, {"fields.py": unknown, "test_fields.py": FIELD_TESTS}, {"fields.py": changed})
    assert "test_plain" in tests and "test_base" not in tests and "test_inline" not in tests


TEST_CLASSES = """\
from app import helper


class TestBase:
    def check(self):
        return 1

    def test_x(self):
        assert self.check()


class TestSpecial(TestBase):
    def check(self):
        return helper()


class TestOther(TestBase):
    pass
"""


def test_a_test_runs_the_change_only_as_the_subclasses_whose_self_dispatches_there(repo: RepoBuilder) -> None:
    tests = diff_ids(repo, {"app.py": "def helper():\n    return 2\n", "test_app.py": TEST_CLASSES},
                     {"app.py": "def helper():\n    return 3\n"})
    assert tests == ["test_app.py::TestSpecial::test_x"]


def test_a_super_call_passes_the_receiver_on(repo: RepoBuilder) -> None:
    source = """\
class Base:
    def setup(self):
        return 1


class Changed(Base):
    def setup(self):
        return 2


class Kept(Base):
    def setup(self):
        return super().setup()
"""
    tests = """\
from app import Changed, Kept


def test_kept():
    assert Kept().setup() == 1


def test_changed():
    assert Changed().setup() == 2
"""
    ids = diff_ids(repo, {"app.py": source, "test_app.py": tests},
                   {"app.py": source.replace("return 2", "return 3")})
    # Kept.setup calls Base.setup through super(): Changed's override never runs there
    assert ids == ["test_app.py::test_changed"]


def test_constructing_a_base_class_runs_its_own_init_not_a_subclass_override(repo: RepoBuilder) -> None:
    source = """\
class Base:
    def __init__(self):
        self.size = 1


class Sized(Base):
    def __init__(self):
        super().__init__()
        self.size = measure()


def measure():
    return 2
"""
    tests = """\
from app import Base, Sized


def test_base():
    assert Base().size == 1


def test_sized():
    assert Sized().size == 2
"""
    ids = diff_ids(repo, {"app.py": source, "test_app.py": tests},
                   {"app.py": source.replace("return 2", "return 3")})
    assert ids == ["test_app.py::test_sized"]


def test_a_call_naming_the_base_class_dispatches_to_no_override(repo: RepoBuilder) -> None:
    source = """\
class Cache:
    def __init__(self, size):
        self.size = size


class Recent(Cache):
    def __init__(self, size):
        Cache.__init__(self, size)
        self.order = measure()


class First(Cache):
    def __init__(self, size):
        Cache.__init__(self, size)


class Last(Cache):
    def __init__(self, size):
        super().__init__(size)


def measure():
    return []
"""
    tests = """\
from app import First, Last, Recent


def test_first():
    assert First(1).size == 1


def test_last():
    assert Last(1).size == 1


def test_recent():
    assert Recent(1).order == []
"""
    ids = diff_ids(repo, {"app.py": source, "test_app.py": tests},
                   {"app.py": source.replace("self.order = measure()", "self.order = measure() or []")})
    # First names Cache: Recent's override never runs there; Last's super() is Cache's too,
    # as no class derives from both Last and Recent
    assert ids == ["test_app.py::test_recent"]


MIXIN_CACHES = """\
class Cache:
    def __init__(self, size):
        self.size = size


class Recent(Cache):
    def __init__(self, size):
        super().__init__(size)
        self.order = measure()


class First(Cache):
    pass


def measure():
    return []
"""

MIXIN_TESTS = """\
import unittest

import caches
from caches import First, Recent
from caches import First as Earliest


class CacheTests:
    Cache = None

    def test_size(self):
        assert self.Cache(2).size == 2


class TestCache(CacheTests, unittest.TestCase):
    Cache = caches.Cache


class TestFirst(CacheTests, unittest.TestCase):
    Cache = First


class TestRecent(CacheTests, unittest.TestCase):
    Cache = Recent


class TestLater(CacheTests, unittest.TestCase):
    def setUp(self):
        self.Cache = pick()


class TestFirstAgain(TestFirst):
    pass


class TestAliased(CacheTests, unittest.TestCase):
    Cache = Earliest


def pick():
    return First
"""


def test_a_mixin_constructing_a_class_attribute_runs_what_each_class_sets_it_to(repo: RepoBuilder) -> None:
    ids = diff_ids(repo, {"caches.py": MIXIN_CACHES, "test_caches.py": MIXIN_TESTS},
                   {"caches.py": MIXIN_CACHES.replace("self.order = measure()", "self.order = measure() or []")})
    # TestLater stores its own Cache on the instance, TestAliased names an alias: what
    # they hold is not read, they are kept
    assert ids == ["test_caches.py::TestAliased::test_size", "test_caches.py::TestLater::test_size",
                   "test_caches.py::TestRecent::test_size"]


def test_a_change_to_the_base_init_reaches_every_class_a_mixin_may_construct(repo: RepoBuilder) -> None:
    ids = diff_ids(repo, {"caches.py": MIXIN_CACHES, "test_caches.py": MIXIN_TESTS},
                   {"caches.py": MIXIN_CACHES.replace("self.size = size", "self.size = int(size)")})
    assert ids == [f"test_caches.py::{c}::test_size"
                   for c in ("TestAliased", "TestCache", "TestFirst", "TestFirstAgain", "TestLater", "TestRecent")]


FORMS = """\
class Form:
    def __init__(self, data):
        self.data = data

    def is_valid(self):
        return all(getattr(self, "clean_%s" % name)() for name in self.data)


class SignupForm(Form):
    def clean_email(self):
        return "@" in self.data["email"]


class LoginForm(Form):
    def clean_password(self):
        return bool(self.data["password"])
"""

FORM_TESTS = """\
from forms import LoginForm, SignupForm


def test_signup():
    assert SignupForm({"email": "a@b"}).is_valid()


def test_login():
    form = LoginForm({"password": "x"})
    assert form.is_valid()
"""


def test_a_method_picked_by_a_computed_name_on_self_reaches_only_its_class(repo: RepoBuilder) -> None:
    """`getattr(self, "clean_%s" % name)()` may run any `clean_*` method of `self`'s class:
    a guess (name_match, the call stays unresolved) that still only runs for that class."""
    changed = FORMS.replace('return "@" in self.data["email"]', 'return "@" in self.data["email"].strip()')
    report = report_after(repo, {"forms.py": FORMS, "test_forms.py": FORM_TESTS}, {"forms.py": changed})
    assert [t.rpartition("::")[2] for t in report["tests"]] == ["test_signup"]
    assert "forms.py::Form::is_valid" in {i["id"] for i in report["impacted"]}
    assert report["unresolved_calls"] == 1  # the getattr call: its targets are guesses


def test_a_guessed_call_is_not_reported_as_breaking(repo: RepoBuilder) -> None:
    changed = FORMS.replace("def clean_email(self):", "def clean_email(self, strict):")
    report = report_after(repo, {"forms.py": FORMS, "test_forms.py": FORM_TESTS}, {"forms.py": changed})
    assert [c["id"] for c in report["changed"]] == ["forms.py::SignupForm::clean_email"]
    assert report["changed"][0]["signature_changed"] is True
    assert report["breaking"] == []  # the getattr may never pick clean_email: not a known call
