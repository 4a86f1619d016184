"""``# type:`` comments are annotations, and an annotated container keeps its element type."""

from __future__ import annotations

import pytest
from helpers.linking import assert_derived_both_ways, facts

from impactbot.link import incremental, link

FIELDS = """
import typing
from collections import OrderedDict

from fields import Field, Text


class Schema:
    def __init__(self):
        self.dump_fields = {}  # type: typing.Dict[str, Field]
        self.default = None  # type: typing.Optional[Text]
        self.extra = []  # type: ignore
        self._init_fields()

    def _init_fields(self):
        dump_fields = OrderedDict()
        for name, field in self.declared.items():
            dump_fields[name] = field
        self.dump_fields = dump_fields

    def dump(self):
        for name, field_obj in self.dump_fields.items():
            field_obj.serialize()
        self.default.render()


def convert(field, count):
    # type: (Field, int) -> Text
    field.serialize()
    return count


class Converter:
    def run(self, field):  # type: (Field) -> None
        field.serialize()


def use():
    convert(1, 2).render()
"""

FIELD_CLASSES = """
class Field:
    def serialize(self):
        pass


class Text(Field):
    def render(self):
        pass
"""

FILES = {"schema.py": FIELDS, "fields.py": FIELD_CLASSES}


def _calls(files: dict[str, str]) -> set[tuple[str, str]]:
    edges = link(facts(files)).edges
    return {(e.source, e.target) for e in edges if e.kind == "calls" and e.source.startswith("schema")}


def test_type_comments_annotate_assignments_parameters_and_returns() -> None:
    calls = _calls(FILES)
    assert {
        # the comment types the dict's values, though another store puts an outside mapping there
        ("schema.py::Schema::dump", "fields.py::Field::serialize"),
        ("schema.py::Schema::dump", "fields.py::Text::render"),  # Optional[Text]
        ("schema.py::convert", "fields.py::Field::serialize"),  # (Field, int) -> Text
        ("schema.py::use", "fields.py::Text::render"),
        ("schema.py::Converter::run", "fields.py::Field::serialize"),  # the receiver left out
    } <= calls


def test_the_extractor_reads_what_a_type_comment_says_and_not_an_ignore() -> None:
    bindings = {(b.scope, b.target, b.value, b.kind) for b in facts(FILES)["schema.py"].bindings}
    assert ("Schema::__init__", "self.dump_fields[]", "typing.Dict[str, Field]", "annotation") not in bindings
    assert ("Schema::__init__", "self.dump_fields[]", "Field()", "annotation") in bindings
    assert ("Schema::__init__", "self.default", "Text()", "annotation") in bindings
    assert ("convert", "field", "Field()", "annotation") in bindings
    assert ("convert", "<return>", "Text()", "annotation") in bindings
    assert not [b for b in bindings if b[1] == "self.extra" and b[3] == "annotation"]


@pytest.mark.parametrize("comment", ["# type: ignore", "# type: ignore[assignment]", "# kind: Field", ""])
def test_other_comments_annotate_nothing(comment: str) -> None:
    source = f"from fields import Field\n\n\ndef make():\n    x = None  {comment}\n    x.serialize()\n"
    assert ("schema.py::make", "fields.py::Field::serialize") not in _calls({**FILES, "schema.py": source})


@pytest.mark.parametrize(("path", "before", "after"), [
    ("schema.py", "# type: typing.Optional[Text]", "# type: typing.Optional[Field]"),
    ("fields.py", "class Text(Field):", "class Text:"),
])
def test_a_derived_graph_follows_a_changed_type_comment_or_type(path: str, before: str, after: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    assert_derived_both_ways(FILES, path, FILES[path], FILES[path].replace(before, after))
