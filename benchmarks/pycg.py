"""impactbot's call edges against PyCG's micro-benchmark, a peer's suite and ground truth.

Downloads the ``pycg`` sdist from PyPI (cached under --work), whose
``micro-benchmark/snippets/<category>/<case>/`` hold small programs and the
``callgraph.json`` PyCG's authors wrote for each. Every case is committed into a
fresh repository and linked as ``make callgraph`` does; impactbot's ids
(``main.py::Cls::meth``) are read in PyCG's dotted form (``main.Cls.meth``).
Prints true, extra and missing edges per category, and the cases that differ
with ``--verbose``. Reports; never gates.

What is compared: only edges between the case's own functions. Calls into
builtins and outside modules are left out (impactbot links no edge there); so
are impactbot's edges to a class itself (PyCG names the ``__init__`` it runs,
which impactbot links as well). Known differences of convention, which count as
missing or extra here: PyCG names lambdas as functions (``main.<lambda1>``),
where impactbot's contract gives a lambda's calls to the function around it; a
call of a decorated function reaches the function too in impactbot; and some of
PyCG's expectations do not match Python (``map([1, 2], func)`` calling
``func``; a default argument called although the call passes another).

    python benchmarks/pycg.py [--work DIR] [--verbose] [CATEGORY ...]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "callgraph")]

from scorer import build_repo, graph_json  # noqa: E402

VERSION = "0.0.8"
Edge = tuple[str, str]


@dataclass(frozen=True)
class Outcome:
    category: str
    case: str
    found: frozenset[Edge]
    extra: frozenset[Edge]
    missing: frozenset[Edge]


def snippets(work: Path) -> Path:
    """The micro-benchmark's snippets directory, downloaded and unpacked once."""
    target = work / f"pycg-{VERSION}"
    if not target.exists():
        downloads = work / "sdist"
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
             f"pycg=={VERSION}", "-d", str(downloads)],
            check=True, capture_output=True,
        )
        with tarfile.open(next(downloads.glob(f"pycg-{VERSION}.tar.gz"))) as tar:
            tar.extractall(work, filter="data")
    return target / "micro-benchmark" / "snippets"


def module_name(path: str) -> str:
    """``pkg/mod.py`` -> ``pkg.mod``; a package's ``__init__.py`` is the package."""
    name = path.removesuffix(".py").removesuffix("/__init__")
    return name.replace("/", ".")


def dotted(symbol_id: str) -> str:
    """impactbot's ``main.py::Cls::meth`` -> PyCG's ``main.Cls.meth``."""
    path, _, qualname = symbol_id.partition("::")
    return module_name(path) + ("." + qualname.replace("::", ".") if qualname else "")


def expected_edges(case: Path, files: dict[str, str]) -> frozenset[Edge]:
    """PyCG's edges between the case's own code."""
    tops = {module_name(path).split(".")[0] for path in files}
    graph = json.loads((case / "callgraph.json").read_text())
    return frozenset(
        (source, target) for source, targets in graph.items() for target in targets
        if target.split(".")[0] in tops
    )


def linked_edges(files: dict[str, str]) -> frozenset[Edge]:
    """impactbot's resolved and inferred call edges, in PyCG's names."""
    with tempfile.TemporaryDirectory(prefix="pycg-") as tmp:
        build_repo(files, Path(tmp) / "repo")
        graph = graph_json(Path(tmp) / "repo")
    kinds = {node["id"]: node.get("kind") for node in graph["nodes"]}
    return frozenset(
        (dotted(e["source"]), dotted(e["target"])) for e in graph["edges"]
        if e["kind"] == "calls" and e.get("confidence") in ("resolved", "inferred")
        and kinds.get(e["target"]) != "class"
    )


def cases(root: Path, only: Sequence[str]) -> Iterator[Path]:
    for case in sorted(p.parent for p in root.glob("*/*/callgraph.json")):
        if not only or case.parent.name in only:
            yield case


def measure(case: Path) -> Outcome:
    files = {p.relative_to(case).as_posix(): p.read_text() for p in sorted(case.rglob("*.py"))}
    want, got = expected_edges(case, files), linked_edges(files)
    return Outcome(case.parent.name, case.name, want & got, got - want, want - got)


def table(outcomes: Sequence[Outcome]) -> str:
    rows = [f"{'category':14} {'cases':>5} {'found':>6} {'extra':>6} {'missing':>8} {'precision':>10} {'recall':>7}"]
    categories = sorted({o.category for o in outcomes})
    for name in [*categories, "overall"]:
        group = [o for o in outcomes if name in ("overall", o.category)]
        found, extra, missing = (sum(len(getattr(o, f)) for o in group) for f in ("found", "extra", "missing"))
        precision = found / (found + extra) if found + extra else 1.0
        recall = found / (found + missing) if found + missing else 1.0
        rows.append(f"{name:14} {len(group):>5} {found:>6} {extra:>6} {missing:>8} {precision:>10.3f} {recall:>7.3f}")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pycg.py", description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/impactbot-pycg"), help="download cache")
    parser.add_argument("--verbose", action="store_true", help="list the extra and missing edges of each case")
    parser.add_argument("categories", nargs="*", help="only these categories")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    try:
        root = snippets(args.work)
    except (subprocess.CalledProcessError, StopIteration, OSError) as exc:
        print(f"pycg.py: cannot get pycg {VERSION} from PyPI: {exc}", file=sys.stderr)
        return 2
    outcomes = [measure(case) for case in cases(root, args.categories)]
    if args.verbose:
        for o in outcomes:
            if o.extra or o.missing:
                print(f"{o.category}/{o.case}: extra {sorted(o.extra)} missing {sorted(o.missing)}")
    print(table(outcomes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
