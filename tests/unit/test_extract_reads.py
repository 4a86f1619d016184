"""Module-level names and their reads, straight from tree-sitter (extract._pyreads)."""

from __future__ import annotations

from impactbot.diff import changed_class_names, changed_names
from impactbot.extract import module_assignments, module_names, name_reads

MODULE = b"""\
import os, json as j
import a.b.c
from conf import LIMIT as L, OTHER
from . import sibling
TIMEOUT = 30  # seconds
A = B = 2
X: int = 3
C, (D, E) = 1, (2, 3)
NAMES = {
    "a": 1,
}
NAMES += ["b"]
obj.attr = 5
table["k"] = 1
try:
    import yaml
except ImportError:
    yaml = None
if DEBUG:
    LEVEL = 1


def f():
    INSIDE = 1
    return INSIDE


class K:
    ATTR = 2
"""


def test_module_names_are_the_names_module_level_statements_bind() -> None:
    assert sorted(module_names(MODULE)) == [
        "A", "B", "C", "D", "E", "L", "LEVEL", "NAMES", "OTHER", "TIMEOUT", "X", "a", "j", "os", "sibling", "yaml",
    ]


def test_layout_comments_and_a_trailing_comma_are_not_a_change() -> None:
    before = b"NAMES = {'a': 1, 'b': 2}  # two\nTIMEOUT = 30\n"
    after = b"NAMES = {\n    'a': 1,\n    'b': 2,\n}\n# the timeout\nTIMEOUT = 31\n"
    assert changed_names(before, after) == ("TIMEOUT",)


def test_parentheses_that_change_nothing_are_not_a_change() -> None:
    before = b"PAIR = (1, 2)\nTIMEOUT = (30)\nLIMIT = (a + b) * c\n(X, Y) = PAIR\nGRID = ((1, 2), (3, 4))\n"
    after = b"PAIR = 1, 2\nTIMEOUT = 30\nLIMIT = (a + b) * c\nX, Y = PAIR\nGRID = (\n    (1, 2),\n    (3, 4),\n)\n"
    assert changed_names(before, after) == ()


def test_parentheses_that_group_are_a_change() -> None:
    before = b"LIMIT = (a + b) * c\nPAIR = (1, 2), 3\nONE = (1,)\n"
    after = b"LIMIT = a + b * c\nPAIR = 1, 2, 3\nONE = 1\n"
    assert changed_names(before, after) == ("LIMIT", "ONE", "PAIR")


def test_regrouped_or_reordered_imports_are_not_a_change() -> None:
    before = b"import os, sys\nfrom .a import b as c, d\n"
    after = b"import sys\nimport os\nfrom .a import (\n    d,\n    b as c,\n)\n"
    assert changed_names(before, after) == ()


def test_a_duplicate_import_removed_is_not_a_change() -> None:
    assert changed_names(b"import sys\nimport os\nimport sys\n", b"import os\nimport sys\n") == ()


def test_what_a_change_rebinds() -> None:
    before = b"from .a import helper\nTIMEOUT = 30\nRETRIES = 3\nOLD = 1\n"
    after = b"from .b import helper\nTIMEOUT = 60\nRETRIES = 3\nNEW = 1\n"
    assert changed_names(before, after) == ("NEW", "OLD", "TIMEOUT", "helper")
    assert changed_names(None, b"X = 1\n") == ("X",)


def test_a_name_deleted_at_module_level_is_bound_differently() -> None:
    before = b"import os\n_cache = {}\nLIMIT = 1\n"
    assert changed_names(before, before + b"del os, _cache\n") == ("_cache", "os")


GUARDED = """\
import sys
if sys.platform == "win32":
    SEP = "\\\\"
elif sys.platform == "darwin":
    SEP = ":"
else:
    SEP = "/"
with open("a.json") as fh:
    CONFIG = load(fh)
try:
    import ujson as json
except ImportError:
    import json
"""


def test_the_block_headers_above_a_binding_are_part_of_it() -> None:
    before = GUARDED.encode()
    assert changed_names(before, GUARDED.replace('"darwin"', '"linux"').encode()) == ("SEP",)
    assert changed_names(before, GUARDED.replace("a.json", "b.json").encode()) == ("CONFIG",)
    assert changed_names(before, GUARDED.replace("except ImportError", "except Exception").encode()) == ("json",)
    assert changed_names(before, GUARDED.replace("    ", "  ").replace("try:", "# fast\ntry:").encode()) == ()


def test_a_block_header_counts_as_module_level_code_binding_the_names_below_it() -> None:
    # if, elif and else headers and the assignments below them; with; try and except
    assert module_assignments(GUARDED.encode()) == [
        (2, 2, ("SEP",)), (3, 3, ("SEP",)), (4, 4, ("SEP",)), (5, 5, ("SEP",)), (6, 6, ("SEP",)), (7, 7, ("SEP",)),
        (8, 8, ("CONFIG",)), (9, 9, ("CONFIG",)), (10, 10, ("json",)), (12, 12, ("json",)),
    ]


SOURCE = b"""\
def f(default=TIMEOUT, *, k: int = TIMEOUT):
    global TIMEOUT
    TIMEOUT = 2
    return g(TIMEOUT=TIMEOUT) + conf.TIMEOUT + pkg.conf.TIMEOUT


class TIMEOUT:
    pass


def h(TIMEOUT):
    for TIMEOUT in []:
        pass
    (a, TIMEOUT) = 1, 2
    lambda TIMEOUT: 1
    conf.TIMEOUT = 3
    return [TIMEOUT for _ in ()]
"""


def test_reads_are_loads_not_names_being_defined_or_stored() -> None:
    assert name_reads(SOURCE, {"TIMEOUT"}) == [
        ("TIMEOUT", 1), ("TIMEOUT", 1),  # the two defaults
        ("TIMEOUT", 4), ("conf.TIMEOUT", 4), ("pkg.conf.TIMEOUT", 4),  # not the keyword name
        ("TIMEOUT", 17),  # not the parameter, loop target, unpacking, lambda parameter or attribute store
    ]


def test_a_file_without_the_name_is_not_parsed_and_has_no_reads() -> None:
    assert name_reads(b"def f(:\n", {"TIMEOUT"}) == []
    assert name_reads(b"x = TIMEOUTS\n", {"TIMEOUT"}) == []


def test_annotations_are_typing_not_reads() -> None:
    source = b"""\
def f(x: Path, y: list[Path] = None) -> Path:
    z: Path = Path(x)
    return z
"""
    assert name_reads(source, {"Path"}) == [("Path", 2)]  # only the call


def test_what_a_change_to_class_bodies_rebinds() -> None:
    before = b"""\
class Config:
    retries = 3
    timeout: float = 1.0  # seconds

    def load(self):
        retries = 4
        return retries

    class Meta:
        ordering = ["a"]


def build():
    class Local:
        size = 1
    return Local
"""
    after = (before.replace(b"retries = 3", b"retries = 5").replace(b"retries = 4", b"retries = 6")
             .replace(b'["a"]', b'["b"]').replace(b"size = 1", b"size = 2").replace(b"  # seconds", b""))
    assert changed_class_names(before, after) == {
        "Config": ("retries",),  # not the method's local, not the comment
        "Config::Meta": ("ordering",),
        "build::Local": ("size",),
    }
