"""``requests`` edges: a test client's request -> the handler of each route it matches
(and a CLI runner's invocation -> each command it names, ``call_command("name")`` ->
that Django management command's ``handle``).

``client.get("/orders/5")`` runs the view serving ``/orders/<int:order_id>``; a test
that asks for ``reverse("order-detail")`` or ``url_for("show_order")`` runs the view
of that name. A route's pattern is what its router or blueprint (same file) and the
mounts above it put before its own: ``include()`` in Django URLconfs (a module by name
or expr, a REST framework router's ``urls``, a list), ``include_router(prefix=)``,
``register_blueprint(url_prefix=)``, Starlette's ``Mount``, aiohttp's ``add_subapp``,
through every level (see :class:`_Mounts`). Where the top of that chain is mounted is
not known (a root URLconf, an app served under a path), so routes are matched by their
last segments: a request matches every route whose pattern ends its path (more tests
selected, not fewer); a pattern of parameters alone matches only a path of its own
length, and a request matching a route of its own file or function (a test defining
its app) only those. What a test module declares (its app, at its top or in a
fixture) serves only its own requests, what a test function declares only that
test's (see ``_visible``). Every HTTP request also runs the middleware and request
hooks (see ``route_edges``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from impactbot.link.fixtures import DEFAULT_LAYOUT, TestLayout
from impactbot.link.python import Resolver
from impactbot.model import FileFacts, Request, Route, symbol_id

# `<int:pk>`, `<name>` (Flask, Django), `{item_id}`, `{rest:path}` (FastAPI, Starlette, aiohttp)
_PARAMETER = re.compile(r"<[^<>]*>|\{[^{}]*\}")
_FILLER = "1"  # what stands for an f-string's interpolation: fits `[0-9]+` and `[^/]+` alike
# requests and routes of the same kind meet: HTTP (the rest), command-line words, call_command
_KINDS = {"CLI": "cli", "command": "cli", "COMMAND": "management", "management": "management"}
# a Django management command: `<app>/management/commands/<name>.py` defining `Command`
_MANAGEMENT = re.compile(r"(?:^|/)management/commands/([A-Za-z0-9][\w-]*)\.py$")


@dataclass(frozen=True)
class _Handler:
    """One route: how to match a request's path, and the code it runs."""

    matcher: re.Pattern[str] | None  # None: the root ("/", "") only
    literal: int  # how many of its segments have text of their own (`/{id}`, `^(?P<url>.*)$`: none)
    methods: tuple[str, ...]
    name: str | None  # reverse()'s name, or url_for()'s endpoint (a function's name)
    path: str  # the file declaring the route
    route: Route
    level: str = ""  # a viewset's "list" or "detail" URL

    def matches(self, request: Request) -> bool:
        if _KINDS.get(request.method, "") != _KINDS.get(self.route.kind, ""):
            return False  # a URL, a command-line word and a management command are apart
        if self.route.kind in ("command", "management"):
            return request.name is not None and self.name == _command_name(request.name)
        if self.methods and request.method not in self.methods and not (
            request.method == "HEAD" and "GET" in self.methods
        ):
            return False
        if request.name is not None:
            return self.name is not None and _bare(self.name) == _bare(request.name)
        if request.path is None:
            return False
        path = request.path.strip("/").replace("\x00", _FILLER)
        return path == "" if self.matcher is None else self.matcher.search(path) is not None


def route_edges(
    facts: Mapping[str, FileFacts], resolver: Resolver, layout: TestLayout = DEFAULT_LAYOUT
) -> Iterator[tuple[str, str, int]]:
    """(request's scope id, handler id, line) for every request matching a route."""
    routes = [(path, r) for path in sorted(facts) for r in (*facts[path].routes, *_management(path, facts[path]))]
    everywhere = [(path, r) for path, r in routes if r.kind in ("hook", "middleware")]
    mounts = _Mounts(routes, resolver)
    routes = [(path, placed) for path, r in routes for placed in mounts.placed(path, r)]
    handlers = [h for path, r in routes if r.kind not in _NOT_SERVED for h in _handlers(path, r)]
    handlers += _action_handlers(routes, resolver)
    if not handlers and not everywhere:
        return
    # what runs for every request: hooks and middleware. Which app a request goes to is not
    # known: hooks of a file declaring routes (an app module, a test module with its own
    # app, an app factory's) run for the requests matching one of them, hooks of a file
    # declaring none (Django's settings) for every request, a hook a test declares for that
    # test's requests, and one a test module declares (a fixture's app) for that module's.
    route_files = {h.path for h in handlers}
    always: list[str] = []
    by_file: dict[str, list[str]] = defaultdict(list)
    local: dict[tuple[str, str], list[str]] = defaultdict(list)
    in_tests: dict[str, list[str]] = defaultdict(list)
    for path, r in everywhere:
        scope = resolver.scopes.get(symbol_id(path, r.scope))
        runs = _everywhere_targets(path, r, resolver)
        if scope is not None and scope.kind in ("function", "method") and _in_test(r.scope):
            local[(path, r.scope)] += runs
        elif layout.holds_tests(path):
            in_tests[path] += runs  # a test module's app: for the requests of that module
        elif path in route_files:
            by_file[path] += runs
        else:
            always += runs
    index = _Index(handlers)
    targets: dict[tuple[str, str, str, str, str], list[str]] = {}
    for path in sorted(facts):
        for request in facts[path].requests:
            source = symbol_id(path, request.scope)
            found = index.candidates(request)
            matched = [h for h in found if h.matches(request) and _visible(h, path, request, resolver, layout)]
            if any(h.path == path for h in matched):  # a test module's own app (framework suites)
                matched = [h for h in matched if h.path == path]
            if any(h.route.scope == request.scope for h in matched):  # or the test's own app
                matched = [h for h in matched if h.route.scope == request.scope]
            if request.path is not None and matched:
                # the most specific routes: a catch-all serves only what nothing else does, and
                # `orders/recent/` is the action, not the order whose key is "recent"
                best = max(h.literal for h in matched)
                matched = [h for h in matched if h.literal == best]
            hooked = [t for f in {h.path for h in matched} for t in by_file.get(f, ())]
            tested = [t for f, runs in in_tests.items() if _serves(f, path) for t in runs]
            run = [*always, *hooked, *local.get((path, request.scope), ()), *tested] if request.method not in _KINDS \
                else []
            for target in sorted(set(run)):
                yield source, target, request.line
            for handler in matched:
                route = handler.route  # what it runs: the same under each prefix, apart on one line
                key = (handler.path, route.scope, route.handler, route.kind, request.method + handler.level)
                if key not in targets:
                    targets[key] = _targets(handler, request.method, resolver)
                for target in targets[key]:
                    yield source, target, request.line


# routes that serve no request themselves: run for all of them, put others under a prefix,
# or (a viewset's actions) served through the viewset's registration
_MOUNTS = frozenset({"mount", "mount-regex", "mount-default"})
_NOT_SERVED = frozenset({"hook", "middleware", "action"}) | _MOUNTS
# mounted routes get a handler per prefix their holder is mounted under, up to this many
MAX_PREFIXES = 8


class _Mounts:
    """Where each holder of routes is mounted: ``path("shop/", include("shop.urls"))`` puts
    ``shop/`` before every route of ``shop.urls``'s ``urlpatterns``, and an app including
    a router puts the mount's prefix before the router's (through every level). A holder
    nothing mounts keeps its routes' patterns as written."""

    def __init__(self, routes: list[tuple[str, Route]], resolver: Resolver) -> None:
        self.resolver = resolver
        self.into: dict[str, list[tuple[str, Route]]] = defaultdict(list)  # holder -> mounts of it
        self.memo: dict[str, list[tuple[tuple[Route, ...], str | None]]] = {}
        for path, r in routes:
            if r.kind in _MOUNTS:
                target = self._target(path, r)
                if target is not None:
                    self.into[target].append((path, r))
        for target, mounts in self.into.items():
            # a blueprint registered under a prefix is served there, not under its own
            if any(m.kind != "mount-default" and m.pattern.strip("/") for _, m in mounts):
                self.into[target] = [(p, m) for p, m in mounts if m.kind != "mount-default"]

    def placed(self, path: str, route: Route) -> list[Route]:
        """The route under each prefix its holder is mounted with (as written when none)."""
        if route.kind not in ("decorator", "path", "regex", "viewset") or not self.into:
            return [route]
        out = [_under(prefix, route, namespace) for prefix, namespace in self.prefixes(self.holder(path, route))]
        return list(dict.fromkeys(r for r in out if r is not None)) or [route]

    def holder(self, path: str, route: Route) -> str | None:
        """The dotted name of what holds ``route`` (``shop.urls.urlpatterns``, ``app.api.router``)."""
        if route.owner is None:
            return None
        if route.owner.startswith("<inline:"):
            return path + route.owner
        return self._named(route.owner, symbol_id(path, route.scope))

    def _named(self, expr: str, scope: str) -> str | None:
        """A module-level name's dotted name; a function's own name (an app a factory
        builds) is that function's."""
        dotted = self.resolver.global_name(expr, scope)
        return dotted if dotted is not None or scope not in self.resolver.scopes else f"{scope}#{expr}"

    def prefixes(self, holder: str | None, seen: frozenset[str] = frozenset()) -> list[
            tuple[tuple[Route, ...], str | None]]:
        """The chains of mounts (outermost first) putting ``holder``'s routes in place, each
        with the namespace the innermost one naming one gives."""
        if holder is None or holder in seen or holder not in self.into:
            return [((), None)]
        if holder in self.memo:
            return self.memo[holder]
        out: list[tuple[tuple[Route, ...], str | None]] = []
        for path, mount in self.into[holder]:
            for chain, namespace in self.prefixes(self.holder(path, mount), seen | {holder}):
                out.append(((*chain, mount), mount.name or namespace))
        self.memo[holder] = out[:MAX_PREFIXES]
        return self.memo[holder]

    def _target(self, path: str, mount: Route) -> str | None:
        """The holder a mount names: a URLconf module's ``urlpatterns``, a router, a list."""
        handler, modules = mount.handler, self.resolver.modules
        if handler.startswith("module:"):
            module = handler.removeprefix("module:")
            return f"{module}.urlpatterns" if modules.is_module(module) else None
        if handler.startswith("<inline:"):
            return path + handler
        dotted = self._named(handler, symbol_id(path, mount.scope))
        if dotted is None:
            return None
        if modules.is_module(dotted):
            return f"{dotted}.urlpatterns"
        return dotted.removesuffix(".urls") if handler.endswith(".urls") else dotted


def _under(chain: tuple[Route, ...], route: Route, namespace: str | None) -> Route | None:
    """``route`` with the patterns of ``chain`` before its own (None when they cannot be
    put together: a viewset's URLs under a prefix that is no plain path)."""
    if not chain:
        return route
    name = route.name
    if namespace and name and ":" not in name:
        name = f"{namespace}:{name}"
    regex = [m.kind == "mount-regex" for m in chain]
    if not any(regex) and route.kind != "regex":
        pattern = "/".join(p for p in (m.pattern.strip("/") for m in (*chain, route)) if p)
        return replace(route, pattern="/" + pattern if route.kind == "decorator" else pattern, name=name)
    if route.kind == "viewset":
        plain = [_plain(m.pattern) if r else m.pattern for m, r in zip(chain, regex, strict=True)]
        if any(p is None for p in plain):
            return None
        pattern = "/".join(p.strip("/") for p in (*plain, route.pattern) if p and p.strip("/"))
        return replace(route, pattern=pattern, name=name)
    bodies = [_regex_body(m.pattern, r) for m, r in zip(chain, regex, strict=True)]
    own = _regex_body(route.pattern, route.kind == "regex")
    ends = route.kind != "regex" or (route.pattern.endswith("$") and not route.pattern.endswith("\\$"))
    pattern = "^" + "/".join(b for b in (*bodies, own) if b) + ("$" if ends else "")
    return replace(route, pattern=pattern, kind="regex", name=name)


def _regex_body(pattern: str, regex: bool) -> str:
    """A pattern as a regex without anchors or slashes around it."""
    if regex:
        body = pattern.removeprefix("^")
        body = body[:-1] if body.endswith("$") and not body.endswith("\\$") else body
        return body.strip("/")
    parts = _PARAMETER.split(pattern.strip("/"))
    return "".join(re.escape(p) + ("[^/]+" if i < len(parts) - 1 else "") for i, p in enumerate(parts))


def _plain(pattern: str) -> str | None:
    """A regex prefix that is only text (``^api/``) as that text; None for any other."""
    body = pattern.removeprefix("^").removesuffix("$")
    return body if re.fullmatch(r"[\w/.-]*", body) else None


def _bare(name: str) -> str:
    """``shop:order-detail`` -> ``order-detail``; ``bp.show`` (a Flask endpoint) -> ``show``."""
    return name.rpartition(":")[2].rpartition(".")[2]


def _namespace(name: str) -> str:
    """``admin:index`` -> ``admin``; ``a:b:name`` -> ``b`` (the innermost); ``name`` -> ``""``."""
    return name.rpartition(":")[0].rpartition(":")[2]


class _Index:
    """Handlers by what a request must hold to match them: a route's name, or the last
    segment of its pattern without a parameter (a request's path holds that segment
    whole). Regexes and patterns of parameters alone are tried for every path: a web
    project's thousands of test requests would otherwise try its thousands of routes."""

    def __init__(self, handlers: list[_Handler]) -> None:
        self.by_name: dict[str, list[_Handler]] = defaultdict(list)
        self.by_segment: dict[str, list[_Handler]] = defaultdict(list)
        self.always: list[_Handler] = []
        self.namespaces = {_namespace(h.name) for h in handlers if h.name and _namespace(h.name)}
        for h in handlers:
            if h.name is not None:
                self.by_name[_bare(h.name) if h.route.kind not in ("command", "management") else h.name].append(h)
            if h.route.kind in ("command", "management"):
                continue
            segment = _last_literal_segment(h.route)
            (self.by_segment[segment] if segment else self.always).append(h)

    def candidates(self, request: Request) -> list[_Handler]:
        if request.name is not None:
            if request.method in ("CLI", "COMMAND"):
                return self.by_name.get(_command_name(request.name), [])
            # `reverse("shop:detail")` asks the URLconf whose app_name is shop; a namespace
            # no URLconf of the repository declares (`admin:index`) is an outside app's
            namespace = _namespace(request.name)
            found = self.by_name.get(_bare(request.name), [])
            if not self.namespaces:  # no URLconf declares one: names cannot be told apart by it
                return found
            if namespace and namespace not in self.namespaces:
                return []
            return [h for h in found if _namespace(h.name or "") == namespace]
        if request.path is None:
            return []
        segments = sorted(set(request.path.strip("/").split("/")))
        return self.always + [h for segment in segments for h in self.by_segment.get(segment, ())]


def _last_literal_segment(route: Route) -> str | None:
    if route.kind == "regex":
        return None
    segments = [p for p in route.pattern.strip("/").split("/") if p and not _PARAMETER.search(p)]
    return segments[-1] if segments else None


# what a middleware class runs for a request (Django's, Starlette's)
_MIDDLEWARE_METHODS = ("__call__", "process_request", "process_view", "process_response", "process_exception",
                       "process_template_response", "dispatch")


def _everywhere_targets(path: str, route: Route, resolver: Resolver) -> list[str]:
    """A hook function, or the methods of a middleware class a dotted path names."""
    if route.kind == "hook":
        sid = symbol_id(path, route.handler)
        return [sid] if sid in resolver.scopes else []
    module, name = route.pattern, ""
    while module and not resolver.modules.is_module(module):
        module, _, last = module.rpartition(".")
        name = f"{last}.{name}" if name else last
    paths = resolver.modules.paths(module, path) if module and name else []
    cls = symbol_id(paths[0], name.replace(".", "::")) if paths else None
    if cls is None or cls not in resolver.scopes or resolver.scopes[cls].kind != "class":
        return []
    methods = [v[1] for m in _MIDDLEWARE_METHODS for v in (resolver.class_member(cls, m) or ({}, None))[0]
               if v[0] == "S" and v[1].startswith(cls + "::")]
    return methods or [cls]


def _management(path: str, facts: FileFacts) -> list[Route]:
    """The management command a file under ``management/commands/`` defines, if it does."""
    found = _MANAGEMENT.search(path)
    command = facts.definition("Command") if found else None
    if found is None or command is None or command.kind != "class":
        return []
    handle = facts.definition("Command::handle")
    return [Route("", found.group(1), "Command::handle" if handle else "Command", command.start_line, "management")]


def _action_handlers(routes: list[tuple[str, Route]], resolver: Resolver) -> list[_Handler]:
    """The ``@action`` routes of each registered viewset (its class or a base's): the
    viewset's prefix before the action's path, ``<basename>-<url_name>`` its name."""
    by_class: dict[str, list[tuple[str, Route]]] = defaultdict(list)
    for path, r in routes:
        if r.kind == "action":
            by_class[symbol_id(path, r.scope)].append((path, r))
    out: list[_Handler] = []
    for path, viewset in routes if by_class else ():
        if viewset.kind != "viewset":
            continue
        found = resolver.resolve(viewset.handler, symbol_id(path, viewset.scope)) or {}
        for cls in sorted(v[1] for v in found if v[0] == "S"):
            owners = dict.fromkeys(c for mro in resolver.mro_alternatives(cls) for c in mro if not c.startswith("X:"))
            for owner in owners:
                for action_path, action in by_class.get(owner, ()):
                    name = f"{viewset.name}-{action.name}" if viewset.name and action.name else None
                    route = Route(viewset.scope, f"{viewset.pattern.strip('/')}/{action.pattern}", action.handler,
                                  action.line, "action", action.methods, name)
                    _, matcher = _matcher(route)
                    out.append(_Handler(matcher, _literal(route), action.methods, name, action_path, route))
    return out


def _visible(handler: _Handler, path: str, request: Request, resolver: Resolver, layout: TestLayout) -> bool:
    """A route declared inside a test function (a test defining its own app or command)
    is seen only by requests made in that function; one a test module declares (at its
    top, in a fixture or a helper), by that module's requests (a conftest's: by those of
    its directory); any other (an app module's, an app factory's), by all."""
    route_scope = handler.route.scope
    scope = resolver.scopes.get(symbol_id(handler.path, route_scope))
    if scope is not None and scope.kind in ("function", "method") and _in_test(route_scope):
        return handler.path == path and (request.scope + "::").startswith(route_scope + "::")
    return not layout.holds_tests(handler.path) or _serves(handler.path, path)


def _serves(tests: str, path: str) -> bool:
    """Whether what a test module declares serves the requests of ``path``: its own (a
    conftest's: those of its directory)."""
    folder, _, name = tests.rpartition("/")
    return path == tests or (name == "conftest.py" and (not folder or path.startswith(folder + "/")))


def _in_test(scope: str) -> bool:
    """Whether a scope is (in) a test function or a test class's method."""
    return any(part.startswith(("test", "Test")) for part in scope.split("::"))


def _command_name(name: str) -> str:
    """A command's name as a CLI calls it: click and typer turn ``_`` into ``-`` (and
    click drops a ``_command``/``_cmd``/``_group``/``_grp`` suffix of a function's name)."""
    name = name.lower().replace("_", "-")
    for suffix in ("-command", "-cmd", "-group", "-grp"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def _handlers(path: str, route: Route) -> list[_Handler]:
    if route.kind in ("command", "management"):
        return [_Handler(None, 1, (), _command_name(route.pattern), path, route)]
    if route.kind == "viewset":  # `orders/` lists and creates, `orders/<pk>/` the rest
        body = re.escape(route.pattern.strip("/"))
        if not body:
            return []
        return [
            _Handler(re.compile(rf"(?:^|/){body}{tail}/?$"), _literal(route), (),
                     f"{route.name}-{level}" if route.name else None, path, route, level)
            for level, tail in (("list", ""), ("detail", "/[^/]+"))
        ]
    readable, matcher = _matcher(route)
    if not readable:
        return []
    name = route.name if route.kind != "decorator" else route.handler.rpartition("::")[2]
    return [_Handler(matcher, _literal(route), route.methods, name, path, route)]


def _literal(route: Route) -> int:
    """How many segments of a pattern have text of their own outside its parameters
    (groups, classes and escapes of a regex are parameters)."""
    if route.kind != "regex":
        return sum(1 for segment in route.pattern.split("/") if _PARAMETER.sub("", segment))
    text = re.sub(r"\\.|\[[^\]]*\]", "", route.pattern)
    while True:
        stripped = re.sub(r"\([^()]*\)", "", text)
        if stripped == text:
            break
        text = stripped
    return sum(1 for segment in text.split("/") if any(c.isalnum() for c in segment))


def _matcher(route: Route) -> tuple[bool, re.Pattern[str] | None]:
    """Whether the pattern can be read and, if so, a regex searched in a request's path
    (no slashes around it) that ends with the route's pattern (None: the root only)."""
    if route.kind == "regex":
        body = route.pattern.removeprefix("^")
        end = body.endswith("$") and not body.endswith("\\$")
        body = body[:-1] if end else body
        body = body.removeprefix("/").removesuffix("/")
        if not body:
            return end, None  # an unanchored empty regex is a prefix: it matches anything
        try:
            return True, re.compile(rf"(?:^|/)(?:{body})/?" + ("$" if end else ""))
        except re.error:
            return False, None
    body = route.pattern.strip("/")
    if not body:
        return True, None
    parts = _PARAMETER.split(body)
    params = len(parts) - 1
    text = "".join(re.escape(p) + ("[^/]+" if i < params else "") for i, p in enumerate(parts))
    # a pattern of parameters alone (`/{item_id}`) says nothing of where it is mounted:
    # it matches a path of its length, not the last segments of every path
    start = "(?:^|/)" if any(p.strip("/") for p in parts) else "^"
    return True, re.compile(rf"{start}{text}/?$")


def _targets(handler: _Handler, method: str, resolver: Resolver) -> list[str]:
    """The functions a route runs: the decorated function, the view a URLconf names, or
    the methods of a class-based view that answer ``method`` (its class when none does)."""
    route = handler.route
    if route.kind == "viewset":
        return _viewset_targets(handler, method, resolver)
    if route.kind in ("decorator", "action", "command", "management"):
        sid = symbol_id(handler.path, route.handler)
        return [sid] if sid in resolver.scopes else []
    expr = route.handler.removesuffix(".as_view()")
    found = resolver.resolve(expr, symbol_id(handler.path, route.scope)) or {}
    out: list[str] = []
    for val in sorted(found, key=repr):
        if val[0] != "S" or val[1] not in resolver.scopes:
            continue
        if resolver.scopes[val[1]].kind != "class":
            out.append(val[1])
            continue
        methods = [v[1] for name in (method.lower(), "dispatch")
                   for v in ((resolver.class_member(val[1], name) or ({}, None))[0]) if v[0] == "S"]
        out.extend(methods or [val[1]])
    return sorted(set(out))


# what a REST framework viewset runs for a request: the action, then its hooks
_ACTIONS = {
    ("list", "GET"): "list", ("list", "POST"): "create", ("detail", "GET"): "retrieve",
    ("detail", "PUT"): "update", ("detail", "PATCH"): "partial_update", ("detail", "DELETE"): "destroy",
}
_HOOKS = {
    "list": ("get_queryset", "filter_queryset", "get_serializer_class", "get_serializer"),
    "create": ("get_serializer_class", "get_serializer", "perform_create"),
    "retrieve": ("get_queryset", "get_object", "get_serializer_class", "get_serializer"),
    "update": ("get_queryset", "get_object", "get_serializer_class", "get_serializer", "perform_update"),
    "destroy": ("get_queryset", "get_object", "perform_destroy"),
}
_HOOKS["partial_update"] = _HOOKS["update"]


def _viewset_targets(handler: _Handler, method: str, resolver: Resolver) -> list[str]:
    """The viewset's own action for the request (``list``, ``retrieve``, ...) and the
    hooks the framework calls around it; the class when it defines none of them."""
    action = _ACTIONS.get((handler.level, method))
    if action is None:
        return []
    found = resolver.resolve(handler.route.handler, symbol_id(handler.path, handler.route.scope)) or {}
    out: list[str] = []
    for val in sorted(found, key=repr):
        if val[0] != "S" or resolver.scopes.get(val[1]) is None or resolver.scopes[val[1]].kind != "class":
            continue
        methods = [v[1] for name in (action, *_HOOKS[action])
                   for v in ((resolver.class_member(val[1], name) or ({}, None))[0]) if v[0] == "S"]
        out.extend(methods or [val[1]])
    return sorted(set(out))
