"""The compiled resolver is used only when built from the sources on disk."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from importlib.machinery import SourceFileLoader
from pathlib import Path

from impactbot.native import COMPILED, MANIFEST, NativeGuard, module_name

ROOT = Path(__file__).resolve().parents[2]


def _package(tmp_path: Path) -> Path:
    """A package directory with the compiled modules' sources and a manifest of them."""
    lines = []
    for source in COMPILED:
        path = tmp_path / source
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {source}\n")
        lines.append(f"{module_name(source)} {hashlib.sha256(path.read_bytes()).hexdigest()}\n")
    (tmp_path / MANIFEST).write_text("".join(lines))
    return tmp_path


def _sources(guard: NativeGuard) -> dict[str, str | None]:
    """What the guard hands out for each compiled module: its source's path, or None
    when it leaves the module to Python's finders (which take the extension first)."""
    out: dict[str, str | None] = {}
    for source in COMPILED:
        spec = guard.find_spec(module_name(source), None)
        assert spec is None or isinstance(spec.loader, SourceFileLoader)
        out[source] = spec.origin if spec is not None else None
    return out


def test_compiled_modules_built_from_the_sources_on_disk_are_left_to_python(tmp_path: Path) -> None:
    package = _package(tmp_path)
    assert _sources(NativeGuard(str(package))) == {source: None for source in COMPILED}


def test_after_a_source_changes_every_compiled_module_is_imported_from_its_source(tmp_path: Path) -> None:
    package = _package(tmp_path)
    (package / COMPILED[0]).write_text("# edited since the build\n")
    # all or none: an unchanged module's compiled code would call the stale one's directly
    expected = {source: str(package / source) for source in COMPILED}
    assert _sources(NativeGuard(str(package))) == expected


def test_without_a_readable_manifest_the_sources_are_imported(tmp_path: Path) -> None:
    package = _package(tmp_path)
    expected = {source: str(package / source) for source in COMPILED}
    (package / MANIFEST).write_text("not a manifest\n")
    assert _sources(NativeGuard(str(package))) == expected
    (package / MANIFEST).unlink()  # an extension module left without one is never used either
    assert _sources(NativeGuard(str(package))) == expected


def test_disabled_guard_imports_the_sources(tmp_path: Path) -> None:
    package = _package(tmp_path)
    expected = {source: str(package / source) for source in COMPILED}
    assert _sources(NativeGuard(str(package), enabled=False)) == expected


def test_other_modules_are_left_alone(tmp_path: Path) -> None:
    package = _package(tmp_path)
    (package / MANIFEST).unlink()
    guard = NativeGuard(str(package))
    assert guard.find_spec("impactbot.link.modules", None) is None
    assert guard.find_spec("json", None) is None


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


def test_a_clean_removes_every_extension_module_of_the_package(tmp_path: Path) -> None:
    # one a later version no longer compiles would still be imported before its source
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_native", ROOT / "build_native.py")
    assert spec is not None and spec.loader is not None
    build_native = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_native)
    package = _package(tmp_path / "impactbot")
    stale = [
        package / "impact.cpython-311-x86_64-linux-gnu.so",
        package / "link" / "python.cpython-311-x86_64-linux-gnu.so",
        package / "compiled__mypyc.cpython-311-x86_64-linux-gnu.so",
        package / "link" / "old.pyd",
    ]
    for lib in stale:
        lib.write_bytes(b"\x7fELF")
    (tmp_path / "build").mkdir()
    build_native.clean(package, tmp_path / "build")
    assert not any(lib.exists() for lib in stale)
    assert not (package / MANIFEST).exists() and not (tmp_path / "build").exists()
    assert all((package / source).exists() for source in COMPILED)
