"""pytest: a test's parameter holds what the visible fixture returns or yields, or what parametrize lists."""

from __future__ import annotations

import pytest
from helpers.linking import assert_derived_both_ways, derived_from, facts

from impactbot.link import incremental, link

APP = """
class Service:
    def run(self):
        pass

    def attach(self, db):
        pass

class Db:
    def query(self):
        pass

    def close(self):
        pass
"""

CONFTEST = """
import pytest
from app import Db, Service

@pytest.fixture
def svc():
    return Service()

@pytest.fixture
def db():
    conn = Db()
    yield conn
    conn.close()

@pytest.fixture
def wired(svc, db):
    svc.attach(db)
    return svc
"""

TESTS = """
def test_run(svc, db):
    svc.run()
    db.query()

class TestWired:
    def test_wired(self, wired):
        wired.run()
"""


def _edges(files: dict[str, str]) -> set[tuple[str, str, str]]:
    return {(e.source, e.target, e.kind) for e in link(facts(files)).edges}


def test_a_test_calls_methods_of_what_its_fixtures_return_or_yield() -> None:
    edges = _edges({"app.py": APP, "tests/conftest.py": CONFTEST, "tests/test_a.py": TESTS})
    assert {
        ("tests/test_a.py::test_run", "app.py::Service::run", "calls"),  # returned
        ("tests/test_a.py::test_run", "app.py::Db::query", "calls"),  # yielded
        ("tests/conftest.py::wired", "app.py::Service::attach", "calls"),  # a fixture using fixtures
        ("tests/test_a.py::TestWired::test_wired", "app.py::Service::run", "calls"),
        ("tests/test_a.py::test_run", "tests/conftest.py::svc", "uses_fixture"),
        ("tests/test_a.py::TestWired::test_wired", "tests/conftest.py::wired", "uses_fixture"),
    } <= edges
    # the generator itself is not what the test gets
    assert ("tests/test_a.py::test_run", "app.py::Db::close", "calls") not in edges


def test_the_nearest_fixture_of_a_name_is_the_one_a_test_gets() -> None:
    local = """
import pytest

@pytest.fixture
def svc():
    return 42

def test_local(svc):
    svc.run()
"""
    files = {"app.py": APP, "tests/conftest.py": CONFTEST, "tests/sub/test_b.py": local,
             "tests/sub/test_c.py": "def test_far(svc):\n    svc.run()\n"}
    edges = _edges(files)
    assert ("tests/sub/test_b.py::test_local", "tests/sub/test_b.py::svc", "uses_fixture") in edges
    assert ("tests/sub/test_b.py::test_local", "app.py::Service::run", "calls") not in edges
    assert ("tests/sub/test_c.py::test_far", "app.py::Service::run", "calls") in edges


def test_a_parameter_not_named_after_a_fixture_gets_nothing() -> None:
    files = {"app.py": APP, "tests/conftest.py": CONFTEST, "tests/test_d.py": "def test_d(other):\n    other.run()\n",
             "app_test.py": "def helper(svc):\n    svc.run()\n"}
    edges = _edges(files)
    assert not {e for e in edges if e[0] == "tests/test_d.py::test_d"}
    assert not {e for e in edges if e[0] == "app_test.py::helper"}  # no conftest above it has svc


def test_a_derived_graph_follows_a_fixture_changing_what_it_returns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)  # derive, however much of it the change reaches
    old = {"app.py": APP, "tests/conftest.py": CONFTEST, "tests/test_a.py": TESTS}
    new = dict(old, **{"tests/conftest.py": CONFTEST.replace("return Service()", "return Db()")})
    _, derived = derived_from(facts(old), facts(new))
    full = link(facts(new))
    assert derived == full
    assert ("tests/test_a.py::test_run", "app.py::Db::query") in {(e.source, e.target) for e in full.edges}
    assert ("tests/test_a.py::test_run", "app.py::Service::run") not in {(e.source, e.target) for e in full.edges}


MARKED = """
import pytest
from app import Service

@pytest.fixture(autouse=True)
def fresh():
    Service().run()

@pytest.mark.usefixtures("db")
class TestMarked:
    def test_one(self):
        pass

def test_plain():
    pass
"""


def test_usefixtures_and_autouse_give_tests_fixture_edges() -> None:
    files = {"app.py": APP, "tests/conftest.py": CONFTEST, "tests/test_m.py": MARKED,
             "tests/sub/test_n.py": "def test_far():\n    pass\n", "other/test_o.py": "def test_out():\n    pass\n"}
    uses = {(e.source, e.target) for e in link(facts(files)).edges if e.kind == "uses_fixture"}
    assert uses == {
        ("tests/test_m.py::TestMarked::test_one", "tests/conftest.py::db"),  # its class's mark
        ("tests/test_m.py::TestMarked::test_one", "tests/test_m.py::fresh"),  # its file's autouse
        ("tests/test_m.py::test_plain", "tests/test_m.py::fresh"),
        ("tests/conftest.py::wired", "tests/conftest.py::svc"),
        ("tests/conftest.py::wired", "tests/conftest.py::db"),
    }
    autoconf = CONFTEST.replace("@pytest.fixture\ndef svc", "@pytest.fixture(autouse=True)\ndef svc")
    uses = {(e.source, e.target) for e in link(facts(dict(files, **{"tests/conftest.py": autoconf}))).edges
            if e.kind == "uses_fixture"}
    # a conftest's autouse fixture runs for every test below it, and only there
    assert ("tests/sub/test_n.py::test_far", "tests/conftest.py::svc") in uses
    assert not any(source.startswith("other/") for source, _ in uses)


def test_a_derived_graph_follows_a_fixture_becoming_autouse(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    old = {"app.py": APP, "tests/conftest.py": CONFTEST, "tests/test_m.py": MARKED,
           "tests/sub/test_n.py": "def test_far():\n    pass\n"}
    autoconf = CONFTEST.replace("@pytest.fixture\ndef svc", "@pytest.fixture(autouse=True)\ndef svc")
    new = dict(old, **{"tests/conftest.py": autoconf})
    _, derived = derived_from(facts(old), facts(new))
    assert derived == link(facts(new))
    assert ("tests/sub/test_n.py::test_far", "tests/conftest.py::svc") in {(e.source, e.target) for e in derived.edges}


SIGNERS = """
class Signer:
    def __init__(self, key):
        self.key = key

    def unsign(self, value):
        return value

class TimestampSigner(Signer):
    def unsign(self, value):
        return value
"""

BASE_TESTS = """
from functools import partial
import pytest
from signers import Signer

class TestSigner:
    @pytest.fixture()
    def signer_factory(self):
        return partial(Signer, key="k")

    @pytest.fixture()
    def signer(self, signer_factory):
        return signer_factory()

    def test_unsign(self, signer):
        signer.unsign("v")
"""

SUBCLASS_TESTS = """
from functools import partial
import pytest
from signers import TimestampSigner
from test_signer import TestSigner

class TestTimestampSigner(TestSigner):
    @pytest.fixture()
    def signer_factory(self):
        return partial(TimestampSigner, key="k")

    def test_expired(self, signer):
        signer.unsign("v")
"""


def test_a_test_class_sees_its_bases_fixtures_and_a_base_sees_its_subclasses_overrides() -> None:
    files = {"signers.py": SIGNERS, "tests/test_signer.py": BASE_TESTS, "tests/test_timed.py": SUBCLASS_TESTS}
    edges = _edges(files)
    # the subclass's test gets the signer fixture its base defines...
    assert ("tests/test_timed.py::TestTimestampSigner::test_expired", "tests/test_signer.py::TestSigner::signer",
            "uses_fixture") in edges
    # ...which, run for the subclass, makes its signer with the subclass's factory (a partial)
    assert ("tests/test_signer.py::TestSigner::signer", "tests/test_timed.py::TestTimestampSigner::signer_factory",
            "uses_fixture") in edges
    assert ("tests/test_timed.py::TestTimestampSigner::test_expired", "signers.py::TimestampSigner::unsign",
            "calls") in edges
    assert ("tests/test_signer.py::TestSigner::test_unsign", "signers.py::TimestampSigner::unsign", "calls") in edges


FIELDS = """
class Field:
    def __init__(self, allow_none=False):
        self.allow_none = allow_none

    def deserialize(self, value):
        return value

class String(Field):
    def deserialize(self, value):
        return str(value)

class Integer(Field):
    def deserialize(self, value):
        return int(value)

class Boolean(Field):
    def deserialize(self, value):
        return bool(value)
"""

PARAMETRIZED = """
import pytest
from fields import Boolean, Integer, String

ALL_FIELDS = [String, Integer]
PAIRS = [(String, "a"), (Integer, "1")]

@pytest.mark.parametrize("FieldClass", ALL_FIELDS)
def test_allow_none(FieldClass):
    FieldClass(allow_none=True).deserialize(None)

class TestLiteral:
    @pytest.mark.parametrize(("field", "raw"), [(Boolean(), "x")])
    def test_literal(self, field, raw):
        field.deserialize(raw)

@pytest.mark.parametrize("cls, raw", PAIRS)
def test_pairs(cls, raw):
    cls().deserialize(raw)

@pytest.mark.parametrize(("cls, raw"), PAIRS)
def test_parenthesized(cls, raw):
    cls().deserialize(raw)
"""


def test_a_parametrized_parameter_holds_each_value_listed_for_it() -> None:
    found = facts({"tests/test_fields.py": PARAMETRIZED})["tests/test_fields.py"]
    marks = {d.qualname: d.parametrized for d in found.definitions if d.parametrized}
    assert marks == {
        "test_allow_none": (("FieldClass", "ALL_FIELDS[]", ""),),
        "TestLiteral::test_literal": (("field", "<arg@13:47>[][0]", "TestLiteral"),
                                      ("raw", "<arg@13:47>[][1]", "TestLiteral")),
        "test_pairs": (("cls", "PAIRS[][0]", ""), ("raw", "PAIRS[][1]", "")),
        # `("cls, raw")` is a string in parentheses, not a tuple
        "test_parenthesized": (("cls", "PAIRS[][0]", ""), ("raw", "PAIRS[][1]", "")),
    }
    edges = _edges({"fields.py": FIELDS, "tests/test_fields.py": PARAMETRIZED})
    calls = {(s, t) for s, t, k in edges if k == "calls"}
    assert {("tests/test_fields.py::test_allow_none", "fields.py::Field::__init__"),
            ("tests/test_fields.py::test_allow_none", "fields.py::String::deserialize"),
            ("tests/test_fields.py::test_allow_none", "fields.py::Integer::deserialize"),
            ("tests/test_fields.py::TestLiteral::test_literal", "fields.py::Boolean::deserialize"),
            ("tests/test_fields.py::test_pairs", "fields.py::Integer::deserialize")} <= calls
    assert ("tests/test_fields.py::test_allow_none", "fields.py::Boolean::deserialize") not in calls


def test_pytest_param_cases_count_and_indirect_values_go_to_fixtures_not_the_test() -> None:
    source = """
import pytest
from fields import Boolean, Integer, String

@pytest.mark.parametrize("cls", [pytest.param(String, id="str"), Integer])
def test_cases(cls):
    cls().deserialize(None)

@pytest.mark.parametrize("cls", [Boolean], indirect=True)
def test_indirect(cls):
    cls().deserialize(None)
"""
    calls = {(s, t) for s, t, k in _edges({"fields.py": FIELDS, "tests/test_p.py": source}) if k == "calls"}
    assert {("tests/test_p.py::test_cases", "fields.py::String::deserialize"),
            ("tests/test_p.py::test_cases", "fields.py::Integer::deserialize")} <= calls
    assert not {c for c in calls if c[0] == "tests/test_p.py::test_indirect"}


def test_a_pytest_param_row_gives_each_name_one_of_its_values() -> None:
    source = """
import pytest
from fields import Boolean, Integer, String

STRING_CASE = (String(), "text")

@pytest.mark.parametrize(("field", "raw"), [pytest.param(Integer(), "1", id="int"), pytest.param(*STRING_CASE)])
def test_rows(field, raw):
    field.deserialize(raw)

@pytest.mark.parametrize("field", [pytest.param(Boolean(), marks=pytest.mark.slow)])
def test_one(field):
    field.deserialize(None)
"""
    calls = {(s, t) for s, t, k in _edges({"fields.py": FIELDS, "tests/test_p.py": source}) if k == "calls"}
    assert {("tests/test_p.py::test_rows", "fields.py::Integer::deserialize"),  # pytest.param(a, b, id=...)
            ("tests/test_p.py::test_rows", "fields.py::String::deserialize"),  # pytest.param(*case)
            ("tests/test_p.py::test_one", "fields.py::Boolean::deserialize")} <= calls


def test_a_long_parametrize_list_still_gives_each_case() -> None:
    classes = "".join(f"\n\nclass Kind{i}:\n    def render(self):\n        pass\n" for i in range(20))
    cases = ", ".join(f"pytest.param(Kind{i}(), {i}, id='k{i}')" for i in range(20))
    source = f"""
import pytest
from kinds import *

@pytest.mark.parametrize(("kind", "expected"), [{cases}])
def test_render(kind, expected):
    kind.render()
"""
    calls = {(s, t) for s, t, k in _edges({"kinds.py": classes, "tests/test_k.py": source}) if k == "calls"}
    rendered = {t for s, t in calls if s == "tests/test_k.py::test_render"}
    assert rendered == {f"kinds.py::Kind{i}::render" for i in range(20)}


FIXTURE_PARAMS = """
import pytest
from fields import Boolean, Integer, String

@pytest.fixture(params=[String, Integer])
def field(request):
    return request.param()

@pytest.fixture(params=FACTORIES)
def made(request):
    make = request.param
    return make()

@pytest.fixture(params=["a", "b"])
def label(request):
    return request.param

def test_field(field):
    field.deserialize(None)

def test_made(made, label):
    made.deserialize(label)
"""


def test_a_fixture_with_params_gets_each_of_them_as_request_param() -> None:
    found = facts({"tests/test_params.py": FIXTURE_PARAMS})["tests/test_params.py"]
    assert {d.qualname: d.parametrized for d in found.definitions if d.parametrized} == {
        "field": (("request.param", "<arg@5:23>[]", ""),),
        "made": (("request.param", "FACTORIES[]", ""),),
    }  # (a list of strings calls nothing)
    fields = FIELDS + "\n\nFACTORIES = [Boolean]\n"
    source = FIXTURE_PARAMS.replace("from fields import Boolean, Integer, String",
                                    "from fields import Boolean, FACTORIES, Integer, String")
    calls = {(s, t) for s, t, k in _edges({"fields.py": fields, "tests/test_params.py": source}) if k == "calls"}
    assert {("tests/test_params.py::test_field", "fields.py::String::deserialize"),
            ("tests/test_params.py::test_field", "fields.py::Integer::deserialize"),
            ("tests/test_params.py::test_made", "fields.py::Boolean::deserialize")} <= calls
    assert ("tests/test_params.py::test_field", "fields.py::Boolean::deserialize") not in calls


ALIASED = """
import pytest
from app import Db, Service

@pytest.fixture(name="service")
def service_fixture():
    return Service()

class TestDb:
    @pytest.fixture(name="conn")
    def make_conn(self):
        return Db()

    def test_query(self, conn, service):
        conn.query()
        service.run()
"""


def test_a_fixture_named_by_name_is_asked_for_by_that_name(monkeypatch: pytest.MonkeyPatch) -> None:
    found = facts({"tests/test_alias.py": ALIASED})["tests/test_alias.py"]
    assert {d.qualname: d.fixture_alias for d in found.definitions if d.fixture_alias} == {
        "service_fixture": "service", "TestDb::make_conn": "conn"}
    files = {"app.py": APP, "tests/test_alias.py": ALIASED}
    edges = _edges(files)
    user = "tests/test_alias.py::TestDb::test_query"
    assert {(user, "tests/test_alias.py::service_fixture", "uses_fixture"),
            (user, "tests/test_alias.py::TestDb::make_conn", "uses_fixture"),
            (user, "app.py::Db::query", "calls"), (user, "app.py::Service::run", "calls")} <= edges
    # in a conftest, renamed: a test file that did not change asks for a name no fixture has now
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    conftest = ('import pytest\nfrom app import Service\n\n'
                '@pytest.fixture(name="service")\ndef make():\n    return Service()\n')
    files = {"app.py": APP, "tests/conftest.py": conftest,
             "tests/test_run.py": "def test_run(service):\n    service.run()\n",
             "tests/test_idle.py": "def test_idle(service):\n    pass\n"}  # takes it, calls nothing on it
    renamed = dict(files, **{"tests/conftest.py": conftest.replace('name="service"', 'name="other"')})
    _, derived = derived_from(facts(files), facts(renamed))
    assert derived == link(facts(renamed))
    pairs = {(e.source, e.target) for e in derived.edges}
    assert ("tests/test_run.py::test_run", "app.py::Service::run") not in pairs
    assert ("tests/test_idle.py::test_idle", "tests/conftest.py::make") not in pairs


def test_pytestmark_usefixtures_of_a_module_or_class_applies_to_its_tests() -> None:
    source = """
import pytest

pytestmark = [pytest.mark.usefixtures("db"), pytest.mark.slow]

class TestMarked:
    pytestmark = pytest.mark.usefixtures("svc")

    def test_one(self):
        pass

def test_two():
    pass
"""
    uses = {(s, t) for s, t, k in _edges({"app.py": APP, "tests/conftest.py": CONFTEST, "tests/test_m.py": source})
            if k == "uses_fixture" and s.startswith("tests/test_m.py")}
    assert uses == {
        ("tests/test_m.py::TestMarked::test_one", "tests/conftest.py::db"),
        ("tests/test_m.py::TestMarked::test_one", "tests/conftest.py::svc"),
        ("tests/test_m.py::test_two", "tests/conftest.py::db"),
    }


def test_a_fixture_looked_up_by_name_is_used_by_the_test_or_fixture_looking() -> None:
    source = """
import pytest

@pytest.fixture
def either(request):
    return request.getfixturevalue("svc")

def test_lookup(request):
    request.getfixturevalue("db")

def test_through(either):
    pass

def test_computed(request, name):
    request.getfixturevalue(name)  # a name only known at run time asks for nothing
"""
    uses = {(s, t) for s, t, k in _edges({"app.py": APP, "tests/conftest.py": CONFTEST, "tests/test_m.py": source})
            if k == "uses_fixture" and s.startswith("tests/test_m.py")}
    assert uses == {
        ("tests/test_m.py::either", "tests/conftest.py::svc"),
        ("tests/test_m.py::test_lookup", "tests/conftest.py::db"),
        ("tests/test_m.py::test_through", "tests/test_m.py::either"),
    }


def test_a_derived_graph_follows_fixture_params_defined_in_a_file_that_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    source = FIXTURE_PARAMS.replace("from fields import Boolean, Integer, String",
                                    "from fields import Boolean, FACTORIES, Integer, String")
    before, after = FIELDS + "\nFACTORIES = [Boolean]\n", FIELDS + "\nFACTORIES = [String, Integer]\n"
    assert_derived_both_ways({"tests/test_params.py": source}, "fields.py", before, after)


PLUGIN = """
import pytest
from app import Db, Service

@pytest.fixture
def make_service():
    made = []
    def make():
        service = Service()
        made.append(service)
        return service
    yield make

@pytest.fixture
def svc(make_service):
    return make_service()

@pytest.fixture(autouse=True)
def clean_db():
    Db().close()
"""

PLUGGED_TESTS = """
import pytest

def test_run(svc):
    svc.run()

def test_nothing():
    pass

@pytest.mark.usefixtures("svc")
def test_marked():
    pass
"""


def test_a_plugin_named_by_pytest_plugins_gives_every_test_its_fixtures() -> None:
    files = {
        "app.py": APP, "testing/__init__.py": "", "testing/plugin.py": PLUGIN,
        "tests/conftest.py": 'pytest_plugins = ["testing.plugin"]\n', "tests/test_p.py": PLUGGED_TESTS,
    }
    edges = _edges(files)
    assert {
        ("tests/test_p.py::test_run", "testing/plugin.py::svc", "uses_fixture"),
        ("tests/test_p.py::test_run", "app.py::Service::run", "calls"),  # what the factory fixture made
        ("testing/plugin.py::svc", "testing/plugin.py::make_service", "uses_fixture"),  # a plugin's own fixtures
        ("tests/test_p.py::test_nothing", "testing/plugin.py::clean_db", "uses_fixture"),  # autouse
    } <= edges


def test_a_conftest_fixture_wins_over_a_plugins_and_plugins_name_plugins() -> None:
    files = {
        "app.py": APP, "testing/__init__.py": "", "testing/plugin.py": PLUGIN,
        "testing/outer.py": 'pytest_plugins = "testing.plugin"\n',
        "tests/conftest.py": CONFTEST + '\npytest_plugins = ("testing.outer",)\n', "tests/test_p.py": PLUGGED_TESTS,
    }
    used = {(s, t) for s, t, k in _edges(files) if k == "uses_fixture" and s.startswith("tests/test_p.py")}
    assert ("tests/test_p.py::test_run", "tests/conftest.py::svc") in used
    assert ("tests/test_p.py::test_run", "testing/plugin.py::svc") not in used
    assert ("tests/test_p.py::test_nothing", "testing/plugin.py::clean_db") in used  # through testing.outer


FIXTURE_MODULE = """
import pytest
from app import Db, Service

__all__ = ["svc", "db"]

@pytest.fixture
def svc():
    return Service()

@pytest.fixture
def db():
    return Db()

@pytest.fixture
def hidden():
    return Db()
"""


def test_fixtures_a_conftest_or_test_module_imports_are_its_own() -> None:
    files = {
        "app.py": APP, "tests/__init__.py": "", "tests/fixtures/__init__.py": "from .common import *\n",
        "tests/fixtures/common.py": FIXTURE_MODULE,
        "tests/conftest.py": "from tests.fixtures import *\n",
        "tests/test_a.py": "def test_run(svc):\n    svc.run()\n\ndef test_hidden(hidden):\n    hidden.query()\n",
        "tests/test_b.py": "from tests.fixtures.common import db as database\n\n"
                           "def test_query(database):\n    database.query()\n",
    }
    edges = _edges(files)
    assert {
        ("tests/test_a.py::test_run", "tests/fixtures/common.py::svc", "uses_fixture"),  # star, re-exported
        ("tests/test_a.py::test_run", "app.py::Service::run", "calls"),
        ("tests/test_b.py::test_query", "tests/fixtures/common.py::db", "uses_fixture"),  # imported as another name
        ("tests/test_b.py::test_query", "app.py::Db::query", "calls"),
    } <= edges
    # `__all__` leaves `hidden` out of the star import
    assert not {e for e in edges if e[0] == "tests/test_a.py::test_hidden"}


@pytest.mark.parametrize("conftest", ['pytest_plugins = ["testing.plugin"]\n', "from testing.plugin import *\n"])
def test_a_derived_graph_sees_fixtures_a_conftest_starts_to_take_from_elsewhere(conftest: str) -> None:
    files = {
        "app.py": APP, "testing/__init__.py": "", "testing/plugin.py": PLUGIN, "tests/test_p.py": PLUGGED_TESTS,
        # no parameter: only the fixtures' own edges tell
        "tests/test_q.py": 'import pytest\n\n@pytest.mark.usefixtures("svc")\ndef test_marked():\n    pass\n',
        # files no change reaches: the graph is derived, not linked again
        **{f"lib/m{i}.py": f"def f{i}():\n    return g{i}()\n\n\ndef g{i}():\n    pass\n" for i in range(6)},
    }
    assert_derived_both_ways(files, "tests/conftest.py", "import os\n", conftest)


REQUEST_CONFTEST = """
import pytest
from app import Db, Service

@pytest.fixture(scope="class")
def db_class(request):
    request.cls.db = Db()

@pytest.fixture(autouse=True)
def service_on_instance(request):
    if request.instance is not None:
        request.instance.service = Service()
"""

REQUEST_TESTS = """
import pytest

@pytest.mark.usefixtures("db_class")
class TestQueries:
    def test_query(self):
        self.db.query()

class TestService:
    def test_run(self):
        self.service.run()
"""


def test_what_a_fixture_stores_through_request_is_an_attribute_of_the_test_class() -> None:
    # pytest's documented way to give a test class attributes from a fixture
    edges = _edges({"app.py": APP, "tests/conftest.py": REQUEST_CONFTEST, "tests/test_r.py": REQUEST_TESTS})
    assert {
        ("tests/test_r.py::TestQueries::test_query", "app.py::Db::query", "calls"),
        ("tests/test_r.py::TestService::test_run", "app.py::Service::run", "calls"),
    } <= edges
    # a class not using db_class gets no `db` from it
    assert not {e for e in edges if e[0] == "tests/test_r.py::TestService::test_run" and "Db" in e[1]}


def test_a_derived_graph_sees_a_test_class_start_using_a_fixture_that_stores_on_it() -> None:
    # the subclass in another file reads `self.db` through the base that uses the fixture
    sub = "from tests.test_r import Base\n\n\nclass TestSub(Base):\n    def test_sub(self):\n        self.db.query()\n"
    base = "class Base:\n    pass\n"
    files = {
        "app.py": APP, "tests/__init__.py": "", "tests/conftest.py": REQUEST_CONFTEST, "tests/test_sub.py": sub,
        **{f"lib/m{i}.py": f"def f{i}():\n    pass\n" for i in range(6)},
    }
    marked = ('import pytest\n\n\n@pytest.mark.usefixtures("db_class")\n'
              'class Base:\n    def test_base(self):\n        pass\n')
    assert_derived_both_ways(files, "tests/test_r.py", base, marked)


# ------------------------------------------------ fixtures from outside the repository

OUTSIDE = """
import pytest
from unittest import mock

def test_steps(subtests, svc):
    subtests.run()
    svc.run()

@mock.patch("app.Service.run")
def test_patched(run_mock):
    run_mock.run()

class TestSuite:
    def test_method(self, tmp_path_factory):
        tmp_path_factory.run()

@pytest.fixture
def helper(mocker):
    return mocker.run()

def test_given_default(svc, flag=None):
    flag.run()

@pytest.mark.parametrize("item", [x for x in range(3)])
def test_unread_mark(item):
    item.run()

def helper_not_a_test(thing):
    thing.run()
"""


def _unresolved(files: dict[str, str]) -> dict[str, int]:
    return dict(link(facts(files)).unresolved)


def test_a_parameter_no_repository_fixture_is_named_after_holds_an_outside_value() -> None:
    unresolved = _unresolved({"app.py": APP, "conftest.py": CONFTEST, "test_outside.py": OUTSIDE})
    # `subtests`, a mock.patch mock, pytest's `tmp_path_factory`, pytest-mock's `mocker`
    for user in ("test_steps", "test_patched", "TestSuite::test_method", "helper"):
        assert f"test_outside.py::{user}" not in unresolved
    # a default, an unread parametrize mark, a helper's parameter: still not known
    for user in ("test_given_default", "test_unread_mark", "helper_not_a_test"):
        assert unresolved.get(f"test_outside.py::{user}") == 1


def test_a_repository_fixture_of_that_name_anywhere_keeps_the_parameter_unknown() -> None:
    elsewhere = "import pytest\n\n@pytest.fixture\ndef subtests():\n    return object()\n"
    files = {"app.py": APP, "conftest.py": CONFTEST, "test_outside.py": OUTSIDE,
             "other/conftest.py": elsewhere}
    # not visible from test_outside.py, so not its value; but the linker may have missed how
    assert _unresolved(files).get("test_outside.py::test_steps") == 1


def test_a_pytest_generate_tests_hook_keeps_test_parameters_unknown() -> None:
    hook = "def pytest_generate_tests(metafunc):\n    metafunc.parametrize('subtests', [1])\n"
    files = {"app.py": APP, "conftest.py": CONFTEST + "\n" + hook, "test_outside.py": OUTSIDE}
    unresolved = _unresolved(files)
    assert unresolved.get("test_outside.py::test_steps") == 1
    assert "test_outside.py::helper" not in unresolved  # a fixture's parameters are not parametrized


def test_derived_graphs_follow_a_fixture_named_like_an_outside_one() -> None:
    elsewhere = "import pytest\n\n@pytest.fixture\ndef subtests():\n    return object()\n"
    files = {"app.py": APP, "conftest.py": CONFTEST, "test_outside.py": OUTSIDE, "pad.py": APP}
    assert_derived_both_ways(files, "other/conftest.py", "", elsewhere)
    assert_derived_both_ways(files, "other/conftest.py", "", "def subtests():\n    return 1\n")
