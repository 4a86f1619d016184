"""`impactbot graph`: the contract's export, deterministic, and independent of the cache."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from helpers.gitrepo import RepoBuilder

from impactbot.cli import main
from impactbot.report import schema

FILES = {
    "pkg/__init__.py": "from .store import Store\n\n__all__ = ['Store']\n",
    "pkg/store.py": "class Base:\n    def save(self):\n        return 1\n\n\nclass Store(Base):\n"
                    "    def save(self):\n        return super().save() + 1\n",
    "app.py": "from pkg import Store\n\n\ndef run():\n    s = Store()\n    return s.save()\n\n\nrun()\n",
}


def graph(repo: Path, *args: str) -> str:
    out = repo.parent / "graph.out"
    assert main(["graph", "-C", str(repo), "-o", str(out), *args]) == 0
    return out.read_text()


@pytest.fixture
def project(repo: RepoBuilder) -> RepoBuilder:
    repo.commit(FILES)
    return repo


def test_graph_json_follows_the_contract(project: RepoBuilder) -> None:
    doc = json.loads(graph(project.path, "--no-cache"))
    jsonschema.validate(doc, schema("graph"))
    edges = {(e["source"], e["target"], e["kind"], e["confidence"]) for e in doc["edges"]}
    assert edges == {
        ("app.py", "app.py::run", "calls", "resolved"),
        ("app.py::run", "pkg/store.py::Store", "calls", "resolved"),
        ("app.py::run", "pkg/store.py::Store::save", "calls", "inferred"),
        ("pkg/store.py::Store::save", "pkg/store.py::Base::save", "calls", "resolved"),
        ("pkg/store.py::Store", "pkg/store.py::Base", "inherits", "resolved"),
        ("pkg/store.py::Store::save", "pkg/store.py::Base::save", "overrides", "resolved"),
    }
    assert {n["id"] for n in doc["nodes"]} >= {"app.py", "pkg/store.py::Store::save", "pkg/__init__.py"}
    assert doc["commit"] == project.resolve("HEAD")


def test_graph_is_deterministic_and_cold_equals_warm(project: RepoBuilder, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    cold = graph(project.path, "--cache-dir", cache)
    warm = graph(project.path, "--cache-dir", cache)
    uncached = graph(project.path, "--no-cache")
    assert cold == warm == uncached


def test_graph_dot(project: RepoBuilder) -> None:
    dot = graph(project.path, "--format", "dot", "--no-cache")
    assert dot.startswith("digraph")
    assert '"app.py::run" -> "pkg/store.py::Store"' in dot


def test_graph_of_an_older_revision(project: RepoBuilder) -> None:
    first = project.resolve("HEAD")
    project.commit({"app.py": "def other():\n    return 2\n"})
    doc = json.loads(graph(project.path, first, "--no-cache"))
    assert doc["commit"] == first
    assert "app.py::run" in {n["id"] for n in doc["nodes"]}
