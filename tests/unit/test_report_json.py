"""The report as the public JSON object, the graph export, and their JSON Schemas."""

from __future__ import annotations

import copy
import json
import re

import jsonschema
import pytest
from helpers.reports import (
    BASE_COMMIT,
    CHECKOUT,
    HEAD_COMMIT,
    HOSTILE_OTHER,
    HOSTILE_PATH,
    TOTAL,
    hostile_report,
    large_report,
    no_impact_report,
    partial_report,
    ranked,
    revision,
    sample_report,
    symbol,
)

from impactbot.errors import UsageError
from impactbot.model import Edge, LinkedGraph
from impactbot.report import graph_to_dot, graph_to_json, report_to_json, schema


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema(name))


def errors(name: str, document: object) -> list[str]:
    return [e.message for e in validator(name).iter_errors(document)]


# ------------------------------------------------------------------ impact report


def test_sample_report_matches_the_contract_field_by_field() -> None:
    doc = report_to_json(sample_report())

    assert doc["schema"] == "impactbot/impact-report@1"
    assert doc["base"] == {"ref": "main", "commit": BASE_COMMIT}
    assert doc["head"] == {"ref": "feature/currency", "commit": HEAD_COMMIT}
    assert doc["changed"][2] == {
        "id": "pkg/orders.py::calculate_order_total",
        "kind": "function",
        "change": "modified",
        "file": "pkg/orders.py",
        "line": 12,
        "language": "python",
        "signature_changed": True,
        "old_id": None,
        "signature": "(items: list[Item], currency: str) -> Decimal",
        "end_line": 30,
        "async_turn": None,
    }
    assert doc["impacted"][0] == {
        "id": "pkg/checkout.py::process_checkout",
        "kind": "function",
        "file": "pkg/checkout.py",
        "line": 40,
        "depth": 1,
        "score": 0.91,
        "is_test": False,
        "paths": [["pkg/checkout.py::process_checkout", "pkg/orders.py::calculate_order_total"]],
        "confidence": "resolved",
    }
    assert doc["breaking"][0] == {
        "target": "pkg/orders.py::calculate_order_total",
        "caller": "pkg/checkout.py::process_checkout",
        "file": "pkg/checkout.py",
        "line": 44,
        "reason": "missing required argument 'currency'",
    }
    assert doc["run_all_tests"] is None
    assert doc["status"] == "complete"
    assert doc["unresolved_calls"] == 3
    assert doc["truncated"] == {
        "hubs": [{"id": "pkg/db.py::execute_query", "callers": 240}],
        "depth_limit_hit": False,
        "omitted": 0,
    }
    assert doc["stats"] == {"files_parsed": 3, "files_cached": 812, "seconds": 0.422}
    assert doc["ranking"] == "structural"
    assert doc["skipped"] == [
        {"path": "pkg/vendored/big_table.py", "reason": "too-large", "detail": "2.1 MB > 1 MB limit"}
    ]
    assert doc["notes"] == []


def test_renamed_symbols_carry_their_old_id_and_others_carry_null() -> None:
    changed = {c["id"]: c for c in report_to_json(sample_report())["changed"]}

    assert changed["pkg/pricing.py::apply_tax"]["old_id"] == "pkg/pricing.py::add_tax"
    assert changed["pkg/orders.py::Cart::total"]["old_id"] is None
    assert changed["pkg/promo.py::Promo"]["signature"] is None  # a class has no signature


def test_tests_are_sorted_and_impacted_keeps_the_ranker_order() -> None:
    low_first = (ranked(CHECKOUT, 1, TOTAL.id, score=0.1), ranked(symbol("a.py", "a"), 1, TOTAL.id, score=0.9))
    doc = report_to_json(sample_report(impacted=low_first, tests=("z.py::test_z", "a.py::test_a")))

    assert doc["tests"] == ["a.py::test_a", "z.py::test_z"]
    assert [i["id"] for i in doc["impacted"]] == [CHECKOUT.id, "a.py::a"]


def test_score_is_rounded_to_four_places() -> None:
    doc = report_to_json(sample_report())

    assert doc["impacted"][-1]["score"] == 0.1235


def test_run_all_tests_and_a_worktree_head() -> None:
    report = sample_report(
        run_all_tests="conftest.py changed",
        head=revision("HEAD", HEAD_COMMIT, worktree=True),
    )
    doc = report_to_json(report)

    assert doc["run_all_tests"] == {"reason": "conftest.py changed"}
    assert doc["head"] == {"ref": "HEAD", "commit": HEAD_COMMIT, "worktree": True}
    assert errors("impact-report", doc) == []


def test_partial_report_puts_its_reason_in_truncated() -> None:
    doc = report_to_json(partial_report())

    assert doc["status"] == "partial"
    assert doc["truncated"]["reason"] == "the time budget of 60 s ran out while linking 4,210 files"
    assert doc["truncated"]["depth_limit_hit"] is True


@pytest.mark.parametrize(
    "build",
    [sample_report, no_impact_report, partial_report, large_report, hostile_report],
    ids=["sample", "no-impact", "partial", "large", "hostile"],
)
def test_reports_validate_against_the_schema(build: object) -> None:
    doc = report_to_json(build())

    # Through the text form, as consumers read it.
    assert errors("impact-report", json.loads(json.dumps(doc))) == []


def _break_missing_field(doc: dict[str, object]) -> None:
    del doc["tests"]


def _break_status(doc: dict[str, object]) -> None:
    doc["status"] = "done"


def _break_change(doc: dict[str, object]) -> None:
    doc["changed"][0]["change"] = "edited"


def _break_commit(doc: dict[str, object]) -> None:
    doc["base"]["commit"] = BASE_COMMIT[:12]


def _break_partial(doc: dict[str, object]) -> None:
    doc["status"] = "partial"  # but no truncated.reason


def _break_renamed(doc: dict[str, object]) -> None:
    doc["changed"][0]["change"] = "renamed"  # old_id stays null


def _break_absolute_id(doc: dict[str, object]) -> None:
    doc["tests"] = ["/abs/tests/test_a.py::test_a"]


def _break_path(doc: dict[str, object]) -> None:
    doc["impacted"][0]["paths"] = [["pkg/checkout.py::process_checkout"]]


def _break_run_all(doc: dict[str, object]) -> None:
    doc["run_all_tests"] = "conftest.py changed"


@pytest.mark.parametrize(
    ("breaker", "expected"),
    [
        (_break_missing_field, "'tests' is a required property"),
        (_break_status, "'done' is not one of ['complete', 'partial']"),
        (_break_change, "'edited' is not one of ['added', 'modified', 'removed', 'renamed']"),
        (_break_commit, f"'{BASE_COMMIT[:12]}' does not match '^[0-9a-f]{{40}}$'"),
        (_break_partial, "'reason' is a required property"),
        (_break_renamed, "None is not of type 'string'"),
        (_break_absolute_id, "does not match"),
        (_break_path, "is too short"),
        (_break_run_all, "is not valid under any of the given schemas"),
    ],
)
def test_invalid_documents_are_rejected(breaker: object, expected: str) -> None:
    doc = copy.deepcopy(report_to_json(sample_report()))
    breaker(doc)

    found = errors("impact-report", doc)
    assert any(expected in e for e in found), found


def test_extensions_stay_legal() -> None:
    doc = report_to_json(sample_report())
    doc["reviewers"] = ["someone"]
    doc["impacted"][0]["explanation"] = "calls it directly"

    assert errors("impact-report", doc) == []


def test_unknown_schema_name_is_a_clear_error() -> None:
    with pytest.raises(UsageError, match="Unknown schema 'report': choose one of impact-report, graph"):
        schema("report")


# ---------------------------------------------------------------------------- graph


def hostile_graph() -> LinkedGraph:
    quote = symbol('q"\\uote.py', "f", line=3)
    evil = symbol(HOSTILE_PATH, "f", line=2)
    other = symbol(HOSTILE_OTHER, "m", "method", 4)
    module = symbol("pkg/mod.py", "", "module", 1)
    return LinkedGraph(
        symbols=(other, quote, module, evil),
        edges=(
            Edge(other.id, evil.id, "calls", "resolved", (7, 5)),
            Edge(module.id, quote.id, "calls", "name_match"),
            Edge(other.id, evil.id, "overrides", "inferred"),
            Edge(evil.id, quote.id, "calls", "inferred"),
        ),
        unresolved=((evil.id, 2),),
    )


def test_graph_json_is_sorted_and_valid() -> None:
    graph = hostile_graph()
    doc = graph_to_json(graph, HEAD_COMMIT)

    assert doc["schema"] == "impactbot/graph@1"
    assert doc["commit"] == HEAD_COMMIT
    node_ids = [n["id"] for n in doc["nodes"]]
    assert node_ids == sorted(s.id for s in graph.symbols)
    edges = [(e["source"], e["target"], e["kind"]) for e in doc["edges"]]
    assert edges == sorted(edges)
    assert doc["edges"][1] == {
        "source": f"{HOSTILE_OTHER}::m",
        "target": f"{HOSTILE_PATH}::f",
        "kind": "calls",
        "confidence": "resolved",
        "lines": [5, 7],
    }
    assert {"id": "pkg/mod.py", "kind": "module", "file": "pkg/mod.py", "line": 1}.items() <= doc["nodes"][2].items()
    assert errors("graph", json.loads(json.dumps(doc))) == []


def test_graph_schema_rejects_a_bad_confidence_and_a_short_commit() -> None:
    doc = graph_to_json(hostile_graph(), HEAD_COMMIT)
    doc["commit"] = "abc"
    doc["edges"][0]["confidence"] = "guess"

    found = errors("graph", doc)
    assert any("'abc' does not match" in e for e in found), found
    assert any("'guess' is not one of" in e for e in found), found


_DOT_STRING = r'"((?:[^"\\]|\\.)*)"'


def _dot_unquote(quoted: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "r": "\r"}.get(m.group(1), m.group(1)), quoted)


def test_graph_dot_quotes_every_id_so_it_reads_back_exactly() -> None:
    graph = hostile_graph()
    dot = graph_to_dot(graph)
    lines = dot.splitlines()

    assert lines[0] == "digraph impactbot {" and lines[-1] == "}"
    nodes = [re.fullmatch(rf"  {_DOT_STRING} \[shape=(\w+)\];", line) for line in lines if "->" not in line]
    node_ids = [_dot_unquote(m.group(1)) for m in nodes if m]
    assert node_ids == sorted(s.id for s in graph.symbols)
    edges = [re.fullmatch(rf"  {_DOT_STRING} -> {_DOT_STRING} \[(.*)\];", line) for line in lines if " -> " in line]
    parsed = [(_dot_unquote(m.group(1)), _dot_unquote(m.group(2)), m.group(3)) for m in edges if m]
    assert len(parsed) == len(graph.edges)
    assert (f"{HOSTILE_OTHER}::m", f"{HOSTILE_PATH}::f", 'style=dashed, label="overrides"') in parsed
    assert ("pkg/mod.py", 'q"\\uote.py::f', "style=dotted") in parsed
