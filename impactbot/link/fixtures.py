"""pytest: which files hold tests, and what pytest passes the parameters of tests.

A ``TestLayout`` carries the repository's ``python_files`` (pytest's defaults unless
its configuration sets them). pytest passes ``def test_run(service):`` the value of the fixture named ``service``
that is visible from the test: one its class or a base class defines, else one of
the test's own file, else one of the nearest ``conftest.py`` up the directories.
That value is what the fixture function returns, or what it yields when it is a
generator. The link gives the parameter that value (a flow ``<fixture:id>``), so
that ``service.run()`` in the test resolves, and a change to ``Service.run``
reaches the test. A parameter ``@pytest.mark.parametrize`` names gets each element
of the values it lists.

``@pytest.mark.usefixtures("db")`` (on the test or its class) and ``autouse=True``
fixtures run for a test too, without passing a value: they give the test a
``uses_fixture`` edge only.

A module that a ``pytest_plugins`` list names (in a conftest or a test module, and
in turn in such a plugin) is a plugin: its fixtures are visible to every test,
after those of the test's class, file and conftests, and its autouse fixtures run
for every test.

Computed from the facts alone, so that a derived graph can tell the flows of the
old revision from those of the new one.
"""

from __future__ import annotations

import fnmatch
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from posixpath import basename, dirname

from impactbot.link.modules import ModuleIndex
from impactbot.model import Definition, FileFacts, Import, symbol_id

Flow = tuple[tuple[str, str], tuple[str | None, str]]  # (function id, parameter) <- (value, scope)
Use = tuple[str, str | None, str, int]  # (user id, parameter or None, fixture id, line of the user)


PYTEST_FILES = ("test_*.py", "*_test.py")  # pytest's default python_files


@dataclass(frozen=True)
class TestLayout:
    """Which files pytest collects tests from: its ``python_files`` globs, matched
    against a file's name (or the end of its path, for a glob holding a ``/``)."""

    __test__ = False  # not a test class, whatever pytest makes of its name

    python_files: tuple[str, ...] = PYTEST_FILES
    plugins: tuple[str, ...] = ()  # modules pytest loads as plugins by configuration (entry points, -p)

    def is_test_file(self, path: str) -> bool:
        if self.python_files == PYTEST_FILES:
            return is_test_file(path)
        name = basename(path)
        # a glob with a "/" matches the end of the path, at any depth, as pytest matches
        # it against an absolute path
        return any(
            fnmatch.fnmatchcase("/" + path, "*/" + glob) if "/" in glob else fnmatch.fnmatchcase(name, glob)
            for glob in self.python_files
        )

    def holds_tests(self, path: str) -> bool:
        """A test file or a conftest: where tests and fixtures are."""
        return self.is_test_file(path) or basename(path) == "conftest.py"


DEFAULT_LAYOUT = TestLayout()


def is_test_file(path: str) -> bool:
    """pytest's default ``python_files``: ``test_*.py`` and ``*_test.py``."""
    name = basename(path)
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def is_unittest_file(path: str) -> bool:
    """unittest's default discovery pattern, ``test*.py`` (Django's runner uses it too):
    ``tests.py`` holds ``TestCase`` classes that pytest's default ``python_files`` skips."""
    name = basename(path)
    return name.startswith("test") and name.endswith(".py")


def is_fixture(definition: Definition) -> bool:
    return definition.kind in ("function", "method") and any(
        _marker(d) == "fixture" for d in definition.decorators
    )


def _marker(decorator: str) -> str:
    """``parametrize`` of ``pytest.mark.parametrize()``: a decorator's last name."""
    return decorator.split("(")[0].rsplit(".", 1)[-1]


def fixture_name(definition: Definition) -> str:
    """The name tests ask for a fixture by: its function's, or ``name=``'s."""
    return definition.fixture_alias or definition.name


def fixtures(facts: Mapping[str, FileFacts]) -> dict[str, dict[str, str]]:
    """fixture name -> {file -> fixture id}: the first definition in a file, else the
    fixture the file imports under that name."""
    out: dict[str, dict[str, str]] = defaultdict(dict)
    for path in sorted(facts):
        for d in facts[path].definitions:
            if is_fixture(d):
                out[fixture_name(d)].setdefault(path, symbol_id(path, d.qualname))
    for (path, name), fixture in sorted(imported_fixtures(facts).items()):
        out[name].setdefault(path, fixture)
    return out


def imported_fixtures(facts: Mapping[str, FileFacts]) -> dict[tuple[str, str], str]:
    """(file, fixture name) -> fixture id of the module-level fixtures a file imports
    (``from .fixtures import db``, ``from .fixtures import *``), also through modules
    that import them in turn. pytest collects a fixture under the name its module
    binds it to (``import db as database`` gives ``database``) unless ``name=`` says."""
    held: dict[str, dict[str, tuple[str, str | None]]] = defaultdict(dict)  # file -> attribute -> (id, name=)
    for path in sorted(facts):
        for d in facts[path].definitions:
            if not d.parent and is_fixture(d):
                held[path].setdefault(d.name, (symbol_id(path, d.qualname), d.fixture_alias))
    if not held:
        return {}
    index = ModuleIndex.build(facts)
    imports = [
        (path, imp, sources) for path in sorted(facts) for imp in facts[path].imports
        if not imp.scope and imp.name and not imp.type_only
        and (sources := _sources(index, path, imp.module, imp.level))
    ]
    grew = True
    while grew:  # re-exports of re-exports
        grew = False
        for path, imp, sources in imports:
            for source in sources:
                for attr, value in _taken(imp, held.get(source, {}), facts[source]).items():
                    if attr not in held[path]:
                        held[path][attr] = value
                        grew = True
    return {
        (path, alias or attr): fixture for path, found in held.items() for attr, (fixture, alias) in found.items()
        if not fixture.startswith(path + "::")
    }


def _sources(index: ModuleIndex, path: str, module: str, level: int) -> list[str]:
    name = index.absolute(path, module, level)
    return index.paths(name, near=path) if name else []


def _taken(imp: Import, held: Mapping[str, tuple[str, str | None]],
           source: FileFacts) -> dict[str, tuple[str, str | None]]:
    """What an import binds of the fixtures a module holds: attribute -> (id, name=)."""
    if not held:
        return {}
    if imp.name == "*":
        public = source.all_names
        return {a: v for a, v in held.items() if (a in public if public is not None else not a.startswith("_"))}
    return {imp.bound_name: held[imp.name]} if imp.name is not None and imp.name in held else {}


def visible_fixture(found: Mapping[str, Mapping[str, str]], path: str, name: str, user: str,
                    plugins: Sequence[str] = ()) -> str | None:
    """The fixture ``name`` that a test or fixture ``user`` in ``path`` receives, if any:
    its own file's, else the nearest conftest's, else a plugin's (a fixture never
    receives itself)."""
    defs = found.get(name)
    if not defs:
        return None
    if path in defs and defs[path] != user:
        return defs[path]
    directory = dirname(path)
    while True:
        conftest = f"{directory}/conftest.py" if directory else "conftest.py"
        if conftest in defs and defs[conftest] != user:
            return defs[conftest]
        if not directory:
            break
        directory = dirname(directory)
    return next((defs[p] for p in plugins if p in defs and defs[p] != user), None)


def plugin_files(facts: Mapping[str, FileFacts], configured: Sequence[str] = ()) -> tuple[str, ...]:
    """Files of the plugin modules the configuration names (``configured``) and those
    ``pytest_plugins`` lists name, and of those they name in turn, in the order pytest
    registers them."""
    queue: list[tuple[str | None, str]] = [(None, name) for name in configured]
    queue += [(path, name) for path in sorted(facts) for name in facts[path].plugins]
    if not queue:
        return ()
    index = ModuleIndex.build(facts)
    out: list[str] = []
    while queue:
        path, name = queue.pop(0)
        for found in index.paths(name, near=path):
            if found not in out:
                out.append(found)
                queue.extend((found, more) for more in facts[found].plugins)
    return tuple(out)


def fixture_uses(facts: Mapping[str, FileFacts], layout: TestLayout = DEFAULT_LAYOUT) -> Iterator[Use]:
    """(user id, parameter, fixture id, line of the user) for each fixture a function of a
    test file or a conftest uses: through a parameter named after a visible fixture, or
    without a value (``parameter`` None) through ``@pytest.mark.usefixtures`` on it or
    its class, or an ``autouse`` fixture it sees."""
    found = fixtures(facts)
    if not found:
        return
    autouse = _autouse(facts)
    overrides = _Overrides(facts, layout)
    plugins = plugin_files(facts, layout.plugins)
    for path in sorted(facts):
        if not layout.holds_tests(path) and path not in plugins:
            continue
        definitions = facts[path].definitions
        requested = _requested(definitions)
        for d in definitions:
            if d.signature is None:
                continue
            user = symbol_id(path, d.qualname)
            for p in d.signature.params:
                target = (overrides.inherited(path, d.parent, p.name, user)
                          or visible_fixture(found, path, p.name, user, plugins))
                if target is not None:
                    yield user, p.name, target, d.start_line
                    for other in overrides.of(d.parent, p.name, target):
                        yield user, p.name, other, d.start_line
            for name in requested.get(d.qualname, ()):
                target = visible_fixture(found, path, name, user, plugins)
                if target is not None:
                    yield user, None, target, d.start_line
            if d.name.startswith("test") and layout.holds_tests(path):
                for target in _autouse_seen(autouse, path, d.qualname, plugins):
                    yield user, None, target, d.start_line


class _Overrides:
    """Fixtures of test classes and their bases. A test class sees the fixtures its bases
    define (before its module's and the conftests'), and a test or fixture of a base
    class, run for a subclass (its tests are inherited), gets the subclass's fixture of a
    name it defines again. Classes are told by their names (test code imports its base
    classes by name), so that this stays a function of the facts."""

    def __init__(self, facts: Mapping[str, FileFacts], layout: TestLayout) -> None:
        self.children: dict[str, list[tuple[str, str]]] = defaultdict(list)  # base name -> (path, class)
        self.classes: dict[str, list[tuple[str, Definition]]] = defaultdict(list)  # class name -> (path, class)
        self.fixture_ids: dict[tuple[str, str, str], str] = {}  # (path, class, fixture name) -> id
        for path in sorted(facts):
            if not layout.holds_tests(path):
                continue
            for d in facts[path].definitions:
                if d.kind == "class":
                    self.classes[d.name].append((path, d))
                    for base in d.bases:
                        self.children[base.rpartition(".")[2]].append((path, d.qualname))
                elif is_fixture(d) and d.parent:
                    self.fixture_ids.setdefault((path, d.parent, fixture_name(d)), symbol_id(path, d.qualname))

    def inherited(self, path: str, owner: str, name: str, user: str) -> str | None:
        """The fixture ``name`` defined in the class ``owner`` of ``path`` or in one of its
        bases (nearest first), if any."""
        if not owner:
            return None
        queue: list[tuple[str, str]] = [(path, owner)]
        seen: set[tuple[str, str]] = set()
        while queue:
            where, qualname = queue.pop(0)
            if (where, qualname) in seen:
                continue
            seen.add((where, qualname))
            fixture = self.fixture_ids.get((where, qualname, name))
            if fixture is not None and fixture != user:
                return fixture
            definition = next((d for p, d in self.classes.get(qualname.rpartition("::")[2], ()) if p == where), None)
            for base in definition.bases if definition is not None else ():
                queue.extend((p, d.qualname) for p, d in self.classes.get(base.rpartition(".")[2], ()))
        return None

    def of(self, owner: str, name: str, seen: str) -> list[str]:
        """Fixtures ``name`` of the classes deriving from the class ``owner`` (a qualname)."""
        if not owner or not self.children:
            return []
        out: list[str] = []
        stack, visited = [owner.rpartition("::")[2]], set()
        while stack:
            base = stack.pop()
            if base in visited:
                continue
            visited.add(base)
            for path, qualname in self.children.get(base, ()):
                fixture = self.fixture_ids.get((path, qualname, name))
                if fixture is not None and fixture != seen and fixture not in out:
                    out.append(fixture)
                stack.append(qualname.rpartition("::")[2])
        return sorted(out)


def _requested(definitions: Sequence[Definition]) -> dict[str, list[str]]:
    """qualname -> fixtures its own ``usefixtures``, its classes' and its module's
    ``pytestmark`` ask for."""
    marked = {d.qualname: d.uses_fixtures for d in definitions if d.uses_fixtures}
    if not marked:
        return {}
    out: dict[str, list[str]] = {}
    for d in definitions:
        if not d.qualname:
            continue
        parts = d.qualname.split("::")
        # the module's own pytestmark first, then each enclosing class's, then its own
        names = [n for i in range(0, len(parts) + 1) for n in marked.get("::".join(parts[:i]), ())]
        if names:
            out[d.qualname] = names
    return out


def _autouse(facts: Mapping[str, FileFacts]) -> dict[str, list[tuple[str, str]]]:
    """file -> (class qualname or "", fixture id) of the autouse fixtures it defines or
    imports (an autouse fixture imported into a conftest runs for the tests below it)."""
    out: dict[str, list[tuple[str, str]]] = defaultdict(list)
    autouse: set[str] = set()
    for path in sorted(facts):
        for d in facts[path].definitions:
            if d.autouse and is_fixture(d):
                out[path].append((d.parent, symbol_id(path, d.qualname)))
                autouse.add(symbol_id(path, d.qualname))
    if autouse:
        for (path, _), fixture in sorted(imported_fixtures(facts).items()):
            if fixture in autouse and ("", fixture) not in out[path]:
                out[path].append(("", fixture))
    return out


def _autouse_seen(autouse: Mapping[str, list[tuple[str, str]]], path: str, qualname: str,
                  plugins: Sequence[str] = ()) -> Iterator[str]:
    """The autouse fixtures a test runs: its file's (its class's, for one in a class),
    those of every conftest up the tree and those of the plugins."""
    for owner, fixture in autouse.get(path, ()):
        if not owner or qualname.startswith(owner + "::"):
            yield fixture
    directory = dirname(path)
    while True:
        conftest = f"{directory}/conftest.py" if directory else "conftest.py"
        if conftest != path:
            yield from (fixture for owner, fixture in autouse.get(conftest, ()) if not owner)
        if not directory:
            break
        directory = dirname(directory)
    for plugin in plugins:
        if plugin != path:
            yield from (fixture for owner, fixture in autouse.get(plugin, ()) if not owner)


def pytest_flows(
    facts: Mapping[str, FileFacts], layout: TestLayout = DEFAULT_LAYOUT, uses: Sequence[Use] | None = None
) -> list[Flow]:
    """What pytest passes the parameters of tests and fixtures, as argument flows: the
    values of the fixtures they name (``uses``: ``fixture_uses`` already listed), the
    values ``parametrize`` lists for them, and outside values for the rest."""
    return fixture_flows(facts, layout, uses) + parametrize_flows(facts, layout) + outside_flows(facts, layout)


def outside_flows(facts: Mapping[str, FileFacts], layout: TestLayout = DEFAULT_LAYOUT) -> list[Flow]:
    """A parameter of a test or a fixture that no fixture of the repository is named
    after, and no ``parametrize`` lists, gets its value from outside: a plugin's
    fixture or pytest's own (``subtests``, ``tmp_path``, ``mocker``), a ``mock.patch``
    decorator's mock. Calls on it run outside code, rather than code not found.

    Parameters with a default or an annotation, ``request``, and ``self`` keep what
    they have; so do those of a test that a ``parametrize`` mark the extractor could not
    read may list, or a ``pytest_generate_tests`` hook anywhere may parametrize."""
    named = set(fixtures(facts))
    generated = any(d.name == "pytest_generate_tests" for f in facts.values() for d in f.definitions)
    out: list[Flow] = []
    for path in sorted(facts):
        if not layout.holds_tests(path):
            continue
        marked = {d.qualname for d in facts[path].definitions if any(_parametrizes(x) for x in d.decorators)}
        for d in facts[path].definitions:
            if d.signature is None or not _collected(d):
                continue
            if not is_fixture(d) and (generated or _marked_unread(d, marked)):
                continue
            listed = {param for param, _, _ in d.parametrized}
            user = symbol_id(path, d.qualname)
            for i, p in enumerate(d.signature.params):
                if (i == 0 and d.kind == "method") or p.kind not in ("positional", "keyword_only"):
                    continue
                if p.has_default or p.annotation or p.name in named or p.name in listed or p.name == "request":
                    continue
                out.append(((user, p.name), ("<outside>", user)))
    return out


def _parametrizes(decorator: str) -> bool:
    return _marker(decorator) == "parametrize"


def _marked_unread(d: Definition, marked: set[str]) -> bool:
    """Whether a ``parametrize`` mark on the test or its class may list parameters the
    extractor did not read (its values were not an expression it renders)."""
    own = sum(_parametrizes(x) for x in d.decorators)
    # each mark read gives its names `CASES[]` or `CASES[][k]`: one CASES per mark
    read = len({re.sub(r"\[\](\[\d+\])?$", "", value) for _, value, _ in d.parametrized})
    return own > read or bool(d.parent and d.parent in marked)


def _collected(d: Definition) -> bool:
    """A fixture, or a test pytest collects: ``test*`` in the module or in a class (any:
    ``python_classes`` may name other classes than ``Test*``)."""
    if is_fixture(d):
        return True
    return d.name.startswith("test") and (not d.parent or d.kind == "method")


def parametrize_flows(facts: Mapping[str, FileFacts], layout: TestLayout = DEFAULT_LAYOUT) -> list[Flow]:
    """``@pytest.mark.parametrize("cls", CLASSES)``: each element of CLASSES flows into ``cls``."""
    return [
        ((symbol_id(path, d.qualname), param), (value, symbol_id(path, scope)))
        for path in sorted(facts)
        if layout.holds_tests(path)
        for d in facts[path].definitions
        for param, value, scope in d.parametrized
    ]


def fixture_flows(
    facts: Mapping[str, FileFacts], layout: TestLayout = DEFAULT_LAYOUT, uses: Sequence[Use] | None = None
) -> list[Flow]:
    """The fixture values flowing into parameters, as argument flows."""
    return [
        ((user, param), (f"<fixture:{target}>", target))
        for user, param, target, _ in (fixture_uses(facts, layout) if uses is None else uses)
        if param is not None
    ]
