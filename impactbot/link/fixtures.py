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

Computed from the facts alone, so that a derived graph can tell the flows of the
old revision from those of the new one.
"""

from __future__ import annotations

import fnmatch
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from posixpath import basename, dirname

from impactbot.model import Definition, FileFacts, symbol_id

Flow = tuple[tuple[str, str], tuple[str | None, str]]  # (function id, parameter) <- (value, scope)
Use = tuple[str, str | None, str, int]  # (user id, parameter or None, fixture id, line of the user)


PYTEST_FILES = ("test_*.py", "*_test.py")  # pytest's default python_files


@dataclass(frozen=True)
class TestLayout:
    """Which files pytest collects tests from: its ``python_files`` globs, matched
    against a file's name (or the end of its path, for a glob holding a ``/``)."""

    __test__ = False  # not a test class, whatever pytest makes of its name

    python_files: tuple[str, ...] = PYTEST_FILES

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
        d.split("(")[0].rsplit(".", 1)[-1] == "fixture" for d in definition.decorators
    )


def fixture_name(definition: Definition) -> str:
    """The name tests ask for a fixture by: its function's, or ``name=``'s."""
    return definition.fixture_alias or definition.name


def fixtures(facts: Mapping[str, FileFacts]) -> dict[str, dict[str, str]]:
    """fixture name -> {defining file -> fixture id} (the first definition in a file)."""
    out: dict[str, dict[str, str]] = defaultdict(dict)
    for path in sorted(facts):
        for d in facts[path].definitions:
            if is_fixture(d):
                out[fixture_name(d)].setdefault(path, symbol_id(path, d.qualname))
    return out


def visible_fixture(found: Mapping[str, Mapping[str, str]], path: str, name: str, user: str) -> str | None:
    """The fixture ``name`` that a test or fixture ``user`` in ``path`` receives, if any:
    its own file's, else the nearest conftest's (a fixture never receives itself)."""
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
            return None
        directory = dirname(directory)


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
    for path in sorted(facts):
        if not layout.holds_tests(path):
            continue
        definitions = facts[path].definitions
        requested = _requested(definitions)
        for d in definitions:
            if d.signature is None:
                continue
            user = symbol_id(path, d.qualname)
            for p in d.signature.params:
                target = overrides.inherited(path, d.parent, p.name, user) or visible_fixture(found, path, p.name, user)
                if target is not None:
                    yield user, p.name, target, d.start_line
                    for other in overrides.of(d.parent, p.name, target):
                        yield user, p.name, other, d.start_line
            for name in requested.get(d.qualname, ()):
                target = visible_fixture(found, path, name, user)
                if target is not None:
                    yield user, None, target, d.start_line
            if d.name.startswith("test"):
                for target in _autouse_seen(autouse, path, d.qualname):
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
    """defining file -> (class qualname or "", fixture id) of its autouse fixtures."""
    out: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for path in sorted(facts):
        for d in facts[path].definitions:
            if d.autouse and is_fixture(d):
                out[path].append((d.parent, symbol_id(path, d.qualname)))
    return out


def _autouse_seen(autouse: Mapping[str, list[tuple[str, str]]], path: str, qualname: str) -> Iterator[str]:
    """The autouse fixtures a test runs: its file's (its class's, for one in a class) and
    those of every conftest up the tree."""
    for owner, fixture in autouse.get(path, ()):
        if not owner or qualname.startswith(owner + "::"):
            yield fixture
    directory = dirname(path)
    while True:
        conftest = f"{directory}/conftest.py" if directory else "conftest.py"
        if conftest != path:
            yield from (fixture for owner, fixture in autouse.get(conftest, ()) if not owner)
        if not directory:
            return
        directory = dirname(directory)


def pytest_flows(
    facts: Mapping[str, FileFacts], layout: TestLayout = DEFAULT_LAYOUT, uses: Sequence[Use] | None = None
) -> list[Flow]:
    """What pytest passes the parameters of tests and fixtures, as argument flows: the
    values of the fixtures they name (``uses``: ``fixture_uses`` already listed), and
    the values ``parametrize`` lists for them."""
    return fixture_flows(facts, layout, uses) + parametrize_flows(facts, layout)


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
