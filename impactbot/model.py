"""The plain data that flows between the stages of impactbot.

Every type here is a frozen dataclass of hashable parts (tuples, strings, ints),
so a value can be cached, compared in a test and passed to another process.
The order of the sections follows the flow in the design: git, extract, link,
diff, impact, rank, report.

Expressions in facts use a small string syntax (``expr``) so that the extractor
stays path- and repository-independent and the linker does all name resolution:

- ``foo``            a name
- ``a.b.c``          attribute access
- ``f()``            the result of calling ``f``; ``a.b().c`` and ``f()()`` chain
- ``x[]``            an element of ``x`` (subscript, iteration, unpacking)
- ``x["k"]``, ``x[0]`` the element under a constant str key or int index (``x[-1]`` too); as a
                     binding target, what a literal put there (see ``Binding``)
- ``d.get("k",e)``   a call keeping a constant first argument and a default (``d.get("k")``,
                     ``d.get(,e)`` for a computed key): read as a container, ``d["k"]`` or ``e``
- ``getattr(o,"m",e)`` ``getattr(o, "m", e)`` with a default: ``o.m`` or ``e`` (without one, it is ``o.m``)
- ``"text"``         a string literal (used for string annotations and ``__all__``)
- ``super(B,self)``  ``super(B, self)`` keeps its class (it may skip a level); other forms are ``super()``
- ``<property:g,s>`` ``property(g, s)`` assigned in a class body: reading the name runs g, assigning it s

An expression the syntax cannot express (a lambda, a literal, an arithmetic
result, ...) is ``None``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Literal

# --------------------------------------------------------------------------- git

FileStatus = Literal["added", "deleted", "modified", "renamed"]


@dataclass(frozen=True, slots=True)
class Revision:
    """One side of the comparison: a commit, or the working tree on top of HEAD.

    ``files`` maps every repository-relative posix path to its blob id (40 hex).
    For the working tree the ids are computed from the file contents without
    writing anything into the repository.
    """

    ref: str
    commit: str
    files: tuple[tuple[str, str], ...]
    worktree: bool = False

    def blob_of(self, path: str) -> str | None:
        return dict(self.files).get(path)


@dataclass(frozen=True, slots=True)
class FileChange:
    """A file whose content or path differs between base and head."""

    path: str
    old_path: str | None
    status: FileStatus
    old_blob: str | None
    new_blob: str | None


@dataclass(frozen=True, slots=True)
class ChangeSet:
    """What ``impactbot diff RANGE`` compares: merge base against head."""

    base: Revision
    head: Revision
    files: tuple[FileChange, ...]


# ------------------------------------------------------------------------ extract

SymbolKind = Literal["module", "class", "function", "method"]
ParamKind = Literal[
    "positional_only", "positional", "var_positional", "keyword_only", "var_keyword"
]


MAX_DEFAULT_SHOWN = 24  # a longer default renders as "…"


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    kind: ParamKind
    has_default: bool
    annotation: str | None = None  # source text, whitespace-normalised
    default: str | None = None  # the default's source text, whitespace-normalised


@dataclass(frozen=True, slots=True)
class Signature:
    params: tuple[Param, ...]
    returns: str | None = None  # return annotation source text

    def text(self) -> str:
        """Render like Python source: ``(a, /, b=…, *args, c, **kw) -> int``."""
        out = "(" + ", ".join(self.parts()) + ")"
        return out + (f" -> {self.returns}" if self.returns else "")

    def parts(self, longest_default: int | None = MAX_DEFAULT_SHOWN) -> list[str]:
        """Each parameter as written, and the ``*`` and ``/`` markers; a default longer
        than ``longest_default`` (None: no limit) as ``…``."""
        parts: list[str] = []
        seen_kwonly_marker = False
        for i, p in enumerate(self.params):
            if p.kind == "keyword_only" and not seen_kwonly_marker:
                if not any(q.kind == "var_positional" for q in self.params):
                    parts.append("*")
                seen_kwonly_marker = True
            prefix = {"var_positional": "*", "var_keyword": "**"}.get(p.kind, "")
            text = prefix + p.name
            if p.annotation:
                text += f": {p.annotation}"
            if p.has_default:
                short = p.default and (longest_default is None or len(p.default) <= longest_default)
                shown = p.default if short else "…"
                text += f" = {shown}" if p.annotation else f"={shown}"
            parts.append(text)
            nxt = self.params[i + 1] if i + 1 < len(self.params) else None
            if p.kind == "positional_only" and (nxt is None or nxt.kind != "positional_only"):
                parts.append("/")
        return parts


@dataclass(frozen=True, slots=True)
class DataclassFields:
    """The fields a dataclass declares in its own body, in order.

    The ``__init__`` of a dataclass inheriting from other dataclasses takes their
    fields first; the extractor sees one file only, so the linker, which knows
    the bases, builds that signature from these.
    """

    # each annotated name with the parameter __init__ takes for it; None where it takes
    # none (a ClassVar, a field(init=False)): a subclass redefining the name keeps its place
    fields: tuple[tuple[str, Param | None], ...]
    writes_init: bool  # the decorator writes this class's own __init__ (no init=False, no def __init__)


@dataclass(frozen=True, slots=True)
class Definition:
    """A module, class, function or method defined in one file.

    ``qualname`` joins the nesting with ``::`` (``Cart::total``); it is ``""``
    for the module itself. ``fingerprint`` hashes the symbol's own code with
    comments, formatting and nested definitions left out, so that two
    definitions with equal fingerprints behave the same.
    """

    qualname: str
    kind: SymbolKind
    start_line: int
    end_line: int
    fingerprint: str
    signature: Signature | None = None  # functions and methods only
    decorators: tuple[str, ...] = ()  # expr of each decorator, outermost first
    bases: tuple[str, ...] = ()  # expr of each class base
    is_async: bool = False
    # classes: the __init__ a decorator or base writes (dataclass, attrs, NamedTuple), without self
    generated_init: Signature | None = None
    # other signatures a call can meet: the name is defined again in a branch (if/else,
    # try/except) and either definition may be the one bound when the call runs
    variants: tuple[Signature, ...] = ()
    # dataclasses: the fields of their own body, for the __init__ of dataclasses inheriting them
    dataclass_fields: DataclassFields | None = None
    # the first definition of the name sits in an if/for/while/try/with/match block of its
    # scope: it may not run, so it never hides an earlier binding of the name
    conditional: bool = False
    metaclass: str | None = None  # classes: expr of the ``metaclass=`` keyword
    # pytest: the fixtures ``@pytest.mark.usefixtures("a", "b")`` asks for (no value is
    # passed), and whether a fixture is ``autouse=True`` (every test that sees it runs it)
    uses_fixtures: tuple[str, ...] = ()
    autouse: bool = False
    # ``@pytest.mark.parametrize``: (parameter, expr of what it gets, scope that expr is read in)
    parametrized: tuple[tuple[str, str, str], ...] = ()
    fixture_alias: str | None = None  # ``@pytest.fixture(name="db")``: the name tests ask for

    @property
    def name(self) -> str:
        return self.qualname.rsplit("::", 1)[-1]

    @property
    def parent(self) -> str:
        return self.qualname.rsplit("::", 1)[0] if "::" in self.qualname else ""


CallKind = Literal["call", "decorator", "operator", "attribute", "store", "raise"]


@dataclass(frozen=True, slots=True)
class CallSite:
    """One place where code in ``scope`` may run other code.

    ``kind`` is ``call`` for ``f(...)``, ``decorator`` for ``@d`` applied to a
    definition, ``operator`` for protocol methods implied by syntax (``a + b``
    gives callee ``a.__add__``, ``with x`` gives ``x.__enter__``), and
    ``attribute`` for an attribute read that is not called (it is a call only
    when it resolves to a property), ``store`` for an assigned attribute (a call
    only when it names a property: its setter runs), ``raise`` for ``raise E``
    without a call (a call only when ``E`` is a class: it is constructed). Calls in
    dead code are not emitted.
    """

    scope: str
    callee: str | None
    line: int
    kind: CallKind = "call"
    positional: int = 0
    keywords: tuple[str, ...] = ()
    star: bool = False  # f(*args)
    starstar: bool = False  # f(**kwargs)
    args: tuple[str | None, ...] = ()  # expr of each positional argument
    # (keyword, expr); keyword "**" for what `**x` unpacks into the call, "*" for `*x`
    # when it follows every positional argument (its elements take the positions after them)
    kwargs: tuple[tuple[str, str | None], ...] = ()


@dataclass(frozen=True, slots=True)
class Import:
    """``import a.b as c`` -> module "a.b", name None, alias "c", level 0.

    ``from ..x import y as z`` -> module "x", name "y", alias "z", level 2.
    ``from . import y`` -> module "", name "y", level 1. Star: name "*".
    ``type_only`` marks imports under ``if TYPE_CHECKING:``.
    """

    scope: str
    module: str
    name: str | None
    alias: str | None
    level: int
    line: int
    type_only: bool = False
    conditional: bool = False  # in a branch or loop of its scope, as for a Binding

    @property
    def bound_name(self) -> str:
        """The local name the import binds (``import a.b`` binds ``a``)."""
        if self.alias:
            return self.alias
        if self.name is not None:
            return self.name
        return self.module.split(".", 1)[0]


# "default": a parameter's default value, which Python evaluates where the def stands
BindingKind = Literal["assign", "annotation", "return", "global", "nonlocal", "for", "with", "except", "default"]


@dataclass(frozen=True, slots=True)
class Binding:
    """A name bound in ``scope``; the linker uses bindings to infer types.

    ``target`` is a name (``x``), an attribute of the first parameter
    (``self.repo``), an element (``handlers[]``) or ``<return>`` for a return
    value. ``value`` is an expr: for an annotation ``x: Repo`` the value is
    ``Repo()`` (an instance), for ``x = make()`` it is ``make()``.

    A keyed element (``ops["a"]``, ``fs[0]``, ``cfg["h"]["on"]``, ``<return>[1]``) is
    bound besides the bag (``ops[]``) only for a literal the file never changes but
    through constant-key stores, and for a function whose every return is a tuple
    literal; a key it has no binding for is not in that literal.
    """

    scope: str
    target: str
    value: str | None
    line: int
    kind: BindingKind = "assign"
    # an assignment inside an if/for/while/try/with/match block of its function, class
    # body or module: it may not run, so it never hides an earlier assignment of the same name
    conditional: bool = False


@dataclass(frozen=True, slots=True)
class Narrowing:
    """``isinstance(name, C)`` known to hold in ``scope`` from line ``start`` to ``end``:
    the body of ``if isinstance(...)`` (also as the first operand of ``and``), the rest of
    the block after ``assert isinstance(...)``, or after ``if not isinstance(...)`` whose
    body always leaves. ``classes`` are the exprs of ``C`` (several for a tuple)."""

    scope: str
    name: str
    classes: tuple[str, ...]
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Route:
    """A URL pattern a web framework maps to a handler: ``@app.get("/items/{id}")`` on a
    function (Flask, FastAPI, Starlette, aiohttp, ...), a route registered by a call
    (``app.router.add_get("/items/{id}", item)``, ``web.get(...)``, ``Route("/items/{id}",
    item)``: kind "path", the handler an expr), ``path("items/<int:pk>/",
    views.item, name="item")`` in a Django URLconf, or ``router.register("items",
    ItemViewSet, basename="item")`` (Django REST framework: a list and a detail URL, and
    an ``@action`` of the viewset: its path, under the viewset's);
    or a mount, which puts its pattern before every route of what it names
    (``path("shop/", include("shop.urls"))``, ``re_path(r"^api/", include(router.urls))``,
    ``app.include_router(items.router, prefix="/items")``, ``app.register_blueprint(bp,
    url_prefix="/admin")``, ``Mount("/api", routes=api)``, ``app.add_subapp("/admin/",
    admin)``, or a Flask blueprint's own ``url_prefix`` (``mount-default``: where it is
    served unless registered under another): the handler is the expr of what is mounted, or
    ``module:<dotted name>`` for a URLconf named by a string);
    or a command of a command-line app (``@cli.command()``: its name is the pattern), a
    Django management command (``app/management/commands/<name>.py``), or what runs for
    every request: a hook (``@app.before_request``) or a middleware class (a dotted path
    in Django's ``MIDDLEWARE``: pattern and handler)."""

    scope: str  # where it is declared (the decorated function's scope, the URLconf's)
    pattern: str  # as written: "/items/{id}", "items/<int:pk>/", "^items/(?P<pk>[0-9]+)/$"
    handler: str  # "decorator": the decorated function's qualname; else the view's (or viewset's) expr
    line: int
    kind: Literal["decorator", "path", "regex", "viewset", "action", "command", "management", "hook", "middleware",
                  "mount", "mount-regex", "mount-default"]
    methods: tuple[str, ...] = ()  # the HTTP methods it answers; () for any
    name: str | None = None  # ``name=`` (a viewset's ``basename=``): what ``reverse()`` asks for; a mount's namespace
    # the name holding the route: a decorator's receiver (``router``, ``app``, ``bp``), the
    # list a URLconf route is in (``urlpatterns``), a viewset's router, the app a call
    # registers it with (``app.router.add_get``: ``app``); a route in a list written inline
    # (``include([...])``, ``Mount("/api", routes=[...])``) is held by ``<inline:LINE:COLUMN>``
    owner: str | None = None


@dataclass(frozen=True, slots=True)
class Request:
    """A test client's request: ``client.get("/items/1")``, ``self.client.post(url)``
    with ``url = reverse("item", ...)`` or ``url_for("item")``; or a CLI runner's
    invocation of a command (``runner.invoke(cli, ["build"])``: method ``CLI``) or
    ``call_command("import_data")`` (method ``COMMAND``)."""

    scope: str
    line: int
    method: str  # "GET", "POST", ...; "CLI" for a command invoked by name, "COMMAND" for call_command
    path: str | None  # the literal path; "\x00" stands where an f-string interpolates
    name: str | None = None  # the route name or endpoint ``reverse``/``url_for`` asks for


@dataclass(frozen=True, slots=True)
class Receiver:
    """A function connected to a signal: ``@receiver(post_save, sender=Order)`` on it, or
    ``order_paid.connect(notify)`` (Django's dispatch, and signals shaped like it)."""

    scope: str  # where it is connected (the decorated function's scope, the call's)
    signal: str  # expr of the signal: "post_save", "signals.order_paid"
    handler: str  # the decorated function's qualname, or the expr ``connect`` is given
    line: int
    decorated: bool
    sender: str | None = None  # expr of ``sender=``


@dataclass(frozen=True, slots=True)
class FileFacts:
    """Everything impactbot needs from one blob; depends only on its bytes."""

    language: str
    definitions: tuple[Definition, ...]
    calls: tuple[CallSite, ...]
    imports: tuple[Import, ...]
    bindings: tuple[Binding, ...] = ()
    all_names: tuple[str, ...] | None = None  # __all__, when statically known
    error: str | None = None  # set when the blob could not be parsed cleanly
    narrowings: tuple[Narrowing, ...] = ()
    # (first line, last line) of the with blocks that expect an exception
    # (``with pytest.raises(E):``, ``with self.assertRaises(E):``): calls there may fail on purpose
    expected_errors: tuple[tuple[int, int], ...] = ()
    routes: tuple[Route, ...] = ()  # URL patterns it declares
    requests: tuple[Request, ...] = ()  # requests its test clients make
    receivers: tuple[Receiver, ...] = ()  # functions it connects to signals
    plugins: tuple[str, ...] = ()  # modules its `pytest_plugins` names (a conftest's, a test module's)
    # (scope, first line, last line) of each lambda: its body runs when it is called, not where it stands
    lambdas: tuple[tuple[str, int, int], ...] = ()
    # (scope, first line, last line) of each for and while statement: an assignment later in
    # its body can reach an earlier line of it, but no line before the loop
    loops: tuple[tuple[str, int, int], ...] = ()
    # ``from __future__ import annotations``: no annotation of the file is evaluated
    postponed_annotations: bool = False
    # (line, callee) of each call whose value is dropped (a statement of its own)
    discarded: tuple[tuple[int, str], ...] = ()
    awaited: tuple[tuple[int, str], ...] = ()  # (line, callee) of each call whose value is awaited
    # (scope, object, attribute, first line, last line) of each body under ``if hasattr(obj,
    # "name"):``: code there runs only on an object that has the attribute
    probes: tuple[tuple[str, str, str, int, int], ...] = ()
    # the blob was not read (too large, binary, a Git LFS pointer): only the module is
    # known, and nothing about what it binds; the file is there, not gone
    unread: bool = False

    def definition(self, qualname: str) -> Definition | None:
        for d in self.definitions:
            if d.qualname == qualname:
                return d
        return None


# --------------------------------------------------------------------------- link

EdgeKind = Literal["calls", "inherits", "overrides", "uses_fixture", "requests", "signals", "defines", "runs_lambda"]
Confidence = Literal["resolved", "inferred", "name_match"]
CONFIDENCE_ORDER: dict[str, int] = {"resolved": 0, "inferred": 1, "name_match": 2}


def fits(name: str, prefix: str, suffix: str) -> bool:
    """Whether an attribute ``name`` fits ``prefix*suffix``, the pattern a computed name
    gives (``getattr(self, "visit_" + kind)``: ``visit_*``)."""
    return (
        len(name) > len(prefix) + len(suffix) and name.startswith(prefix) and name.endswith(suffix)
        and name.isidentifier()
    )


def symbol_id(path: str, qualname: str) -> str:
    """``pkg/a.py`` + ``Cart::total`` -> ``pkg/a.py::Cart::total``."""
    # Interned: a link builds the same id again at every site of a scope and keeps
    # them in its memos (half a million live copies on Django's full source).
    return sys.intern(f"{path}::{qualname}") if qualname else path


@dataclass(frozen=True, slots=True)
class Symbol:
    """A definition placed at a path: a node of the graph."""

    id: str
    path: str
    qualname: str
    kind: SymbolKind
    line: int
    end_line: int
    fingerprint: str
    language: str
    signature: Signature | None = None
    is_test: bool = False
    variants: tuple[Signature, ...] = ()  # see Definition.variants: a call fitting one of them may be right
    is_async: bool = False  # an ``async def``: calling it makes a coroutine


@dataclass(frozen=True, slots=True)
class Edge:
    """``source`` depends on ``target`` (a CALLS edge points caller -> callee)."""

    source: str
    target: str
    kind: EdgeKind
    confidence: Confidence
    lines: tuple[int, ...] = ()  # call-site lines in the source's file


@dataclass(frozen=True, slots=True)
class ResolvedCall:
    """A call site matched to its target, kept for signature checks."""

    caller: str
    target: str
    line: int
    site: CallSite
    bound: bool  # the call passes the receiver implicitly (obj.method())
    # one of the methods a computed name may pick (`getattr(self, "visit_" + kind)(node)`):
    # it may never be called from there, so its arguments are not checked
    guess: bool = False


@dataclass(frozen=True, slots=True)
class LinkedGraph:
    """The linked graph of one revision, in a form that can be cached."""

    symbols: tuple[Symbol, ...]
    edges: tuple[Edge, ...]
    unresolved: tuple[tuple[str, int], ...]  # (symbol id, unresolved call count)
    calls: tuple[ResolvedCall, ...] = ()
    dangling: tuple[tuple[str, str, int], ...] = ()  # (caller id, callee expr, line)
    # the time budget ran out while linking: the call sites not resolved by then count as
    # unresolved (a graph cut short is never cached)
    cut_short: bool = False


# --------------------------------------------------------------------------- diff

ChangeKind = Literal["added", "modified", "removed", "renamed"]
AsyncTurn = Literal["now_async", "no_longer_async"]


@dataclass(frozen=True, slots=True)
class ChangedSymbol:
    symbol: Symbol  # head symbol; base symbol for "removed"
    change: ChangeKind
    signature_changed: bool = False
    old_id: str | None = None  # for "renamed": the id in base
    old_signature: Signature | None = None
    # for a module or class: the names its own code binds differently (`TIMEOUT = 30` -> 60)
    names: tuple[str, ...] = ()
    # a def turned ``async def`` or back: every caller now gets something else
    async_turn: AsyncTurn | None = None


@dataclass(frozen=True, slots=True)
class NameRead:
    """``reader`` (a symbol id) reads ``name`` as bound by ``owner``: a module (its id is
    its path) for a module-level name, a class for a class-level one."""

    reader: str
    owner: str
    name: str
    line: int
    through_class: bool = False  # read as ``Class.NAME``: only the class (or a base) can bind it


# ------------------------------------------------------------------------- impact


@dataclass(frozen=True, slots=True)
class Impacted:
    symbol: Symbol
    depth: int
    paths: tuple[tuple[str, ...], ...]  # each from this symbol down to a changed one
    confidence: Confidence = "resolved"  # weakest edge on the best path


@dataclass(frozen=True, slots=True)
class Hub:
    id: str
    callers: int


@dataclass(frozen=True, slots=True)
class Breaking:
    target: str
    caller: str
    file: str
    line: int
    reason: str


@dataclass(frozen=True, slots=True)
class Impact:
    """The outcome of the reverse walk from the changed set."""

    impacted: tuple[Impacted, ...]
    tests: tuple[str, ...]
    hubs: tuple[Hub, ...]
    depth_limit_hit: bool
    breaking: tuple[Breaking, ...]
    unresolved_calls: int


# --------------------------------------------------------------------------- rank


@dataclass(frozen=True, slots=True)
class Ranked:
    impacted: Impacted
    score: float


# ------------------------------------------------------------------------- report

SCHEMA = "impactbot/impact-report@1"


@dataclass(frozen=True, slots=True)
class SkippedFile:
    path: str
    reason: Literal["parse-error", "binary", "too-large", "excluded"]
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Stats:
    files_parsed: int
    files_cached: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Report:
    """The one object every output renders (json, markdown, text)."""

    base: Revision
    head: Revision
    changed: tuple[ChangedSymbol, ...]
    impacted: tuple[Ranked, ...]
    tests: tuple[str, ...]
    breaking: tuple[Breaking, ...]
    hubs: tuple[Hub, ...]
    depth_limit_hit: bool
    omitted: int
    unresolved_calls: int
    stats: Stats
    status: Literal["complete", "partial"] = "complete"
    partial_reason: str | None = None
    run_all_tests: str | None = None  # reason, when any test may be affected
    skipped: tuple[SkippedFile, ...] = ()
    ranking: Literal["structural", "semantic"] = "structural"
    notes: tuple[str, ...] = field(default=())
