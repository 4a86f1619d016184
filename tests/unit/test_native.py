"""The compiled resolver is used only when built from the sources on disk."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from importlib.machinery import SourceFileLoader
from pathlib import Path

from impactbot.native import NativeGuard

ROOT = Path(__file__).resolve().parents[2]


def _package(tmp_path: Path) -> tuple[Path, Path]:
    """A package ``pkgx`` with a module and a subpackage, and a manifest naming both."""
    (tmp_path / "pkgx" / "sub").mkdir(parents=True)
    (tmp_path / "pkgx" / "__init__.py").write_text("")
    mod = tmp_path / "pkgx" / "mod.py"
    mod.write_text("VALUE = 1\n")
    sub = tmp_path / "pkgx" / "sub" / "__init__.py"
    sub.write_text("VALUE = 2\n")
    manifest = tmp_path / "pkgx" / "native.txt"
    lines = [
        f"pkgx.mod pkgx/mod.py {hashlib.sha256(mod.read_bytes()).hexdigest()}",
        f"pkgx.sub pkgx/sub/__init__.py {hashlib.sha256(sub.read_bytes()).hexdigest()}",
    ]
    manifest.write_text("\n".join(lines) + "\n")
    return manifest, mod


def test_fresh_compiled_modules_are_left_to_pythons_own_finders(tmp_path: Path) -> None:
    manifest, _ = _package(tmp_path)
    guard = NativeGuard(str(manifest))
    assert guard.find_spec("pkgx.mod", None) is None
    assert guard.find_spec("pkgx.sub", None) is None


def test_a_source_changed_since_the_build_is_imported_from_its_source(tmp_path: Path) -> None:
    manifest, mod = _package(tmp_path)
    mod.write_text("VALUE = 3\n")
    guard = NativeGuard(str(manifest))
    spec = guard.find_spec("pkgx.mod", None)
    assert spec is not None and spec.origin == str(mod)
    assert isinstance(spec.loader, SourceFileLoader)
    # all or none: the unchanged module's compiled code would call the stale one's directly
    sub = guard.find_spec("pkgx.sub", None)
    assert sub is not None and sub.submodule_search_locations == [str(tmp_path / "pkgx" / "sub")]


def test_disabled_guard_imports_every_listed_module_from_its_source(tmp_path: Path) -> None:
    manifest, mod = _package(tmp_path)
    spec = NativeGuard(str(manifest), enabled=False).find_spec("pkgx.mod", None)
    assert spec is not None and spec.origin == str(mod)


def test_unlisted_modules_and_unreadable_manifests_are_left_alone(tmp_path: Path) -> None:
    manifest, mod = _package(tmp_path)
    mod.write_text("VALUE = 3\n")  # stale, but only what the manifest lists is guarded
    assert NativeGuard(str(manifest)).find_spec("pkgx.other", None) is None
    manifest.write_text("not a manifest\n")
    assert NativeGuard(str(manifest)).find_spec("pkgx.mod", None) is None


_LINK_OWN_SOURCE = """
import json, sys
from pathlib import Path
import impactbot.link.python as resolver
from impactbot.extract import extract
from impactbot.link import link

root = Path(sys.argv[1])
sources = sorted((root / "impactbot").rglob("*.py"))
facts = {str(p.relative_to(root)): extract(p.read_bytes(), "python") for p in sources}
graph = link(facts)
print(json.dumps({"origin": resolver.__spec__.origin,
                  "edges": sorted([e.source, e.target, e.kind, e.confidence] for e in graph.edges),
                  "unresolved": sorted(list(u) for u in graph.unresolved)}))
"""


def _link_own_source(native: str) -> dict[str, object]:
    env = {**os.environ, "IMPACTBOT_NATIVE": native}
    done = subprocess.run(
        [sys.executable, "-c", _LINK_OWN_SOURCE, str(ROOT)], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_compiled_and_the_plain_resolver_link_the_same_graph() -> None:
    # impactbot's own source, linked with the compiled resolver when one is built
    # (`make setup` builds it) and with the plain one
    default, plain = _link_own_source("1"), _link_own_source("0")
    assert str(plain["origin"]).endswith("python.py")
    built = (ROOT / "impactbot" / "native.txt").exists()
    assert str(default["origin"]).endswith(".so") == built
    assert len(default["edges"]) > 1000  # type: ignore[arg-type]
    assert default["edges"] == plain["edges"]
    assert default["unresolved"] == plain["unresolved"]
