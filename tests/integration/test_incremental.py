"""Derived graphs against graphs linked from scratch, commit after commit.

A seeded random history edits a small package the way real histories do: functions
come and go, files move, imports and re-exports change, a class gets another base,
a method that a name-only edge relied on gets a twin, callbacks change, modules
write into each other's containers, earlier commits are reverted, a conftest
fixture appears and disappears. At every commit the
graph derived from the previous commit's (derived) graph must equal ``link`` run on
the commit from scratch, field by field.
"""

from __future__ import annotations

import copy
import json
import logging
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import RepoBuilder
from helpers.linking import facts as facts_of

from impactbot.cache import Cache, decode, encode
from impactbot.cli import main
from impactbot.config import Settings
from impactbot.git import GitRepository
from impactbot.link import incremental, link
from impactbot.link.incremental import LinkTrace, derive, link_traced, trace_from_graph, trace_to_graph
from impactbot.model import FileFacts, LinkedGraph
from impactbot.pipeline import FactStore, analysed_files

FUNCTIONS = ["alpha", "beta", "gamma", "delta", "omega", "build", "handler", "other_handler"]
CLASSES = ["Base", "Shape", "Circle", "Square", "Repo", "Service"]
METHODS = ["area", "render", "process", "describe"]
MODULES = [f"pkg/m{i}.py" for i in range(8)] + ["pkg/sub/s0.py", "pkg/sub/s1.py"]
PACKAGES = ["pkg/__init__.py", "pkg/sub/__init__.py"]
TESTS = ["tests/test_a.py", "tests/test_b.py"]
FIXTURES = ["shape", "repo", "service"]


# ------------------------------------------------------------------ the program


@dataclass
class Source:
    """One file: import lines and named top-level blocks, rendered in order."""

    imports: list[str] = field(default_factory=list)
    blocks: dict[str, str] = field(default_factory=dict)

    def render(self) -> str:
        head = "\n".join(self.imports)
        return (head + "\n\n\n" if head else "") + "\n\n\n".join(self.blocks.values()) + "\n"


def dotted(path: str) -> str:
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


class Program:
    """A package that random edits keep parseable (not necessarily runnable)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.files: dict[str, Source] = {}
        for path in MODULES:
            self.files[path] = self._module()
        self.files[MODULES[0]].blocks["apply"] = "def apply(fn, v):\n    return fn(v)"
        self.files[MODULES[1]].blocks["poke"] = "def poke(target):\n    return target.frobnicate_widget()"
        self.files[MODULES[2]].blocks["Widget"] = (
            "class Widget:\n    def frobnicate_widget(self):\n        return alpha(1)"
        )
        for path in PACKAGES:
            self.files[path] = Source(imports=[self._reexport(path) for _ in range(2)])
        self.files["tests/conftest.py"] = Source(
            imports=["import pytest", f"from {dotted(MODULES[3])} import *"],
            blocks={name: self._fixture(name) for name in FIXTURES[:2]},
        )
        for path in TESTS:
            self.files[path] = self._test_module()

    # -------------------------------------------------------------- pieces

    def _name(self) -> str:
        return self.rng.choice(FUNCTIONS)

    def _module_path(self) -> str:
        return self.rng.choice([p for p in self.files if p in MODULES or p.startswith("pkg/moved")] or MODULES)

    def _import(self) -> str:
        target = dotted(self._module_path())
        name = self.rng.choice(FUNCTIONS + CLASSES + ["apply", "poke", "Widget"])
        return self.rng.choice([
            f"from {target} import {name}",
            f"from {target} import {name} as {name}_alias",
            f"import {target} as mod",
            f"from {target} import *",
        ])

    def _reexport(self, path: str) -> str:
        base = "pkg" if path == "pkg/__init__.py" else "pkg.sub"
        modules = [p for p in self.files if p.startswith(base.replace(".", "/") + "/") and p not in PACKAGES]
        target = dotted(self.rng.choice(modules or MODULES))
        name = self.rng.choice(FUNCTIONS + CLASSES)
        return self.rng.choice([f"from {target} import {name}", f"from {target} import {name} as re_{name}"])

    def _statement(self, params: str) -> str:
        f, c, m = self._name(), self.rng.choice(CLASSES), self.rng.choice(METHODS)
        key = self.rng.choice(["0", "1", "-1", "'a'", "'b'", "v"])
        choices = [
            f"{f}(v)",
            f"obj = {c}()\n    obj.{m}()",
            f"apply({self.rng.choice(['handler', 'other_handler', f])}, v)",
            f"x = {f}()\n    x = x.{m}()",
            f"mod.{f}(v)",
            f"value = {c}().{m}()",
            f"cb = {f}\n    cb()",
            f"{f}_alias(v)",
            "poke(v)",
            f"re_{f}(v)",
            f"TABLE[{key}](v)",
            f"mod.TABLE.get('{self.rng.choice('ab')}', {f})(v)",
            "first, second = pair()\n    second(v)",
            "mod.pick()(v)",
        ]
        if "fn" in params:
            choices.append("fn(v)")
        return self.rng.choice(choices)

    def _function(self, name: str) -> str:
        params = self.rng.choice(["v=None", "fn, v=None", "v, fn=None"])
        body = "\n    ".join(self._statement(params) for _ in range(self.rng.randint(1, 3)))
        returns = self.rng.choice(["v", f"{self._name()}(v)", f"{self.rng.choice(CLASSES)}()", "None"])
        return f"def {name}({params}):\n    {body}\n    return {returns}"

    def _class(self, name: str) -> str:
        base = self.rng.choice(["", "Base", "Shape", "Repo", "mod.Service", "Circle"])
        base = "" if base == name else base
        methods = self.rng.sample(METHODS, self.rng.randint(1, 3))
        lines = [f"class {name}({base}):" if base else f"class {name}:"]
        if self.rng.random() < 0.5:
            lines += [f"    def __init__(self, v=None):\n        self.part = {self.rng.choice(CLASSES)}()"]
        for m in methods:
            call = self.rng.choice(["super().{m}()", "self.part.{m}()", "{f}(self)", "self.{m2}()"])
            call = call.format(m=m, f=self._name(), m2=self.rng.choice(METHODS))
            lines.append(f"    def {m}(self, v=None):\n        {call}\n        return self")
        return "\n\n".join(lines)

    def _module(self) -> Source:
        src = Source(imports=[self._import() for _ in range(self.rng.randint(1, 3))])
        for name in self.rng.sample(FUNCTIONS, 3):
            src.blocks[name] = self._function(name)
        name = self.rng.choice(CLASSES)
        src.blocks[name] = self._class(name)
        return src

    def _fixture(self, name: str) -> str:
        decorator = self.rng.choice(["@pytest.fixture", "@pytest.fixture(autouse=True)"])
        gives = self.rng.choice(["return", "yield"])
        return f"{decorator}\ndef {name}():\n    {gives} {self.rng.choice(CLASSES)}()"

    def _test_module(self) -> Source:
        src = Source(imports=[f"from {dotted(self.rng.choice(MODULES))} import *"])
        for i in range(3):
            fixture = self.rng.choice(FIXTURES)
            src.blocks[f"test_{i}"] = f"def test_{i}({fixture}):\n    {fixture}.area()\n    {self._name()}(1)"
        return src

    # --------------------------------------------------------------- edits

    def edit(self, op: str) -> None:
        getattr(self, f"_edit_{op}")()

    def _edit_add_function(self) -> None:
        src = self.files[self._module_path()]
        name = self._name()
        src.blocks[name] = self._function(name)

    def _edit_remove_block(self) -> None:
        src = self.files[self._module_path()]
        if len(src.blocks) > 1:
            del src.blocks[self.rng.choice(sorted(src.blocks))]

    def _edit_rewrite_block(self) -> None:
        src = self.files[self._module_path()]
        name = self.rng.choice(sorted(src.blocks))
        if name[0].isupper() and name != "Widget":
            src.blocks[name] = self._class(name)
        elif name not in ("apply", "poke", "Widget"):
            src.blocks[name] = self._function(name)

    def _edit_change_import(self) -> None:
        src = self.files[self._module_path()]
        if src.imports and self.rng.random() < 0.4:
            src.imports.pop(self.rng.randrange(len(src.imports)))
        else:
            src.imports.append(self._import())

    def _edit_change_reexport(self) -> None:
        path = self.rng.choice(PACKAGES)
        src = self.files[path]
        if src.imports and self.rng.random() < 0.5:
            src.imports[self.rng.randrange(len(src.imports))] = self._reexport(path)
        else:
            src.imports.append(self._reexport(path))

    def _edit_change_base(self) -> None:
        src = self.files[self._module_path()]
        classes = [n for n in src.blocks if n[0].isupper() and n != "Widget"]
        name = self.rng.choice(classes) if classes else self.rng.choice(CLASSES)
        src.blocks[name] = self._class(name)

    def _edit_twin_method(self) -> None:
        # a second frobnicate_widget makes the name ambiguous: the name-only edge from poke goes away
        src = self.files[self._module_path()] if self.rng.random() < 0.7 else self.files[MODULES[2]]
        if "Twin" in src.blocks:
            del src.blocks["Twin"]
        else:
            src.blocks["Twin"] = "class Twin:\n    def frobnicate_widget(self):\n        return beta(2)"

    def _edit_callback(self) -> None:
        src = self.files[self._module_path()]
        name = self._name()
        cb = self.rng.choice(["handler", "other_handler", "alpha", "Circle"])
        src.blocks[name] = f"def {name}(v=None):\n    return apply({cb}, v)"

    def _edit_table(self) -> None:
        # a literal read by constant keys, kept as written or changed in ways that leave only
        # its bag; a function reading it, one returning a tuple: each edited on its own
        src = self.files[self._module_path()]
        f, g, h = self.rng.sample(FUNCTIONS, 3)
        key = self.rng.choice(["'a'", "'b'", "0", "-1"])
        block, text = self.rng.choice([
            ("table", f"TABLE = {{'a': {f}, 'b': {g}}}"),
            ("table", f"TABLE = [{f}, {g}]"),
            ("table", f"TABLE = {{'a': {f}, 'b': {{'x': {g}}}}}"),
            ("table", f"TABLE = {{'a': {f}, 'b': {g}}}\nTABLE['b'] = {h}"),
            ("table", f"TABLE = {{'a': {f}, 'b': {g}}}\nTABLE[{h}] = {h}"),
            ("table", f"TABLE = [{f}, {g}]\nTABLE.insert(0, {h})"),
            ("table", f"TABLE = {{'a': {f}}}\n\n\ndef fill():\n    TABLE['b'] = {h}"),
            ("pick", f"def pick():\n    return TABLE[{key}]"),
            # elements written into another module's container, from its body or a function
            ("register", f"from {dotted(self._module_path())} import TABLE as shared\nshared[{key}] = {h}"),
            ("register", f"from {dotted(self._module_path())} import TABLE\nTABLE.append({h})"),
            ("register", f"def register():\n    mod.TABLE[{key}] = {h}"),
            ("register", f"mod.TABLE.append({h})"),
            ("pair", f"def pair():\n    return {f}, {g}"),
            ("pair", f"def pair():\n    return ({g}, {h})"),
            ("pair", f"def pair():\n    yield {f}\n    return {g}, {h}"),
        ])
        src.blocks[block] = text

    def _edit_move(self) -> None:
        movable = [p for p in self.files if p in MODULES[3:] or p.startswith("pkg/moved")]
        if movable:
            old = self.rng.choice(movable)
            new = f"pkg/moved_{self.rng.randrange(100)}.py"
            if new not in self.files:
                self.files[new] = self.files.pop(old)

    def _edit_fixture(self) -> None:
        src = self.files["tests/conftest.py"]
        name = self.rng.choice(FIXTURES)
        if name in src.blocks:
            del src.blocks[name]
        else:
            src.blocks[name] = self._fixture(name)

    def _edit_cycle(self) -> None:
        src = self.files[self._module_path()]
        a, b = self.rng.sample(FUNCTIONS, 2)
        src.blocks[a] = f"def {a}(v=None):\n    x = {b}(v)\n    y = x.render()\n    x = y.area()\n    return x"
        src.blocks[b] = f"def {b}(v=None):\n    return {a}(v).process()"

    def _edit_descriptor(self) -> None:
        # which classes have a __get__ is decided over the whole revision: a class gains or
        # loses one, a subclass by name, a class body binding one of their instances, and
        # reads of it here and in other files
        src = self.files[self._module_path()]
        which = self.rng.choice(["Lazy", "Lazy", "Lazier", "Holder", "Holder"])
        if which == "Lazy":
            body = self.rng.choice([
                f"    def __get__(self, obj, owner=None):\n        return {self._name()}",
                "    def __get__(self, obj, owner=None):\n        return self",
                "    def area(self, v=None):\n        return self",
                f"    def __getattr__(self, name):\n        return {self._name()}",
            ])
            src.blocks[which] = f"class Lazy:\n{body}"
        elif which == "Lazier":
            src.blocks[which] = f"class Lazier({self.rng.choice(['Lazy', 'mod.Lazy', 'Shape'])}):\n    pass"
        else:
            value = self.rng.choice(["Lazy", "Lazier", "mod.Lazy", "Shape", "alpha"])
            src.blocks[which] = (
                f"class Holder:\n    render = {value}()\n\n    def describe(self, v=None):\n"
                "        return self.render(v)"
            )
        user = self.files[self._module_path()]
        holder = self.rng.choice(["Holder", "mod.Holder"])
        lazy = self.rng.choice(["Lazy", "Lazier", "mod.Lazy"])
        user.blocks["use_holder"] = f"def use_holder(v=None):\n    {lazy}().missing(v)\n    return {holder}().render"

    def _edit_proxy(self) -> None:
        # a class gains or loses __getattr__ (or the method a call names); calls of
        # methods it lacks, alone or among other classes, here and in other files
        home = self.files[MODULES[1]]
        methods = self.rng.sample([
            f"    def __getattr__(self, name):\n        return {self._name()}",
            "    def __getattr__(self, name):\n        return getattr(self.inner, name)",
            "    def missing(self, v=None):\n        return v",
            "    def area(self, v=None):\n        return self",
        ], self.rng.randint(1, 2))
        home.blocks["Proxy"] = "class Proxy:\n" + "\n\n".join(methods)
        if self.rng.random() < 0.5:  # a module-level __getattr__ (PEP 562) comes or goes
            if "__getattr__" in home.blocks:
                del home.blocks["__getattr__"]
            else:
                home.blocks["__getattr__"] = f"def __getattr__(name):\n    return {self._name()}"
        user = self.files[self._module_path()]
        for line in ("from pkg.m1 import Proxy", "import pkg.m1 as m1"):
            if user is not home and line not in user.imports:
                user.imports.append(line)
        receiver = self.rng.choice(["Proxy()", "Proxy()", "(Proxy() if v else Shape())"])
        body = f"{receiver}.missing(v)\n    m1.not_bound(v)\n    return Proxy().area()"
        user.blocks["use_proxy"] = f"def use_proxy(v=None):\n    {body}"

    def _edit_metaclass(self) -> None:
        # a metaclass gains or loses methods; a class names it (or stops), its subclasses
        # inherit it; class statements, calls of the class and reads through it elsewhere
        if self.rng.random() < 0.4:
            methods = self.rng.sample(["__new__", "__init__", "__call__", "describe", "__iter__"], 2)
            body = "\n\n".join(f"    def {m}(cls, *args):\n        return {self._name()}(args)" for m in methods)
            self.files[MODULES[0]].blocks["Meta"] = f"class Meta(type):\n{body}"
        else:
            src = self.files[self._module_path()]
            name = self.rng.choice(CLASSES)
            meta = self.rng.choice(["Meta", "Meta", "type", None])
            if meta == "Meta" and "from pkg.m0 import Meta" not in src.imports:
                src.imports.append("from pkg.m0 import Meta")
            base = self.rng.choice(["", "Base", "Shape"])
            heads = [b for b in (base, f"metaclass={meta}" if meta else "") if b and b != name]
            src.blocks[name] = f"class {name}({', '.join(heads)}):\n    def area(self, v=None):\n        return v"
        user = self.files[self._module_path()]
        c = self.rng.choice(CLASSES)
        body = f"{c}.describe()\n    for x in {c}:\n        x()\n    return {c}(v)"
        user.blocks["use_meta"] = f"def use_meta(v=None):\n    {body}"

    def render(self) -> dict[str, str]:
        return {path: src.render() for path, src in self.files.items()}


OPS = ["add_function", "remove_block", "rewrite_block", "change_import", "change_reexport", "change_base",
       "twin_method", "callback", "move", "fixture", "cycle", "table", "descriptor",
       "metaclass", "proxy"]


@dataclass
class History:
    """Commits of a random history, with what each one did."""

    repo: RepoBuilder
    commits: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)


def build_history(repo: RepoBuilder, seed: int, count: int) -> History:
    """``count`` commits after the first, each one to three random edits or a revert."""
    rng = random.Random(seed)
    program = Program(rng)
    history = History(repo)
    states: list[dict[str, Source]] = [copy.deepcopy(program.files)]
    rendered = program.render()
    history.commits.append(repo.commit(dict(rendered), "start"))
    history.labels.append("start")
    while len(history.commits) <= count:
        if len(states) > 3 and rng.random() < 0.15:
            label = _revert(program, states, rng)
        else:
            ops = [rng.choice(OPS) for _ in range(rng.randint(1, 3))]
            for op in ops:
                program.edit(op)
            label = "+".join(ops)
        now = program.render()
        delta: dict[str, str | None] = {p: c for p, c in now.items() if rendered.get(p) != c}
        delta.update({p: None for p in rendered if p not in now})
        if not delta:
            continue
        history.commits.append(repo.commit(delta, label))
        history.labels.append(label)
        states.append(copy.deepcopy(program.files))
        rendered = now
    return history


def _revert(program: Program, states: list[dict[str, Source]], rng: random.Random) -> str:
    """Undo what one earlier commit did to its files (later edits to them are lost, as in a revert)."""
    k = rng.randrange(1, len(states))
    before, after = states[k - 1], states[k]
    for path in before.keys() | after.keys():
        if before.get(path) is not None and after.get(path) is not None and before[path] == after[path]:
            continue
        if path in before:
            program.files[path] = copy.deepcopy(before[path])
        else:
            program.files.pop(path, None)
    return f"revert {k}"


# ---------------------------------------------------------------------- checks


def facts_at(git: GitRepository, store: FactStore, commit: str) -> dict[str, FileFacts]:
    return store.facts_of(analysed_files(git.revision(commit), Settings()))


def assert_same_graph(derived: LinkedGraph, full: LinkedGraph, where: str) -> None:
    """Field by field, naming the first difference."""
    for name in ("symbols", "edges", "unresolved", "calls", "dangling"):
        got, want = getattr(derived, name), getattr(full, name)
        if got != want:
            extra = sorted(set(got) - set(want), key=repr)[:3]
            missing = sorted(set(want) - set(got), key=repr)[:3]
            pytest.fail(f"{where}: {name} differ (derived has {extra}, lacks {missing}; order may differ too)")


def stored(trace: LinkTrace) -> LinkTrace:
    """The trace as a later run reads it back from the cache."""
    back = trace_from_graph(decode(encode(trace_to_graph(trace)), LinkedGraph))
    assert back is not None
    return back


def derived_along(repo: RepoBuilder, commits: list[str]) -> Iterator[LinkedGraph]:
    """The graph of each commit after the first, derived from the one before (through a
    trace read back as the cache stores it), each checked equal to a full link."""
    git = GitRepository.discover(repo.path)
    store = FactStore(git, Cache.open(None))
    old_facts = facts_at(git, store, commits[0])
    graph, trace = link_traced(old_facts)
    for i, commit in enumerate(commits[1:], start=1):
        facts = facts_at(git, store, commit)
        graph, trace = derive(graph, old_facts, facts, stored(trace))
        assert_same_graph(graph, link(facts), f"commit {i}")
        yield graph
        old_facts = facts


def derived_count(caplog: pytest.LogCaptureFixture) -> int:
    return sum(r.getMessage().startswith("derived:") for r in caplog.records)


@pytest.mark.parametrize("seed", [11, 29])
def test_every_derived_graph_equals_a_full_link(
    repo: RepoBuilder, seed: int, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the package is small: let derivation run however much of it a change reaches
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    caplog.set_level(logging.DEBUG, logger="impactbot.link.incremental")
    history = build_history(repo, seed, count=32)
    git = GitRepository.discover(repo.path)
    store = FactStore(git, Cache.open(None))
    old_facts = facts_at(git, store, history.commits[0])
    graph, trace = link_traced(old_facts)
    assert graph == link(old_facts)
    for i, commit in enumerate(history.commits[1:], start=1):
        facts = facts_at(git, store, commit)
        graph, trace = derive(graph, old_facts, facts, stored(trace))
        assert_same_graph(graph, link(facts), f"commit {i} ({history.labels[i]})")
        old_facts = facts
    assert len(history.commits) > 30
    # most commits must really have been derived, not linked again from scratch
    assert derived_count(caplog) >= 0.6 * (len(history.commits) - 1)


def test_derivation_falls_back_to_a_full_link_when_most_files_change(
    repo: RepoBuilder, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="impactbot.link.incremental")
    history = build_history(repo, 5, count=1)
    git = GitRepository.discover(repo.path)
    store = FactStore(git, Cache.open(None))
    old_facts = facts_at(git, store, history.commits[0])
    graph, trace = link_traced(old_facts)
    # every module gets a new import: every file changes
    delta = {p: c + "\nimport json\n" for p, c in Program(random.Random(5)).render().items() if p in MODULES}
    facts = facts_at(git, store, repo.commit(delta, "touch everything"))
    derived, _ = derive(graph, old_facts, facts, trace)
    assert derived == link(facts)
    assert derived_count(caplog) == 0
    assert any("linking from scratch" in r.getMessage() for r in caplog.records)


def test_a_trace_of_other_facts_is_not_used(repo: RepoBuilder) -> None:
    history = build_history(repo, 7, count=2)
    git = GitRepository.discover(repo.path)
    store = FactStore(git, Cache.open(None))
    first, second, third = (facts_at(git, store, c) for c in history.commits[:3])
    graph, _ = link_traced(first)
    _, wrong_trace = link_traced(second)  # belongs to another revision than ``graph``
    derived, _ = derive(graph, first, third, wrong_trace)
    assert derived == link(third)


INHERITED = {
    "pkg/__init__.py": "",
    "pkg/base.py": "from dataclasses import dataclass\n\n\n@dataclass\nclass Base:\n    id: int\n",
    "pkg/sub.py": "from dataclasses import dataclass\n\nfrom pkg.base import Base\n\n\n"
                  "@dataclass\nclass Sub(Base):\n    name: str = ''\n",
    "pkg/use.py": "from pkg.sub import Sub\n\n\ndef make():\n    return Sub(1)\n",
}


def test_a_derived_graph_gives_an_unchanged_file_the_init_its_changed_bases_give_it(
    repo: RepoBuilder, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    caplog.set_level(logging.DEBUG, logger="impactbot.link.incremental")
    commits = [
        repo.commit(INHERITED, "c1"),
        repo.commit({"pkg/base.py": INHERITED["pkg/base.py"] + "    owner: str\n"}, "a required field"),
        repo.commit({"pkg/base.py": INHERITED["pkg/base.py"].replace("@dataclass\n", "")}, "no dataclass"),
        repo.commit({"pkg/base.py": INHERITED["pkg/base.py"]}, "back"),
    ]
    signatures = []
    for graph in derived_along(repo, commits):
        sub = next(s for s in graph.symbols if s.id == "pkg/sub.py::Sub")
        signatures.append(sub.signature.text() if sub.signature else None)
    assert signatures == ["(id: int, owner: str, name: str = …)", None, "(id: int, name: str = …)"]
    assert derived_count(caplog) == 3  # pkg/sub.py itself never changed


DESCRIPTOR = {
    "pkg/__init__.py": "",
    "pkg/lazy.py": "class Lazy:\n    def load(self):\n        return 1\n",
    "pkg/also.py": "class Lazy:\n    pass\n",
    "pkg/holder.py": "from pkg.lazy import Lazy\n\n\nclass Holder:\n    value = Lazy()\n",
    "pkg/use.py": "from pkg.holder import Holder\n\n\ndef read():\n    return Holder().value\n",
}
GET = "    def __get__(self, obj, owner=None):\n        return 2\n"


def test_a_class_becoming_a_descriptor_changes_reads_in_files_that_did_not_change(
    repo: RepoBuilder, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # which classes have __get__ is told by names over the whole revision: no lookup of the
    # unchanged reader's recorded that `value` may be a descriptor until pkg/lazy.py said so,
    # and a second Lazy (pkg/also.py) keeps the name known while the real one loses it
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    caplog.set_level(logging.DEBUG, logger="impactbot.link.incremental")
    lazy, also = DESCRIPTOR["pkg/lazy.py"], DESCRIPTOR["pkg/also.py"]
    commits = [
        repo.commit(DESCRIPTOR, "no __get__"),
        repo.commit({"pkg/lazy.py": lazy + GET}, "Lazy gets __get__"),
        repo.commit({"pkg/also.py": also + GET}, "the other Lazy too"),
        repo.commit({"pkg/lazy.py": lazy}, "Lazy loses it, the name stays a descriptor's"),
        repo.commit({"pkg/lazy.py": lazy + GET}, "and gets it back"),
    ]
    reads = [sorted(e.target for e in graph.edges if e.source == "pkg/use.py::read")
             for graph in derived_along(repo, commits)]
    holder, get = "pkg/holder.py::Holder", "pkg/lazy.py::Lazy::__get__"
    assert reads == [[holder, get], [holder, get], [holder], [holder, get]]
    assert derived_count(caplog) == 4


METACLASS = {
    "pkg/__init__.py": "",
    "pkg/meta.py": "class Meta(type):\n    pass\n",
    "pkg/model.py": "from pkg.meta import Meta\n\n\nclass Model(metaclass=Meta):\n    pass\n",
    "pkg/user.py": "from pkg.model import Model\n\n\nclass User(Model):\n    pass\n\n\n"
                   "def find():\n    return User.registry()\n",
}
META_METHODS = (
    "    def __new__(mcs, *args):\n        return type.__new__(mcs, *args)\n\n"
    "    def registry(cls):\n        return []\n"
)


def test_a_metaclass_gaining_methods_changes_files_that_did_not_change(
    repo: RepoBuilder, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    caplog.set_level(logging.DEBUG, logger="impactbot.link.incremental")
    meta = METACLASS["pkg/meta.py"]
    commits = [
        repo.commit(METACLASS, "an empty metaclass"),
        repo.commit({"pkg/meta.py": meta + META_METHODS}, "it gets __new__ and registry"),
        repo.commit({"pkg/meta.py": meta}, "and loses them"),
        repo.commit({"pkg/meta.py": meta + META_METHODS}, "and gets them back"),
    ]
    seen = [sorted(e.target for e in graph.edges if e.source in ("pkg/user.py", "pkg/user.py::find"))
            for graph in derived_along(repo, commits)]
    new, registry = "pkg/meta.py::Meta::__new__", "pkg/meta.py::Meta::registry"
    assert seen == [[new, registry], [], [new, registry]]
    assert derived_count(caplog) == 3


def test_something_else_than_a_trace_does_not_decode_as_one() -> None:
    graph = LinkedGraph(symbols=(), edges=(), unresolved=(), dangling=(("pkg/a.py", "f", 1),))
    assert trace_from_graph(graph) is None


# --------------------------------------------------------------- through the CLI

V1 = {
    "pkg/__init__.py": "",
    "pkg/util.py": "def helper(x):\n    return x + 1\n\n\ndef apply(fn, v):\n    return fn(v)\n",
    "pkg/a.py": "from pkg.util import helper, apply\n\n\ndef a(v):\n    return apply(helper, v)\n",
    "pkg/b.py": "from pkg import a as amod\n\n\ndef b():\n    return amod.a(1)\n",
    "pkg/c.py": "def unrelated():\n    return 0\n",
    "tests/test_b.py": "from pkg.b import b\n\n\ndef test_b():\n    assert b() == 2\n",
}
V2 = {"pkg/util.py": V1["pkg/util.py"] + "\n\ndef twice(x):\n    return helper(helper(x))\n"}
V3 = {
    "pkg/a.py": "from pkg.util import twice, apply\n\n\ndef a(v):\n    return apply(twice, v)\n",
    "pkg/c.py": "def unrelated():\n    return 1\n",
}


def diff_report(repo: Path, range_: str, cache: Path | None) -> dict[str, Any]:
    out = repo.parent / "report.json"
    argv = ["diff", range_, "-C", str(repo), "--format", "json", "-o", str(out), "--no-semantic", "-q"]
    argv += ["--cache-dir", str(cache)] if cache else ["--no-cache"]
    assert main(argv) == 0
    report: dict[str, Any] = json.loads(out.read_text())
    return report


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k != "stats"}


def test_next_commit_diff_from_the_cache_matches_an_uncached_one(
    repo: RepoBuilder, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """
        * c3   pkg/a.py uses twice, pkg/c.py changed
        * c2   pkg/util.py gains twice
        * c1   the package
    """
    monkeypatch.setenv("IMPACTBOT_INCREMENTAL_GRAPHS", "true")
    c1 = repo.commit(V1, "c1")
    c2 = repo.commit(V2, "c2")
    c3 = repo.commit(V3, "c3")
    cache = tmp_path / "cache"
    diff_report(repo.path, f"{c1}..{c2}", cache)
    caplog.set_level(logging.DEBUG, logger="impactbot.link.incremental")
    cached = diff_report(repo.path, f"{c2}..{c3}", cache)
    assert derived_count(caplog) == 1  # c3's graph came from c2's, cached by the first run
    uncached = diff_report(repo.path, f"{c2}..{c3}", None)
    assert without_timing(cached) == without_timing(uncached)
    assert cached["stats"]["files_parsed"] == len(V3)  # the two blobs c3 changed, nothing else
    assert {c["id"] for c in cached["changed"]} >= {"pkg/a.py::a", "pkg/c.py::unrelated"}
    assert "pkg/b.py::b" in {i["id"] for i in cached["impacted"]}


ORDER = {
    # a.py passes A before u.py's site is resolved, z.py passes B after it: the site's
    # first pass sees A only, its second pass A and B
    "a.py": "from u import run\n\n\nclass A:\n    pass\n\n\nrun(A)\n",
    "u.py": "def run(factory):\n    return factory()\n",
    "z.py": "from u import run\n\n\nclass B:\n    pass\n\n\nrun(B)\n",
    "c.py": "def unrelated():\n    return 1\n",
}


def test_a_derived_trace_keeps_what_a_replayed_site_came_to_in_the_second_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    old = facts_of(ORDER)
    new = facts_of({**ORDER, "c.py": "def unrelated():\n    return 2\n"})
    graph, trace = link_traced(old)
    derived, derived_trace = derive(graph, old, new, trace)
    assert derived == link(new)
    # u.py is not resolved again, but its site is replayed in the first pass (it reads a
    # parameter): the trace must still hold its final answer, as a full link's does, or
    # a later derivation keeping that site would emit its first-pass targets
    assert derived_trace.files["u.py"].final == link_traced(new)[1].files["u.py"].final
    targets = {t[0] for t in derived_trace.files["u.py"].final[0][0]}
    assert targets >= {"a.py::A", "z.py::B"}
