"""The demo behind `make run`: the classic checkout case."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from impactbot.cli import main

BUILDER = Path(__file__).resolve().parents[2] / "demo" / "build_demo.py"


def test_demo_shows_the_caller_without_shared_words_and_the_hub(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("build_demo", BUILDER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.build(tmp_path / "shop")
    out = tmp_path / "report.json"
    assert main(["diff", "main..feature", "-C", str(tmp_path / "shop"), "--format", "json", "-o", str(out),
                 "--no-cache", "-q"]) == 0
    report = json.loads(out.read_text())
    changed = {c["id"] for c in report["changed"]}
    assert changed == {"shop/orders.py::calculate_order_total", "shop/db.py::execute_query"}
    by_id = {i["id"]: i for i in report["impacted"]}
    assert by_id["shop/checkout.py::process_checkout"]["paths"][0] == [
        "shop/checkout.py::process_checkout", "shop/orders.py::calculate_order_total"
    ]
    assert report["truncated"]["hubs"] == [{"id": "shop/db.py::execute_query", "callers": 16}]
