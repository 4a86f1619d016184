"""A realistic, deterministic pull request scripted onto any Python corpus.

Targets are chosen from the corpus itself with the stdlib ``ast`` module, so the
same script works on Django, a small package or the standard library:

- the feature commit edits about ten function bodies across five files (a
  statement inserted, or an integer constant changed), adds a required
  parameter to one function that has in-repo callers, and removes another
  function that has callers;
- the follow-up commit edits three more functions in two files the feature
  commit did not touch, so an incremental run has exactly those blobs to parse.

Every choice goes through one seeded ``random.Random`` over sorted inputs, so a
seed always yields the same pull request (and, with fixed git signatures, the
same commit ids).

(Longer than the house's 400 lines on purpose: choosing a target and editing it
share the same position rules, and split apart they would drift.)
"""

from __future__ import annotations

import ast
import contextlib
import gc
import random
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

MIN_BODY_STATEMENTS = 3
NEW_PARAMETER = "strict"
# More callers than this makes the target a hub; the benchmark wants a
# breaking change a reviewer could still read.
MAX_CALLERS = 30

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
EditKind = Literal["body", "signature", "removed"]


class ScriptError(Exception):
    """The corpus has no function that fits a step of the scripted pull request."""


# ----------------------------------------------------------------------- model


@dataclass(frozen=True, slots=True)
class Function:
    """A function definition located in one corpus file."""

    path: str
    qualname: str
    node: FunctionNode
    module_level: bool

    @property
    def span(self) -> tuple[int, int]:
        first = min([d.lineno for d in self.node.decorator_list] + [self.node.lineno])
        return first, self.node.end_lineno or self.node.lineno


@dataclass(frozen=True, slots=True)
class Edit:
    """One function the pull request touches, for the benchmark's own log."""

    path: str
    function: str
    kind: EditKind
    detail: str


@dataclass(frozen=True, slots=True)
class ScriptedCommit:
    """The new content of every file a commit changes, and what changed in them."""

    message: str
    files: Mapping[str, bytes]
    edits: tuple[Edit, ...]


@dataclass(frozen=True, slots=True)
class PullRequest:
    feature: ScriptedCommit
    followup: ScriptedCommit


@dataclass(frozen=True, slots=True)
class _Splice:
    """Replace source bytes between two (line, byte column) positions."""

    start: tuple[int, int]
    end: tuple[int, int]
    text: bytes


# --------------------------------------------------------------------- parsing


def _editable_source(source: bytes) -> bool:
    # ast reports columns as UTF-8 offsets into lines split on "\n"; sources
    # where that does not map one-to-one onto the raw bytes are left alone.
    if b"\r" in source or source.startswith(b"\xef\xbb\xbf"):
        return False
    try:
        source.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def parse_module(source: bytes) -> ast.Module | None:
    """Parse one file for target selection, or None when it cannot be edited safely."""
    if not _editable_source(source):
        return None
    with warnings.catch_warnings():
        # The standard library ships files with invalid escapes and Python 2 syntax.
        warnings.simplefilter("ignore")
        try:
            return ast.parse(source)
        except (SyntaxError, ValueError):
            return None


def _functions(path: str, tree: ast.Module) -> Iterator[Function]:
    def walk(node: ast.AST, prefix: str, module_level: bool) -> Iterator[Function]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                qualname = prefix + child.name
                yield Function(path, qualname, child, module_level)
                yield from walk(child, qualname + ".", False)
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, prefix + child.name + ".", False)
            elif not isinstance(child, ast.expr):
                # if/try blocks at module level still hold module-level defs
                yield from walk(child, prefix, module_level)

    yield from walk(tree, "", True)


def _direct_module_functions(tree: ast.Module) -> set[int]:
    """Ids of defs that are direct statements of the module: only those are removed."""
    return {id(s) for s in tree.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)}


@dataclass(frozen=True, slots=True)
class Corpus:
    """Parsed view of the corpus used to pick targets."""

    sources: Mapping[str, bytes]
    trees: Mapping[str, ast.Module]
    functions: tuple[Function, ...]

    @classmethod
    def parse(cls, files: Mapping[str, bytes]) -> Corpus:
        trees = {p: t for p in sorted(files) if (t := parse_module(files[p])) is not None}
        functions = tuple(f for p, t in trees.items() for f in _functions(p, t))
        return cls(sources=files, trees=trees, functions=functions)


# ---------------------------------------------------------------- call counting


@dataclass(frozen=True, slots=True)
class _ModuleRefs:
    """Bare-name call sites of one module, and the names it imports with ``from``."""

    calls: tuple[tuple[str, int], ...]
    imported: Mapping[str, tuple[str, str]]  # alias -> (module as written, name)

    @classmethod
    def of(cls, tree: ast.Module) -> _ModuleRefs:
        # One walk for both: walking the stdlib's trees dominates scripting time.
        calls: list[tuple[str, int]] = []
        imported: dict[str, tuple[str, str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                calls.append((node.func.id, node.lineno))
            elif isinstance(node, ast.ImportFrom):
                for a in node.names:
                    imported[a.asname or a.name] = (node.module or "", a.name)
        return cls(tuple(calls), imported)


def _module_name(path: str) -> str:
    dotted = path.removesuffix(".py").replace("/", ".")
    return dotted.removesuffix(".__init__")


def _import_reaches(module: str, target_path: str) -> bool:
    """``from module import name`` can bind the target: its module or a package re-exporting it."""
    target = _module_name(target_path)
    if not module:
        return True  # ``from . import name`` inside the package
    return target == module or target.endswith("." + module) or target.startswith(module + ".")


def caller_counts(corpus: Corpus) -> dict[tuple[str, str], int]:
    """(path, function name) -> call sites that certainly reach that module-level function.

    A bare-name call counts in the defining module (outside the function itself)
    and in modules that import the name from a module that can hold it. Only
    names defined once in the whole corpus are counted, so a count is never
    borrowed from a namesake.
    """
    defined: dict[str, list[Function]] = {}
    for f in corpus.functions:
        defined.setdefault(f.node.name, []).append(f)
    unique = {name: fs[0] for name, fs in defined.items() if len(fs) == 1 and fs[0].module_level}
    counts: dict[tuple[str, str], int] = {}
    for path, tree in corpus.trees.items():
        refs = _ModuleRefs.of(tree)
        imported = refs.imported
        for called, line in refs.calls:
            module, name = imported.get(called, ("", called))
            target = unique.get(name)
            if target is None:
                continue
            if called in imported:
                if target.path == path or not _import_reaches(module, target.path):
                    continue
            elif target.path != path:
                continue
            lo, hi = target.span
            if target.path == path and lo <= line <= hi:
                continue  # recursion is not a caller
            key = (target.path, target.node.name)
            counts[key] = counts.get(key, 0) + 1
    return counts


# --------------------------------------------------------------------- choosing


def _overlaps(a: Function, b: Function) -> bool:
    return a.path == b.path and a.span[0] <= b.span[1] and b.span[0] <= a.span[1]


def _free(f: Function, taken: list[Function]) -> bool:
    return not any(_overlaps(f, t) for t in taken)


def _body_insert_point(f: Function, source_lines: list[bytes]) -> tuple[int, bytes] | None:
    """Line after the first body statement, and the body's indentation, when safe."""
    body = f.node.body
    if len(body) < MIN_BODY_STATEMENTS:
        return None
    first, second = body[0], body[1]
    first_end = first.end_lineno or first.lineno
    if first.lineno <= f.node.lineno or second.lineno <= first_end:
        return None  # statements share a line with the def or with each other
    line = source_lines[second.lineno - 1]
    indent = line[: second.col_offset]
    if indent.strip() or not indent:
        return None
    return first_end + 1, indent


def _own_nodes(f: Function) -> Iterator[ast.AST]:
    """Nodes of the function's own code, nested definitions excluded."""
    stack: list[ast.AST] = list(f.node.body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
                stack.append(child)


def _int_constants(f: Function, source_lines: list[bytes]) -> list[ast.Constant]:
    found = []
    for node in _own_nodes(f):
        if not (isinstance(node, ast.Constant) and type(node.value) is int):
            continue
        if node.end_lineno != node.lineno or node.end_col_offset is None:
            continue
        literal = source_lines[node.lineno - 1][node.col_offset : node.end_col_offset]
        if literal == str(node.value).encode():
            found.append(node)
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def _has_simple_parameters(node: FunctionNode) -> bool:
    """Only plain positional parameters: a new required one can go last."""
    a = node.args
    return bool(a.args) and not (a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults)


def _pick_with_callers(
    corpus: Corpus,
    counts: Mapping[tuple[str, str], int],
    rng: random.Random,
    taken: list[Function],
    *,
    signature: bool,
) -> Function:
    direct = set().union(*(_direct_module_functions(t) for t in corpus.trees.values()))
    candidates = []
    for f in corpus.functions:
        callers = counts.get((f.path, f.node.name), 0)
        if id(f.node) not in direct or not (1 <= callers <= MAX_CALLERS and _free(f, taken)):
            continue
        if len(f.node.body) < MIN_BODY_STATEMENTS or f.node.name.startswith("__"):
            continue
        if signature and (f.node.decorator_list or not _has_simple_parameters(f.node)):
            continue
        candidates.append(f)
    if not candidates:
        step = "signature change" if signature else "removal"
        raise ScriptError(f"no module-level function with in-repo callers fits the {step}")
    return rng.choice(candidates)


def _pick_body_targets(
    corpus: Corpus,
    rng: random.Random,
    taken: list[Function],
    *,
    files: int,
    functions: int,
    exclude_paths: frozenset[str] = frozenset(),
) -> list[Function]:
    lines = {p: corpus.sources[p].split(b"\n") for p in corpus.trees}
    by_path: dict[str, list[Function]] = {}
    for f in corpus.functions:
        if f.path not in exclude_paths and _body_insert_point(f, lines[f.path]) and _free(f, taken):
            by_path.setdefault(f.path, []).append(f)
    per_file = -(-functions // files)
    roomy = sorted(p for p, fs in by_path.items() if len(fs) >= per_file)
    others = sorted(p for p in by_path if p not in roomy)
    # Prefer files that can take their share; fall back to more, smaller files.
    order = rng.sample(roomy, len(roomy)) + rng.sample(others, len(others))
    queues = {p: rng.sample(by_path[p], len(by_path[p])) for p in order}
    paths = order[:files]
    picked: list[Function] = []
    while len(picked) < functions and paths:
        progress = False
        for p in paths:
            while queues[p] and len(picked) < functions:
                f = queues[p].pop()
                if _free(f, taken + picked):
                    picked.append(f)
                    progress = True
                    break
        if not progress:
            if len(paths) == len(order):
                break
            paths = order[: len(paths) + 1]
    if len(picked) < functions:
        raise ScriptError(f"only {len(picked)} of {functions} function bodies can be edited")
    return picked


# --------------------------------------------------------------------- editing


def _body_edit(f: Function, lines: list[bytes], rng: random.Random, serial: int) -> tuple[_Splice, str]:
    constants = _int_constants(f, lines)
    if constants and rng.random() < 0.5:
        node = rng.choice(constants)
        old = int(str(node.value))  # an int literal: _int_constants checked its source
        end = node.end_col_offset or node.col_offset
        splice = _Splice((node.lineno, node.col_offset), (node.lineno, end), str(old + 1).encode())
        return splice, f"constant {old} -> {old + 1} on line {node.lineno}"
    point = _body_insert_point(f, lines)
    assert point is not None
    line, indent = point
    statement = indent + f"_review_marker_{serial} = {serial}\n".encode()
    return _Splice((line, 0), (line, 0), statement), f"statement inserted at line {line}"


def _signature_edit(f: Function) -> tuple[_Splice, str]:
    last = f.node.args.args[-1]
    assert last.end_lineno is not None and last.end_col_offset is not None
    names = {a.arg for a in f.node.args.args}
    param = NEW_PARAMETER if NEW_PARAMETER not in names else NEW_PARAMETER + "_"
    at = (last.end_lineno, last.end_col_offset)
    return _Splice(at, at, f", {param}".encode()), f"required parameter '{param}' added"


def _removal(f: Function, lines: list[bytes]) -> tuple[_Splice, str]:
    first, last = f.span
    end = last
    # Take the blank lines after it too; the ones before still separate its neighbours.
    while end < len(lines) and not lines[end].strip():
        end += 1
    return _Splice((first, 0), (end + 1, 0), b""), f"removed (lines {first}-{last})"


def _apply(source: bytes, splices: list[_Splice]) -> bytes:
    starts = [0]
    for line in source.split(b"\n"):
        starts.append(starts[-1] + len(line) + 1)

    def offset(pos: tuple[int, int]) -> int:
        return min(starts[pos[0] - 1] + pos[1], len(source))

    out = source
    for s in sorted(splices, key=lambda s: offset(s.start), reverse=True):
        out = out[: offset(s.start)] + s.text + out[offset(s.end) :]
    return out


def _commit(
    corpus: Corpus,
    message: str,
    plan: list[tuple[Function, EditKind]],
    rng: random.Random,
    serial_start: int,
) -> ScriptedCommit:
    splices: dict[str, list[_Splice]] = {}
    edits = []
    for serial, (f, kind) in enumerate(plan, start=serial_start):
        lines = corpus.sources[f.path].split(b"\n")
        if kind == "body":
            splice, detail = _body_edit(f, lines, rng, serial)
        elif kind == "signature":
            splice, detail = _signature_edit(f)
        else:
            splice, detail = _removal(f, lines)
        splices.setdefault(f.path, []).append(splice)
        edits.append(Edit(f.path, f.qualname, kind, detail))
    files = {p: _apply(corpus.sources[p], s) for p, s in sorted(splices.items())}
    for path, text in files.items():
        if parse_module(text) is None:
            raise ScriptError(f"the scripted edit left {path} unparsable")
    return ScriptedCommit(message=message, files=files, edits=tuple(edits))


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    # Millions of live AST nodes make every cyclic collection rescan them all
    # (parsing the stdlib goes from 4 s to 18 s); ASTs hold no cycles anyway.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def script_pull_request(files: Mapping[str, bytes], seed: int) -> PullRequest:
    """Plan the feature commit and its follow-up for a corpus of ``path -> bytes``."""
    with _collector_paused():
        return _script(files, random.Random(seed))


def _script(files: Mapping[str, bytes], rng: random.Random) -> PullRequest:
    corpus = Corpus.parse(files)
    counts = caller_counts(corpus)
    taken: list[Function] = []
    removed = _pick_with_callers(corpus, counts, rng, taken, signature=False)
    taken.append(removed)
    resigned = _pick_with_callers(corpus, counts, rng, taken, signature=True)
    taken.append(resigned)
    bodies = _pick_body_targets(corpus, rng, taken, files=5, functions=10)
    plan: list[tuple[Function, EditKind]] = [(f, "body") for f in bodies]
    plan += [(resigned, "signature"), (removed, "removed")]
    feature = _commit(corpus, "Tighten validation across modules", plan, rng, 1)
    followup_targets = _pick_body_targets(
        corpus,
        rng,
        taken + bodies,
        files=2,
        functions=3,
        exclude_paths=frozenset(feature.files),
    )
    followup = _commit(corpus, "Address review comments", [(f, "body") for f in followup_targets], rng, 100)
    return PullRequest(feature=feature, followup=followup)
