"""What runs without a call written: a class statement inside a function (its body runs
at each call), assigning a data descriptor through an instance (its ``__set__``), and
the body of a lambda written in another scope than the call running it."""

from __future__ import annotations

from helpers.gitrepo import RepoBuilder
from test_pipeline import diff

FACTORY = """
def make_model(name):
    class Model:
        label = name

        def describe(self):
            return self.label
    return Model
"""

FACTORY_TESTS = """
from models import make_model

def test_label():
    assert make_model("a").label == "a"

def test_unrelated():
    assert 1 + 1 == 2

def test_local_class():
    class Local(object):
        size = 1
    assert Local.size == 1
"""

PERMS = """
class Perm:
    def __init__(self, attr):
        self.attr = attr

    def __get__(self, obj, owner=None):
        return getattr(obj, self.attr, "")

    def __set__(self, obj, value):
        setattr(obj, self.attr, "".join(sorted(value)))

class Perms:
    user = Perm("_user")
"""

PERMS_TESTS = """
from perms import Perms

def test_assign():
    p = Perms()
    p.user = "wr"

def test_class_only():
    assert Perms.__name__ == "Perms"
"""


def test_a_changed_class_statement_reaches_the_callers_of_the_function_holding_it(repo: RepoBuilder) -> None:
    repo.commit({"models.py": FACTORY, "tests/test_models.py": FACTORY_TESTS}, "base")
    repo.start_branch("feature")
    repo.commit({"models.py": FACTORY.replace("label = name", "label = name.upper()")})
    report = diff(repo.path, "main..feature")
    assert "models.py::make_model::Model" in {c["id"] for c in report["changed"]}
    assert report["tests"] == ["tests/test_models.py::test_label"]


def test_a_test_whose_own_class_statement_changed_is_selected(repo: RepoBuilder) -> None:
    repo.commit({"models.py": FACTORY, "tests/test_models.py": FACTORY_TESTS}, "base")
    repo.start_branch("feature")
    repo.commit({"tests/test_models.py": FACTORY_TESTS.replace("class Local(object):", "class Local:")})
    report = diff(repo.path, "main..feature")
    assert report["tests"] == ["tests/test_models.py::test_local_class"]


def test_a_changed_set_reaches_who_assigns_the_descriptor(repo: RepoBuilder) -> None:
    repo.commit({"perms.py": PERMS, "tests/test_perms.py": PERMS_TESTS}, "base")
    repo.start_branch("feature")
    repo.commit({"perms.py": PERMS.replace('"".join(sorted(value))', "value")})
    report = diff(repo.path, "main..feature")
    assert [c["id"] for c in report["changed"]] == ["perms.py::Perm::__set__"]
    assert report["tests"] == ["tests/test_perms.py::test_assign"]


LAMBDAS = """
def scale(x):
    return x * 2

double = lambda x: scale(x)

def unrelated(x):
    return x

def use(x):
    return double(x)
"""

LAMBDA_TESTS = """
from app import unrelated, use

def test_use():
    assert use(2) == 4

def test_unrelated():
    assert unrelated(1) == 1
"""


def test_a_change_a_module_level_lambda_calls_reaches_who_calls_the_lambda(repo: RepoBuilder) -> None:
    repo.commit({"app.py": LAMBDAS, "tests/test_app.py": LAMBDA_TESTS}, "base")
    repo.start_branch("feature")
    repo.commit({"app.py": LAMBDAS.replace("return x * 2", "return x + x")})
    report = diff(repo.path, "main..feature")
    assert [c["id"] for c in report["changed"]] == ["app.py::scale"]
    assert "app.py::use" in {i["id"] for i in report["impacted"]}
    assert report["tests"] == ["tests/test_app.py::test_use"]


CHECKS = """
def raises(err, thunk):
    try:
        thunk()
    except err:
        return True
    return False


def check(err, thunk):
    return raises(err, thunk)


def parse(text):
    return int(text)


def split(text):
    return text.split()
"""

CHECK_TESTS = """
from checks import check, parse, raises, split

def test_parse():
    assert raises(ValueError, lambda: parse("x"))

def test_split():
    assert raises(AttributeError, lambda: split(None))

def test_parse_through_check():
    assert check(ValueError, lambda: parse("y"))
"""


def test_a_lambda_handed_down_a_call_chain_reaches_only_the_test_that_wrote_it(repo: RepoBuilder) -> None:
    repo.commit({"checks.py": CHECKS, "tests/test_checks.py": CHECK_TESTS}, "base")
    repo.start_branch("feature")
    repo.commit({"checks.py": CHECKS.replace("return int(text)", "return int(text, 10)")})
    report = diff(repo.path, "main..feature")
    assert report["tests"] == ["tests/test_checks.py::test_parse", "tests/test_checks.py::test_parse_through_check"]
    # raises runs the lambdas, but only those its callers hand it: it is not impacted
    assert {i["id"] for i in report["impacted"]} == set(report["tests"])


def test_a_changed_test_does_not_reach_the_helper_that_runs_its_lambda(repo: RepoBuilder) -> None:
    repo.commit({"checks.py": CHECKS, "tests/test_checks.py": CHECK_TESTS}, "base")
    repo.start_branch("feature")
    repo.commit({"tests/test_checks.py": CHECK_TESTS.replace('parse("x")', 'parse("z")')})
    report = diff(repo.path, "main..feature")
    assert report["tests"] == ["tests/test_checks.py::test_parse"]
    assert report["impacted"] == []
