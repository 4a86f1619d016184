"""The report stage: a ``Report`` (or a linked graph) as the public JSON objects.

The shapes follow ``contract/impact-report.md`` exactly; the JSON Schemas shipped
in ``impactbot/schema/`` describe them for other tools. Fields beyond the contract
(``old_id``, ``signature``, ``end_line``, ``names``, ``async_turn``, ``confidence``, ``ranking``,
``skipped``, ``notes``) are extensions: consumers may ignore them, and the schemas allow them.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Literal

from impactbot.errors import UsageError
from impactbot.model import (
    SCHEMA,
    Breaking,
    ChangedSymbol,
    Edge,
    Hub,
    LinkedGraph,
    Ranked,
    Report,
    Revision,
    SkippedFile,
    Symbol,
)

GRAPH_SCHEMA = "impactbot/graph@1"
SCHEMA_NAMES = ("impact-report", "graph")

# ------------------------------------------------------------------ impact report


def report_to_json(report: Report) -> dict[str, object]:
    """The ``impactbot/impact-report@1`` object for ``report`` (ready for ``json.dumps``)."""
    return {
        "schema": SCHEMA,
        "base": _revision(report.base),
        "head": _revision(report.head),
        "changed": [_changed(c) for c in report.changed],
        # The ranker already ordered these by score; re-sorting here would hide its ties.
        "impacted": [_impacted(r) for r in report.impacted],
        "tests": sorted(report.tests),
        "run_all_tests": None if report.run_all_tests is None else {"reason": report.run_all_tests},
        "breaking": [_breaking(b) for b in report.breaking],
        "status": report.status,
        "unresolved_calls": report.unresolved_calls,
        "truncated": _truncated(report),
        "stats": {
            "files_parsed": report.stats.files_parsed,
            "files_cached": report.stats.files_cached,
            "seconds": round(report.stats.seconds, 3),
        },
        "ranking": report.ranking,
        "skipped": [_skipped(s) for s in report.skipped],
        "notes": list(report.notes),
    }


def _revision(revision: Revision) -> dict[str, object]:
    out: dict[str, object] = {"ref": revision.ref, "commit": revision.commit}
    if revision.worktree:
        out["worktree"] = True
    return out


def _changed(changed: ChangedSymbol) -> dict[str, object]:
    symbol = changed.symbol
    return {
        "id": symbol.id,
        "kind": symbol.kind,
        "change": changed.change,
        "file": symbol.path,
        "line": symbol.line,
        "language": symbol.language,
        "signature_changed": changed.signature_changed,
        "old_id": changed.old_id if changed.change == "renamed" else None,
        "signature": symbol.signature.text() if symbol.signature is not None else None,
        "end_line": symbol.end_line,
        **({"names": list(changed.names)} if symbol.kind in ("module", "class") else {}),
        **({"async_turn": changed.async_turn} if symbol.kind in ("function", "method") else {}),
    }


def _impacted(ranked: Ranked) -> dict[str, object]:
    impacted = ranked.impacted
    symbol = impacted.symbol
    return {
        "id": symbol.id,
        "kind": symbol.kind,
        "file": symbol.path,
        "line": symbol.line,
        "depth": impacted.depth,
        "score": round(ranked.score, 4),
        "is_test": symbol.is_test,
        "paths": [list(path) for path in impacted.paths],
        "confidence": impacted.confidence,
    }


def _breaking(breaking: Breaking) -> dict[str, object]:
    return {
        "target": breaking.target,
        "caller": breaking.caller,
        "file": breaking.file,
        "line": breaking.line,
        "reason": breaking.reason,
    }


def _hub(hub: Hub) -> dict[str, object]:
    return {"id": hub.id, "callers": hub.callers}


def _truncated(report: Report) -> dict[str, object]:
    out: dict[str, object] = {
        "hubs": [_hub(h) for h in report.hubs],
        "depth_limit_hit": report.depth_limit_hit,
        "omitted": report.omitted,
    }
    reason = partial_reason(report)
    if reason is not None:
        out["reason"] = reason
    return out


def partial_reason(report: Report) -> str | None:
    """Why a partial report stopped early, as a sentence; ``None`` for a complete one."""
    if report.status != "partial":
        return None
    # A reader of a partial result must always learn why, even when no stage said.
    return report.partial_reason or "the analysis stopped early"


def _skipped(skipped: SkippedFile) -> dict[str, object]:
    return {"path": skipped.path, "reason": skipped.reason, "detail": skipped.detail}


# ---------------------------------------------------------------------------- graph


def graph_to_json(graph: LinkedGraph, commit: str) -> dict[str, object]:
    """The ``impactbot/graph@1`` object: nodes sorted by id, edges by (source, target, kind)."""
    return {
        "schema": GRAPH_SCHEMA,
        "commit": commit,
        "nodes": [_node(s) for s in sorted(graph.symbols, key=lambda s: s.id)],
        "edges": [_edge(e) for e in _sorted_edges(graph.edges)],
        "unresolved": [{"id": symbol, "calls": count} for symbol, count in sorted(graph.unresolved)],
    }


def _node(symbol: Symbol) -> dict[str, object]:
    return {
        "id": symbol.id,
        "kind": symbol.kind,
        "file": symbol.path,
        "line": symbol.line,
        "end_line": symbol.end_line,
        "language": symbol.language,
        "is_test": symbol.is_test,
    }


def _edge(edge: Edge) -> dict[str, object]:
    return {
        "source": edge.source,
        "target": edge.target,
        "kind": edge.kind,
        "confidence": edge.confidence,
        "lines": sorted(edge.lines),
    }


def _sorted_edges(edges: tuple[Edge, ...]) -> list[Edge]:
    return sorted(edges, key=lambda e: (e.source, e.target, e.kind))


_DOT_SHAPES = {"module": "folder", "class": "component", "function": "box", "method": "box"}
_DOT_STYLES = {"resolved": "solid", "inferred": "dashed", "name_match": "dotted"}


def graph_to_dot(graph: LinkedGraph) -> str:
    """The graph in Graphviz DOT: one node per symbol, one arrow per dependency edge.

    Edge style shows the confidence (solid resolved, dashed inferred, dotted
    name match); edges other than calls carry their kind as a label.
    """
    lines = ["digraph impactbot {", "  rankdir=LR;", "  node [fontname=monospace];"]
    for symbol in sorted(graph.symbols, key=lambda s: s.id):
        lines.append(f"  {dot_quote(symbol.id)} [shape={_DOT_SHAPES[symbol.kind]}];")
    for edge in _sorted_edges(graph.edges):
        attrs = [f"style={_DOT_STYLES[edge.confidence]}"]
        if edge.kind != "calls":
            attrs.append(f"label={dot_quote(edge.kind)}")
        lines.append(f"  {dot_quote(edge.source)} -> {dot_quote(edge.target)} [{', '.join(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def dot_quote(text: str) -> str:
    """A DOT double-quoted string holding ``text``.

    Backslashes are doubled too: DOT would otherwise read ``\\"`` at the end of an
    id as an escaped quote, and ``\\l``/``\\N`` in labels as layout escapes.
    """
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = escaped.replace("\r", "\\r").replace("\n", "\\n")
    return f'"{escaped}"'


# -------------------------------------------------------------------------- schemas


def schema(name: Literal["impact-report", "graph"]) -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of one public object, loaded from the package."""
    if name not in SCHEMA_NAMES:
        raise UsageError(f"Unknown schema '{name}': choose one of {', '.join(SCHEMA_NAMES)}.")
    resource = resources.files("impactbot") / "schema" / f"{name}.schema.json"
    text = resource.read_text(encoding="utf-8")
    loaded: dict[str, object] = json.loads(text)
    return loaded
