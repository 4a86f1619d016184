"""Which files hold tests, as the repository's pytest configuration says."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from impactbot.config import pytest_plugin_modules, pytest_test_files
from impactbot.link.fixtures import DEFAULT_LAYOUT, TestLayout


def _read(files: dict[str, str]) -> Callable[[str], str | None]:
    return files.get


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"pytest.ini": "[pytest]\npython_files = tests.py test_*.py\n"}, ("tests.py", "test_*.py")),
        ({"pyproject.toml": '[tool.pytest.ini_options]\npython_files = ["check_*.py", "*_tests.py"]\n'},
         ("check_*.py", "*_tests.py")),
        ({"pyproject.toml": '[tool.pytest.ini_options]\npython_files = "tests.py"\n'}, ("tests.py",)),
        ({"tox.ini": "[pytest]\npython_files =\n    tests.py\n    test_*.py\n"}, ("tests.py", "test_*.py")),
        ({"setup.cfg": "[tool:pytest]\npython_files = tests.py\n"}, ("tests.py",)),
        # the first file with a pytest section decides, even without python_files
        ({"pytest.ini": "[pytest]\naddopts = -q\n", "setup.cfg": "[tool:pytest]\npython_files = x.py\n"}, None),
        ({"pyproject.toml": "[tool.black]\nline-length = 100\n", "setup.cfg": "[tool:pytest]\npython_files = x.py\n"},
         ("x.py",)),
        ({"setup.cfg": "[metadata]\nname = x\n"}, None),
        ({"pyproject.toml": "not = [valid"}, None),
        ({}, None),
    ],
)
def test_python_files_are_read_where_pytest_reads_them(files: dict[str, str], expected: tuple[str, ...] | None) -> None:
    assert pytest_test_files(_read(files)) == expected


def test_a_layout_matches_names_and_paths_as_pytest_does() -> None:
    layout = TestLayout(("tests.py", "check_*.py", "integration/*.py"))
    assert layout.is_test_file("shop/tests.py") and layout.is_test_file("check_orders.py")
    assert layout.is_test_file("integration/flows.py") and layout.is_test_file("shop/integration/flows.py")
    assert not layout.is_test_file("integration_flows.py")
    assert not layout.is_test_file("tests/test_orders.py")  # the defaults no longer apply
    assert layout.holds_tests("shop/conftest.py")
    assert DEFAULT_LAYOUT.is_test_file("tests/test_orders.py") and DEFAULT_LAYOUT.is_test_file("orders_test.py")


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"pyproject.toml": '[project.entry-points.pytest11]\nshop = "shop.testing.plugin"\n'},
         ("shop.testing.plugin",)),
        ({"setup.cfg": "[options.entry_points]\npytest11 =\n    shop = shop.plugin:Plugin\n    x = x_plug\n"},
         ("shop.plugin", "x_plug")),
        ({"setup.py": 'setup(name="x", entry_points={"pytest11": ["shop = shop.plugin", "other=other.p"]})\n'},
         ("shop.plugin", "other.p")),
        ({"pytest.ini": "[pytest]\naddopts = -q -p shop.fixtures -pno:cacheprovider -p no:warnings -pother\n"},
         ("shop.fixtures", "other")),
        ({"pyproject.toml": '[tool.pytest.ini_options]\naddopts = ["-p", "shop.fixtures"]\n'}, ("shop.fixtures",)),
        # the first file with a pytest section decides, as for python_files
        ({"pytest.ini": "[pytest]\nminversion = 7\n", "tox.ini": "[pytest]\naddopts = -p shop.fixtures\n"}, ()),
        ({"pyproject.toml": "not = [valid", "setup.py": "setup()\n"}, ()),
        ({}, ()),
    ],
)
def test_plugins_pytest_loads_by_configuration(files: dict[str, str], expected: tuple[str, ...]) -> None:
    assert pytest_plugin_modules(_read(files)) == expected
