"""Web routes and test-client requests: which URL a handler serves, which a test asks for.

A test that drives an application through its test client (``client.get("/items/1")``,
``self.client.post(reverse("item-create"))``) calls the view by URL, not by name: the
call graph needs the URL patterns to link the two (see :mod:`impactbot.link.routes`).
"""

from __future__ import annotations

from dataclasses import replace

from tree_sitter import Node

from impactbot.extract._pystate import FileState, line_of, named_child, string_value, text_of
from impactbot.model import CallSite, Receiver, Request, Route

# `@app.route("/p")`, `@router.get("/p")`, `@routes.post("/p")`, `@app.api_route(...)`
ROUTE_DECORATORS = frozenset({"route", "get", "post", "put", "patch", "delete", "head", "options", "api_route",
                              "websocket"})
HTTP_VERBS = frozenset({"get", "post", "put", "patch", "delete", "head", "options"})
# Django URLconfs: `path()` patterns use converters, `re_path()` (and the old `url()`) regexes
URLCONF_CALLS = {"path": "path", "re_path": "regex", "url": "regex"}
# calls that give the URL of a route by its name or endpoint
NAMED_URLS = frozenset({"reverse", "reverse_lazy", "url_for"})
PLACEHOLDER = "\x00"  # where an f-string interpolates: any one path segment's worth
_Url = tuple[str | None, str | None]  # (path, route name): what a request asks for

# what a route decorator's receiver puts before its patterns: `router = APIRouter(prefix="/items")`
PREFIXED = {"APIRouter": "prefix", "Blueprint": "url_prefix"}
# FastAPI's dependencies: `user=Depends(get_user)` runs get_user for each request
DEPENDENCY_MARKERS = frozenset({"Depends", "Security"})
# functions a web framework runs for every request (Flask, FastAPI, Starlette hooks)
REQUEST_HOOKS = frozenset({"before_request", "after_request", "teardown_request", "before_app_request",
                           "after_app_request", "teardown_app_request", "errorhandler", "app_errorhandler",
                           "middleware", "exception_handler"})
# Django settings naming the middleware classes every request goes through
MIDDLEWARE_SETTINGS = frozenset({"MIDDLEWARE", "MIDDLEWARE_CLASSES"})
# command-line apps: `@cli.command()`, `@click.group()`, typer's `@app.command()`
COMMAND_DECORATORS = frozenset({"command", "group"})
# what mounts a router or blueprint under a prefix, and the keyword naming the prefix
MOUNTING = {"include_router": "prefix", "register_blueprint": "url_prefix"}
# a prefix of its own that a mount's replaces (Flask's), rather than comes after (FastAPI's)
REPLACED_PREFIXES = frozenset({"Blueprint"})
# routes registered by a call, and the HTTP method each answers ("" any, None: given first):
# aiohttp's `app.router.add_get("/p", handler)`, FastAPI's and Starlette's `add_api_route`, ...
ADDED_ROUTES: dict[str, str | None] = {
    "add_get": "GET", "add_post": "POST", "add_put": "PUT", "add_patch": "PATCH", "add_delete": "DELETE",
    "add_head": "HEAD", "add_view": "", "add_route": None, "add_api_route": "", "add_websocket_route": "",
    "add_api_websocket_route": "",
}
# aiohttp's route definitions for `app.add_routes([...])`: `web.get("/p", handler)`, `web.view(...)`
AIOHTTP_DEFINITIONS: dict[str, str | None] = {
    **{verb: verb.upper() for verb in ("get", "post", "put", "patch", "delete", "head")}, "view": "", "route": None,
}
# Starlette's (and FastAPI's) route objects: `Route("/p", endpoint, methods=[...])`
ROUTE_OBJECTS = frozenset({"Route", "WebSocketRoute", "APIRoute", "APIWebSocketRoute"})
# what a list of routes or an app is put under a prefix by: `Mount("/api", routes=[...])`
MOUNT_OBJECTS = frozenset({"Mount"})
# calls whose list argument holds routes for their receiver (`app.add_routes([...])`), or
# holds those of a mount written inline (`include([...])`, `Mount("/api", routes=[...])`)
ROUTE_LISTS = frozenset({"add_routes"})
INLINE_LISTS = frozenset({"include", *MOUNT_OBJECTS})
# Django REST framework routers: `router.register("orders", OrderViewSet)` serves a viewset
VIEWSET_ROUTERS = frozenset({"DefaultRouter", "SimpleRouter", "NestedSimpleRouter", "NestedDefaultRouter"})


class RouteFacts(FileState):
    """The pass that finds routes and requests (only in files that can hold them)."""

    def _web(self) -> tuple[tuple[Route, ...], tuple[Request, ...]]:
        data = self.data
        urlconf = b"urlpatterns" in data or b"django.urls" in data
        cli = b".command" in data or b".group" in data or b"invoke" in data
        management = b"call_command" in data
        client = b"lient" in data  # a `client` fixture, or a TestClient/APIClient bound to any name
        hooks = any(name.encode() in data for name in REQUEST_HOOKS)
        middleware = b"MIDDLEWARE" in data
        literal_paths = b'("/' in data or b"('/" in data
        actions = b"@action" in data
        mounts = any(word in data for word in (b"include_router", b"register_blueprint", b"ROOT_URLCONF", b"urlconf=",
                                                 b"add_subapp", b"Mount("))
        added = any(word in data for word in (b".add_", b"Route(", b"web."))
        if not (urlconf or cli or management or client or hooks or middleware or literal_paths or actions or mounts
                or added):
            return (), ()
        routes: list[Route] = self._decorated_handlers(cli, hooks) if cli or hooks else []
        routes += self._middleware() if middleware else []
        routes += self._actions() if actions else []
        requests: list[Request] = []
        prefixes, routers, clients, defaults = self._prefixes()
        routes += defaults
        app_name = self._app_name() if urlconf else None
        urls = self._url_names() if client else {}
        for node in self._caps("call"):
            function = node.child_by_field_id(self.e.f["function"])
            if function is None or not self._live(node):
                continue
            name = self._last_name(function)
            if name is None:
                continue
            parent = node.parent
            if name in ROUTE_DECORATORS and parent is not None and parent.kind_id in self.e.decorator:
                routes.extend(self._decorated_route(node, parent, name, prefixes))
            elif name in URLCONF_CALLS and urlconf:
                routes.extend(self._urlconf_route(node, URLCONF_CALLS[name], app_name))
            elif name in MOUNTING and mounts and function.kind_id == self.e.attribute:
                routes.extend(self._mounted_router(node, function, MOUNTING[name]))
            elif added and (method := self._added_method(function, name)) != "-":
                routes.extend(self._added_route(node, function, name, method))
            elif mounts and (name in MOUNT_OBJECTS or name == "add_subapp"):
                routes.extend(self._mount_object(node, function, name))
            elif name in ROUTE_LISTS and function.kind_id == self.e.attribute:
                routes.extend(self._route_table(node, function))
            elif name == "register" and routers and function.kind_id == self.e.attribute:
                receiver = function.child_by_field_id(self.e.f["object"])
                if receiver is not None and text_of(receiver) in routers:
                    routes.extend(self._viewset_route(node))
            elif name == "call_command" and management:
                requests.extend(self._management_call(node))
            elif name == "invoke" and cli and function.kind_id == self.e.attribute:
                receiver = function.child_by_field_id(self.e.f["object"])
                if receiver is not None and b"runner" in (receiver.text or b"").lower():
                    requests.extend(self._invocation(node))
            elif name in HTTP_VERBS and function.kind_id == self.e.attribute:
                receiver = function.child_by_field_id(self.e.f["object"])
                if receiver is not None and (b"client" in (receiver.text or b"").lower() or
                                             text_of(receiver) in clients):
                    requests.extend(self._request(node, name, urls))
        routes += self._joined_lists() if urlconf else []
        routes += self._urlconf_roots() if b"ROOT_URLCONF" in data or b"urlconf=" in data else []
        routes.sort(key=lambda r: (r.line, r.pattern))
        requests.sort(key=lambda r: (r.line, r.method))
        return tuple(routes), tuple(requests)

    def _prefixes(self) -> tuple[dict[str, str], set[str], set[str], list[Route]]:
        """Names bound to a router with a prefix for its routes, names bound to a REST
        framework router, names bound to a test client (``tc = TestClient(app)``, ``api =
        APIClient()``) whatever they are called, and a blueprint's own ``url_prefix`` as
        where it is served unless registered with another (a ``mount-default``)."""
        prefixes: dict[str, str] = {}
        defaults: list[Route] = []
        routers: set[str] = set()
        clients: set[str] = set()
        for node in self._caps("call"):
            function = node.child_by_field_id(self.e.f["function"])
            called = (self._last_name(function) or "") if function is not None else ""
            parent = node.parent
            client = called.lower().endswith("client")  # TestClient(app), APIClient(), app.test_client()
            wanted = called in PREFIXED or called in VIEWSET_ROUTERS or client
            if client and parent is not None and parent.type == "as_pattern":  # `with app.test_client() as c:`
                alias = parent.child_by_field_name("alias")
                target = named_child(alias, 0) if alias is not None else None
                if target is not None and target.kind_id == self.e.identifier:
                    clients.add(text_of(target))
                continue
            if not wanted or parent is None or parent.type != "assignment":
                continue
            left = parent.child_by_field_id(self.e.f["left"])
            if left is None or left.kind_id != self.e.identifier:
                continue
            if client:
                clients.add(text_of(left))
                continue
            if called in VIEWSET_ROUTERS:
                routers.add(text_of(left))
                continue
            value = self._arguments(node)[1].get(PREFIXED[called])
            prefix = string_value(value) if value is not None and value.kind_id in self.e.string else None
            if prefix and called in REPLACED_PREFIXES:
                defaults.append(Route(self.scope_at(node.start_byte), "/" + prefix.strip("/"), text_of(left),
                                      line_of(node), "mount-default"))
            elif prefix:
                prefixes[text_of(left)] = "/" + prefix.strip("/")
        return prefixes, routers, clients, defaults

    def _decorated_handlers(self, cli: bool, hooks: bool) -> list[Route]:
        """Functions a framework runs by a decorator: commands (``@cli.command()``,
        ``@cli.command("name")``, ``@click.group`` with or without a call, typer's
        ``@app.command()``: by the name a CLI runner invokes them by) and request hooks
        (``@app.before_request``, ``@app.errorhandler(404)``, ``@app.middleware("http")``:
        run for every request)."""
        out: list[Route] = []
        for d in self.defs:
            if d.decorated is None or d.kind != "function":
                continue
            for node in d.decorated.children:
                inner = named_child(node, 0) if node.kind_id in self.e.decorator else None
                function = inner.child_by_field_id(self.e.f["function"]) if inner is not None and \
                    inner.kind_id == self.e.call else inner
                if inner is None or function is None or function.kind_id != self.e.attribute:
                    continue
                name = self._last_name(function)
                if hooks and name in REQUEST_HOOKS:
                    out.append(Route(self.scope_at(d.start), "", d.qualname, line_of(inner), "hook"))
                if not cli or name not in COMMAND_DECORATORS:
                    continue
                positional, keywords = self._arguments(inner) if inner.kind_id == self.e.call else ([], {})
                named = positional[0] if positional else keywords.get("name")
                command = string_value(named) if named is not None and named.kind_id in self.e.string else None
                out.append(Route(self.scope_at(d.start), command or d.name, d.qualname, line_of(inner), "command"))
        return out

    def _actions(self) -> list[Route]:
        """REST framework ``@action(detail=True, methods=["post"])`` on a viewset's method:
        an extra URL under the viewset's (``{pk}/`` before it for a detail action) named
        ``url_path`` or the method, reversed as ``<basename>-<url_name>``."""
        out: list[Route] = []
        for d in self.defs:
            for node in d.decorated.children if d.decorated is not None and d.kind == "method" else ():
                inner = named_child(node, 0) if node.kind_id in self.e.decorator else None
                function = inner.child_by_field_id(self.e.f["function"]) if inner is not None and \
                    inner.kind_id == self.e.call else None
                if inner is None or function is None or self._last_name(function) != "action":
                    continue
                _, keywords = self._arguments(inner)
                words = {k: string_value(v) for k, v in keywords.items() if v.kind_id in self.e.string}
                detail = keywords.get("detail")
                path = (words.get("url_path") or d.name).strip("/")
                if detail is not None and text_of(detail) == "True":
                    path = "{pk}/" + path
                name = words.get("url_name") or d.name.replace("_", "-")
                methods = self._methods(keywords.get("methods")) or ("GET",)
                out.append(Route(self.scope_at(d.start), path, d.qualname, line_of(inner), "action", methods, name))
        return out

    def _middleware(self) -> list[Route]:
        """``MIDDLEWARE = ["shop.middleware.Timing", ...]`` (Django settings): each class
        runs for every request; the dotted path is the pattern and the handler."""
        out: list[Route] = []
        for node in self._caps("assign"):
            left, right = node.child_by_field_id(self.e.f["left"]), node.child_by_field_id(self.e.f["right"])
            if left is None or right is None or text_of(left) not in MIDDLEWARE_SETTINGS:
                continue
            if right.kind_id not in self.e.sequence_literal:
                continue
            for item in self.x.named(right):
                path = string_value(item) if item.kind_id in self.e.string else None
                if path:
                    out.append(Route(self.scope_at(node.start_byte), path, path, line_of(item), "middleware"))
        return out

    def _management_call(self, call: Node) -> list[Request]:
        """``call_command("import_data", ...)``: the Django management command of that name."""
        positional, _ = self._arguments(call)
        name = string_value(positional[0]) if positional and positional[0].kind_id in self.e.string else None
        return [Request(self.scope_at(call.start_byte), line_of(call), "COMMAND", None, name)] if name else []

    def _invocation(self, call: Node) -> list[Request]:
        """``runner.invoke(cli, ["db", "migrate", "--fake"])`` (or a string of them): a
        request per word that may name a command (options left out)."""
        positional, keywords = self._arguments(call)
        args = positional[1] if len(positional) > 1 else keywords.get("args")
        if args is None:
            return []
        if args.kind_id in self.e.string:
            words = (string_value(args) or "").split()
        elif args.kind_id in self.e.sequence_literal:
            words = [string_value(n) or "" for n in self.x.named(args) if n.kind_id in self.e.string]
        else:
            return []
        scope, line = self.scope_at(call.start_byte), line_of(call)
        return [Request(scope, line, "CLI", None, w) for w in dict.fromkeys(words) if w and not w.startswith("-")]

    def _viewset_route(self, call: Node) -> list[Route]:
        positional, keywords = self._arguments(call)
        if len(positional) < 2 or positional[0].kind_id not in self.e.string:
            return []
        prefix, handler = string_value(positional[0]), self.x.expr(positional[1])
        named = keywords.get("basename") or keywords.get("base_name")
        name = string_value(named) if named is not None and named.kind_id in self.e.string else None
        if prefix is None or handler is None:
            return []
        function = call.child_by_field_id(self.e.f["function"])
        receiver = function.child_by_field_id(self.e.f["object"]) if function is not None else None
        owner = text_of(receiver) if receiver is not None else None
        return [Route(self.scope_at(call.start_byte), prefix, handler, line_of(call), "viewset", (), name, owner)]

    def _dependencies(self, sites: list[tuple[int, CallSite]]) -> list[tuple[int, CallSite]]:
        """``def read(user=Depends(get_user))`` (or ``Annotated[User, Depends(get_user)]``):
        the framework calls ``get_user`` for each call of ``read``, so the ``Depends`` call
        site belongs to ``read``, not to the scope that evaluates the default."""
        if b"Depends" not in self.data and b"Security" not in self.data:
            return sites
        signatures = sorted(
            (params.start_byte, params.end_byte, d.qualname)
            for d in self.defs
            if d.kind == "function" and (params := d.node.child_by_field_id(self.e.f["parameters"])) is not None
        )
        out = []
        for key, site in sites:
            if site.callee is not None and site.callee.rpartition(".")[2] in DEPENDENCY_MARKERS:
                start = key >> 32
                owners = [q for first, last, q in signatures if first <= start < last]
                site = replace(site, scope=owners[-1]) if owners else site
            out.append((key, site))
        return out

    def _receivers(self) -> tuple[Receiver, ...]:
        """Functions connected to signals: ``@receiver(post_save, sender=Order)`` (or a list
        of signals) on a function, ``order_paid.connect(notify, sender=Order)``."""
        data = self.data
        if b"receiver" not in data and b".connect(" not in data:
            return ()
        out: list[Receiver] = []
        for d in self.defs:
            for node in d.decorated.children if d.decorated is not None and d.kind == "function" else ():
                inner = named_child(node, 0) if node.kind_id in self.e.decorator else None
                function = inner.child_by_field_id(self.e.f["function"]) if inner is not None else None
                if inner is None or inner.kind_id != self.e.call or function is None:
                    continue
                if self._last_name(function) == "receiver":
                    out.extend(self._connected(inner, d.qualname, self.scope_at(d.start), True))
        for node in self._caps("call"):
            function = node.child_by_field_id(self.e.f["function"])
            if function is None or function.kind_id != self.e.attribute or self._last_name(function) != "connect":
                continue
            signal = function.child_by_field_id(self.e.f["object"])
            positional, keywords = self._arguments(node)
            handler = positional[0] if positional else keywords.get("receiver")
            signal_expr = self.x.expr(signal) if signal is not None else None
            handler_expr = self.x.expr(handler) if handler is not None else None
            if signal_expr and handler_expr and self._live(node):
                sender = keywords.get("sender")
                out.append(Receiver(self.scope_at(node.start_byte), signal_expr, handler_expr, line_of(node), False,
                                    self.x.expr(sender) if sender is not None else None))
        out.sort(key=lambda r: (r.line, r.signal, r.handler))
        return tuple(out)

    def _connected(self, call: Node, qualname: str, scope: str, decorated: bool) -> list[Receiver]:
        positional, keywords = self._arguments(call)
        signals = positional[0] if positional else keywords.get("signal")
        if signals is None:
            return []
        nodes = self.x.named(signals) if signals.kind_id in self.e.sequence_literal else [signals]
        sender = keywords.get("sender")
        sender_expr = self.x.expr(sender) if sender is not None else None
        return [Receiver(scope, expr, qualname, line_of(call), decorated, sender_expr)
                for expr in (self.x.expr(n) for n in nodes) if expr]

    def _last_name(self, function: Node) -> str | None:
        if function.kind_id == self.e.identifier:
            return text_of(function)
        if function.kind_id == self.e.attribute:
            attr = function.child_by_field_id(self.e.f["attribute"])
            return None if attr is None else text_of(attr)
        return None

    def _arguments(self, call: Node) -> tuple[list[Node], dict[str, Node]]:
        arguments = call.child_by_field_id(self.e.f["arguments"])
        if arguments is None or arguments.kind_id != self.e.argument_list:
            return [], {}
        positional: list[Node] = []
        keywords: dict[str, Node] = {}
        for a in arguments.named_children:
            if a.kind_id == self.e.keyword_argument:
                key, value = a.child_by_field_id(self.e.f["name"]), a.child_by_field_id(self.e.f["value"])
                if key is not None and value is not None:
                    keywords[text_of(key)] = value
            elif a.kind_id != self.e.comment:
                positional.append(a)
        return positional, keywords

    def _decorated_route(self, call: Node, decorator: Node, verb: str, prefixes: dict[str, str]) -> list[Route]:
        decorated = decorator.parent
        definition = None if decorated is None else decorated.child_by_field_id(self.e.f["definition"])
        name = None if definition is None else definition.child_by_field_id(self.e.f["name"])
        positional, keywords = self._arguments(call)
        first = positional[0] if positional else keywords.get("path") or keywords.get("rule")
        pattern = string_value(first) if first is not None and first.kind_id in self.e.string else None
        if name is None or decorated is None or pattern is None or not pattern.startswith("/"):
            return []
        function = call.child_by_field_id(self.e.f["function"])
        receiver = None if function is None else function.child_by_field_id(self.e.f["object"])
        prefix = prefixes.get(text_of(receiver)) if receiver is not None else None
        if prefix:
            pattern = (prefix + pattern).rstrip("/") or "/"
        scope = self.scope_at(decorated.start_byte)
        qualname = f"{scope}::{text_of(name)}" if scope else text_of(name)
        methods = (verb.upper(),) if verb in HTTP_VERBS else self._methods(keywords.get("methods"))
        owner = self.x.expr(receiver) if receiver is not None else None
        return [Route(scope, pattern, qualname, line_of(call), "decorator", methods, owner=owner)]

    def _methods(self, node: Node | None) -> tuple[str, ...]:
        if node is None:
            return ()
        found = [string_value(n) for n in self.x.named(node) if n.kind_id in self.e.string]
        return tuple(sorted({m.upper() for m in found if m}))

    def _app_name(self) -> str | None:
        """A URLconf's ``app_name = "shop"``: the namespace its route names are reversed in."""
        for node in self._caps("assign"):
            left, right = node.child_by_field_id(self.e.f["left"]), node.child_by_field_id(self.e.f["right"])
            if left is not None and right is not None and text_of(left) == "app_name" and not self.scope_at(
                node.start_byte
            ) and right.kind_id in self.e.string:
                return string_value(right)
        return None

    def _urlconf_route(self, call: Node, kind: str, app_name: str | None) -> list[Route]:
        positional, keywords = self._arguments(call)
        if len(positional) < 2 or positional[0].kind_id not in self.e.string:
            return []
        pattern = string_value(positional[0])
        view = positional[1]
        scope, owner = self.scope_at(call.start_byte), self._holder(call)
        if view.kind_id == self.e.call:  # `include(...)` holds more patterns, `View.as_view()` is a view
            function = view.child_by_field_id(self.e.f["function"])
            last = self._last_name(function) if function is not None else None
            if last == "include" and pattern is not None:
                mount = self._include(view)
                if mount is None:
                    return []
                target, namespace = mount
                return [Route(scope, pattern, target, line_of(call), "mount" if kind == "path" else "mount-regex",
                              (), namespace, owner)]
            if last != "as_view":
                return []
        handler = self.x.expr(view)
        name_node = keywords.get("name") or (positional[3] if len(positional) > 3 else None)
        name = string_value(name_node) if name_node is not None and name_node.kind_id in self.e.string else None
        if pattern is None or handler is None:
            return []
        name = f"{app_name}:{name}" if app_name and name else name
        return [Route(scope, pattern, handler, line_of(call), "path" if kind == "path" else "regex", (), name, owner)]

    def _include(self, call: Node) -> tuple[str, str | None] | None:
        """What ``include(...)`` mounts, and the namespace it gives: a URLconf named by a
        string (``module:shop.urls``), an expr (``shop.urls``, ``router.urls``, a list's
        name) or a list written inline (``<inline:LINE:COLUMN>``, the owner of its routes);
        ``include(("shop.urls", "shop"))`` and ``namespace="shop"`` give the namespace."""
        positional, keywords = self._arguments(call)
        target = positional[0] if positional else keywords.get("arg")
        if target is None:
            return None
        namespace = keywords.get("namespace")
        if target.type == "tuple":
            items = self.x.named(target)
            target, namespace = (items[0], items[1] if len(items) > 1 else namespace) if items else (None, None)
        name = string_value(namespace) if namespace is not None and namespace.kind_id in self.e.string else None
        if target is None:
            return None
        if target.kind_id in self.e.string:
            module = string_value(target)
            return (f"module:{module}", name) if module else None
        if target.kind_id in self.e.sequence_literal:
            return _inline(call), name
        expr = self.x.expr(target)
        return (expr, name) if expr else None

    def _holder(self, call: Node) -> str | None:
        """The name a route is put in: the list or app assigned (``urlpatterns =
        [...]``, ``+=``, ``urlpatterns.append(...)``, ``app = Starlette(routes=[...])``), the
        app whose ``add_routes`` takes it, or the inline list of an ``include`` or ``Mount``."""
        child, node = call, call.parent
        while node is not None:
            if node.kind_id == self.e.call:
                function = node.child_by_field_id(self.e.f["function"])
                last = self._last_name(function) if function is not None else None
                if last in INLINE_LISTS:
                    return _inline(node)
                if last in ("append", "extend", "insert", *ROUTE_LISTS) and function is not None and \
                        function.kind_id == self.e.attribute:
                    receiver = function.child_by_field_id(self.e.f["object"])
                    return _app_of(text_of(receiver)) if receiver is not None else None
                if child.kind_id != self.e.argument_list:
                    return None
            elif node.type in ("assignment", "augmented_assignment"):
                left = node.child_by_field_id(self.e.f["left"])
                return text_of(left) if left is not None and left.kind_id == self.e.identifier else None
            elif node.type in ("expression_statement", "block", "module"):
                return None
            child, node = node, node.parent
        return None

    def _added_method(self, function: Node, name: str) -> str | None:
        """For a call registering a route: the HTTP method it answers ("" any, None: its
        first argument names it); "-" for any other call."""
        if function.kind_id == self.e.attribute:
            receiver = function.child_by_field_id(self.e.f["object"])
            if name in ADDED_ROUTES:
                return ADDED_ROUTES[name]
            if name in AIOHTTP_DEFINITIONS and receiver is not None and text_of(receiver) == "web":
                return AIOHTTP_DEFINITIONS[name]
        return "" if name in ROUTE_OBJECTS else "-"

    def _added_route(self, call: Node, function: Node, name: str, method: str | None) -> list[Route]:
        """``app.router.add_get("/p", handler, name="p")``, ``web.post("/p", handler)``,
        aiohttp's ``add_route("GET", "/p", handler)`` and Starlette's ``add_route("/p",
        endpoint, methods=[...])``, ``Route("/p", endpoint)``, ``app.add_api_route(...)``."""
        positional, keywords = self._arguments(call)
        first = string_value(positional[0]) if positional and positional[0].kind_id in self.e.string else None
        if method is None and first is not None and not first.startswith("/") and len(positional) > 2:
            method, positional = ("" if first == "*" else first.upper()), positional[1:]  # aiohttp's method first
        path = positional[0] if positional else keywords.get("path")
        handler = positional[1] if len(positional) > 1 else keywords.get("handler") or keywords.get("endpoint")
        pattern = string_value(path) if path is not None and path.kind_id in self.e.string else None
        expr = self.x.expr(handler) if handler is not None else None
        if pattern is None or not pattern.startswith("/") or not expr:
            return []
        methods = (method,) if method else self._methods(keywords.get("methods"))
        named = keywords.get("name")
        label = string_value(named) if named is not None and named.kind_id in self.e.string else None
        receiver = function.child_by_field_id(self.e.f["object"])
        owner = _app_of(text_of(receiver)) if name in ADDED_ROUTES and receiver is not None else self._holder(call)
        return [Route(self.scope_at(call.start_byte), pattern, expr, line_of(call), "path", methods, label, owner)]

    def _mount_object(self, call: Node, function: Node, name: str) -> list[Route]:
        """``Mount("/api", routes=[...])`` or ``Mount("/api", app=sub)`` (Starlette, FastAPI)
        and aiohttp's ``app.add_subapp("/admin/", admin)``: what is mounted, under the path."""
        positional, keywords = self._arguments(call)
        path = positional[0] if positional else keywords.get("path") or keywords.get("prefix")
        pattern = string_value(path) if path is not None and path.kind_id in self.e.string else None
        if pattern is None:
            return []
        if name == "add_subapp":
            receiver = function.child_by_field_id(self.e.f["object"])
            mounted = positional[1] if len(positional) > 1 else keywords.get("subapp")
            owner = _app_of(text_of(receiver)) if receiver is not None else None
        else:
            mounted = keywords.get("routes") or keywords.get("app") or (positional[1] if len(positional) > 1 else None)
            owner = self._holder(call)
        if mounted is None:
            return []
        target = _inline(call) if mounted.kind_id in self.e.sequence_literal else self.x.expr(mounted)
        if not target:
            return []
        return [Route(self.scope_at(call.start_byte), pattern, target, line_of(call), "mount", owner=owner)]

    def _route_table(self, call: Node, function: Node) -> list[Route]:
        """``app.add_routes(routes)`` with an aiohttp ``RouteTableDef`` (or a list's name):
        its routes are the app's (a list written in the call holds them itself)."""
        positional, _ = self._arguments(call)
        receiver = function.child_by_field_id(self.e.f["object"])
        if not positional or receiver is None or positional[0].kind_id in self.e.sequence_literal:
            return []
        target = self.x.expr(positional[0])
        return [Route(self.scope_at(call.start_byte), "", target, line_of(call), "mount",
                      owner=_app_of(text_of(receiver)))] if target else []

    def _mounted_router(self, call: Node, function: Node, keyword: str) -> list[Route]:
        """``app.include_router(items.router, prefix="/items")``, ``app.register_blueprint(bp,
        url_prefix="/admin")``: the router's or blueprint's routes under the prefix."""
        positional, keywords = self._arguments(call)
        mounted = positional[0] if positional else keywords.get("router") or keywords.get("blueprint")
        receiver = function.child_by_field_id(self.e.f["object"])
        target = self.x.expr(mounted) if mounted is not None else None
        if target is None or receiver is None:
            return []
        value = keywords.get(keyword)
        prefix = string_value(value) if value is not None and value.kind_id in self.e.string else ""
        if prefix is None or (not prefix and keyword == MOUNTING["register_blueprint"]):
            return []  # (registered without a prefix: served under its own, or none)
        return [Route(self.scope_at(call.start_byte), prefix, target, line_of(call), "mount",
                      owner=self.x.expr(receiver))]

    def _joined_lists(self) -> list[Route]:
        """``urlpatterns += router.urls``, ``urlpatterns = auth_urlpatterns + [...]``: the
        routes of a REST framework router or of another list, at the top of this one."""
        out: list[Route] = []
        for node in (*self._caps("assign"), *self._caps("aug")):
            left, right = node.child_by_field_id(self.e.f["left"]), node.child_by_field_id(self.e.f["right"])
            if left is None or right is None or left.kind_id != self.e.identifier or self.scope_at(node.start_byte):
                continue
            for operand in _operands(right, self.e.binary):
                if operand.kind_id in (self.e.identifier, self.e.attribute) and (expr := self.x.expr(operand)):
                    out.append(Route("", "", expr, line_of(operand), "mount", owner=text_of(left)))
        return out

    def _urlconf_roots(self) -> list[Route]:
        """``ROOT_URLCONF = "site.urls"`` (settings, ``override_settings(ROOT_URLCONF=...)``,
        ``reverse(..., urlconf="...")``): that URLconf serves requests from the top, whatever
        includes it elsewhere."""
        out: list[Route] = []
        for node in (*self._caps("assign"), *self._caps("call")):
            if node.kind_id == self.e.call:
                values = [v for k, v in self._arguments(node)[1].items() if k in ("ROOT_URLCONF", "urlconf")]
            else:
                left = node.child_by_field_id(self.e.f["left"])
                right = node.child_by_field_id(self.e.f["right"])
                values = [right] if left is not None and right is not None and \
                    text_of(left).rpartition(".")[2] == "ROOT_URLCONF" else []
            for value in values:
                module = string_value(value) if value.kind_id in self.e.string else None
                if module:
                    out.append(Route(self.scope_at(node.start_byte), "", f"module:{module}", line_of(value), "mount"))
        return out

    def _request(self, call: Node, verb: str, urls: dict[tuple[str, str], list[_Url]]) -> list[Request]:
        positional, keywords = self._arguments(call)
        first = positional[0] if positional else keywords.get("path") or keywords.get("url")
        if first is None:
            return []
        scope, line, method = self.scope_at(call.start_byte), line_of(call), verb.upper()
        found = self._url(first)
        if found is not None:
            return [Request(scope, line, method, *found)]
        # a name bound to a URL in the same function or at module level (`url = reverse(...)`),
        # or `self.url` bound in any method of the class (`setUp`)
        text = text_of(first)
        if first.kind_id == self.e.identifier:
            held = urls.get((scope, text)) or urls.get(("", text), [])
        elif first.kind_id == self.e.attribute and text.startswith("self.") and text.count(".") == 1:
            held = urls.get((scope.rpartition("::")[0], text), [])
        else:
            held = []
        return [Request(scope, line, method, *url) for url in held]

    def _url(self, node: Node) -> _Url | None:
        """(path, None) for a literal or f-string path, (None, name) for ``reverse("name")``."""
        if node.kind_id in self.e.string:
            path = _url_path(self._path_text(node))
            return (path, None) if path else None
        if node.kind_id == self.e.call:
            function = node.child_by_field_id(self.e.f["function"])
            if function is not None and self._last_name(function) in NAMED_URLS:
                args, keywords = self._arguments(node)
                named = args[0] if args else keywords.get("viewname") or keywords.get("endpoint")
                name = string_value(named) if named is not None and named.kind_id in self.e.string else None
                return (None, name) if name else None
        return None

    def _url_names(self) -> dict[tuple[str, str], list[_Url]]:
        """(scope, name) -> the URLs assigned to it: ``url = reverse("x")`` in a function or
        a module, ``self.url = "/x/"`` (keyed by the class: any of its methods may read it)."""
        out: dict[tuple[str, str], list[_Url]] = {}
        for node in self._caps("assign"):
            left, right = node.child_by_field_id(self.e.f["left"]), node.child_by_field_id(self.e.f["right"])
            url = None if left is None or right is None else self._url(right)
            if url is None or left is None:
                continue
            scope, text = self.scope_at(node.start_byte), text_of(left)
            if left.kind_id == self.e.identifier:
                out.setdefault((scope, text), []).append(url)
            elif left.kind_id == self.e.attribute and text.startswith("self.") and text.count(".") == 1:
                out.setdefault((scope.rpartition("::")[0], text), []).append(url)
        return out

    def _path_text(self, string: Node) -> str | None:
        """A string literal's text; an f-string's with a placeholder for each interpolation."""
        value = string_value(string)
        if value is not None:
            return value
        parts: list[str] = []
        for index in range(string.named_child_count):
            part = named_child(string, index)
            if part is None:
                continue
            if part.type == "string_content":
                parts.append(text_of(part))
            elif part.type == "interpolation":
                parts.append(PLACEHOLDER)
        return "".join(parts) or None


def _app_of(receiver: str) -> str:
    """aiohttp's ``app.router`` holds the routes of ``app``."""
    return receiver.removesuffix(".router")


def _inline(include: Node) -> str:
    """The name standing for the list an ``include([...])`` call holds."""
    return f"<inline:{include.start_point[0] + 1}:{include.start_point[1]}>"


def _operands(node: Node, binary: frozenset[int]) -> list[Node]:
    """The operands of ``a + b + c`` (the node itself when it is no binary operation)."""
    if node.kind_id not in binary:
        return [node]
    return [leaf for child in node.named_children for leaf in _operands(child, binary)]


def _url_path(url: str | None) -> str | None:
    """``http://testserver/items/1?x=2`` -> ``/items/1``; None for what is no path."""
    if not url:
        return None
    if "://" in url:
        rest = url.split("://", 1)[1]
        url = "/" + rest.split("/", 1)[1] if "/" in rest else "/"
    url = url.split("?", 1)[0].split("#", 1)[0]
    return url if url.startswith("/") else None
