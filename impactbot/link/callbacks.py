"""Library functions that call a function they are given.

``sorted(xs, key=rank)`` runs ``rank``, ``Thread(target=work).start()`` runs
``work``, ``partial(f, 1)`` is ``f`` waiting for its last argument. No code of the
repository stands between the caller and the function it hands over, so the
function passing it is the one that depends on it: the link gives it an edge to
what the argument holds. Such an edge is inferred (it rests on what the library
does) and is never checked as a call: the library passes its own arguments.

Only calls that reach no code of the repository count (a ``sort`` method of the
repository gets its ``key`` as a parameter, and its own calls of it say the rest),
and only the arguments the library is known to call.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from impactbot.model import CallSite, Import

# name -> (positions, keywords) of the arguments the callee calls
Arguments = tuple[tuple[int, ...], tuple[str, ...]]

_KEY: Arguments = ((), ("key",))
_FIRST: Arguments = ((0,), ())
_SECOND: Arguments = ((1,), ())
_THIRD: Arguments = ((2,), ())

# Names specific enough to mean the library function wherever they are called
# from (a builtin, or a method of a standard-library object such as an executor).
CALLBACK_ARGUMENTS: dict[str, Arguments] = {
    # builtins and list.sort
    "map": _FIRST, "filter": _FIRST, "sorted": _KEY, "min": _KEY, "max": _KEY, "sort": _KEY,
    # functools, itertools, heapq
    "reduce": ((0,), ("function",)), "partial": ((0,), ("func",)), "partialmethod": ((0,), ("func",)),
    "cmp_to_key": _FIRST, "starmap": _FIRST, "filterfalse": _FIRST, "takewhile": _FIRST,
    "dropwhile": _FIRST, "accumulate": ((1,), ("func",)), "groupby": ((1,), ("key",)),
    "nlargest": _KEY, "nsmallest": _KEY, "merge": _KEY,
    # collections; dataclass, attrs and pydantic fields, whose factory each construction runs
    "defaultdict": ((0,), ("default_factory",)),
    "field": ((), ("default_factory", "factory")), "Field": ((), ("default_factory",)),
    "ib": ((), ("factory",)), "attrib": ((), ("factory",)),
    # threads, processes, executors, event loops
    "Thread": ((1,), ("target",)), "Process": ((1,), ("target",)), "Timer": ((1,), ("function",)),
    "submit": ((0,), ("fn",)), "run_in_executor": _SECOND, "to_thread": ((0,), ("func",)),
    "apply_async": ((0,), ("func",)), "imap": _FIRST, "imap_unordered": _FIRST,
    "call_soon": _FIRST, "call_soon_threadsafe": _FIRST, "call_later": _SECOND, "call_at": _SECOND,
    "add_done_callback": ((0,), ("fn",)), "apply": ((0,), ("func",)),
    # trio's and anyio's task groups and worker threads: `nursery.start_soon(fn, *args)`
    "start_soon": _FIRST, "run_sync": _FIRST, "run_sync_soon": _FIRST,
    # a command-line app's test runner (click's and typer's CliRunner) runs the command
    "invoke": _FIRST,
    # FastAPI runs a path operation's dependencies (the extractor gives the site to it)
    "Depends": ((0,), ("dependency",)), "Security": ((0,), ("dependency",)),
    # cleanups of unittest, pytest and contextlib
    "addCleanup": _FIRST, "addClassCleanup": _FIRST, "addfinalizer": _FIRST, "callback": _FIRST,
    # unittest's (and Django's) assertions given the code to run: `assertRaises(E, f, *args)`
    "assertRaises": _SECOND, "assertWarns": _SECOND, "assertRaisesRegex": _THIRD,
    "assertRaisesRegexp": _THIRD, "assertWarnsRegex": _THIRD, "assertRaisesMessage": _THIRD,
    "assertWarnsMessage": _THIRD, "assertNumQueries": ((1,), ("func",)),
}

# Names too common to trust alone: they count when called through their module
# (``atexit.register``) or imported from it (``from atexit import register``).
MODULE_CALLBACK_ARGUMENTS: dict[tuple[str, str], Arguments] = {
    ("atexit", "register"): ((0,), ("func",)),
    ("signal", "signal"): ((1,), ("handler",)),
    ("json", "dumps"): ((), ("default",)),
    ("json", "dump"): ((), ("default",)),
    ("json", "loads"): ((), ("object_hook", "object_pairs_hook", "parse_float", "parse_int")),
    ("json", "load"): ((), ("object_hook", "object_pairs_hook", "parse_float", "parse_int")),
    ("re", "sub"): ((1,), ("repl",)),
    ("re", "subn"): ((1,), ("repl",)),
    ("weakref", "finalize"): _SECOND,
    ("copyreg", "pickle"): _SECOND,
    ("trio", "run"): _FIRST,
    ("anyio", "run"): _FIRST,
    # pytest's older forms: `pytest.raises(E, f, *args)`
    ("pytest", "raises"): _SECOND,
    ("pytest", "warns"): _SECOND,
    ("pytest", "deprecated_call"): ((0,), ("func",)),
    ("timeit", "timeit"): ((0,), ("stmt",)),
    ("timeit", "repeat"): ((0,), ("stmt",)),
}


def callback_arguments(site: CallSite, imports: Sequence[Import]) -> Iterator[str]:
    """The argument expressions of ``site`` that the library function it calls runs."""
    if site.kind != "call" or not site.callee or not (site.args or site.kwargs):
        return
    spec = _spec(site.callee, imports)
    if spec is None:
        return
    positions, keywords = spec
    for i in positions:
        if i < len(site.args) and not (site.star and i > 0):
            yield from _callable(site.args[i])
    for keyword, expr in site.kwargs:
        if keyword in keywords:
            yield from _callable(expr)


def _spec(callee: str, imports: Sequence[Import]) -> Arguments | None:
    head, _, name = callee.rpartition(".")
    if "(" in name or "[" in name:
        return None
    spec = CALLBACK_ARGUMENTS.get(name)
    if spec is not None:
        return spec
    if head:
        return MODULE_CALLBACK_ARGUMENTS.get((head, name))
    for imp in imports:
        if imp.level == 0 and imp.name == name and imp.bound_name == name:
            return MODULE_CALLBACK_ARGUMENTS.get((imp.module, name))
    return None


def _callable(expr: str | None) -> Iterator[str]:
    # `<lambda>` and other markers: a lambda's calls already belong to the scope writing it
    if expr and not expr.startswith("<"):
        yield expr


# Methods a framework's (or the standard library's) base class gives, which run the
# hooks a subclass of the repository defines: ``form.is_valid()`` runs the form's
# ``clean()`` and ``clean_<field>()`` (Django forms, models); ``serializer.is_valid()``
# its ``validate()`` and ``validate_<field>()``, ``serializer.save()`` its ``create()``
# or ``update()`` (REST framework); ``thread.start()`` its ``run()`` (threading,
# multiprocessing); ``visitor.visit(tree)`` its ``visit_<Node>()`` (ast, libcst);
# ``parser.feed(text)`` its ``handle_<event>()`` (html.parser); ``shell.onecmd(line)``
# its ``do_<command>()`` (cmd). A name ending in ``_`` stands for every method it
# starts (``clean_`` for ``clean_email``).
TEMPLATE_METHODS: dict[str, tuple[str, ...]] = {
    "is_valid": ("full_clean", "clean", "clean_", "_post_clean", "validate", "validate_", "to_internal_value"),
    "full_clean": ("clean", "clean_", "clean_fields", "validate_unique", "validate_constraints"),
    "save": ("create", "update"),
    "start": ("run",),
    "visit": ("visit_", "generic_visit", "leave_"),
    "generic_visit": ("visit_", "leave_"),  # (it visits the children)
    "feed": ("handle_",),
    "onecmd": ("do_", "default", "emptyline", "precmd", "postcmd"),
    "cmdloop": ("do_", "default", "emptyline", "precmd", "postcmd", "preloop", "postloop"),
}


def template_hooks(method: str, defined: Sequence[str]) -> list[str]:
    """Of the method names a class defines, those ``method`` of its framework base runs."""
    wanted = TEMPLATE_METHODS.get(method, ())
    return [name for name in defined
            if any(name == w or (w.endswith("_") and name.startswith(w) and name != w) for w in wanted)]
