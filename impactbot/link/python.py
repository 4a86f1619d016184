"""Name resolution for Python: which symbol each call site reaches.

This module is long on purpose: it is the one place where Python's scoping,
import and attribute rules live (the design keeps name resolution in one place
so a wrong edge has one place to be fixed).

Values are small tuples, so they can be set members and memo keys:

- ``("S", id)``        a function, method or class object defined in the repository
- ``("I", class_id)``  an instance of exactly that in-repository class (it was constructed)
- ``("IS", class_id)`` an instance of that class or of a subclass (``self``, an annotation):
                       a method call on it may dispatch to any override
- ``("CS", class_id)`` that class or a subclass, as a class object (``type(self)``, ``cls``
                       when a call's receiver is not known): calling it may construct any of
                       them, a method read on it may be any override
- ``("M", name)``      an in-repository module
- ``("X", "")``        something outside the repository (stdlib, third party); one
                       value for all of it, since nothing outside is ever an edge
- ``("B", name)``      a builtin
- ``("L", scope_id)``  a lambda written in that scope; ``("L", scope_id, name)`` one taking no parameters,
                         whose call gives what the scope binds ``name()`` to
- ``("G", func_id)``   the iterator a generator function returns
- ``("CM", func_id)``  the context manager a ``@contextmanager`` generator function returns
- ``("CE", func_id)``  its ``__enter__`` (``__aenter__``): calling it gives what the function yields
- ``("P", class_id)``  ``super()`` inside a method of that class
- ``("Q", class_id)``  a Django manager or queryset of that model (see impactbot.link.django);
                       ``("QM", class_id, method)`` one of its methods, ``("QC", class_id,
                       method_id)`` a method of its own manager or queryset class,
                       ``("QT", class_id)`` the (instance, created) pair ``get_or_create`` gives
- ``("UB", func_id)``  a function stored in a class body (``run = helper``), read through
                       an instance, of which it cannot be told whether it gets the
                       instance as its first argument (see ``Resolver._stored``); also a
                       function or class held by ``partial(f, ...)``: calling it calls
                       that, with arguments no call site shows in full

Resolution results map each value to ``True`` when it was inferred (through an
assignment, annotation, return value or argument flow) and ``False`` when it
follows from definitions and imports alone.
"""

from __future__ import annotations

import builtins
import functools
import itertools
import re
import time
import zlib
from bisect import bisect_left, bisect_right, insort
from collections import defaultdict
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from mypy_extensions import mypyc_attr

from impactbot.errors import OutOfTime
from impactbot.link import django
from impactbot.link.django import DjangoModels
from impactbot.link.metaclasses import OBJECT_ATTRIBUTES, Metaclasses
from impactbot.link.modules import ModuleIndex
from impactbot.model import Binding, CallSite, Definition, FileFacts, Import, Param, fits, symbol_id

Value = tuple[str, ...]
Values = dict[Value, bool]
# class id -> `obj.attr = v` on its instances (and whether obj is of that class exactly)
StoreTable = dict[str, list[tuple[Binding, str, bool]]]
EXTERNAL: Value = ("X", "")
# More possible values than this is not knowledge: the expression is treated as
# unknown rather than linked to every candidate.
MAX_VALUES = 12
MAX_DELEGATIONS = 3  # methods a method giving back its receiver may hand the call on through
# what the __init__ a dataclass (attrs class) is given calls after setting the fields
POST_INITS = ("__post_init__", "__attrs_post_init__")
DISPATCHING = frozenset({"singledispatch", "singledispatchmethod"})  # functools' generic functions
OWN_DJANGO_ATTRIBUTES = django.MANAGERS | {"_meta"}  # see Resolver._own_django
# what a fixture stores through its `request` lands on the test class or its instance
REQUEST_HOLDERS = frozenset({"request.cls", "request.instance"})
# every attribute some builtin type has: a name none has needs no look at a class's builtin bases
BUILTIN_TYPE_ATTRIBUTES = frozenset(
    a for t in vars(builtins).values() if isinstance(t, type) for a in dir(t))
# the special names Python itself gives a meaning to (its data model), beyond what some
# builtin type defines: a repository's other `__name__`s are protocols of its own
PYTHON_DUNDERS = BUILTIN_TYPE_ATTRIBUTES | frozenset(f"__{n}__" for n in (
    "enter", "exit", "aenter", "aexit", "get", "set", "delete", "set_name", "fspath", "length_hint", "missing",
    "copy", "deepcopy", "setstate", "getnewargs", "getnewargs_ex", "await", "aiter", "anext", "call", "matmul",
    "rmatmul", "imatmul", "buffer", "release_buffer", "instancecheck", "subclasscheck", "prepare",
    "mro_entries", "getattr", "del", "post_init", "iadd", "isub", "imul", "itruediv", "ifloordiv", "imod",
    "ipow", "ilshift", "irshift", "iand", "ixor", "ior", "index", "complex", "bytes", "round", "trunc", "floor",
    "ceil", "reversed", "contains", "bool", "hash", "slots", "match_args", "all", "path", "file", "spec",
    "loader", "package", "builtins", "version", "main", "wrapped", "self", "func", "code", "defaults",
    "kwdefaults", "globals", "closure", "weakref", "dataclass_fields", "dataclass_params", "orig_bases",
    "parameters", "origin", "args", "signature", "text_signature", "objclass", "getitem", "setitem", "delitem",
    "iter", "next", "len", "class_getitem", "abstractmethods", "isabstractmethod", "traceback", "cause",
    "context", "suppress_context", "notes"
))
TYPING_MODULES = frozenset({"typing", "typing_extensions"})
# Bases whose classes give a member when subscripted (`Color["RED"]`), not a generic alias
ENUM_BASES = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum",
                        "Choices", "TextChoices", "IntegerChoices"})
# the elements of a module's or class's display may be more (a parametrize list of
# cases): each one is written out there, not gathered from calls
MAX_LISTED = 64
# the attributes a computed name may read (`getattr(self, "visit_" + kind)`) are each
# written out in the classes that define them: a visitor's handlers may be many
MAX_NAMED = 256
# Resolution chains deeper than this (an alias of an alias of ... a return value)
# are cut: they stay within Python's recursion limit and say little anyway.
MAX_DEPTH = 120
# Python frames such a chain may take (each level is several calls deep), with room
RESOLUTION_RECURSION_LIMIT = 3000
# Returns nested deeper than this are cut short. Each level of a chain of returns
# passes through a guarded resolution (see MAX_DEPTH), so only a cycle that does
# not gets here: cut, it is an answer cut short; uncut, the compiled resolver runs
# out of C stack and the process dies.
MAX_RETURNS_DEPTH = 2 * MAX_DEPTH
REFRESH_DEPTH = MAX_DEPTH // 2  # an answer cut short is computed again when asked for this near the top
_DOTTED = re.compile(r"[A-Za-z_][\w.]*")
# An assignment's call may stand this many lines below the statement's first line
# (a conditional expression or arguments wrapped over lines).
MAX_STATEMENT_LINES = 8
IMPORT_LOOKUP_BUDGET = 256  # lookups of imported names one lookup may lead to
# A class whose base names may hold more combinations of classes than this gets its
# members from the merged MRO alone (the first class there that has them).
MAX_ALTERNATIVES = 8

BUILTINS = frozenset(dir(builtins))
# Decorators that do not wrap the function in new code of the repository.
TRANSPARENT_DECORATORS = frozenset(
    {
        "property", "staticmethod", "classmethod", "abstractmethod", "cache", "lru_cache",
        "cached_property", "wraps", "overload", "override", "final", "dataclass",
        "total_ordering", "contextmanager", "asynccontextmanager", "singledispatch",
        "fixture", "setter", "getter", "deleter", "abstractproperty", "runtime_checkable",
    }
)
PROPERTY_DECORATORS = frozenset({"property", "cached_property", "abstractproperty"})
# Methods Python makes classmethods without a decorator: their first parameter is a class.
IMPLICIT_CLASSMETHODS = frozenset({"__init_subclass__", "__class_getitem__"})
# Decorators that change how a function stored in a class body is bound.
_BINDING_DECORATORS = PROPERTY_DECORATORS | {"staticmethod", "classmethod"}
# Builtins whose call runs a protocol method of their first argument.
BUILTIN_DUNDERS: dict[str, tuple[str, ...]] = {
    "len": ("__len__",), "str": ("__str__",), "repr": ("__repr__",), "iter": ("__iter__",),
    "next": ("__next__",), "hash": ("__hash__",), "abs": ("__abs__",), "format": ("__format__",),
    "reversed": ("__reversed__",), "bytes": ("__bytes__",), "int": ("__int__",),
    "float": ("__float__",), "round": ("__round__",), "dir": ("__dir__",),
    "sorted": ("__iter__",), "list": ("__iter__",), "tuple": ("__iter__",), "set": ("__iter__",),
    "frozenset": ("__iter__",), "enumerate": ("__iter__",), "zip": ("__iter__",), "map": ("__iter__",),
    "filter": ("__iter__",), "min": ("__iter__",), "max": ("__iter__",), "sum": ("__iter__",),
    "any": ("__iter__",), "all": ("__iter__",), "print": ("__str__",),
    "divmod": ("__divmod__",), "pow": ("__pow__",), "complex": ("__complex__",), "bin": ("__index__",),
    "oct": ("__index__",), "hex": ("__index__",),
}
# The positional arguments whose methods those builtins run, when not only the first:
# print formats each value, zip iterates each iterable, map and filter those after the function.
BUILTIN_ARGUMENTS: dict[str, slice] = {
    "print": slice(None), "zip": slice(None), "map": slice(1, None), "filter": slice(1, None),
}
# min(a, b) and max(a, b) compare their arguments; only one is iterated.
ONE_ITERABLE = frozenset({"min", "max"})
# An augmented assignment falls back to the binary operator when the class has no
# in-place method (`total += price` runs `Money.__add__`).
INPLACE_FALLBACKS: dict[str, str] = {
    f"__i{op}__": f"__{op}__"
    for op in ("add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "pow",
               "lshift", "rshift", "and", "xor", "or")
}
# Protocol methods whose default (object's) calls another one of the class's own:
# formatting a value without a __format__ of its own formats str(value), whose
# default is repr(value). (Truth is not followed: `if x:` is everywhere, and
# `bool(x)` as rare; neither runs __bool__ here.)
DEFAULT_FALLBACKS: dict[str, str] = {"__format__": "__str__", "__str__": "__repr__"}


def _concrete_builtin(name: str) -> type | None:
    """The builtin class ``name`` when an isinstance test of it tells the class: not
    ``object`` (everything is one) nor ``type`` (a class object is one); a builtin has
    no virtual subclasses, so a class of the repository passes only by deriving from it."""
    found = getattr(builtins, name, None)
    return found if isinstance(found, type) and found not in (object, type) else None


def fallback_chain(name: str) -> tuple[str, ...]:
    """The protocol methods Python runs, in turn, for a class without ``name``:
    ``__iadd__`` -> ``__add__``; ``__format__`` -> ``__str__`` -> ``__repr__``."""
    inplace = INPLACE_FALLBACKS.get(name)
    if inplace is not None:
        return (inplace,)
    chain: list[str] = []
    while (name := DEFAULT_FALLBACKS.get(name, "")) and name not in chain:
        chain.append(name)
    return tuple(chain)


# Iterating (a for loop, a comprehension) calls the iterator's next method on what
# the iteration method returned.
ITERATOR_NEXT: dict[str, str] = {"__iter__": "__next__", "__aiter__": "__anext__"}
_ITERATING = ".__iter__()"  # how `iter(x)` renders: x.__iter__()
# Decorators turning a generator function into a context manager factory, and the
# method that enters the context (and returns what the generator yields).
CONTEXT_MANAGERS: dict[str, str] = {"contextmanager": "__enter__", "asynccontextmanager": "__aenter__"}
# Builtins that iterate their first argument to the end.
CONSUMING_BUILTINS = frozenset({"sorted", "list", "tuple", "set", "frozenset", "min", "max", "sum", "any", "all"})
# Methods of builtin types and of much-used standard library objects: a call such
# as `name.lower()` is far more likely to reach str than the one repository method
# that happens to share the name.
BUILTIN_TYPE_METHODS = frozenset(
    name
    for kind in (str, bytes, list, dict, set, frozenset, tuple, int, float, complex, object)
    for name in dir(kind)
) | frozenset({"search", "match", "fullmatch", "sub", "subn", "group", "groups", "groupdict",
               "date", "time", "timestamp", "isoformat", "strftime", "total_seconds", "cursor",
               "fetchone", "fetchall", "fetchmany", "readline", "readlines", "seek", "tell",
               "is_dir", "is_file", "exists", "mkdir", "unlink", "resolve", "glob", "acquire",
               "release", "notify", "submit", "shutdown", "getvalue", "hexdigest", "digest"})
# Method names so common that a unique name in the repository still says nothing.
COMMON_METHODS = BUILTIN_TYPE_METHODS | frozenset(
    {
        "get", "set", "save", "load", "run", "update", "delete", "add", "remove", "close",
        "open", "read", "write", "start", "stop", "send", "process", "handle", "execute",
        "call", "apply", "clear", "copy", "items", "keys", "values", "append", "extend",
        "pop", "insert", "index", "count", "join", "split", "format", "render", "validate",
        "clean", "reset", "init", "setup", "teardown", "main", "create", "build", "parse",
        "check", "test", "match", "find", "filter", "map", "sort", "encode", "decode",
        "next", "flush", "wait", "put", "push", "emit", "log", "info", "debug",
        "warning", "error", "exception", "critical", "fetch", "connect", "commit",
        "rollback", "query", "first", "last", "all", "exists", "result", "dispatch", "name",
        "to_dict", "from_dict", "serialize", "deserialize", "dumps", "loads", "dump",
    }
)


# ----------------------------------------------------------------- expressions


def _member_like(attr: str, found: Values) -> bool:
    """Whether a class attribute would be an enum's member: a public name holding no
    function or class (those stay methods and nested classes)."""
    return not attr.startswith("_") and not any(v[0] == "S" for v in found)


@functools.lru_cache(maxsize=65536)
def parse_expr(expr: str) -> tuple[str, tuple[str, ...]]:
    """``a.b().c[]`` -> ("a", (".b", "()", ".c", "[]")); ``d["k"]`` -> ("d", ('["k"]',)),
    ``d.get("k",f)`` -> ("d", (".get", '("k",f)')): a call or an element op keeps its text."""
    ops: list[str] = []
    base_end = len(expr)
    for i, ch in enumerate(expr):
        if ch in ".([":
            base_end = i
            break
    base = expr[:base_end]
    i = base_end
    n = len(expr)
    while i < n:
        ch = expr[i]
        if ch == ".":
            j = i + 1
            while j < n and expr[j] not in ".([":
                j += 1
            ops.append(expr[i:j])
            i = j
        elif ch == "(" or ch == "[":
            j = _closing(expr, i)
            if j < 0:
                break
            ops.append(expr[i : j + 1])
            i = j + 1
        else:  # malformed; stop rather than guess
            break
    return base, tuple(ops)


def _closing(expr: str, i: int) -> int:
    """Where the bracket opened at ``i`` closes; -1 when it does not (keys hold no brackets)."""
    if expr[i + 1 : i + 2] in (")", "]"):
        return i + 1
    depth = 0
    for j in range(i, len(expr)):
        ch = expr[j]
        if ch == "(" or ch == "[":
            depth += 1
        elif ch == ")" or ch == "]":
            depth -= 1
            if depth == 0:
                return j
    return -1


def keys_read(name: str) -> str | None:
    """``d["a"]`` -> ``d[*]``: the read that stands for "which keys ``d`` has bindings for"
    (a key a literal lacks is not there); None for a name that is not a keyed element."""
    if not name.endswith("]") or name.endswith("[]"):
        return None
    return name[: name.rindex("[")] + "[*]"


# what `*args`/`**kwargs` get at places or under keys the call does not show (forwarded
# from a caller's own): its elements are not told apart by place or key (see _keyed)
SPREAD = "[?]"
# what `*args`/`**kwargs` get from a call forwarding a container at the same places and
# under the same keys (`inner(*args, **kwargs)` into `def inner(*args, **kwargs)`): the
# element at a place is that container's at the same place, in the caller
ALIGNED = "[=]"
PARAM_BITS = 4096  # bits of a mask: wider ones take more memory, narrower ones share bits more


@functools.lru_cache(maxsize=1 << 16)
def param_bit(scope_id: str, name: str) -> int:
    """A parameter's bit in the masks of what an answer read (``touched_param``).

    Parameters share bits, so a mask over-approximates the parameters behind an answer:
    that only costs resolving it once more. A checksum, not ``hash``: which answers are
    resolved again, and so the graph, must not vary with the interpreter's hash seed.
    """
    return 1 << (zlib.crc32(f"{scope_id}\0{name}".encode()) % PARAM_BITS)


_K = TypeVar("_K")


def _reading(memo: Mapping[_K, tuple[Any, ...]], params: int) -> list[_K]:
    """The keys of a memo whose answers read a parameter of the mask (the second item)."""
    return [key for key, hit in memo.items() if hit[1] & params]


def _constant_key(op: str) -> bool:
    """``[0]``, ``[2]`` or ``["k"]``: a place from the start or a string key (not ``[-1]``)."""
    return op[1:-1].isdigit() or (len(op) > 4 and op[1] == '"' and op[-2] == '"')


def _is_lambda(expr: str | None) -> bool:
    """Whether an argument is a lambda (``<lambda>``, ``<lambda@row:col>``)."""
    return expr is not None and expr.startswith("<lambda")


def _constant_member(name: str) -> bool:
    """Whether ``name`` is a member under constant keys (``OPS["a"]``, ``cfg["h"][0]``)."""
    base, ops = parse_expr(name)
    return base.isidentifier() and bool(ops) and all(_constant_key(op) for op in ops)


def _is_element(op: str) -> bool:
    """``[]`` or a constant-key element op such as ``["k"]`` or ``[0]``."""
    return op[0] == "["


# ---------------------------------------------------------------------- scopes


@dataclass
class Scope:
    """A module, class or function and the names bound directly in it."""

    id: str
    path: str
    kind: str
    parent: str | None  # enclosing scope id
    definition: Definition | None
    names: dict[str, list[object]] = field(default_factory=lambda: defaultdict(list))
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)
    params: dict[str, int] = field(default_factory=dict)  # name -> position
    collecting: set[str] = field(default_factory=set)  # the *args and **kwargs parameters
    owner_class: str | None = None  # for methods: the class id
    first_param: str | None = None
    method_kind: str = "function"  # function | method | classmethod | staticmethod | property

    @property
    def decorators(self) -> tuple[str, ...]:
        return self.definition.decorators if self.definition else ()


@dataclass(frozen=True)
class Defn:
    id: str
    value: tuple[str, str]  # ("S", id), built once: every lookup of the name yields it


@dataclass(frozen=True)
class Moved:
    """A binding that takes effect in another scope than the one it is written in
    (`global x; x = f`, or `registry[k] = f` on a dict of an enclosing scope); its
    value is still evaluated where it is written."""

    binding: Binding
    origin: str


def decorator_name(expr: str) -> str:
    """``testing.gen_test()`` (a decorator as extract renders it, arguments left out) -> ``gen_test``."""
    base = expr[:-2] if expr.endswith("()") else expr
    return base.rsplit(".", 1)[-1]


def registered_on(decorator: str) -> str | None:
    """``show`` of a ``@show.register`` / ``@show.register(int)`` decorator; None otherwise."""
    base = decorator[:-2] if decorator.endswith("()") else decorator
    return base[: -len(".register")] or None if base.endswith(".register") else None


def registering_call(site: CallSite) -> tuple[str, str] | None:
    """(``show``, ``impl``) of a call ``show.register(int, impl)`` or ``show.register(int)(impl)``."""
    callee = site.callee or ""
    if site.kind != "call":
        return None
    if callee.endswith(".register") and site.positional == 2 and len(site.args) > 1 and site.args[1]:
        return callee[: -len(".register")], site.args[1]
    if callee.endswith(".register()") and site.positional == 1 and site.args and site.args[0]:
        return callee[: -len(".register()")], site.args[0]
    return None


def _made_property(sources: list[object]) -> str | None:
    """The ``<property:...>`` value of a name bound once, by ``property(...)``."""
    if len(sources) == 1 and isinstance(sources[0], Binding) and (sources[0].value or "").startswith("<property:"):
        return sources[0].value
    return None


def _caches(scope: Scope) -> bool:
    """A ``cached_property``: not a data descriptor, so the instance's attribute hides it."""
    return any(decorator_name(d) == "cached_property" for d in scope.decorators)


def makes_property(decorator: str) -> bool:
    """Whether a decorator, by its name, makes a def a property: ``property`` and the
    descriptors made like it elsewhere (``cached_property``, Django's ``classproperty``,
    boltons' ``cachedproperty``, toolz's ``instanceproperty``, SQLAlchemy's
    ``hybrid_property``). Read by name: a def's kind is decided before anything resolves."""
    return decorator_name(decorator).endswith("property")


def _method_kind(d: Definition) -> str:
    names = {decorator_name(x) for x in d.decorators}
    if "staticmethod" in names:
        return "staticmethod"
    if "classmethod" in names or d.name in IMPLICIT_CLASSMETHODS:
        return "classmethod"
    if any(makes_property(x) or x.endswith((".setter", ".getter", ".deleter")) for x in d.decorators):
        return "property"
    return "method"


def descriptors(facts: Mapping[str, FileFacts]) -> tuple[set[str], set[str]]:
    """Classes that may give their instances a ``__get__`` or ``__set__`` (defining it, or
    deriving by name from one that does), and the names class bodies bind to a new
    instance of one.

    Told by names, so a superset (the lookups decide); reading such a name runs
    ``__get__``, assigning it through an instance ``__set__``.
    """
    classes: dict[str, tuple[str, tuple[str, ...]]] = {}  # id -> (name, base names)
    ids: set[str] = set()
    for path, f in facts.items():
        for d in f.definitions:
            if d.kind == "class":
                classes[symbol_id(path, d.qualname)] = (d.name, tuple(map(decorator_name, d.bases)))
            elif d.name in ("__get__", "__set__") and d.kind == "method":
                ids.add(symbol_id(path, d.parent))
    names = {classes[c][0] for c in ids if c in classes}
    grew = bool(ids)
    while grew:
        grew = False
        for cid, (name, bases) in classes.items():
            if cid not in ids and any(b in names for b in bases):
                ids.add(cid)
                names.add(name)
                grew = True
    attrs = {
        b.target for path, f in facts.items() for b in f.bindings
        if names and symbol_id(path, b.scope) in classes and b.kind == "assign" and (b.value or "").endswith("()")
        and decorator_name(b.value or "") in names
    } if names else set()
    return ids & classes.keys(), attrs


# -------------------------------------------------------------------- resolver


@dataclass(frozen=True)
class Target:
    id: str
    inferred: bool
    bound: bool | None  # gets the receiver implicitly; None when that cannot be told


_STEP_OPS = frozenset({".__iter__", ".__next__"})
# task queues: a function decorated as a task (Celery's `@shared_task`, `@app.task(...)`,
# Dramatiq's `@actor`) is run through these methods of what the decorator returns
TASK_DECORATORS = frozenset({"task", "shared_task", "periodic_task", "actor"})
TASK_CALLS = frozenset({"delay", "apply_async", "s", "si", "signature", "apply", "send", "send_with_options"})
# what Python gives every class, function or instance (a dict, a str) unless the repository
# defines it: `self.__dict__.pop(k)`, `cls.__name__.lower()` are outside calls
PYTHON_DATA = frozenset({"__dict__", "__name__", "__qualname__", "__module__", "__doc__", "__annotations__"})
# functools' caches: the wrapper they return has methods of its own
CACHE_DECORATORS = frozenset({"cache", "lru_cache"})
CACHE_METHODS = frozenset({"cache_clear", "cache_info", "cache_parameters"})


def _is_task(definition: Definition | None) -> bool:
    return definition is not None and any(
        d.removesuffix("()").rpartition(".")[2] in TASK_DECORATORS for d in definition.decorators
    )


def _only_imports(sources: list[object] | None) -> bool:
    """Whether a name is bound by imports of names alone (not a module, not a star)."""
    return bool(sources) and all(isinstance(s, Import) and s.name not in (None, "*") for s in sources or ())


NO_LOOPS: tuple[list[int], list[int]] = ([], [])


class _Timeline:
    """The sources of one name in one scope, ordered by the line where each binds it, so
    that which ones a line can see (``Resolver._live_at``) takes a few bisections rather
    than a walk over all of them: a module or test rebinding one name thousands of
    times asks once per use."""

    def __init__(
        self,
        sources: list[object],
        span_of: Callable[[object], tuple[int, int] | None],
        hides: Callable[[object], bool],
        loops: tuple[list[int], list[int]],
        for_loop: Callable[[object], tuple[int, int] | None],
    ) -> None:
        self.sources = sources
        # the first and the last lines of the scope's outermost loops: disjoint, in order
        self.loop_firsts, self.loop_lasts = loops
        spans = {k: span for k, src in enumerate(sources) if (span := span_of(src)) is not None}
        # the loops whose `for` binds the name: their body sees what the `for` gives it
        self.headers = sorted(loop for src in sources if (loop := for_loop(src)) is not None)
        self.unordered = [k for k in range(len(sources)) if k not in spans]
        self.order = sorted(spans, key=lambda k: spans[k][0])
        self.starts = [spans[k][0] for k in self.order]
        # the start of the last always-run source up to each position
        self.hidden_from = list(itertools.accumulate(
            (spans[k][0] if hides(sources[k]) else 0 for k in self.order), max))
        # definitions span several lines: one may start before a hiding source and end after
        self.wide = [(k, *spans[k]) for k in self.order if spans[k][1] > spans[k][0]]
        self.conditional = [k for k in self.order if isinstance(b := sources[k], Binding) and b.conditional]
        self.conditional_starts = [spans[k][0] for k in self.conditional]
        # plain assignments and loop targets: what a line of a function sees of them follows
        # the order of its statements (see Resolver.resolve_at)
        self.in_order = all(isinstance(b, Binding) and b.kind in ("assign", "for") for b in sources)

    def live_at(self, line: int) -> list[object] | None:
        before = bisect_left(self.starts, line)
        if before == 0 or any(first == line for first, _ in self.headers):
            # (the line of a `for` reads what its iterable names before the loop binds it,
            # and a loop written on one line runs its body there too: every source stays)
            return None
        start = self.hidden_from[before - 1]
        header = self._header_around(line)
        if header is not None:
            # `for f in seconds: f(1, 2)`: each round binds f before its body runs, so what
            # came before the loop (`for f in firsts: ...`), or later in it, never reaches
            # the body (the body of a loop run zero times runs nothing)
            start = max(start, header)
        live = set(self.unordered)
        live.update(self.order[bisect_left(self.starts, start, 0, before):before])
        live.update(k for k, first, last in self.wide if first < line and last >= start)
        loop_end = self._loop_end(line) if header is None else None
        if loop_end is not None:  # the conditional sources later in the loop around the line
            later = bisect_right(self.conditional_starts, line)
            live.update(self.conditional[later:bisect_right(self.conditional_starts, loop_end, later)])
        if len(live) == len(self.sources):
            return None
        return [self.sources[k] for k in sorted(live)]

    def _header_around(self, line: int) -> int | None:
        """The first line of the innermost loop around ``line`` (past its header) whose
        ``for`` binds the name; None when there is none."""
        found: int | None = None
        for first, last in self.headers:
            if first >= line:
                break
            if last >= line:
                found = first
        return found

    def _loop_end(self, line: int) -> int | None:
        """The last line of the outermost loop around ``line``; None outside every loop."""
        k = bisect_right(self.loop_firsts, line) - 1
        if k < 0 or self.loop_lasts[k] < line:
            return None
        return self.loop_lasts[k]


# compiled by build_native.py; the incremental link's tracing resolver derives from it
@mypyc_attr(allow_interpreted_subclasses=True)
class Resolver(DjangoModels, Metaclasses):
    """Resolves the expressions of one revision's Python files (Django's models: see
    :class:`impactbot.link.django.DjangoModels`)."""

    def __init__(self, facts: Mapping[str, FileFacts]) -> None:
        self.facts = facts
        self.modules = ModuleIndex.build(facts)
        self.scopes: dict[str, Scope] = {}
        self.inst_attrs: dict[str, dict[str, list[tuple[Binding, str]]]] = defaultdict(
            lambda: defaultdict(list)
        )
        # `obj.attr = value` outside obj's methods, by attr: an instance attribute of obj's
        # class when obj is known to be an instance of one class
        self.attr_stores: dict[str, list[tuple[Binding, str]]] = defaultdict(list)
        self._store_tables: dict[str, tuple[StoreTable, int]] | None = None  # see collect_stores
        self._collecting = False
        self.by_name: dict[str, list[str]] = defaultdict(list)  # def name -> ids
        self.param_flow: dict[tuple[str, str], list[tuple[str | None, str]]] = defaultdict(list)
        self._memo: dict[tuple[str, str], tuple[Values | None, int, bool]] = {}  # (values, touched, truncated)
        self._refreshed: set[tuple[str, str] | tuple[str, str, int]] = set()
        self._enums: dict[str, bool] = {}  # class id -> derives from an enum base (see is_enum)
        self._line_memo: dict[tuple[str, str, int], tuple[Values | None, int, bool]] = {}  # as _memo
        self._settled_memo: dict[tuple[str, str, str], list[object] | None] = {}
        self._timelines: dict[int, _Timeline] = {}  # id of a name's sources -> their order (see _live_at)
        # top-level function id -> lines where the module's own code calls it while it runs
        self.import_calls: dict[str, list[int]] = defaultdict(list)
        self._rewraps: set[int] = set()  # ids of the bindings ``_index_rewraps`` finds
        self._lambda_lines: set[tuple[str, int]] = set()  # (scope id, line), see ``_index_lambdas``
        self._lambda_spans: dict[str, list[tuple[int, int]]] = defaultdict(list)  # function id -> lambdas' lines
        # scope id -> the first and the last lines of its outermost loops, in order
        self._loops: dict[str, tuple[list[int], list[int]]] = {}
        self._loop_ends: dict[str, dict[int, int]] = {}  # scope id -> first line of each loop -> its last
        self._wrappers: dict[tuple[str, int], list[str]] = {}
        # generic function name -> (scope, expr of the function, expr of an implementation)
        # of each `@show.register` / `show.register(int, impl)` (see ``registered``)
        self.registrations: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        self.dispatchers: set[str] = set()  # ids of singledispatch functions and methods
        self._registered: dict[str, list[str]] = {}
        self._implementers: dict[str, list[str]] = {}  # see ``implementers``
        self.protocols: set[str] = set()  # ids of the classes naming `Protocol` as a base
        # (user, parameter, fixture, line) of each fixture use: the linker sets it (see fixture_classes)
        self.fixture_users: Callable[[], Sequence[tuple[str, str | None, str, int]]] = tuple
        self._fixture_classes: dict[str, list[str]] | None = None
        self._subclasses: dict[str, list[str]] | None = None
        self._metaclass_users: dict[str, list[str]] | None = None  # see ``metaclass_users``
        self._parametrized_names: set[tuple[str, str]] | None = None  # see ``_parametrized``
        self._members_memo: dict[tuple[str, str, int], tuple[tuple[Values, str | None] | None, int]] = {}
        self._dispatch_memo: dict[tuple[str, str, bool], tuple[Values, int]] = {}
        self._building_subclasses = False
        # classes whose MRO read dispatch while the subclass table was being built
        # (`class Default(self.Cache)`): not kept, and linked into the table once it is
        self._unsettled_mros: set[str] = set()
        self._overriders: dict[tuple[str, str], list[str]] = {}  # see overriders
        self._crowded_names: frozenset[str] | None = None
        self._active: set[tuple[str, str]] = set()
        self.resolutions = 0  # expressions resolved without a memoised answer, for measuring
        self.deadline: float | None = None  # time.monotonic() past which resolving raises OutOfTime
        self._sites_by_scope: dict[tuple[str, str], list[CallSite]] | None = None  # calls, for ``passed_through``
        self._pass_names: frozenset[str] | None = None
        self._import_depth = 0  # nested lookups of imported names, and how many the outermost made
        self._import_steps = 0
        self._returns_depth = 0  # nested _returned calls, see MAX_RETURNS_DEPTH
        self._mro: dict[str, tuple[str, ...]] = {}
        self._mro_alternatives: dict[str, tuple[tuple[str, ...], ...]] = {}
        self.setter_props: set[str] = set()  # properties with an ``@x.setter``: assigning them calls it
        # (function id, name) -> (first line, last line, class exprs) where isinstance holds
        self._narrowings: dict[tuple[str, str], list[tuple[int, int, tuple[str, ...]]]] = defaultdict(list)
        self._narrowing_scopes: set[str] = set()
        self.touched_param = 0  # the parameters read so far (see param_bit); 0: none
        # whether touched_param tells which parameters (see param_bit) or only that one was read
        self.param_masks = False
        self._masks: dict[int, int] = {}  # see kept_mask
        self._shared: dict[object, object] = {}  # see _shared_values
        self.truncated = False
        self._reverse: dict[str, dict[str, Value]] | None = None  # see _reverse_relations
        self._own_classes: dict[str, str] | None = None  # see own_queryset
        self._dotted_elements: list[tuple[Binding, str]] = []  # `mod.X[]` bindings, and their scope
        # per file, what a derived graph compares of those (see link.dirty): X first
        self.dotted_elements: dict[str, list[tuple[object, ...]]] = defaultdict(list)
        for path in sorted(facts):
            self._index_file(path, facts[path])
        for scope in list(self.scopes.values()):
            if scope.kind in ("function", "method"):
                self._relocate(scope)
        self._move_elements()
        self.descriptor_classes, self.descriptor_attrs = descriptors(facts)

    # ------------------------------------------------------------- indexing

    def _index_file(self, path: str, facts: FileFacts) -> None:
        dispatching = DISPATCHING | {i.bound_name for i in facts.imports if i.module == "functools"
                                     and i.name in DISPATCHING}  # `singledispatch as _dispatch`
        for d in facts.definitions:
            self._add_scope(path, d)
            self._index_dispatch(path, d, dispatching)
        for site in facts.calls:
            if site.callee is not None and ".register" in site.callee:
                self._index_registering_call(path, site)
            # `@x.setter` in a class body: the property x of that class can be assigned
            if site.kind == "decorator" and site.scope and site.callee and site.callee.endswith(".setter"):
                name = site.callee[: -len(".setter")].rsplit(".", 1)[-1]
                self.setter_props.add(symbol_id(path, f"{site.scope}::{name}"))
        self._index_body_sites(path, facts)
        self._index_lambda_spans(path, facts)
        self._index_loops(path, facts)
        for n in facts.narrowings:
            self._narrowings[(symbol_id(path, n.scope), n.name)].append((n.start, n.end, n.classes))
            self._narrowing_scopes.add(symbol_id(path, n.scope))
        for b in facts.bindings:
            self._add_binding(path, b)
        for imp in facts.imports:
            scope = self.scopes.get(symbol_id(path, imp.scope))
            if scope is not None and imp.name != "*":
                scope.names[imp.bound_name].append(imp)
            elif scope is not None:
                scope.names["*"].append(imp)

    def _index_lambda_spans(self, path: str, facts: FileFacts) -> None:
        for scope, first, last in facts.lambdas:
            self._lambda_spans[symbol_id(path, scope)].append((first, last))

    def _index_loops(self, path: str, facts: FileFacts) -> None:
        """The outermost loops of each scope: they are disjoint, and the one around a line
        is where everything a later assignment can bring around to it stands."""
        for scope, first, last in facts.loops:  # in order of their first lines
            scope_id = symbol_id(path, scope)
            firsts, lasts = self._loops.setdefault(scope_id, ([], []))
            if not lasts or first > lasts[-1]:
                firsts.append(first)
                lasts.append(last)
            self._loop_ends.setdefault(scope_id, {})[first] = last

    def _in_lambda(self, scope_id: str, line: int) -> bool:
        """Whether ``line`` of a function may be in a lambda's body (run whenever it is called)."""
        return any(first <= line <= last for first, last in self._lambda_spans.get(scope_id, ()))

    def _index_body_sites(self, path: str, facts: FileFacts) -> None:
        """What the order of statements in module and class bodies depends on, from their sites."""
        classes = {d.qualname for d in facts.definitions if d.kind == "class"}
        # most sites are in functions: none of these concern them
        body = [site for site in facts.calls if not site.scope or site.scope in classes]
        if body:
            self._index_import_calls(path, facts, body)
            self._index_rewraps(facts, body, classes)
            self._index_lambdas(path, facts, body, classes)

    def _index_import_calls(self, path: str, facts: FileFacts, body: list[CallSite]) -> None:
        """Where the module's own body (or a class body in it) calls one of its top-level
        functions by name: that function runs before the module has finished."""
        top = {d.qualname for d in facts.definitions if d.kind == "function" and "::" not in d.qualname}
        for site in body if top else ():
            name = parse_expr(site.callee)[0] if site.callee else ""
            if name in top and self._runs_on_import(path, site.scope):
                self.import_calls[symbol_id(path, name)].append(site.line)

    def _index_rewraps(self, facts: FileFacts, body: list[CallSite], classes: set[str]) -> None:
        """Assignments in a module or class body that pass the name's earlier value to the call
        they store (``f = partial(f, x)``, ``f = deco(f)``): what they store usually calls it,
        as a decorator's wrapper does, so they hide nothing."""
        stored = {
            (b.scope, b.line, b.target): b for b in facts.bindings
            if b.kind == "assign" and b.value and b.value.endswith("()") and (not b.scope or b.scope in classes)
        }
        for site in body if stored else ():
            for arg in site.args if site.kind == "call" else ():
                b = stored.get((site.scope, site.line, arg or ""))
                if b is not None:
                    self._rewraps.add(id(b))

    def _index_lambdas(self, path: str, facts: FileFacts, body: list[CallSite], classes: set[str]) -> None:
        """Lines of a module or class body holding a lambda: the sites of its body belong to the
        line's scope, but run whenever the lambda is called, not at the line."""
        for b in facts.bindings:
            if b.value is not None and b.value.startswith("<lambda") and (not b.scope or b.scope in classes):
                self._lambda_lines.add((symbol_id(path, b.scope), b.line))
        for site in body:
            if any(_is_lambda(a) for a in site.args) or any(_is_lambda(value) for _, value in site.kwargs):
                self._lambda_lines.add((symbol_id(path, site.scope), site.line))

    def _runs_on_import(self, path: str, qualname: str) -> bool:
        """Whether code in this scope runs as the module is imported: the module body, a class
        body in it or in such a class."""
        while qualname:
            scope = self.scopes.get(symbol_id(path, qualname))
            if scope is None or scope.kind != "class":
                return False
            qualname = scope.definition.parent if scope.definition is not None else ""
        return True

    def _relocate(self, scope: Scope) -> None:
        """Move rebindings of outer names (global, nonlocal, container writes) to their owner."""
        for name in sorted(scope.names):
            # `registry[]` and `registry["k"]` (a store under a constant key) belong to `registry`
            base = name[:-2] if name.endswith("[]") else name.partition("[")[0]
            if base in scope.globals:
                owner = self.scopes.get(scope.path)
            elif base in scope.nonlocals or (name != base and not self._binds(scope, base)):
                owner = self._enclosing_owner(scope, base)
            else:
                continue
            if owner is None or owner is scope:
                continue
            moved = [Moved(b, scope.id) for b in scope.names[name] if isinstance(b, Binding)]
            if moved:
                owner.names[name].extend(moved)
                scope.names[name] = [b for b in scope.names[name] if not isinstance(b, Binding)]
                if not scope.names[name]:
                    del scope.names[name]

    def _move_elements(self) -> None:
        """Element writes into another module's container (``from reg import HOOKS;
        HOOKS.append(f)``, ``reg.TABLE[k] = g``) belong to that module's name, where its
        own code (``for h in HOOKS: h()``) and every importer read them.

        The owner is found by following imports alone, before anything is resolved, so a
        revision's bindings stay a function of its files. Every file's writes count,
        whatever the order modules are imported in: a registry is read after the writes
        that fill it, or nothing would be found in it at all.
        """
        for scope in [s for s in self.scopes.values() if s.kind == "module"]:
            for name in [n for n in scope.names if n.endswith("[]") and n[:-2].isidentifier()]:
                if not _only_imports(scope.names.get(name[:-2])):
                    continue
                owner = self._imported_owner(scope, name[:-2])
                if owner is not None:
                    moved = [src if isinstance(src, Moved) else Moved(src, scope.id) for src in scope.names.pop(name)
                             if isinstance(src, (Binding, Moved))]
                    owner[0].names[owner[1] + "[]"].extend(moved)
        for b, sid in self._dotted_elements:
            scope = self.scopes[sid]
            module, _, name = b.target[:-2].rpartition(".")
            head = self.scopes[scope.path].names.get(module.partition(".")[0], ())
            imports = [s for s in head if isinstance(s, Import)]
            if not imports:
                continue  # `self.items[]` and the like: no module's name
            # the import is part of what a derived graph compares: it decides the owner
            how = tuple((i.module, i.name, i.alias, i.level) for i in imports)
            self.dotted_elements[scope.path].append((name, b.target, b.value, how))
            home = self._dotted_owner(scope, module)
            if home is not None and name in home.names:
                home.names[name + "[]"].append(Moved(b, sid))

    def _imported_owner(self, scope: Scope, name: str, depth: int = 0) -> tuple[Scope, str] | None:
        """The module scope that binds what ``from m import name`` in ``scope`` imports,
        through re-exports; None for a module, an outside name or an unclear import."""
        sources = scope.names.get(name)
        if depth > 3 or sources is None or len(sources) != 1 or not isinstance(sources[0], Import):
            return None
        imp = sources[0]
        target = self.modules.absolute(scope.path, imp.module, imp.level)
        if target is None or imp.name is None or self.modules.is_module(f"{target}.{imp.name}".lstrip(".")):
            return None
        for mod_path in self.modules.paths(target, scope.path):
            owner = self.scopes.get(mod_path)
            if owner is not None and imp.name in owner.names:
                if _only_imports(owner.names[imp.name]):
                    return self._imported_owner(owner, imp.name, depth + 1)
                return owner, imp.name
        return None

    def global_name(self, expr: str, scope_id: str) -> str | None:
        """The dotted name a module-level name (or an attribute of a module) is defined
        under, through imports and re-exports: ``post_save`` imported from
        ``django.db.models.signals`` is ``django.db.models.signals.post_save``, a name a
        module of the repository binds itself is that module's name and the name; None
        for a local name or an import that cannot be read."""
        scope = self.scopes.get(scope_id)
        head, _, rest = expr.partition(".")
        while scope is not None and scope.kind != "module" and not self._binds(scope, head) and scope.parent:
            scope = self.scopes.get(scope.parent)
        for _ in range(5):  # a re-export or two, no cycles
            sources = scope.names.get(head) if scope is not None else None
            if scope is None or not sources or len(sources) != 1:
                return None
            src = sources[0]
            if not isinstance(src, Import):
                module = self.modules.name_of.get(scope.path) if scope.kind == "module" else None
                return None if module is None else ".".join(p for p in (module, head, rest) if p)
            target = self.modules.absolute(scope.path, src.module, src.level)
            if target is None:
                return None
            if src.name is None:
                dotted = target if src.alias else target.split(".", 1)[0]
            else:
                dotted = f"{target}.{src.name}".lstrip(".")
            dotted = f"{dotted}.{rest}" if rest else dotted
            if self.modules.is_module(dotted):
                return dotted  # a module (or a package's submodule its __init__ does not bind)
            module, _, name = dotted.rpartition(".")
            while module and not self.modules.is_module(module) and "." in module:
                module, _, more = module.rpartition(".")
                name = f"{more}.{name}"
            paths = self.modules.paths(module, scope.path) if module and self.modules.is_module(module) else []
            if not paths or name == "":
                return dotted  # outside the repository: its own dotted name
            scope, (head, _, rest) = self.scopes.get(paths[0]), name.partition(".")
        return None

    def _dotted_owner(self, scope: Scope, module: str) -> Scope | None:
        """The module scope ``reg`` or ``pkg.reg`` names where ``scope`` writes ``reg.X[k]``."""
        name = self.global_name(module, scope.id)
        paths = self.modules.paths(name, scope.path) if name is not None and self.modules.is_module(name) else []
        return self.scopes.get(paths[0]) if paths else None

    def _binds(self, scope: Scope, name: str) -> bool:
        return name in scope.names or name in scope.params

    def _enclosing_owner(self, scope: Scope, name: str) -> Scope | None:
        parent = self.scopes.get(scope.parent) if scope.parent else None
        while parent is not None:
            if parent.kind != "class" and (name in parent.globals or self._binds(parent, name)):
                return self.scopes.get(parent.path) if name in parent.globals else parent
            parent = self.scopes.get(parent.parent) if parent.parent else None
        return None

    def _add_scope(self, path: str, d: Definition) -> None:
        sid = symbol_id(path, d.qualname)
        if sid in self.scopes:
            return
        parent = symbol_id(path, d.parent) if d.qualname else None
        scope = Scope(sid, path, d.kind, parent, d)
        self.scopes[sid] = scope
        if d.qualname:
            self.by_name[d.name].append(sid)
            parent_scope = self.scopes.get(parent) if parent else None
            if parent_scope is not None:
                parent_scope.names[d.name].append(Defn(sid, ("S", sid)))
        if d.signature is not None:
            for i, p in enumerate(d.signature.params):
                scope.params[p.name] = i
                if p.kind in ("var_positional", "var_keyword"):
                    scope.collecting.add(p.name)
            if d.kind == "method":
                scope.owner_class = parent
                scope.method_kind = _method_kind(d)
                if d.signature.params and scope.method_kind != "staticmethod":
                    scope.first_param = d.signature.params[0].name

    def _add_binding(self, path: str, b: Binding) -> None:
        sid = symbol_id(path, b.scope)
        scope = self.scopes.get(sid)
        if scope is None:
            return
        if b.kind == "global":
            if scope.kind != "module":  # `global r` at module level is allowed, and says nothing
                scope.globals.add(b.target)
            return
        if b.kind == "nonlocal":
            scope.nonlocals.add(b.target)
            return
        target = b.target
        if "." in target:
            if target.endswith("[]") and "(" not in target and "[" not in target[:-2]:
                self._dotted_elements.append((b, sid))  # `reg.HOOKS.append(f)`: see _move_elements
            head, _, attr = target.partition(".")
            if scope.owner_class and head == scope.first_param and "." not in attr:
                self.inst_attrs[scope.owner_class][attr].append((b, sid))
            elif _stored_attr(attr.rpartition(".")[2]):
                self.attr_stores[attr.rpartition(".")[2]].append((b, sid))
            return
        scope.names[target].append(b)

    # -------------------------------------------------------------- classes

    def class_bases(self, class_id: str) -> list[Value]:
        out: list[Value] = []
        for vals in self.base_values(class_id):
            out.extend(v for v in vals if v[0] in ("S", "X"))
        return out

    def base_values(self, class_id: str) -> list[Values]:
        """What each base expression of a class is when its class statement runs."""
        return [vals for vals, _ in self._bases(class_id, split=False, querysets=False)]

    def _bases(self, class_id: str, split: bool, querysets: bool = True) -> list[tuple[Values, list[Values]]]:
        """Per base expression: what it is when the class statement runs and, with ``split``,
        what each binding of its first name gives (a name bound by several statements,
        ``if``/``else`` or ``try``/``except ImportError``, holds the value of one of them).
        With ``querysets``, a queryset class a manager base copies methods from comes first
        (see ``_queryset_base``): one entry more than the class has base expressions."""
        scope = self.scopes.get(class_id)  # None for an outside base's marker
        if scope is None or scope.definition is None:
            return []
        where = scope.parent or class_id
        out: list[tuple[Values, list[Values]]] = []
        for expr in scope.definition.bases:
            queryset = self._queryset_base(scope, expr, where) if querysets else {}
            if queryset:
                out.append((queryset, [queryset]))
            vals, each = self._base_value(class_id, expr, where, split)
            # `Generic[T]` and `Protocol` give a class no attributes worth finding: as an outside
            # base they would hide what the repository's later bases define (Python puts them last)
            out.append((_without_outside(vals), [_without_outside(v) for v in each]) if _typing_base(expr)
                       else (vals, each))
        return out

    def _base_value(self, class_id: str, expr: str, where: str, split: bool) -> tuple[Values, list[Values]]:
        """What a base expression is, and what each binding of its first name gives (see ``_bases``)."""
        found = self.base_sources(class_id, expr)
        if found is None:
            vals = self.resolve(expr, where) or {}
            return vals, [vals]
        sources, owner, filtered = found
        vals = self._value_of(sources, owner, expr, where) if filtered else self.resolve(expr, where) or {}
        groups = _alternative_sources(sources) if split else []
        if len(groups) > 1:
            return vals, [self._value_of(group, owner, expr, where) for group in groups]
        return vals, [vals]

    def _queryset_base(self, scope: Scope, expr: str, where: str) -> Values:
        """``class BookManager(Manager.from_queryset(BookQuerySet))``: Django's manager made
        with the queryset's methods copied in. The queryset classes of the repository
        stand in for the class the call makes, before the manager class it derives from."""
        if not expr.endswith(".from_queryset()") or scope.definition is None:
            return {}
        site = self._site_at(where, scope.definition.start_line, expr[:-2])
        if site is None or not site.args or not site.args[0]:
            return {}
        given = self._argument_value(site.args[0], self.scopes[where], site.line)
        return {v: inf for v, inf in given.items() if self.is_class(v)}

    def _value_of(self, sources: list[object], owner: Scope, expr: str, where: str) -> Values:
        """``expr`` with its first name bound by ``sources`` alone."""
        vals = self._resolve_sources(sources, owner)
        return self._apply_ops(vals, parse_expr(expr)[1], where) if vals else vals

    def base_sources(self, class_id: str, expr: str) -> tuple[list[object], Scope, bool] | None:
        """The bindings of a base expression's first name that the class statement can see,
        the scope holding them, and whether some of that scope's bindings are not among
        them; None when the name is not bound in a scope (a parameter, a builtin, a star
        import, a ``global``): the plain lookup decides.

        A class statement runs where it is written: a module or class body runs top to
        bottom, and so does the function a class statement is in; an outer function's
        names, read from inside a function, may hold any of their values by the time it
        runs, and the module's hold what the module bound last (see ``settled``). Only
        the first name is ordered: ``mod.Base`` reads the module's attribute when set last.
        """
        scope = self.scopes[class_id]
        assert scope.definition is not None
        name, ops = parse_expr(expr)
        if (ops and _is_element(ops[0])) or not name.isidentifier():
            return None
        return self._sources_at(name, scope.parent or class_id, scope.definition.start_line)

    def _sources_at(self, name: str, scope_id: str, line: int) -> tuple[list[object], Scope, bool] | None:
        """The scope ``lookup`` finds ``name`` in, from a statement at ``line`` of ``scope_id``,
        with the bindings there that the statement can see."""
        scope = self.scopes.get(scope_id)
        first = ordered = True
        passed = False  # a class body's own later binding was passed over: `resolve` would not
        while scope is not None and name not in scope.globals:
            if (first or scope.kind != "class") and name not in scope.nonlocals:
                self._note((scope.id, name))
                if name in scope.params:
                    return None
                if first and scope.kind == "class" and name in scope.names and self._unbound_yet(scope, name, line):
                    passed = True
                elif name in scope.names:
                    sources = scope.names[name]
                    live = self._live_at(sources, line, scope.id) if ordered else self.settled(scope, name, scope_id)
                    return (sources, scope, passed) if live is None else (live, scope, True)
            ordered = ordered and scope.kind in ("module", "class")
            first = False
            scope = self.scopes.get(scope.parent) if scope.parent else None
        return None

    def _unbound_yet(self, scope: Scope, name: str, line: int) -> bool:
        """Whether a class body binds ``name`` only from ``line`` on: a read there finds the
        module's (``run = staticmethod(run)``), as Python looks past a class body's names."""
        spans = [self._source_span(src) for src in scope.names[name]]
        return all(span is not None and span[0] >= line for span in spans)

    def _live_at(self, sources: list[object], line: int, scope_id: str) -> list[object] | None:
        """The sources of a name that can be bound at ``line`` of their scope; None for all of them.

        The last source before the line that always runs (an assignment, import or
        definition outside any branch or loop of the scope) hides what came before it;
        ``try: from a import X`` / ``except ImportError: class X`` hide nothing. A
        conditional assignment after the line stays when a loop of ``scope_id`` holds
        both (the next round brings it around); nothing else after it can be reached.
        With nothing before the line (a name Python would not find yet, or a line the
        facts do not order), every source stays.
        """
        if len(sources) < 2:
            return None
        return self._timeline(sources, scope_id).live_at(line)

    def _timeline(self, sources: list[object], scope_id: str) -> _Timeline:
        """The order of a name's sources in their scope, computed once per name (reads ask it
        per use)."""
        timeline = self._timelines.get(id(sources))
        if timeline is None or timeline.sources is not sources:
            loops = self._loops.get(scope_id, NO_LOOPS)
            ends = self._loop_ends.get(scope_id, {})

            def for_loop(src: object) -> tuple[int, int] | None:
                """The lines of the loop a `for` binding heads."""
                if not isinstance(src, Binding) or src.kind != "for" or src.line not in ends:
                    return None
                return src.line, ends[src.line]

            timeline = self._timelines[id(sources)] = _Timeline(sources, self._source_span, self._hides, loops,
                                                                for_loop)
        return timeline

    def _source_span(self, src: object) -> tuple[int, int] | None:
        """The first and last line where a source binds its name; None for a rebinding made
        from another scope (it happens whenever that code runs). A name defined twice in a
        scope is one definition spanning both: a binding between them does not hide it.
        A class statement binds its name once its body has run: the body (``backend =
        DjangoTemplates`` in ``class DjangoTemplates``) still sees the earlier binding."""
        if isinstance(src, (Binding, Import)):
            return src.line, src.line
        if isinstance(src, Defn):
            d = self.scopes[src.id].definition
            if d is None:
                return None
            return (d.end_line if d.kind == "class" else d.start_line), d.end_line
        return None

    def _hides(self, src: object) -> bool:
        """A source that always runs: earlier bindings of its name are gone after it (unless it
        wraps them, see ``_index_rewraps``)."""
        if isinstance(src, Binding):
            return src.kind == "assign" and not src.conditional and id(src) not in self._rewraps
        if isinstance(src, Import):
            return not src.conditional
        if isinstance(src, Defn):
            definition = self.scopes[src.id].definition
            return definition is not None and not definition.conditional
        return False

    def settled(self, scope: Scope, name: str, reader: str | None = None) -> list[object] | None:
        """The bindings of a module's name that code run once the module has finished sees
        (a function called later, another module importing it): what the module bound last
        and the rebindings made from elsewhere; None for all of them.

        A function may also run while the module still runs: read from the scope
        ``reader``, in a top-level function of the module, the name also has the bindings
        seen where the module's own body calls that function. A call reaching it some
        other way (through another function, an alias) is not seen, and what it would see
        is given up.
        """
        sources = scope.names.get(name)
        if not sources or len(sources) < 2 or scope.kind != "module" or scope.definition is None:
            return None
        if not name.isidentifier() and not _constant_member(name):
            return None
        via = self.top_level(reader) if reader is not None and reader.startswith(scope.id + "::") else None
        lines = self.import_calls.get(via, ()) if via is not None else ()
        key = (scope.id, name, via if via is not None and lines else "")
        if key not in self._settled_memo:
            ends = [scope.definition.end_line + 1, *lines]
            self._settled_memo[key] = self._live_at_any(sources, ends, scope.id)
        return self._settled_memo[key]

    def _live_at_any(self, sources: list[object], lines: list[int], scope_id: str) -> list[object] | None:
        """The sources that can be bound at one of the lines; None for all of them."""
        seen: set[int] = set()
        for line in lines:
            live = self._live_at(sources, line, scope_id)
            if live is None:
                return None
            seen |= {id(src) for src in live}
        return None if len(seen) == len(sources) else [src for src in sources if id(src) in seen]

    def top_level(self, scope_id: str) -> str | None:
        """The definition directly in the module that holds a scope; None for the module."""
        scope = self.scopes.get(scope_id)
        while scope is not None and scope.parent is not None and scope.parent != scope.path:
            scope = self.scopes.get(scope.parent)
        return scope.id if scope is not None and scope.parent is not None else None

    def _note(self, read: tuple[str, str]) -> None:
        """A read that no lookup records by itself (the tracing resolver keeps them)."""

    def _index_dispatch(self, path: str, d: Definition, dispatching: Collection[str]) -> None:
        """Protocols, singledispatch functions and the implementations registered on them."""
        if d.kind == "class" and any(b.split("[", 1)[0].rpartition(".")[2] == "Protocol" for b in d.bases):
            self.protocols.add(symbol_id(path, d.qualname))
        if any(decorator_name(deco) in dispatching for deco in d.decorators):
            self.dispatchers.add(symbol_id(path, d.qualname))
        for deco in d.decorators:
            base = registered_on(deco)
            if base is not None:
                impl = f"<def:{symbol_id(path, d.qualname)}>"
                self.registrations[base.rpartition(".")[2]].append((symbol_id(path, d.parent or ""), base, impl))

    def _index_registering_call(self, path: str, site: CallSite) -> None:
        """``show.register(int, impl)`` and ``show.register(int)(impl)``."""
        impl = registering_call(site)
        if impl is not None:
            base, expr = impl
            self.registrations[base.rpartition(".")[2]].append((symbol_id(path, site.scope), base, expr))

    def registered(self, func_id: str) -> list[str]:
        """The implementations registered on a singledispatch function or method: a call
        of it may run any of them, whichever module registers them."""
        name = self.scopes[func_id].definition.name  # type: ignore[union-attr]
        self._note(("<registered>", name))
        cached = self._registered.get(func_id)
        if cached is not None:
            return cached
        out: list[str] = []
        for where, base, impl in self.registrations.get(name, ()):
            if not any(v[0] == "S" and v[1] == func_id for v in self.resolve(base, where) or {}):
                continue
            for val in self.resolve(impl, where) or {}:
                if val[0] in ("S", "F") and val[1] != func_id and self.scopes[val[1]].kind in ("function", "method"):
                    out.append(val[1])
        self._registered[func_id] = out = list(dict.fromkeys(out))
        return out

    def methods_read(self, class_id: str) -> None:
        """Which methods a class defines was read (by the class edges of another class)."""
        self._note((class_id, "<methods>"))

    def mro(self, class_id: str) -> tuple[str, ...]:
        """C3 linearisation over in-repository classes; ``X:`` marks an outside base.

        A base name that may hold one of several classes puts them all in it (in the
        order of its bindings), so it holds every class the class may inherit from;
        ``mro_alternatives`` keeps the order each choice gives.
        """
        if class_id in self._mro:
            return self._mro[class_id]
        self._mro[class_id] = (class_id,)  # guards against cyclic bases
        outer_truncated, self.truncated = self.truncated, False
        bases = self._bases(class_id, split=True)
        seqs: list[list[str]] = []
        for vals, _ in bases:
            for base in vals:
                if base[0] == "S" and self.scopes[base[1]].kind == "class":
                    seqs.append(list(self.mro(base[1])))
                elif base[0] == "X":
                    seqs.append(["X:"])
        seqs.append([s[0] for s in seqs])
        self._mro[class_id] = (class_id, *_c3_merge(seqs))
        alternatives = self._linearisations(class_id, [each for _, each in bases])
        if len(alternatives) > 1:
            self._mro_alternatives[class_id] = alternatives
        merged = self._mro[class_id]
        if self.truncated and self._building_subclasses:
            self._unsettled_mros.add(class_id)
            del self._mro[class_id]
            self._mro_alternatives.pop(class_id, None)
        self.truncated = outer_truncated or self.truncated
        return merged

    def mro_alternatives(self, class_id: str) -> tuple[tuple[str, ...], ...]:
        """The MROs the class may have: one per choice of what its base names hold."""
        merged = self.mro(class_id)
        return self._mro_alternatives.get(class_id, (merged,))

    def _linearisations(self, class_id: str, bases: list[list[Values]]) -> tuple[tuple[str, ...], ...]:
        """The MRO of each combination of what the base expressions may bring; empty when
        there is one combination (the merged MRO) or too many to tell apart."""
        choices: list[list[tuple[tuple[str, ...], ...]]] = []
        count = 1
        for each in bases:
            options = self._base_options(class_id, each)
            if options is None:
                return ()
            if options:
                choices.append(options)
                count *= len(options)
        if count == 1 or count > MAX_ALTERNATIVES:
            return ()
        out: dict[tuple[str, ...], None] = {}
        for combination in itertools.product(*choices):
            seqs = [list(mro) for option in combination for mro in option]
            seqs.append([s[0] for s in seqs])
            order = (class_id, *_c3_merge(seqs))
            out[order] = None
        return tuple(out)

    def _base_options(self, class_id: str, each: list[Values]) -> list[tuple[tuple[str, ...], ...]] | None:
        """What one base expression may bring to the MRO: per binding of its name, and per
        class that binding may give (a parameter, a container element, an attribute read
        through ``self`` of any subclass: ``class Default(self.Cache)``), that class's MROs;
        the expression holds one class when the statement runs. None when too many."""
        out: dict[tuple[tuple[str, ...], ...], None] = {}
        for vals in each:
            for val in vals:
                if val[0] == "S" and self.scopes[val[1]].kind == "class":
                    options = self.mro_alternatives(val[1])
                elif val[0] == "X":
                    options = (("X:",),)
                else:
                    continue
                for mro in options:
                    if class_id not in mro:  # no class derives from itself
                        out[(mro,)] = None
                if len(out) > MAX_ALTERNATIVES:
                    return None
        return list(out)

    def class_member(self, class_id: str, attr: str, start: int = 0) -> tuple[Values, str | None] | None:
        """Look ``attr`` up along the MRO; returns (values, owning class) or None."""
        key = (class_id, attr, start)
        hit = self._members_memo.get(key)
        if hit is not None:
            self.touched_param |= hit[1]
            return hit[0]
        outer, outer_truncated = self.touched_param, self.truncated
        self.touched_param, self.truncated = 0, False
        result = self._class_member(class_id, attr, start)
        touched, truncated = self.touched_param, self.truncated
        if not truncated:
            self._members_memo[key] = self._shared_member(result, self.kept_mask(touched))
        self.touched_param = outer | touched
        self.truncated = outer_truncated or truncated
        return result

    def _class_member(self, class_id: str, attr: str, start: int) -> tuple[Values, str | None] | None:
        """The first class along the MRO with ``attr``, in each MRO the class may have.

        Past the class itself (``start`` > 1: the super() of a subclass) only the merged
        MRO's positions are known; dispatch through those skips classes with a choice.
        """
        alternatives = self.mro_alternatives(class_id) if start <= 1 else (self.mro(class_id),)
        if len(alternatives) == 1:
            return self._first_member(alternatives[0][start:], attr, start == 0)
        found: tuple[Values, str | None] | None = None
        for mro in alternatives:
            hit = self._first_member(mro[start:], attr, start == 0)
            if hit is None:
                continue
            if found is None:
                found = dict(hit[0]), hit[1]
            else:
                _merge(found[0], hit[0], False)
                found = found[0], found[1] or hit[1]
        return found

    def _first_member(
        self, mro: tuple[str, ...], attr: str, own_class: bool = True
    ) -> tuple[Values, str | None] | None:
        """The first class along ``mro`` giving ``attr``; ``own_class`` when the first one
        may be the object's own class (not so past the class of a ``super()``)."""
        self._note(("<stores>", attr))
        stored = attr in self.attr_stores  # stored on some object outside its class
        scopes, inst_attrs = self.scopes, self.inst_attrs
        for i, cls in enumerate(mro):
            if cls.startswith("X:"):
                return {EXTERNAL: False}, None
            scope = scopes[cls]
            own = inst_attrs[cls].get(attr, []) if cls in inst_attrs else []
            if attr in scope.names:
                found = self._resolve_sources(scope.names[attr], scope)
                if self.is_enum(cls) and _member_like(attr, found):
                    return {("I", cls): False}, cls  # `Color.RED` is a Color, whatever its value
                return (self._with_stores(found, scope.names[attr], own) if own else found), cls
            outside = self._stores_on(cls, attr, own_class and i == 0) if stored else []
            if own or outside:
                # a property further up is a data descriptor: it wins over the instance's
                # own attribute (what `self.ptr = p` stored went through its setter)
                prop = self._data_descriptor(mro[i + 1 :], attr)
                if prop is not None:
                    return prop
                vals: Values = {}
                for binding, where in [*own, *outside]:
                    _merge(vals, self._stored_value(binding, where), True)
                # a store from outside the class may happen late, or not at all: until it
                # does, the attribute is what the classes along the MRO give
                rest = None if own else self._first_member(mro[i + 1 :], attr, False)
                if rest is None:
                    return vals, cls
                _merge(vals, rest[0], False)
                return vals, rest[1]
        return None

    def _with_stores(self, found: Values, sources: list[object], stores: list[tuple[Binding, str]]) -> Values:
        """A class-level default (``conn = None``) that the class's own methods also store
        on the instance (``self.conn = Conn()``): either, as the instance's own attribute
        hides the class's once set. A method or property of that name stays what it is
        (stores on a property go through its setter)."""
        if any(isinstance(src, Defn) for src in sources) or _made_property(sources) is not None:
            return found
        out = dict(found)
        for binding, where in stores:
            _merge(out, self._stored_value(binding, where), True)
        return out

    def _data_descriptor(self, mro: tuple[str, ...], attr: str) -> tuple[Values, str | None] | None:
        """The property (not a ``cached_property``) the first class along ``mro`` defining
        ``attr`` in its body has for it; None when that is anything else."""
        for cls in mro:
            if cls.startswith("X:"):
                return None
            scope = self.scopes[cls]
            if attr not in scope.names:
                continue
            if _made_property(scope.names[attr]) is not None:
                return self._resolve_sources(scope.names[attr], scope), cls
            defs = [b for b in scope.names[attr] if isinstance(b, Defn)]
            if not defs or len(defs) != len(scope.names[attr]):
                return None
            kinds = [self.scopes[d.id] for d in defs if d.id in self.scopes]
            if kinds and all(k.method_kind == "property" and not _caches(k) for k in kinds):
                return self._resolve_sources(scope.names[attr], scope), cls
            return None
        return None

    def _stored_value(self, binding: Binding, where: str) -> Values:
        """What an assignment to an instance attribute stored. A property read there ran its
        getter there: reading the attribute later gives what the getter returned, and runs
        nothing."""
        vals = self._stored_call(binding, where) if binding.value else {}
        if not vals or not any(v[0] == "R" for v in vals):
            return vals or {}
        out: Values = {}
        seen: set[Value] = set()
        todo = list(vals.items())
        while todo:  # a getter returning another property read ran that one too
            val, inferred = todo.pop()
            if val[0] != "R":
                _merge(out, {val: inferred}, False)
            elif val not in seen:
                seen.add(val)
                todo.extend((v, True) for v in self.returns(val[1]))
        return out

    def _stored_call(self, binding: Binding, where: str) -> Values:
        """``self.cls = load_object(path)``: as ``_binding_value`` reads a call's result."""
        assert binding.value is not None
        scope = self.scopes.get(where)
        passed = self.passed_through(binding.value, scope, binding.line) if scope is not None else None
        return passed if passed is not None else self.resolve(binding.value, where) or {}

    # ------------------------------------------------------- pass-through

    def passed_through(self, value: str, scope: Scope, line: int, at: int | None = None) -> Values | None:
        """What ``f(arg)`` gives, for a function ``f`` returning a parameter, at this call
        (the statement at ``line``; its call of ``f`` at ``at`` or after, default ``line``).

        Flows are not told apart by call: a parameter holds every argument any call
        passed, so ``cls = load_object(spec)`` would hold whatever any other call of
        ``load_object`` loaded. A return of a bare parameter gives this call's argument
        instead (one level of context); the other returns give what they always give.
        None when ``value`` is not such a call (then it resolves as any expression).
        """
        callee = value[:-2]
        if not value.endswith("()") or callee.rpartition(".")[2] not in self._pass_through_names():
            return None  # (most calls: no function of that name returns a parameter)
        if not _DOTTED.fullmatch(callee):
            return None  # a call of a call's result, an element, ...
        key = ("<through>", f"{scope.id}@{line}/{at}:{value}")
        if key in self._active or len(self._active) > MAX_DEPTH:
            self.met_cycle()
            return None  # functions returning each other's calls: resolve as any expression
        self._active.add(key)
        try:
            return self._passed_through(callee, scope, line, line if at is None else at)
        finally:
            self._active.discard(key)

    def _passed_through(self, callee: str, scope: Scope, line: int, at: int) -> Values | None:
        site = self._site_at(scope.id, at, callee)
        if site is None or site.star or site.starstar:
            return None
        funcs = (self.resolve_line(callee, scope.id, line) if scope.kind in ("module", "class")
                 else self.resolve(callee, scope.id))
        if not funcs or len(funcs) > MAX_VALUES:
            return None
        returned: list[tuple[Scope, int]] = []
        for val in funcs:
            func = self.scopes.get(val[1]) if val[0] in ("S", "BM") else None
            if func is None or func.kind not in ("function", "method") or not self._returns_a_parameter(func):
                return None
            # a method called on an instance (or a classmethod) gets its first parameter bound
            returned.append((func, int(val[0] == "BM" or func.method_kind == "classmethod")))
        out: Values = {}
        for func, bound in returned:
            for src in func.names["<return>"]:
                arg = self._argument(func, src, site, bound)
                if arg is None:
                    _merge(out, self._resolve_sources([src], func), True)
                elif arg:
                    # `wrap(mark(Cls))`: the inner call passes its own argument through too
                    inner = self.passed_through(arg, scope, line, site.line)
                    _merge(out, self._argument_value(arg, scope, line) if inner is None else inner, True)
        return out

    def _pass_through_names(self) -> frozenset[str]:
        """Names of the functions whose own statements make them pass-through (below)."""
        if self._pass_names is None:
            self._pass_names = frozenset(
                s.definition.name for s in self.scopes.values()
                if s.kind in ("function", "method") and s.definition is not None and _returns_a_parameter(s))
        return self._pass_names

    def _returns_a_parameter(self, func: Scope) -> bool:
        """A plain function (no wrapper, no generator) with a return statement giving one
        of its parameters as it is."""
        self._note((func.id, "<return>"))
        self._note((func.id, "<signature>"))
        return _returns_a_parameter(func) and not self.wrappers(func.id)

    def _argument(self, func: Scope, src: object, site: CallSite, bound: int) -> str | None:
        """The argument expression ``site`` passes for the parameter ``src`` returns; ""
        when it passes one that is not an expression to resolve; None when the return is
        not a bare parameter, the bound receiver (``bound`` leading parameters are), or
        left to its default (or to ``*args``)."""
        if not isinstance(src, Binding) or src.kind != "return" or src.value not in func.params:
            return None  # (a return annotation gives what it names)
        d = func.definition
        params = d.signature.params if d is not None and d.signature is not None else ()
        for i, arg in enumerate(site.args):  # (the caller checked the site has no splat)
            if positional_param(params, i + bound, False) == src.value:
                return arg or ""
        return next((arg or "" for k, arg in site.kwargs if keyword_param(params, k) == src.value), None)

    def _argument_value(self, arg: str, scope: Scope, line: int) -> Values:
        if scope.kind in ("module", "class"):
            return self.resolve_line(arg, scope.id, line) or {}
        return self.resolve(arg, scope.id) or {}

    def _site_at(self, scope_id: str, line: int, callee: str) -> CallSite | None:
        """The call of ``callee`` an assignment at ``line`` makes: the first one in its scope
        at or after the line (a statement may span lines), when that line has only one."""
        self._note((scope_id, "<calls>"))
        if self._sites_by_scope is None:
            self._sites_by_scope = defaultdict(list)
            for path in sorted(self.facts):
                for site in self.facts[path].calls:
                    if site.kind == "call" and site.callee is not None:
                        self._sites_by_scope[(symbol_id(path, site.scope), site.callee)].append(site)
            for sites in self._sites_by_scope.values():
                sites.sort(key=lambda s: s.line)
        sites = self._sites_by_scope.get((scope_id, callee), [])
        i = bisect_left(sites, line, key=lambda s: s.line)
        if i == len(sites) or sites[i].line - line > MAX_STATEMENT_LINES:
            return None
        if i + 1 < len(sites) and sites[i + 1].line == sites[i].line:
            return None  # two calls of it on that line: which one is assigned is not known
        return sites[i]

    def _stores_on(self, class_id: str, attr: str, exact: bool = True) -> list[tuple[Binding, str]]:
        """Assignments ``obj.attr = value`` outside the class's methods where ``obj`` is an
        instance of the class or of a subclass (``self`` elsewhere, an annotation) and,
        with ``exact`` (the object read may be of the class itself), one constructed from
        it."""
        self._note(("<stores>", attr))
        if attr not in self.attr_stores:
            return []
        if self._collecting:  # not known yet (what is resolved meanwhile is forgotten after)
            return []
        if self._store_tables is None:
            self.collect_stores()
        assert self._store_tables is not None
        table, touched = self._store_tables[attr]
        self._reuse_stores(attr)
        self.touched_param |= touched
        return [(binding, where) for binding, where, only in table.get(class_id, ()) if exact or not only]

    def collect_stores(self) -> None:
        """Decide which class each ``obj.attr = value`` outside a class stores into.

        Done once per pass, before any call site: resolving the objects from inside a
        member lookup would tie that lookup into cycles through every function that
        stores the attribute, cutting its answer short depending on where it started.
        While collecting, outside stores count as unknown (an object is resolved without
        them); the answers memoised meanwhile are dropped after.
        """
        tables: dict[str, tuple[StoreTable, int]] = {}
        self._store_tables = tables
        self._collecting = True
        try:
            for attr in sorted(self.attr_stores):
                tables[attr] = self._store_table(attr)
        finally:
            self._collecting = False
            self.forget()
            self._store_tables = tables

    def _store_table(self, attr: str) -> tuple[StoreTable, int]:
        """The stores of ``attr`` by class, and the parameters deciding that read (a mask).

        Only an object known to be of one class counts: a guess among several would give
        each of them the attribute. The object is resolved as anywhere in its scope, not as
        at the assignment's line: what a file's other files read of it stays line-free.
        """
        outer, self.touched_param = self.touched_param, 0
        table: StoreTable = defaultdict(list)
        for binding, where in self.attr_stores[attr]:
            if binding.target[: -len(attr) - 1] in REQUEST_HOLDERS:
                # a fixture's `request.cls.db = ...`: the classes of the tests it runs for
                for cls in self.fixture_classes(where):
                    table[cls].append((binding, where, False))
                continue
            vals = self.resolve(binding.target[: -len(attr) - 1], where) or {}
            classes = {v[1] for v in vals if v[0] in ("I", "IS")}
            if len(classes) == 1 and all(v[0] in ("I", "IS") for v in vals):
                # an annotated parameter, and what callers pass: still the one class
                table[classes.pop()].append((binding, where, all(v[0] == "I" for v in vals)))
        touched = self.touched_param
        self.touched_param = outer
        return dict(table), touched

    def fixture_classes(self, fixture_id: str) -> list[str]:
        """The test classes a fixture runs for (their tests ask for it by a parameter,
        ``usefixtures``, or it is autouse), as ``fixture_users`` lists them."""
        if self._fixture_classes is None:
            found: dict[str, set[str]] = defaultdict(set)
            for user, _param, fixture, _line in self.fixture_users():
                scope = self.scopes.get(user)
                if scope is not None and scope.owner_class is not None:
                    found[fixture].add(scope.owner_class)
            self._fixture_classes = {k: sorted(v) for k, v in found.items()}
        return self._fixture_classes.get(fixture_id, [])

    def _reuse_stores(self, attr: str) -> None:
        """A table of ``collect_stores`` read (the tracing resolver records it)."""

    # ---------------------------------------------------------------- names

    def resolve_at(self, expr: str, scope_id: str, line: int) -> Values | None:
        """Like ``resolve``, but a local name reassigned straight in the function body
        before ``line`` no longer has its earlier values (``f = a; f = b; f()`` calls b);
        in a module or class body, see ``resolve_line``."""
        base, ops = parse_expr(expr)
        scope = self.scopes.get(scope_id)
        if scope_id in self._narrowing_scopes and scope is not None and scope.kind in ("function", "method"):
            narrowed = self.resolve_narrowed(expr, scope_id, line)
            if narrowed is not None:
                return narrowed
        if scope is not None and scope.kind in ("module", "class"):
            if (scope_id, line) in self._lambda_lines:  # maybe in a lambda's body: no order known
                return self.resolve(expr, scope_id)
            return self.resolve_line(expr, scope_id, line)
        if scope is None or scope.kind not in ("function", "method") or base in scope.params:
            return self.resolve(expr, scope_id)
        sources = scope.names.get(base)
        if not sources or len(sources) < 2 or not self._timeline(sources, scope_id).in_order:
            return self.resolve(expr, scope_id)
        live: list[object] | None
        if self._in_lambda(scope_id, line):
            # the lambda may run after any later assignment, unless an earlier one hides them
            kept: list[object] = list(_live_bindings([b for b in sources if isinstance(b, Binding)], line))
            live = None if len(kept) == len(sources) else kept
        else:
            # an assignment after the line reaches it only from a loop around both
            live = self._live_at(sources, line, scope_id)
        if live is None:
            return self.resolve(expr, scope_id)
        vals = self._resolve_sources(live, scope)
        return self._apply_ops(vals, ops, scope_id) if vals else vals

    def resolve_line(self, expr: str, scope_id: str, line: int) -> Values | None:
        """``expr`` as the statement at ``line`` of a module or class body evaluates it: its
        first name has the bindings that statement can see (``f = g; f = h; f()`` calls h;
        after ``a, b = b, a`` each holds the other's value), where ``resolve`` has them all."""
        return self._line_answer(expr, scope_id, line, False)

    def resolve_narrowed(self, expr: str, scope_id: str, line: int) -> Values | None:
        """``expr`` read at ``line`` of a function where an ``isinstance`` test narrows its
        first names (see ``_narrowed``); None where none does. Memoised and guarded as
        ``resolve_line`` is: a method may return what the same method gives on a narrowed
        attribute (``if isinstance(self.inner, Stream): return self.inner.receive()``),
        and a return read again for every call reached it again for every path."""
        return self._line_answer(expr, scope_id, line, True)

    def _line_answer(self, expr: str, scope_id: str, line: int, narrowed: bool) -> Values | None:
        key = (expr, f"{scope_id}!" if narrowed else scope_id, line)
        hit = self._line_memo.get(key)
        if hit is not None:
            if not self.line_refreshes(key):
                self.touched_param |= hit[1]
                return hit[0]
            self._refreshed.add(key)
        active = (expr, f"{scope_id}{'!' if narrowed else '@'}{line}")
        if active in self._active:
            self.met_cycle()
            return {}
        if len(self._active) > MAX_DEPTH:
            self.truncated = True
            return {}
        outer, outer_truncated = self.touched_param, self.truncated
        self.touched_param, self.truncated = 0, False
        self._active.add(active)
        self.resolutions += 1
        try:
            if narrowed:
                result = self._narrowed_read(expr, scope_id, line)
            else:
                result = self._resolve_line_uncached(expr, scope_id, line)
        finally:
            self._active.discard(active)
        touched, truncated = self.touched_param, self.truncated
        # kept even when cut short, as in ``resolve``: a loop rebinding a name
        # (`t = t.replace(...)` nine times in a `for`) sees every binding from every
        # other, and walking each order again took minutes
        self._line_memo[key] = self._shared_answer(result, self.kept_mask(touched), truncated)
        self.touched_param = outer | touched
        self.truncated = outer_truncated or truncated
        return result

    def line_sources(self, expr: str, scope_id: str, line: int) -> tuple[list[object], Scope] | None:
        """The bindings of the first name of ``expr`` that the statement at ``line`` of a module
        or class body sees, and their scope; None when that is all of them or not known."""
        base, ops = parse_expr(expr)
        # elements accumulate (``hooks.append(f)`` adds to ``hooks = [g]``): never hidden
        if not base.isidentifier() or (ops and _is_element(ops[0])):
            return None
        found = self._sources_at(base, scope_id, line)
        return (found[0], found[1]) if found is not None and found[2] else None

    def _narrowed_read(self, expr: str, scope_id: str, line: int) -> Values | None:
        base, ops = parse_expr(expr)
        found = self._narrowed_prefix(base, ops, self.scopes[scope_id], line)
        if found is None:
            return None
        narrowed, rest = found
        return self._apply_ops(narrowed, rest, scope_id) if narrowed else {}

    def _narrowed_prefix(
        self, base: str, ops: tuple[str, ...], scope: Scope, line: int
    ) -> tuple[Values, tuple[str, ...]] | None:
        """The values of the longest narrowed name ``expr`` starts with (``x``, ``self.backend``),
        and the ops left to apply; None where no test holds."""
        found = None
        name = base
        for i in range(len(ops) + 1):
            if (scope.id, name) in self._narrowings:
                narrowed = self._narrowed(name, scope, line)
                if narrowed is not None:
                    found = narrowed, ops[i:]
            if i == len(ops) or not ops[i].startswith("."):
                break
            name += ops[i]
        return found

    def _narrowed(self, name: str, scope: Scope, line: int) -> Values | None:
        """What ``name`` holds at ``line`` where an ``isinstance`` test holds (None elsewhere).

        The values known for the name that are instances of the tested classes (or of
        their subclasses) stay; when none is, an instance of any of the tested classes
        (or a subclass) is. A test naming a class from outside the repository narrows
        nothing: classes of the repository may derive from it (``Exception``), and
        ``isinstance(x, type)`` says x is a class. The innermost test wins; an
        assignment of the name after it ends it.
        """
        tests = [t for t in self._narrowings[(scope.id, name)] if t[0] <= line <= t[1]]
        if not tests:
            return None
        start, _end, classes = max(tests)
        if any(isinstance(b, Binding) and start <= b.line <= line for b in scope.names.get(name, ())):
            return None
        tested: Values = {}
        concrete: list[type] = []  # builtin classes tested: str, int, dict, None's type
        for expr in classes:
            if expr == "None":
                concrete.append(type(None))
                continue
            for val in self.resolve(expr, scope.id) or {EXTERNAL: False}:
                if val[0] == "B" and (builtin := _concrete_builtin(val[1])) is not None:
                    concrete.append(builtin)
                elif not self.is_class(val):
                    return None
                else:
                    tested[val] = True
        known = self.resolve(name, scope.id) or {}
        kept = {v: inf for v, inf in known.items() if v[0] in ("I", "IS")
                and (self._instance_of(v[1], tested) or self._may_derive(v[1], concrete, v[0] == "IS"))}
        if not kept:
            kept = {("IS", cls[1]): True for cls in tested}
        if concrete:
            kept[EXTERNAL] = True  # an instance of the builtin class itself
        return kept

    def _may_derive(self, class_id: str, builtin_classes: Sequence[type], or_subclass: bool = False) -> bool:
        """Whether instances of the class (``or_subclass``: or of a subclass) may be
        instances of one of ``builtin_classes``: it derives from one, or from a class
        outside the repository (which may)."""
        if not builtin_classes or class_id not in self.scopes:
            return False
        if or_subclass and any(self._may_derive(sub, builtin_classes) for sub in self.subclasses().get(class_id, ())):
            return True
        for cls in self.mro(class_id):
            if cls.startswith("X:"):
                return True
            for name in self._builtin_bases(cls):
                if issubclass(getattr(builtins, name), tuple(builtin_classes)):
                    return True
        return False

    def _instance_of(self, class_id: str, tested: Values) -> bool:
        return any(("S", cls) in tested for cls in self.mro(class_id))

    def _resolve_line_uncached(self, expr: str, scope_id: str, line: int) -> Values | None:
        if expr.startswith("<partial:"):  # `run = staticmethod(run)` in a class body: the run above
            base, ops = parse_expr(expr)
            return self._apply_ops(self._partial(base[9:-1].replace("/", "."), scope_id, line), ops, scope_id)
        keyed = self._keyed_at(expr, scope_id, line)
        if keyed is not None:
            return keyed
        found = self.line_sources(expr, scope_id, line)
        if found is None:
            return self.resolve(expr, scope_id)
        ops = parse_expr(expr)[1]
        vals = self._resolve_sources(*found)
        result = self._apply_ops(vals, ops, scope_id) if vals else vals
        if (not result or _outside_only(result)) and _container_ops(ops) != ops:
            # maybe a dict or list read (``d.get(k)``): ``resolve`` tries it, on every binding
            return self.resolve(expr, scope_id)
        return result

    def _keyed_at(self, expr: str, scope_id: str, line: int) -> Values | None:
        """``d["a"]`` read at ``line`` of a module or class body, from the constant-key
        bindings of ``d`` there that the statement sees: a store of that key replaces the
        literal's value (``d["a"] = g`` before ``d["a"]()``). None where no binding is
        hidden (then ``resolve`` reads them all)."""
        base, ops = parse_expr(expr)
        if not ops or not _constant_key(ops[0]) or not base.isidentifier():
            return None
        binder = self._binder(base, scope_id)
        if binder is None:
            return None
        keys = 1  # the deepest member bound under constant keys: `cfg["h"]["on"]`
        while keys < len(ops) and _constant_key(ops[keys]):
            self._note((binder.id, base + "".join(ops[: keys + 1])))
            if base + "".join(ops[: keys + 1]) not in binder.names:
                break
            keys += 1
        found = self._sources_at(base + "".join(ops[:keys]), scope_id, line)
        if found is None or not found[2] or found[1] is not binder:
            return None
        vals = self._resolve_sources(found[0], found[1])
        return self._apply_ops(vals, ops[keys:], scope_id) if vals else vals

    def forget(self) -> None:
        """Drop memoised answers (arguments have flowed since they were computed)."""
        self._store_tables = None
        self._memo.clear()
        self._refreshed.clear()
        self._line_memo.clear()
        self._members_memo.clear()
        self._dispatch_memo.clear()
        self._wrappers.clear()
        self._registered.clear()

    def met_cycle(self) -> None:
        """An answer asked for while it is computed gets what is known so far: in the first
        pass, what depends on it is resolved again in the second (as an answer reading a
        parameter is), from where it is complete. In the second, only the answer asked
        for first is: those computed on the way lack what flows around the cycle, so
        they are kept as cut short (computed again when asked for nearer the top)."""
        if not self.param_masks:
            self.touched_param = 1
        else:
            self.truncated = True

    def put_aside(self) -> tuple[dict[Any, Any], ...]:
        """The memos, replaced by empty ones (see ``take_back``)."""
        memos = self._memos()
        self._memo, self._line_memo, self._members_memo, self._dispatch_memo = {}, {}, {}, {}
        return memos

    def take_back(self, memos: tuple[dict[Any, Any], ...]) -> None:
        """Memoise again, of what ``put_aside`` gave, the answers that read no parameter,
        met no cycle and were not cut short: what arguments flow cannot change them."""
        for memo in memos:
            cut_short = memo is memos[0]  # only the main memo keeps such answers
            for key in [key for key, hit in memo.items() if hit[1] or (cut_short and hit[2])]:
                del memo[key]
        self._memo, self._line_memo, self._members_memo, self._dispatch_memo = memos

    def _memos(self) -> tuple[dict[Any, Any], ...]:
        """The memos whose answers carry the mask of the parameters they read (second item)."""
        return self._memo, self._line_memo, self._members_memo, self._dispatch_memo

    def kept_mask(self, mask: int) -> int:
        """One object for equal masks: thousands of answers read the same parameters, and a
        mask of high bits takes a few kilobytes (Django's link kept 60 MB of copies)."""
        if mask <= 1:
            return mask
        return self._masks.setdefault(mask, mask)

    def _shared_values(self, vals: Values | None) -> Values | None:
        """One object for equal answers (same values, same order) kept in a memo: answers
        are never changed once given, and on Django's full source 600k memoised answers
        held 40k distinct ones (about 150 MB of copies)."""
        if vals is None:
            return None
        key = ("V", tuple(vals.items()))
        found = self._shared.get(key)
        if found is None:
            self._shared[key] = vals
            return vals
        return found  # type: ignore[return-value]

    def _shared_answer(self, result: Values | None, mask: int, truncated: bool) -> tuple[Values | None, int, bool]:
        """A memo's entry for ``result``, one object for equal entries. Each entry is
        built only when it is new: one shared helper that built it first and dropped
        it when found peaked 110 MB higher on Django's full source (measured)."""
        vals = self._shared_values(result)
        key = ("A", id(vals), mask, truncated)  # the shared values live as long as the table
        entry = self._shared.get(key)
        if entry is None:
            entry = self._shared[key] = (vals, mask, truncated)
        return entry  # type: ignore[return-value]

    def _shared_member(
        self, result: tuple[Values, str | None] | None, mask: int
    ) -> tuple[tuple[Values, str | None] | None, int]:
        """``_shared_values`` for a memoised class member and the mask it read."""
        if result is not None:
            vals = self._shared_values(result[0])
            assert vals is not None
            key: object = ("M", id(vals), result[1])  # the shared values live as long as the table
            found = self._shared.get(key)
            if found is None:
                found = self._shared[key] = (vals, result[1])
            result = found  # type: ignore[assignment]
        entry_key = ("E", id(result), mask)
        entry = self._shared.get(entry_key)
        if entry is None:
            entry = self._shared[entry_key] = (result, mask)
        return entry  # type: ignore[return-value]

    def forget_reading(self, params: int) -> None:
        """Drop the memoised answers that read a parameter of the mask ``params``, whose
        flows have grown; the rest hold. Which class each outside store goes to stays as
        ``collect_stores`` decided it (deciding it again changed no edge of Django's)."""
        for memo in self._memos():
            for key in _reading(memo, params):
                del memo[key]
        self._refreshed.clear()
        self._wrappers.clear()
        self._registered.clear()

    def resolve(self, expr: str | None, scope_id: str) -> Values | None:
        """Values an expression may have in a scope; None when a name is undefined."""
        if expr is None:
            return {}
        key = (expr, scope_id)
        hit = self._memo.get(key)
        if hit is not None:
            if not self.refreshes(key):
                self.touched_param |= hit[1]
                return hit[0]
            self._refreshed.add(key)
        if key in self._active:
            self.met_cycle()
            return {}
        if len(self._active) > MAX_DEPTH:
            self.truncated = True  # a chain this long is not knowledge either
            return {}
        outer, outer_truncated = self.touched_param, self.truncated
        self.resolutions += 1
        if self.deadline is not None and not self.resolutions & 1023 and time.monotonic() > self.deadline:
            raise OutOfTime  # one site's resolution can itself be long: the clock is read inside it
        self.touched_param, self.truncated = 0, False
        self._active.add(key)
        try:
            result = self._resolve_uncached(expr, scope_id)
        finally:
            self._active.discard(key)
        touched, truncated = self.touched_param, self.truncated
        # Kept even when cut short, though such an answer depends on where the chain
        # started (the first site to ask decides it): not keeping it made every path
        # into a value-flow graph deeper than MAX_DEPTH walk it again, exponential in
        # the paths (mypy, pandas: types and frames passed through hundreds of
        # functions, and tests helpers called from thousands of tests, never finished).
        self._memo[key] = self._shared_answer(result, self.kept_mask(touched), truncated)
        self.touched_param = outer | touched
        self.truncated = outer_truncated or truncated
        return result

    def refreshes(self, key: tuple[str, str]) -> bool:
        """Whether the memoised answer for ``key`` is computed again: one cut short at
        MAX_DEPTH (kept, see ``resolve``) is, once, when asked for nearer the top, where
        the chains below it fit (a parameter read deep in one site's chain is read
        directly by another's, which would otherwise get nothing)."""
        return self._again(self._memo.get(key), key)

    def line_refreshes(self, key: tuple[str, str, int]) -> bool:
        """``refreshes`` for an answer of ``resolve_line``."""
        return self._again(self._line_memo.get(key), key)

    def _again(self, hit: tuple[Values | None, int, bool] | None, key: tuple[str, str] | tuple[str, str, int]) -> bool:
        return hit is not None and hit[2] and len(self._active) <= REFRESH_DEPTH and key not in self._refreshed

    def _resolve_uncached(self, expr: str, scope_id: str) -> Values | None:
        first = expr[:1]
        if first == "<":
            if expr.startswith("<placed:"):  # may be None: see _placed
                return self._placed(expr[8:-1], scope_id)
            special = self._special(expr, scope_id)
            if special is not None:
                return special
        elif first == '"':
            inner = expr.strip('"')
            return self.resolve(inner, scope_id) if inner else {}
        base, ops = parse_expr(expr)
        if base == "getattr" and ops and ops[0] != "()":
            return self._getattr(ops, scope_id)
        if ".__new__" in ops[:2]:  # (a plain test first: this runs for every expression)
            made = self._class_making(base, ops, scope_id) or self._instance_making(base, ops, scope_id)
            if made is not None:
                return self._apply_ops(made[0], ops[made[1]:], scope_id)
        if base == "request" and ops[:1] == (".param",) and (scope_id, "request.param") in self.param_flow:
            # a fixture's `params=[...]` (see extract's _fixture_params), one element per run
            return self._apply_ops(self._param_values(self.scopes[scope_id], "request.param"), ops[1:], scope_id)
        if base.startswith("<partial:"):
            return self._apply_ops(self._partial(base[9:-1].replace("/", "."), scope_id), ops, scope_id)
        if base == "<sent>" and ops[:1] and ops[0][:1] == "(":
            # `x = yield fetch()` in a coroutine: what the runner sends back is what fetch
            # returns when it is the repository's (its return statements; not the generator
            # a generator function gives); what an outside future resolves to is not known
            yielded = self.resolve(ops[0][1:-1], scope_id) or {}
            sent = {v: i for v, i in yielded.items() if v != EXTERNAL and v[0] not in ("G", "CM")}
            return self._apply_ops(sent, ops[1:], scope_id)
        if base.startswith("<lambda@"):  # one taking no parameters: calling it gives its body's value
            return self._apply_ops({("L", scope_id, base): False}, ops, scope_id)
        if base.startswith("<new:"):  # `object.__new__(cls)`: an instance of that class
            return self._apply_ops(self._instances(base[5:-1].replace("/", "."), scope_id), ops, scope_id)
        if base.startswith("<cast:"):  # `cast(Order, row)`: an Order, or a subclass's
            return self._apply_ops(self._cast(base[6:-1].replace("/", "."), scope_id), ops, scope_id)
        if base.startswith("<builtin:"):  # what a literal is an instance of (`", ".join(parts)`)
            return self._apply_ops({("B", base[9:-1]): False}, ops, scope_id)
        if base.startswith("<module:"):  # `importlib.import_module("pkg.mod")`
            return self._apply_ops(self._module_value(base[8:-1].replace("/", "."), scope_id), ops, scope_id)
        if base.startswith("<model-named:"):  # `apps.get_model("shop", "Order")`
            models: Values = {("S", cls): True for cls in self.models_named(base[13:-1].replace("/", "."))}
            return self._apply_ops(models, ops, scope_id)
        found = self._resolve_ops(base, ops, scope_id)
        if not found or _outside_only(found):
            reads = _container_ops(ops, keys=True)
            if reads != ops:  # not a repository method: maybe a dict or list read
                # (an outside mapping, `OrderedDict()`, holds what the code put in it)
                read = self._resolve_ops(base, reads, scope_id)
                if found and read:
                    read = {**read, **found}
                return self._with_defaults(read or found, ops, scope_id)
        return found

    def _instance_making(self, base: str, ops: tuple[str, ...], scope_id: str) -> tuple[Values, int] | None:
        """``super().__new__(cls)`` in a class's ``__new__``, and ``cls.__new__(cls)`` on a
        class whose ``__new__`` is object's: an instance of that class, not yet
        initialised. (Its value, and how many ops it takes; None for anything else.)"""
        if base == "super" and ops[:3] == ("()", ".__new__", "()"):
            scope = self.scopes.get(scope_id)
            d = scope.definition if scope is not None else None
            if scope is None or d is None or d.name != "__new__" or not scope.owner_class:
                return None
            return {("IS", scope.owner_class): True}, 3
        if ops[:2] != (".__new__", "()"):
            return None
        classes = self.resolve(base, scope_id) or {}
        out: Values = {}
        for val in classes:
            if val[0] not in ("S", "CS") or self.scopes[val[1]].kind != "class":
                return None
            hit = self.class_member(val[1], "__new__")
            if hit is not None and hit[1] is not None:
                return None  # its own __new__ runs, and gives what it returns
            out[("I" if val[0] == "S" else "IS", val[1])] = True
        return (out, 2) if out else None

    def _accessor(self, prop: str, index: int, scope_id: str, kind: str) -> Values:
        """The getter (``index`` 0) or setter (1) a ``<property:get,set>`` value names."""
        names = prop[len("<property:") : -1].split(",")
        found = (self.resolve(names[index], scope_id) or {}) if index < len(names) else {}
        return {(kind, v[1]): inf for v, inf in found.items() if v[0] == "S" and self.scopes[v[1]].kind != "class"}

    def _keyed_only(self, expr: str, scope_id: str) -> Values:
        """``xs[0]`` or ``opts["p"]`` from the keyed bindings of a literal; nothing when the
        name has none (a container the code may change: its bag says nothing of one key)."""
        base, ops = parse_expr(expr)
        keyed = self._keyed(base, ops, scope_id)
        return self._apply_ops(keyed[0], ops[keyed[1] :], scope_id) if keyed is not None else {}

    def _placed(self, expr: str, scope_id: str) -> Values | None:
        """``args[1]`` forwarded at its place (see ALIGNED): the element at that place or
        key, from the keyed bindings or the flows of the container; None when they do not
        tell places apart (then the callee's bag answers as well)."""
        base, ops = parse_expr(expr)
        keyed = self._keyed(base, ops, scope_id)
        return self._apply_ops(keyed[0], ops[keyed[1] :], scope_id) if keyed is not None else None

    def _getattr(self, ops: tuple[str, ...], scope_id: str) -> Values | None:
        """``getattr(o,"m",e)`` and what follows it: ``o.m`` when ``o`` has it, else ``e``;
        both may be, as the attribute may be missing at run time."""
        parts = _top_level_split(ops[0][1:-1])
        if len(parts) != 3 or not parts[1].startswith('"'):
            return None
        rest = "".join(ops[1:])
        out: Values = {}
        _merge(out, self.resolve(f"{parts[0]}.{parts[1][1:-1]}{rest}", scope_id), True)
        _merge(out, self.resolve(parts[2] + rest, scope_id), True)
        return out or None

    def _with_defaults(self, vals: Values | None, ops: tuple[str, ...], scope_id: str) -> Values | None:
        """A container's ``.get(k, default)`` may give the default too."""
        defaults = _get_defaults(ops)
        if not defaults:
            return vals
        out = dict(vals or {})
        for default in defaults:
            _merge(out, self.resolve(default, scope_id), True)
        return out or vals

    def _resolve_ops(self, base: str, ops: tuple[str, ...], scope_id: str) -> Values | None:
        if ops and _is_element(ops[0]):
            keyed = self._keyed(base, ops, scope_id) if ops[0] != "[]" else None
            if keyed is not None:
                return self._apply_ops(keyed[0], ops[keyed[1] :], scope_id)
            vals = self.lookup(base + "[]", scope_id)
            if vals is None or (ops[0] != "[]" and self._read_of_a_parameter(base, scope_id)):
                # (a constant key on a parameter reads that member of what was passed, or
                # an instance of the element type its annotation declares: `xs: list[T]`)
                vals = self._elements_at(self.lookup(base, scope_id) or {}, ops[0])
                _merge(vals, self._declared_elements(base, scope_id), True)
            elif not vals:  # no elements stored under the name: a class subscripted (`Box[int]`)?
                vals = self._elements_at(self._classes(self.lookup(base, scope_id) or {}), ops[0])
            ops = ops[1:]
        else:
            vals = self.lookup(base, scope_id)
            if ops and ops[0] == "()" and vals is not None and base + "()" in self.scopes[scope_id].names:
                # a parameter annotated `Callable[..., T]`: calling it gives a T, whatever was passed
                called = self.call_results(vals, scope_id)
                _merge(called, self._declared(base + "()", scope_id), True)
                return self._apply_ops(called, ops[1:], scope_id)
        if vals is None:
            return None
        return self._apply_ops(vals, ops, scope_id, MAX_LISTED if self._parametrized(base, scope_id) else MAX_VALUES)

    def _declared_elements(self, name: str, scope_id: str) -> Values:
        """Instances of the element type an annotation declares for ``name`` (``list[T]``,
        ``dict[str, T]``, ``Sequence[T]``); nothing without one."""
        return self._declared(name + "[]", scope_id)

    def _declared(self, name: str, scope_id: str) -> Values:
        """What the annotations binding ``name`` (``xs[]``, ``make()``) declare."""
        scope = self._binder(name, scope_id)
        sources = [] if scope is None else scope.names.get(name, [])
        declared: list[object] = [b for b in sources if isinstance(b, Binding) and b.kind == "annotation"]
        return self._resolve_sources(declared, scope) if declared and scope is not None else {}

    def _parametrized(self, name: str, scope_id: str) -> bool:
        """Whether ``name`` is a test's parameter that parametrize lists the cases of."""
        if self._parametrized_names is None:
            self._parametrized_names = {
                (sid, p[0]) for sid, scope in self.scopes.items()
                if scope.definition is not None for p in scope.definition.parametrized}
        return (scope_id, name) in self._parametrized_names

    def _keyed(self, base: str, ops: tuple[str, ...], scope_id: str) -> tuple[Values, int] | None:
        """What leading constant-key reads (``d["a"]``, ``fs[0]``, ``cfg["h"]["on"]``) give
        from the keyed bindings of the scope that binds ``base``, and how many ops that
        took; None when that scope has none for ``base`` (its bag then answers).

        The extractor binds ``d["a"]`` only for a literal the file never changes but
        through constant-key stores: a key it has no binding for is not there (a
        KeyError, or ``.get``'s default). Past a constant key, a computed one reads that
        member's own bag (``cfg["h"][]``).
        """
        scope = self._binder(base, scope_id)
        if scope is None:
            return None
        if base in scope.collecting and ops and _constant_key(ops[0]) and not self._stored_into(scope, base):
            return self._passed_at(scope, base, ops[0])
        name, used = base, 0
        for op in ops:
            if not _is_element(op):
                break
            if op != "[]":
                self._note((scope.id, name + op))
                if name + op in scope.names:
                    name, used = name + op, used + 1
                    continue
                if self._has_keys(scope, name):
                    return {}, used + 1
            if not used:
                break
            self._note((scope.id, name + "[]"))
            if name + "[]" not in scope.names:
                break
            name, used = name + "[]", used + 1
        if not used:
            return None
        # read from a function, a module's member holds what the module stored there last
        settled = self.settled(scope, name, scope_id) if scope.id != scope_id else None
        return self._resolve_sources(scope.names[name] if settled is None else settled, scope), used

    @staticmethod
    def _stored_into(scope: Scope, name: str) -> bool:
        """Whether the body rebinds a parameter (``args = args[1:]``) or stores into it
        (``kwargs["cb"] = f``): then what calls passed is not all it holds."""
        prefix = name + "["
        return any(n == name or n.startswith(prefix) for n in scope.names)

    def _passed_at(self, scope: Scope, name: str, key: str) -> tuple[Values, int] | None:
        """``args[1]`` or ``kwargs["cb"]`` of a function's own ``*args``/``**kwargs``: what
        calls passed at that place or under that keyword; None (the bag answers) when some
        call forwarded elements whose places or keys it does not show."""
        self.touched_param |= param_bit(scope.id, name + SPREAD) if self.param_masks else 1
        self._note((scope.id, "@" + name + SPREAD))
        if self.param_flow.get((scope.id, name + SPREAD)):
            return None
        vals = self._param_values(scope, name + key)
        self.touched_param |= param_bit(scope.id, name + ALIGNED) if self.param_masks else 1
        self._note((scope.id, "@" + name + ALIGNED))
        for container, caller in self.param_flow.get((scope.id, name + ALIGNED), ()):
            placed = self.resolve(f"<placed:{container}{key}>", caller)
            if placed is None:
                return None  # that container's places are not known either: the bag answers
            _merge(vals, placed, True)
        return vals, 1

    def _has_keys(self, scope: Scope, name: str) -> bool:
        """Whether ``name`` has keyed bindings in the scope (``name["a"]``, ``name[0]``)."""
        self._note((scope.id, name + "[*]"))  # see keys_read
        prefix = name + "["
        return any(n.startswith(prefix) and n[len(prefix)] != "]" and "[" not in n[len(prefix) :] for n in scope.names)

    def _read_of_a_parameter(self, name: str, scope_id: str) -> bool:
        """Whether ``name`` read in ``scope_id`` is a parameter taking one argument."""
        scope = self._binder(name, scope_id)
        return scope is not None and self._takes_one_argument(scope, name)

    def _binder(self, name: str, scope_id: str) -> Scope | None:
        """The scope whose binding of ``name`` a read in ``scope_id`` sees (``lookup``'s walk)."""
        scope = self.scopes.get(scope_id)
        first = True
        while scope is not None:
            if name in scope.globals:
                scope = self._module_scope(scope)
                continue
            if (first or scope.kind != "class") and name not in scope.nonlocals:
                self._note((scope.id, name))
                if name in scope.names or name in scope.params:
                    return scope
            first = False
            scope = self.scopes.get(scope.parent) if scope.parent else None
        return None

    def _apply_ops(self, vals: Values, ops: tuple[str, ...], scope_id: str, cap: int = MAX_VALUES) -> Values:
        """What ``ops`` give from ``vals``; nothing once more than ``cap`` values come out
        (a parametrized test's cases, each written out, may be more than other values)."""
        i = 0
        while i < len(ops):
            op = ops[i]
            called = vals
            if op[0] == "(":
                vals = self._super_of(op, scope_id) if ("B", "super") in vals else self.call_results(vals, scope_id)
            elif op[0] == "[":
                listed = all(v[0] == "D" and self.scopes[v[1]].kind in ("module", "class") for v in vals)
                vals = self._elements_at(vals, op)
                if listed and len(vals) <= MAX_LISTED:  # each element written out: a case each
                    i += 1
                    continue
            elif op == ".__subclasses__" and ops[i + 1 : i + 2] == ("()",) and ops[i + 2 : i + 3] \
                    and _is_element(ops[i + 2]) and (below := self._subclasses_of(vals)):
                vals = below
                i += 2
            elif op in _STEP_OPS and ops[i + 1 : i + 2] == ("()",) and any(v[0] in ("G", "D") for v in vals):
                vals = self._stepped(vals, op, scope_id)
                i += 1
            elif i + 1 < len(ops) and _is_element(ops[i + 1]):
                # `obj.handlers[k]`: the elements stored into that attribute
                vals = self._member_elements(vals, op[1:], ops[i + 1])
                i += 1
            else:
                members = self._members(vals, op[1:])
                if i + 1 < len(ops) and ops[i + 1][0] == "(" and self._gives_receiver(members):
                    vals = self._receiver_results(vals, op[1:], scope_id)
                    i += 1
                else:
                    vals = members
            if len(vals) > cap:
                vals = self._subsumed(vals)
            if not vals or (len(vals) > cap and not self._named_many(vals, op, called)):
                return {}
            i += 1
        return vals

    def _subsumed(self, vals: Values) -> Values:
        """``vals`` without the instances an instance-of-a-class-or-subclass among them
        already stands for: with ``IS ParamType`` (an annotation's), the instances of
        ``Choice`` and ``Path`` are no more of a choice. The same values, fewer of them."""
        bases = {v[1] for v in vals if v[0] == "IS"}
        if not bases:
            return vals
        out: Values = {}
        for val, inferred in vals.items():
            if val[0] == "I" or val[0] == "IS":
                # an instance is covered by its own class too; an instance-of-a-subclass by a base only
                mro = self.mro(val[1])
                if not bases.isdisjoint(mro if val[0] == "I" else mro[1:]):
                    continue
            out[val] = inferred
        return out

    def _gives_receiver(self, methods: Values) -> bool:
        """Whether calling one of ``methods`` may give back what it was called on, or what
        one of its own methods gives (see ``_handed_on``)."""
        return any(m[0] in ("S", "BM") and (self._giving_back(m) is not None or self._handed_on(m) is not None)
                   for m in methods)

    def _handed_on(self, method: Value) -> tuple[str, ...] | None:
        """The receiver's methods whose results ``method`` gives back, when each of its
        return statements calls one (``def __aenter__(self): return await self.start()``):
        called on an instance of a subclass, it gives what that subclass's own method
        gives, not what any override of it may. None otherwise."""
        scope = self.scopes.get(method[1]) if method[0] == "BM" else None
        if scope is None or scope.kind != "method" or scope.method_kind != "method" or scope.first_param is None:
            return None
        values = self._return_statements(scope)
        if values is None:
            return None
        names: list[str] = []
        for value in values:
            root, ops = parse_expr(value)
            if root != scope.first_param or len(ops) != 2 or ops[0][0] != "." or ops[1][0] != "(" \
                    or ops[0] in (".__class__", ".__new__"):
                return None
            names.append(ops[0][1:])
        return tuple(dict.fromkeys(names))

    def _return_statements(self, scope: Scope) -> list[str] | None:
        """What each return statement of a function gives, as written; None when one
        gives nothing written (a bare ``return``), or there are none, or it is a
        generator or has a wrapper put in its place: what a call gives is not there."""
        self._note((scope.id, "<return>"))
        if "<return>[]" in scope.names or self.wrappers(scope.id):
            return None
        told = [b for b in scope.names.get("<return>", ()) if not (isinstance(b, Binding) and b.kind == "annotation")]
        values = [b.value for b in told if isinstance(b, Binding) and b.kind == "return" and b.value is not None]
        return values if values and len(values) == len(told) else None

    def _giving_back(self, method: Value) -> tuple[str, tuple[str, ...]] | None:
        """How a method gives back its receiver, told from its return statements alone:
        ``"self"`` when each gives ``self`` (a builder's chained calls), a copy of it
        (``copy.copy(self)``, ``type(self)(...)``, ``self.__class__(...)``) or a local
        name bound only to those; ``"cls"`` for a classmethod whose each return makes an
        instance (``cls(...)``); with the methods each delegates to (``return
        self._clone()``), which must give it back too. None otherwise (a generator, a
        wrapper put in its place, another value returned)."""
        scope = self.scopes.get(method[1])
        if scope is None or scope.kind != "method" or scope.first_param is None:
            return None
        how = "self" if scope.method_kind == "method" and method[0] == "BM" else None
        how = "cls" if scope.method_kind == "classmethod" else how
        if how is None:
            return None
        values = self._return_statements(scope)
        if values is None:
            return None
        delegated: list[str] = []
        if not all(self._gives_back_value(scope, v, how, delegated, True) for v in values):
            return None
        return how, tuple(dict.fromkeys(delegated))

    def _gives_back_value(self, scope: Scope, value: str, how: str, delegated: list[str], local: bool) -> bool:
        """Whether a value a method returns is its receiver (``how``: see ``_giving_back``),
        noting the receiver's methods it delegates to."""
        first = scope.first_param
        assert first is not None
        root, ops = parse_expr(value)
        if root != first:
            return local and not ops and root in scope.names and root not in scope.params and \
                self._bound_to_receiver(scope, root, how, delegated)
        if (how == "self" and not ops) or (how == "cls" and len(ops) == 1 and ops[0][0] == "("):
            return True
        if len(ops) != 2 or ops[0][0] != "." or ops[1][0] != "(":
            return False
        if ops[0] == (".__class__" if how == "self" else ".__new__"):
            return True  # `type(self)(...)` (as extract spells it), `cls.__new__(cls)`: a new one of its class
        if ops[0] in (".__class__", ".__new__"):
            return False
        delegated.append(ops[0][1:])
        return True

    def _bound_to_receiver(self, scope: Scope, name: str, how: str, delegated: list[str]) -> bool:
        """Whether every binding of a local name is the receiver (``clone = self._clone()``)."""
        self._note((scope.id, name))
        bindings = scope.names[name]
        return bool(bindings) and all(
            isinstance(b, Binding) and b.kind == "assign" and b.target == name and b.value is not None
            and self._gives_back_value(scope, b.value, how, delegated, False) for b in bindings)

    def _receiver_results(self, vals: Values, attr: str, scope_id: str, depth: int = 0) -> Values:
        """``obj.method()``: what the call gives, receiver by receiver, so that a method
        giving back its receiver gives what it was called on (``Child().chain()`` a
        Child, ``Child.create()`` with ``return cls()`` a Child) rather than any
        instance of the class defining it, through which a call may reach every override;
        and one handing the call on to another of its receiver's methods gives what the
        receiver's own gives."""
        out: Values = {}
        for recv, inferred in vals.items():
            found = self._members({recv: inferred}, attr) if len(vals) == 1 else self.member(recv, attr)
            for method, how in (found or {}).items():
                made = self._made_by_receiver(recv, method, 0)
                if made is not None:
                    _merge(out, {made: True}, how)
                    continue
                handed = self._handed_results(recv, inferred, method, scope_id, depth)
                _merge(out, handed or self.call_results({method: how}, scope_id), False)
        return out

    def _handed_results(self, recv: Value, inferred: bool, method: Value, scope_id: str, depth: int) -> Values:
        """What ``method`` called on ``recv`` gives through the receiver's methods it hands
        the call on to (see ``_handed_on``), its return annotation standing in where they
        do not tell; empty when it hands on nothing."""
        if recv[0] not in ("I", "IS") or len(recv) != 2 or depth >= MAX_DELEGATIONS:
            return {}
        names = self._handed_on(method)
        if names is None:
            return {}
        out: Values = {}
        for name in names:
            _merge(out, self._receiver_results({recv: inferred}, name, scope_id, depth + 1), False)
        if not out or EXTERNAL in out:
            scope = self.scopes[method[1]]
            declared: list[object] = [
                b for b in scope.names.get("<return>", ()) if isinstance(b, Binding) and b.kind == "annotation"]
            if declared:
                _merge(out, self._resolve_sources(declared, scope), True)
        return out

    def _made_by_receiver(self, recv: Value, method: Value, depth: int) -> Value | None:
        """What calling ``method`` on ``recv`` gives when it gives back its receiver
        (through at most a few methods it delegates to, each read on ``recv``)."""
        shape = self._giving_back(method) if method[0] in ("S", "BM") else None
        if shape is None or len(recv) != 2 or recv[1] not in self.scopes or self.scopes[recv[1]].kind != "class":
            return None
        how, delegated = shape
        made = ({"I": "I", "IS": "IS"} if how == "self" else {"S": "I", "CS": "IS", "I": "I", "IS": "IS"}).get(recv[0])
        if made is None or (delegated and depth >= MAX_DELEGATIONS):
            return None
        for name in delegated:
            found = self.member(recv, name)
            if not found or any(self._made_by_receiver(recv, m, depth + 1) is None for m in found):
                return None
        owner = self.scopes[method[1]].owner_class
        if made == "IS" and owner is not None and owner != recv[1] and recv[1] in self.mro(owner):
            return made, owner  # an override of a subclass ran: the receiver is of that subclass
        return made, recv[1]

    def _named_many(self, vals: Values, op: str, called: Values) -> bool:
        """Whether ``vals``, more than a value may list, are the attributes a computed name
        reads (``op``), or what calling ``called`` gives when that is all it returns: each
        is written out in its class, up to MAX_NAMED of them."""
        if len(vals) > MAX_NAMED:
            return False
        return "*" in op or (op[0] == "(" and self._return_named(called))

    def _return_named(self, vals: Values) -> bool:
        """Whether calling ``vals`` gives attributes read by a computed name only: a
        visitor's ``get_visitor(node)`` returning ``getattr(self, "visit_" + kind)``."""
        if len(vals) != 1:
            return False
        ((val, _),) = vals.items()
        scope = self.scopes.get(val[1]) if val[0] in ("S", "BM", "UB", "F") else None
        if scope is None or scope.kind == "class":
            return False
        self._note((scope.id, "<return>"))
        told = [b for b in scope.names.get("<return>", []) if not (isinstance(b, Binding) and b.kind == "annotation")]
        return bool(told) and all(
            isinstance(b, Binding) and b.kind == "return" and b.value is not None and _named_read(b.value)
            for b in told)

    def _subclasses_of(self, vals: Values) -> Values:
        """The elements of ``Base.__subclasses__()``: the classes of the repository below
        each class of ``vals``, all of them (registries walk the tree down, calling
        ``__subclasses__`` again on each), each a guess; and outside code's. Empty when
        ``vals`` holds no class of the repository."""
        out: Values = {}
        for val in vals:
            if val[0] in ("S", "CS") and val[1] in self.scopes and self.scopes[val[1]].kind == "class":
                self._note(("<subclasses>", ""))
                out.update(dict.fromkeys((("S", sub) for sub in self.subclasses().get(val[1], ())), True))
                out.setdefault(EXTERNAL, False)  # and any that outside code defines
        return out

    def _stepped(self, vals: Values, op: str, scope_id: str) -> Values:
        """``iter(x)`` of a generator's iterator or of a display is the same elements;
        ``next(x)`` one of them. Other values call their class's method."""
        out: Values = {}
        for val, inferred in vals.items():
            if val[0] not in ("G", "D"):
                _merge(out, self.call_results(self._members({val: inferred}, op[1:]), scope_id), inferred)
            elif op == ".__iter__":
                out[val] = inferred
            else:
                _merge(out, self._elements_at({val: inferred}, "[]"), inferred)
        return out

    def _super_of(self, call: str, scope_id: str) -> Values:
        """``super(B, self)``: the MRO after ``B`` (which may be another class than the
        enclosing one, to skip a level); ``super()`` or an argument that is not a class
        of the repository: the enclosing class's."""
        args = _top_level_split(call[1:-1]) if call != "()" else []
        if len(args) == 2:
            named = self.resolve(args[0], scope_id) or {}
            classes: Values = {("P", v[1]): False for v in named if v[0] == "S" and self.scopes[v[1]].kind == "class"}
            if classes and len(classes) == len(named):
                return classes
        return self._builtin_result("super", scope_id)

    def lookup(self, name: str, scope_id: str) -> Values | None:
        """Python's LEGB lookup of ``name`` starting in ``scope_id``.

        A function reads the module's names when it runs, usually once the module has
        finished: what the module bound last (``settled``). Module-level code without a
        line to order it sees every binding.
        """
        scope = self.scopes.get(scope_id)
        first = True
        in_function = False
        while scope is not None:
            if name in scope.globals:
                scope = self._module_scope(scope)
                in_function = True
                continue
            visible = first or scope.kind != "class"
            if visible and name not in scope.nonlocals:
                if in_function and scope.kind == "module":
                    found = self._settled_lookup(name, scope, scope_id)
                else:
                    found = self._lookup_here(name, scope)
                if found is not None:
                    return found
            in_function = in_function or scope.kind in ("function", "method")
            first = False
            scope = self.scopes.get(scope.parent) if scope.parent else None
        base = name[:-2] if name.endswith("[]") else name
        if base in BUILTINS and not name.endswith("[]"):
            return {("B", name): False}
        return None

    def _module_scope(self, scope: Scope) -> Scope | None:
        return self.scopes.get(scope.path)

    def _settled_lookup(self, name: str, scope: Scope, reader: str | None = None) -> Values | None:
        """``_lookup_here``, read once the scope has finished running if it is a module (see
        ``settled``)."""
        live = self.settled(scope, name, reader)
        if live is None:
            return self._lookup_here(name, scope)
        self._note((scope.id, name))
        return self._resolve_sources(live, scope)

    def _lookup_here(self, name: str, scope: Scope) -> Values | None:
        if name.endswith("[]") and name[:-2] in scope.params:
            # elements of *args / **kwargs: what callers passed beyond the named parameters
            vals = self._resolve_sources(scope.names.get(name, []), scope)
            flows = self._param_values(scope, name)
            _merge(vals, flows, True)
            if not flows and self._takes_one_argument(scope, name[:-2]):
                # an element of what was passed (``run_all([f, g])``: ``for task in tasks``)
                _merge(vals, self._elements(self._param_values(scope, name[:-2])), True)
            return vals
        if name in scope.names:
            vals = self._resolve_sources(scope.names[name], scope)
        elif name in scope.params:
            vals = {}
        else:
            if scope.kind == "module" and "*" in scope.names and not name.endswith("[]"):
                return self._star_lookup(name, scope)
            return None
        if name in scope.params:
            _merge(vals, self._param_values(scope, name), True)
            if name in scope.collecting:
                vals[EXTERNAL] = False  # `*args` is a tuple, `**kwargs` a dict: `kwargs.get(k)` is dict's
        return vals

    @staticmethod
    def _takes_one_argument(scope: Scope, name: str) -> bool:
        """Whether ``name`` is a parameter taking one argument (not ``*args``/``**kwargs``)."""
        d = scope.definition
        params = d.signature.params if d is not None and d.signature is not None else ()
        return any(p.name == name and p.kind not in ("var_positional", "var_keyword") for p in params)

    def _star_lookup(self, name: str, scope: Scope) -> Values | None:
        for imp in scope.names["*"]:
            assert isinstance(imp, Import)
            target = self.modules.absolute(scope.path, imp.module, imp.level)
            if target is None:
                continue
            if not self.modules.is_module(target):
                continue
            for path in self.modules.paths(target, scope.path):
                mod_scope = self.scopes.get(path)
                all_names = self.facts[path].all_names
                if mod_scope is None or name.startswith("_"):
                    continue
                if all_names is not None and name not in all_names:
                    continue
                found = self._guarded_lookup(name, mod_scope)
                if found is not None:
                    return found
        if any(
            not self.modules.is_module(self.modules.absolute(scope.path, i.module, i.level) or "")
            for i in scope.names["*"]
            if isinstance(i, Import)
        ):
            return {EXTERNAL: False}
        return None

    def flowing_into(self, func_id: str, name: str) -> tuple[Values, int] | None:
        """What a parameter of a function of the revision holds, and the mask of the
        parameters behind that (None: no such function)."""
        scope = self.scopes.get(func_id)
        if scope is None:
            return None
        outer, self.touched_param = self.touched_param, 0
        vals = self._param_values(scope, name)
        read, self.touched_param = self.touched_param, outer
        return vals, read

    def _param_values(self, scope: Scope, name: str) -> Values:
        vals: Values = {}
        if name == scope.first_param and scope.owner_class:
            made = scope.definition is not None and scope.definition.name == "__new__"  # gets the class too
            if scope.method_kind == "classmethod" or made:
                return self._class_param(scope, name, scope.owner_class)
            vals[("IS", scope.owner_class)] = False
            if scope.method_kind == "method" and scope.definition is not None and scope.definition.name != "__new__":
                vals.update(self._made_by(scope.owner_class))  # a metaclass's instance is a class
            return vals
        self.touched_param |= param_bit(scope.id, name) if self.param_masks else 1
        for arg, caller_scope in self.param_flow.get((scope.id, name), ()):
            _merge(vals, self.resolve(arg, caller_scope) or {}, True)
        return vals

    def _special(self, expr: str, scope_id: str) -> Values | None:
        """The values of the extractor's ``<...>`` forms that stand alone; None for a name
        such as ``<arg@3:4>`` or ``<partial:f>()``, which resolves like any other."""
        if expr == "<lambda>":  # written in this scope: its body's calls are the scope's
            return {("L", scope_id): False}
        if expr.startswith("<def:"):  # the function itself, as a decorator receives it
            scope = self.scopes.get(expr[5:-1])
            # (a class decorator gets the class itself: one to call, construct, read)
            return {("S" if scope is not None and scope.kind == "class" else "F", expr[5:-1]): False}
        if expr.startswith("<decorated:"):  # `@a @b def f`: what a decorator above another gets
            func_id, _, start = expr[11:-1].rpartition("@")
            return self._decorated(func_id, int(start))
        if expr.startswith("<fixture:"):  # what pytest passes for a fixture parameter
            return self._fixture_value(expr[9:-1])
        if expr == "<outside>":  # what a plugin's fixture gives a test (see fixtures.outside_flows)
            return {EXTERNAL: False}
        if expr.startswith("<key:"):  # a constant-key element, never a container's bag
            return self._keyed_only(expr[5:-1], scope_id)
        if expr.startswith("<property:"):  # `x = property(get_x, ...)`: reading x runs get_x
            return self._accessor(expr, 0, scope_id, "R")
        return None

    def _instances(self, classes: str, scope_id: str) -> Values:
        """An instance of each class ``classes`` may be (of it or a subclass where the class
        itself may be one); an outside value for anything else."""
        out: Values = {}
        for val, inferred in (self.resolve(classes, scope_id) or {}).items():
            is_class = val[0] in ("S", "CS") and self.scopes[val[1]].kind == "class"
            made = ("I" if val[0] == "S" else "IS", val[1]) if is_class else EXTERNAL
            out[made] = inferred and is_class
        return out

    def _cast(self, call: str, scope_id: str) -> Values:
        """``typing.cast(T, v)``: an instance of each class of the repository ``T`` names; an
        outside value when it names anything else (``cast(dict, x)``). Another function
        called ``cast`` (SQLAlchemy's) gives what it returns."""
        callee, _, type_name = call.partition("|")
        if not self._typing_cast(callee, scope_id):
            return self.resolve(callee + "()", scope_id) or {}
        named = self.resolve(type_name, scope_id) or {}
        classes = self._classes(named)
        if not classes:
            return {EXTERNAL: False}
        return {("IS", v[1]): True for v in classes}

    def _typing_cast(self, callee: str, scope_id: str) -> bool:
        """Whether ``callee`` (``cast``, ``typing.cast``, ``t.cast``) names typing's cast."""
        head, dot, _ = callee.rpartition(".")
        name = head if dot else callee
        scope = self._binder(name, scope_id)
        if scope is None:
            return False
        wanted = None if dot else "cast"
        return any(
            isinstance(src, Import) and src.module in TYPING_MODULES and not src.level and src.name == wanted
            for src in scope.names.get(name, [])
        )

    def _partial(self, held: str, scope_id: str, line: int | None = None) -> Values:
        """``partial(f, ...)``: calling it calls ``f`` (a function, a method, a class) with
        arguments no one call site shows in full, so such a call is not checked (``UB``).
        (``line``: where a module or class body evaluates it.)"""
        out: Values = {}
        held_vals = self.resolve(held, scope_id) if line is None else self.resolve_line(held, scope_id, line)
        for val, inferred in (held_vals or {}).items():
            if val[0] in ("S", "BM", "UB"):
                out[("UB", val[1])] = inferred
            elif val[0] == "X":
                out[EXTERNAL] = False
        return out

    def _classes(self, vals: Values) -> Values:
        return {v: inferred for v, inferred in vals.items() if v[0] == "S" and self.scopes[v[1]].kind == "class"}

    def is_enum(self, class_id: str) -> bool:
        """Whether the class derives from an enum base (``Enum``, ``IntFlag``, Django's
        ``TextChoices``): its body's plain attributes are its members, instances of it."""
        known = self._enums.get(class_id)
        if known is None:
            known = self._enums[class_id] = any(
                (d := self.scopes[cls].definition) is not None
                and any(b.split("[", 1)[0].rpartition(".")[2] in ENUM_BASES for b in d.bases)
                for cls in self.mro(class_id) if not cls.startswith("X:"))
        return known

    def _class_subscript(self, class_id: str) -> Values:
        """``Box[int]`` of a class: a generic alias, which constructs and reads as the class
        does (``Box[int](3)``, ``Box[str].make()``); an enum's member is an instance
        (``Color["RED"]``); a metaclass of the repository with ``__getitem__`` decides
        itself (not guessed here)."""
        if self.is_enum(class_id):
            return {("I", class_id): True}
        for meta in self.metaclasses(class_id):
            hit = self.class_member(meta, "__getitem__")
            if hit is not None and hit[1] is not None:
                return {}
        return {("S", class_id): True}

    def _fixture_value(self, fixture_id: str) -> Values:
        """A fixture's value: what the function returns, or what it yields (a generator)."""
        scope = self.scopes.get(fixture_id)
        if scope is None:
            return {}
        self._note((fixture_id, "<return>[]"))
        if "<return>[]" in scope.names and "<return>" not in scope.names:
            return self._scope_target(fixture_id, "<return>[]")
        return self._returned(fixture_id)

    def _class_param(self, scope: Scope, name: str, owner: str) -> Values:
        """``cls`` of a classmethod: the class each call reaches it through (``Sub.make()``,
        ``sub.make()``, ``cls.make()``), which the link passes as the first parameter's flow.

        Like ``self``, it may be the owner or any subclass when a call's receiver is not
        known (an alias, a module attribute) or no call of the repository reaches it, or
        when calls reach it through more classes than a value may list (a model base's
        ``Model.construct()`` in every test): each is one of those.
        """
        self.touched_param |= param_bit(scope.id, name) if self.param_masks else 1
        flows = self.param_flow.get((scope.id, name), ())
        vals: Values = {}
        known = bool(flows)
        for arg, caller in flows:
            found = self._as_class((self.resolve(arg, caller) if arg else None) or {}, caller, owner)
            known = known and found is not None
            _merge(vals, found, True)
        if not known:
            vals[("CS", owner)] = False
        elif len(vals) > MAX_VALUES:
            return {("CS", owner): True}
        return vals

    def _as_class(self, receiver: Values, caller: str, owner: str) -> Values | None:
        """The class a call's receiver passes to a classmethod of ``owner``: an instance's
        class, a class itself, what ``super()`` stands for; None when it is unknown or not
        a class that reaches ``owner``'s method."""
        out: Values = {}
        for val, inferred in receiver.items():
            kind = val[0]
            if kind == "P":  # super().make(): the class the calling method itself was given
                found = self._caller_class(caller, owner)
                if found is None:
                    return None
                _merge(out, found, inferred)
                continue
            if kind not in ("S", "I", "IS", "CS") or self.scopes[val[1]].kind != "class":
                return None
            cls = val[1]
            if owner in self.mro(cls):
                out[("S" if kind in ("S", "I") else "CS", cls)] = inferred
            elif kind in ("IS", "CS") and cls in self.mro(owner):
                out[("CS", owner)] = inferred  # dispatched to an override: only its subclasses get there
            else:
                return None
        return out or None

    def _caller_class(self, caller: str, owner: str) -> Values | None:
        scope = self.scopes.get(caller)
        while scope is not None and scope.owner_class is None:
            scope = self.scopes.get(scope.parent) if scope.parent else None
        if scope is None or scope.first_param is None:
            return None
        first = self.resolve(scope.first_param, scope.id) or {}
        return self._as_class({v: inf for v, inf in first.items() if v[0] != "P"}, scope.id, owner)

    def _resolve_sources(self, sources: list[object], scope: Scope) -> Values:
        vals: Values = {}
        for src in sources:
            if isinstance(src, Defn):
                vals[src.value] = False
            elif isinstance(src, Import):
                _merge(vals, self.import_value(src, scope.path), False)
            elif isinstance(src, Moved):
                _merge(vals, self.resolve(src.binding.value, src.origin) or {}, True)
            elif isinstance(src, Binding):
                found = self._binding_value(src, scope)
                if src.kind in ("annotation", "except"):
                    # a declared type, or the class an `except` clause names: the value may be of a subclass
                    found = {(("IS", v[1]) if v[0] == "I" else v): inf for v, inf in found.items()}
                _merge(vals, found, True)
                if src.kind == "for":
                    _merge(vals, self._loop_items(src, scope), True)
        return vals

    def _loop_items(self, src: Binding, scope: Scope) -> Values:
        """What a loop variable gets from iterating an instance. Its value's last ``[]`` is the
        loop (or an unpacking, ``[1]``), not a subscript: a ``__getitem__`` does not make it unclear."""
        if src.value is None or not src.value.endswith("]"):
            return {}
        out: Values = {}
        for val in self._binding_value(replace(src, value=src.value[: src.value.rindex("[")]), scope):
            if val[0] in ("I", "IS"):
                _merge(out, self._iteration(val), True)
        return out

    def _binding_value(self, src: Binding, scope: Scope) -> Values:
        """What an assignment stores; a module or class body evaluates it at its line."""
        if src.value is None:
            # a list, tuple or set display whose elements the scope binds (``x = [f, g]``,
            # ``x = []; x.append(f)``): the container itself, so that a function it is
            # passed to reads its elements
            if src.target.startswith("<return>"):
                return {}  # a function's returned displays are its call results' business
            self._note((scope.id, src.target + "[]"))
            return {("D", scope.id, src.target): False} if src.target + "[]" in scope.names else {}
        if src.kind == "default":
            return self._default_value(src, scope)
        passed = self.passed_through(src.value, scope, src.line)
        if passed is not None:
            return passed
        if scope.kind in ("module", "class") and not src.target.startswith("<lambda@"):
            # (a lambda's body runs when it is called, not where the body defines it)
            return self.resolve_line(src.value, scope.id, src.line) or {}
        if scope.id in self._narrowing_scopes and scope.kind in ("function", "method"):
            # `if isinstance(x, str): return x` returns a str, whatever else x may hold
            narrowed = self.resolve_narrowed(src.value, scope.id, src.line)
            if narrowed is not None:
                return narrowed
        return self.resolve(src.value, scope.id) or {}

    def _default_value(self, src: Binding, scope: Scope) -> Values:
        """A parameter's default, as the scope around the def evaluates it where the def
        stands: ``def run(cb=cb)`` gets the module's ``cb``, not the parameter itself."""
        outer = self.scopes.get(scope.parent or "")
        if outer is None or src.value is None:
            return {}
        line = scope.definition.start_line if scope.definition is not None else src.line
        if outer.kind in ("module", "class"):
            return self.resolve_line(src.value, outer.id, line) or {}
        return self.resolve_at(src.value, outer.id, line) or {}

    def import_value(self, imp: Import, path: str) -> Values:
        target = self.modules.absolute(path, imp.module, imp.level)
        if target is None:
            return {}
        if imp.name is None:
            # `import a.b` binds `a`; `import a.b as c` binds a.b
            name = target if imp.alias else target.split(".", 1)[0]
            return self._module_value(name, path)
        full = f"{target}.{imp.name}" if target else imp.name
        if self.modules.is_module(full):
            return self._module_value(full, path)
        if not self.modules.is_module(target):
            return {EXTERNAL: False}
        vals: Values = {}
        for mod_path in self.modules.paths(target, path):
            scope = self.scopes.get(mod_path)
            if scope is None:
                continue
            found = self._guarded_lookup(imp.name, scope)
            if found:
                _merge(vals, found, False)
        if not vals and imp.name != "*" and not imp.name.startswith("__"):
            # the module's __getattr__ ran at the import: the name holds what it returned
            for hook in self._module_getattr(target):
                _merge(vals, self.returns(hook[1]), True)
        return vals

    def _guarded_lookup(self, name: str, scope: Scope) -> Values | None:
        """A name looked up in another module; import cycles (`a` imports `g` from `b`,
        `b` from `a`) end here instead of recursing until the stack runs out."""
        key = ("<import>", f"{scope.id}:{name}")
        if key in self._active:
            self.truncated = True  # a cycle's answer is partial: not to be memoised
            return None
        if self._import_depth == 0:
            self._import_steps = 0
        self._import_steps += 1
        if self._import_steps > IMPORT_LOOKUP_BUDGET:
            # names re-exported around a cycle of modules that each may be several files
            # (same-named modules) explore every order of them: cut it short, as a chain too long
            self.truncated = True
            return None
        self._active.add(key)
        self._import_depth += 1
        try:
            return self._settled_lookup(name, scope)  # imported once the module has run
        finally:
            self._import_depth -= 1
            self._active.discard(key)

    def _module_value(self, name: str, near: str) -> Values:
        if self.modules.is_module(name):
            return {("M", name): False}
        return {EXTERNAL: False}

    # ---------------------------------------------------------- attributes

    def members_of(self, vals: Values, attr: str) -> Values:
        """What ``attr`` read on any of ``vals`` gives."""
        return self._members(vals, attr)

    def _members(self, vals: Values, attr: str) -> Values:
        if "*" in attr:
            return self._members_named(vals, attr)
        out: Values = {}
        for val, inferred in vals.items():
            found = self.member(val, attr)
            if found:
                _merge(out, found, inferred)
        if not out and len(vals) == 1 and not attr.startswith("__"):
            # an instance of one known class lacking the attribute: its __getattr__ runs
            # (not for a guess among several classes, none of which has it)
            ((val, inferred),) = vals.items()
            if val[0] in ("I", "IS") and self.scopes[val[1]].kind == "class":
                _merge(out, self._getattr_hook(val[1]), inferred)
        return out

    def _members_named(self, vals: Values, pattern: str) -> Values:
        """``getattr(self, "visit_" + kind)`` (``visit_*``): any attribute of a class whose
        name fits, along its MRO and, for an instance of it or a subclass, in its
        subclasses (a visitor's handlers, a form's ``clean_<field>`` methods)."""
        prefix, _, suffix = pattern.partition("*")
        out: Values = {}
        for val in vals:
            if val[0] == "M":  # `getattr(commands, "cmd_" + name)`: the module's functions so named
                for name in self._module_names(val[1], prefix, suffix):
                    _merge(out, self.member(val, name) or {}, True)
                continue
            if val[0] not in ("S", "I", "IS", "CS", "P") or self.scopes[val[1]].kind != "class":
                continue
            classes = [c for c in self.mro(val[1]) if not c.startswith("X:")]
            if val[0] in ("IS", "CS"):
                classes += self.subclasses().get(val[1], ())
            names: set[str] = set()
            for cls in classes:
                self.methods_read(cls)  # a name added or gone in any of them changes the answer
                names.update(n for n in self.scopes[cls].names if fits(n, prefix, suffix))
            for name in sorted(names):
                _merge(out, self.member(val, name) or {}, True)
        return out

    def _module_names(self, module: str, prefix: str, suffix: str) -> list[str]:
        names: set[str] = set()
        for path in self.modules.paths(module):
            scope = self.scopes.get(path)
            if scope is not None:
                self._note((scope.id, "<names>"))  # a name bound or gone there changes the answer
                names.update(n for n in scope.names if fits(n, prefix, suffix))
        return sorted(names)

    def member(self, val: Value, attr: str) -> Values | None:
        kind = val[0]
        if kind == "M":
            return self._module_member(val[1], attr)
        if kind == "X":
            return {EXTERNAL: False}
        if kind == "B":
            return {EXTERNAL: False}
        if kind in ("S", "I", "IS", "CS"):
            scope = self.scopes[val[1]]
            if scope.kind != "class":
                if kind == "S" and attr in TASK_CALLS and _is_task(scope.definition):
                    # `send_email.delay(user.id)`: the task runs, with arguments a worker passes
                    # on (or a signature made now, called later): not checked for breaking
                    return {("UB", val[1]): True}
                if attr in CACHE_METHODS and any(decorator_name(d) in CACHE_DECORATORS for d in scope.decorators):
                    return {EXTERNAL: False}  # `get_hashers.cache_clear()`: the cache wrapper's own
                return {EXTERNAL: False} if attr in PYTHON_DATA else {}
            hit = self.class_member(val[1], attr)
            if hit is None and attr in PYTHON_DATA:
                return {EXTERNAL: False}
            if attr == "__class__" and kind in ("I", "IS") and (hit is None or hit[1] is None):
                return {("S" if kind == "I" else "CS", val[1]): False}  # not a property of its own
            instance = kind in ("I", "IS")
            if hit is None and not instance:
                hit = self._metaclass_member(val[1], attr)
                instance = hit is not None  # the class is an instance of its metaclass
            # a class may get attributes at run time (setattr, other objects): unknown, not missing
            found = self._bind(hit[0], instance, attr, hit[1], val[1]) if hit else {}
            if kind in ("IS", "CS"):
                _merge(found, self._dispatch(val[1], attr, instance), True)
            if hit is None and attr in OWN_DJANGO_ATTRIBUTES and (own := self._own_django(val[1], attr, instance)):
                found[own] = True
            if instance and hit is not None and hit[1] is not None:
                related = self._related(hit[1], attr, val[1])
                if related is not None:
                    return {related: True}
            elif instance and hit is not None and hit[1] is None and attr in django.VIEW_ROWS and (
                    rows := self.view_rows(val[1], attr)):
                return rows  # a generic view's object or queryset, of the model it names
            elif instance and (hit is None or hit[1] is None) and attr in django.VIEW_ATTRIBUTES and any(
                    cls.startswith("X:") for cls in self.mro(val[1])) and (rows := self.view_rows(val[1], attr)):
                return rows  # what a generic view's get() stored: its object, its object list
            elif instance and (hit is None or hit[1] is None) and self._reverse_relations():
                # not an attribute of the repository's classes: maybe a relation's reverse
                reverse = self._reverse_relation(val[1], attr)
                if reverse is not None:
                    return {reverse: True}
            elif not instance and attr in django.MANAGERS and self._is_model(val[1]):
                found[("Q", val[1])] = True
            if not found and hit is None and self._inherited_from_builtins(val[1], attr):
                return {EXTERNAL: False}
            return found
        if kind == "Q":
            if attr == "model":
                return {("S", val[1]): True}
            custom = self._custom_methods(val[1], attr)
            if custom:
                return {("QC", val[1], method): True for method in custom}
            return {("QM", val[1], attr): True} if django.method_result(attr) else {EXTERNAL: False}
        if kind == "P":
            hit = self.class_member(val[1], attr, start=1)
            found = self._bind(hit[0], True, attr, hit[1], val[1]) if hit else {}
            _merge(found, self._super_dispatch(val[1], attr), True)
            if not found and self._inherited_from_builtins(val[1], attr):
                return {EXTERNAL: False}  # `super().__init__()` past the last class: object's
            return found
        if kind == "R":
            key = ("R." + attr, val[1])
            if key in self._active:  # a property returning itself, directly or not
                self.met_cycle()
                return {}
            self._active.add(key)
            try:
                return self._members(self.returns(val[1]), attr)
            finally:
                self._active.discard(key)
        if kind in ("G", "D"):  # a generator's or a display's methods are the builtin type's
            return {EXTERNAL: False}
        if kind == "CM":
            return {("CE", val[1]): False} if attr == self._enter_method(val[1]) else {EXTERNAL: False}
        return {}

    def _dispatch(self, class_id: str, attr: str, instance: bool = True) -> Values:
        """What ``attr`` is on the subclasses of a class (overrides, or what a mixin's users
        supply), read through an instance of them or, without ``instance``, the class.

        Memoised as ``class_member`` is: a class with many subclasses (a test base class)
        is asked for the same attribute at many sites."""
        key = (class_id, attr, instance)
        hit = self._dispatch_memo.get(key)
        if hit is not None:
            self.touched_param |= hit[1]
            return hit[0]
        outer, outer_truncated = self.touched_param, self.truncated
        self.touched_param, self.truncated = 0, False
        result = self._dispatch_uncached(class_id, attr, instance)
        touched, truncated = self.touched_param, self.truncated
        if not truncated:
            self._dispatch_memo[key] = (result, self.kept_mask(touched))
        self.touched_param = outer | touched
        self.truncated = outer_truncated or truncated
        return result

    def _dispatch_uncached(self, class_id: str, attr: str, instance: bool) -> Values:
        out: Values = {}
        if self._building_subclasses:  # resolving class bases: dispatch is not known yet
            self.truncated = True
            return out
        for sub in [*self.subclasses().get(class_id, ()), *self.implementers(class_id)]:
            hit = self.class_member(sub, attr)
            if hit is not None and hit[1] is not None:
                _merge(out, self._bind(hit[0], instance, attr, hit[1], sub), True)
            if len(out) > MAX_VALUES:
                return {}  # dispatch to that many classes says nothing: keep the declared one only
        return out

    def overriders(self, class_id: str, attr: str) -> list[str]:
        """The methods named ``attr`` that subclasses of a class define, when there are too
        many for a call through its instances to be linked to them (``MAX_VALUES`` or
        more: with the class's own, the call has more candidates than it links); [] when
        there are fewer.

        A call through an instance reaches one of them, which one is not told: no edge
        goes to any, but each gets the call's arguments (a template method's overrides,
        ``add_arguments(self, parser)`` in a hundred commands, still know what their
        parameters hold). Told by the class hierarchy alone, whatever order calls come in.
        """
        key = (class_id, attr)
        found = self._overriders.get(key)
        if found is None:
            found = [
                method_id for sub in self.subclasses().get(class_id, ())
                if (method_id := self._own_method(sub, attr)) is not None
            ]
            found = self._overriders[key] = found if len(found) >= MAX_VALUES else []
        return found

    def crowded_names(self) -> frozenset[str]:
        """Names that ``MAX_VALUES`` or more methods have: the only ones ``overriders`` can give."""
        if self._crowded_names is None:
            counts: dict[str, int] = defaultdict(int)
            for scope in self.scopes.values():
                if scope.kind == "method" and scope.method_kind == "method" and scope.definition is not None:
                    counts[scope.definition.name] += 1
            self._crowded_names = frozenset(name for name, n in counts.items() if n >= MAX_VALUES)
        return self._crowded_names

    def _own_method(self, class_id: str, attr: str) -> str | None:
        """The plain method ``attr`` a class defines in its own body, if it does."""
        method_id = f"{class_id}::{attr}"
        scope = self.scopes.get(method_id)
        return method_id if scope is not None and scope.kind == "method" and scope.method_kind == "method" else None

    def implementers(self, class_id: str) -> list[str]:
        """The classes of the repository a ``typing.Protocol`` describes without deriving
        from it: those with every public method the protocol declares (structural typing
        lets any of them be passed where the protocol is annotated)."""
        if class_id not in self.protocols:
            return []
        self._note(("<protocol>", ""))  # any class anywhere may come to fit it
        cached = self._implementers.get(class_id)
        if cached is not None:
            return cached
        wanted = sorted({
            self.scopes[sid].definition.name for sid in self.scopes  # type: ignore[union-attr]
            if self.scopes[sid].parent == class_id and self.scopes[sid].kind in ("function", "method")
            and not self.scopes[sid].definition.name.startswith("_")  # type: ignore[union-attr]
        })
        out: list[str] = []
        if wanted:
            derived = set(self.subclasses().get(class_id, ()))
            for method in self.by_name.get(wanted[0], ()):
                cls = self.scopes[method].parent
                if cls is None or cls == class_id or cls in derived or cls in out or self.scopes[cls].kind != "class":
                    continue
                if all((hit := self.class_member(cls, name)) is not None and hit[1] is not None for name in wanted):
                    out.append(cls)
        self._implementers[class_id] = out
        return out

    def _super_dispatch(self, class_id: str, attr: str) -> Values:
        """What ``super().attr`` in ``class_id`` reaches on instances of its subclasses.

        ``super()`` continues along the MRO of the instance's class, which for a
        subclass joining a diamond or a mixin holds other classes after this one.
        A subclass whose own bases are a guess (a base name that may hold one of several
        classes when its class statement runs: a loop variable, a try/except import, an
        if/else) says nothing about that order: its MRO merges the alternatives into one
        that no run has, so it could put a class after this one that none of them does;
        a builtin base (``int``, ``dict``) that defines ``attr`` answers before the
        classes after it.
        """
        out: Values = {}
        if self._building_subclasses:
            self.truncated = True
            return out
        own = self.mro(class_id)[1:]
        seen = {own}
        for sub in self.subclasses().get(class_id, ()):
            mro = self.mro(sub)
            at = mro.index(class_id)
            tail = mro[at + 1 :]
            if tail in seen:
                continue
            seen.add(tail)
            if any(self._guessed_bases(cls) for cls in mro[:at]):
                continue
            hit = self.class_member(sub, attr, start=at + 1)
            if hit is None or hit[1] is None or self._builtin_first(mro[at : mro.index(hit[1])], hit[1], attr):
                continue
            _merge(out, self._bind(hit[0], True, attr, hit[1], sub), True)
            if len(out) > MAX_VALUES:
                return {}  # that many says nothing: keep what the class's own MRO gives
        return out

    def _guessed_bases(self, class_id: str) -> bool:
        """Some base expression of the class may be more than one class or builtin when
        the class statement runs."""
        for vals in self.base_values(class_id):
            found = [v for v in vals if v[0] in ("X", "B") or (v[0] == "S" and self.scopes[v[1]].kind == "class")]
            if len(found) > 1:
                return True
        return False

    def _builtin_bases(self, class_id: str) -> set[str]:
        """Builtin classes a class names as bases, ``object`` aside (it comes last in every MRO)."""
        out: set[str] = set()
        for vals in self.base_values(class_id):
            for v in vals:
                if v[0] == "B" and v[1] != "object" and isinstance(getattr(builtins, v[1], None), type):
                    out.add(v[1])
        return out

    def _builtin_first(self, between: tuple[str, ...], hit: str, attr: str) -> bool:
        """Whether a builtin base of a class in ``between`` defines ``attr`` and so comes
        before ``hit`` in the MRO (which the in-repository MRO leaves out): unless ``hit``
        itself derives from that builtin, C3 puts it right after the classes naming it."""
        shadows = {
            b for cls in between if not cls.startswith("X:") for b in self._builtin_bases(cls)
            if hasattr(getattr(builtins, b), attr)
        }
        if not shadows:
            return False
        ancestry = self.mro(hit) if hit else ()
        below = {b for cls in ancestry if not cls.startswith("X:") for b in self._builtin_bases(cls)}
        return bool(shadows - below)

    def _own_django(self, class_id: str, attr: str, instance: bool) -> Value | None:
        """In Django's own source, what the model metaclass adds: ``objects`` hands on the
        methods of QuerySet, ``_meta`` is an Options."""
        if attr == "_meta":
            return ("I", own) if (own := self.own_options(class_id)) else None
        return ("I", own) if not instance and (own := self.own_queryset(class_id)) else None

    def _inherited_from_builtins(self, class_id: str, attr: str) -> bool:
        """Whether ``attr``, which no class of the repository along the MRO has, is
        ``object``'s or a builtin base's (``dict.pop`` for a ``dict`` subclass)."""
        if attr in OBJECT_ATTRIBUTES:
            return True
        return attr in BUILTIN_TYPE_ATTRIBUTES and self.builtin_defines(class_id, attr)

    def builtin_defines(self, class_id: str, attr: str) -> bool:
        """Whether a builtin base in the class's ancestry defines ``attr`` (``list.__iadd__``)."""
        return self._builtin_first(self.mro(class_id), "", attr) if class_id in self.scopes else False

    def subclasses(self) -> dict[str, list[str]]:
        """class id -> every in-repository class that has it in its MRO (not itself)."""
        if self._subclasses is None:
            self._subclasses = {}
            self._building_subclasses = True
            table: dict[str, list[str]] = defaultdict(list)
            for sid in sorted(self.scopes):
                if self.scopes[sid].kind == "class":
                    for ancestor in self.mro(sid)[1:]:
                        if not ancestor.startswith("X:"):
                            table[ancestor].append(sid)
            self._subclasses = table
            self._building_subclasses = False
            for sid in sorted(self._unsettled_mros):  # their bases can be read now
                for ancestor in self.mro(sid)[1:]:
                    if not ancestor.startswith("X:") and sid not in table[ancestor]:
                        insort(table[ancestor], sid)
            self._unsettled_mros.clear()
        return self._subclasses

    def _bind(self, vals: Values, instance: bool, attr: str = "", owner: str | None = None,
              cls: str | None = None) -> Values:
        """Attribute values read through an instance or class; marks bound methods.

        ``owner`` is the class whose body or instances hold ``attr`` (where the lookup
        found it), ``cls`` the class the instance was read as.
        """
        out: Values = {}
        for val, inferred in vals.items():
            if val[0] == "S" and self.scopes[val[1]].method_kind == "property" and instance:
                out[("R", val[1])] = inferred  # a property read: the getter runs
            elif val[0] in ("I", "IS") and owner is not None and attr in self.scopes[owner].names and (
                getters := self._descriptor_getters(val[1])
            ):
                for getter in getters:  # a descriptor in the class body: reading it runs its __get__
                    out[("R", getter)] = inferred
            elif val[0] == "S" and instance and owner is not None and val[1] != f"{owner}::{attr}":
                out[(self._stored(val[1], attr, owner, cls or owner), val[1])] = inferred
            elif val[0] == "S" and instance and self._binds_receiver(val[1]):
                out[("BM", val[1])] = inferred
            else:
                out[val] = inferred
        return out

    def _descriptor_getters(self, class_id: str) -> list[str]:
        """The ``__get__`` methods the repository gives instances of a class (none for most)."""
        if class_id not in self.descriptor_classes:
            return []
        hit = self.class_member(class_id, "__get__")
        if hit is None or hit[1] is None:
            return []
        return sorted(v[1] for v in hit[0] if v[0] == "S" and self.scopes[v[1]].kind == "method")

    def _descriptor_setter(self, class_id: str) -> str | None:
        """The ``__set__`` method the repository gives instances of a class, if one."""
        if self.scopes[class_id].kind != "class":
            return None
        hit = self.class_member(class_id, "__set__")
        found = sorted(v[1] for v in (hit[0] if hit is not None and hit[1] is not None else {})
                       if v[0] == "S" and self.scopes[v[1]].kind == "method")
        return found[0] if len(found) == 1 else None

    def _stored(self, func_id: str, attr: str, owner: str, cls: str) -> str:
        """The kind of value a function or class stored under ``attr`` (not a def of that
        name) is when read through an instance: ``BM`` when it gets the instance as its
        first argument, ``S`` when not, ``UB`` when that cannot be told.

        A function in a class body binds like a method (``run = helper``: ``self.run(1)``
        calls ``helper(self, 1)``); one stored on the instance (``self.run = helper``)
        does not, and hides the class's. A staticmethod object (``run = tool`` in the body
        holding ``@staticmethod def tool``) does not bind either, but the function read
        through another class (``run = Other.tool``) is a plain one again.
        """
        scope = self.scopes[func_id]
        if scope.kind == "class" or scope.method_kind == "classmethod" or attr == "__new__":
            return "S"  # constructed; bound to the class either way; an implicit staticmethod
        if attr.endswith("]") or attr not in self.scopes[owner].names:
            return "S"  # an element of a container, or an attribute of the instance itself
        if self._shadowed(attr, owner, cls):
            return "UB"
        if scope.method_kind == "staticmethod":
            return "S" if scope.parent == owner else "UB"
        if scope.kind == "function" and any(
            decorator_name(d) not in TRANSPARENT_DECORATORS or decorator_name(d) in _BINDING_DECORATORS
            for d in scope.decorators
        ):
            return "UB"  # a decorator may have put something else than a function there
        return "BM"

    def _shadowed(self, attr: str, owner: str, cls: str) -> bool:
        """Whether instances of ``cls`` may hold ``attr`` themselves, hiding what the body of
        ``owner`` stores under it: a method assigns it on ``self``, or the body annotates it
        (a dataclass field: the generated __init__ assigns it)."""
        self._note((owner, attr))
        if any(isinstance(src, Binding) and src.kind == "annotation" for src in self.scopes[owner].names[attr]):
            return True
        for c in self.mro(cls):
            if not c.startswith("X:"):
                self._note((c, attr))
                if any(not self._class_receiver(where) for _, where in self.inst_attrs.get(c, {}).get(attr, ())):
                    return True
                if self._stores_on(c, attr, c == cls):
                    return True
        return False

    def _class_receiver(self, method_id: str) -> bool:
        """Whether a method's first parameter is the class (``cls.run = f`` stores into a
        class body, where a function still binds): a classmethod, an implicit one, ``__new__``."""
        scope = self.scopes[method_id]
        name = scope.definition.name if scope.definition is not None else ""
        return scope.method_kind == "classmethod" or name in ("__init_subclass__", "__class_getitem__", "__new__")

    def _binds_receiver(self, func_id: str) -> bool:
        """A method read through an instance (or ``super()``) gets the receiver as its first
        argument; a staticmethod does not, nor ``__new__`` (an implicit staticmethod: the
        class is passed explicitly, as in ``super().__new__(cls)``)."""
        scope = self.scopes[func_id]
        if scope.kind != "method" or scope.method_kind == "staticmethod":
            return False
        return scope.definition is None or scope.definition.name != "__new__"

    def _module_member(self, module: str, attr: str) -> Values | None:
        sub = f"{module}.{attr}"
        vals: Values = {}
        found_any = False
        for path in self.modules.paths(module):
            scope = self.scopes.get(path)
            if scope is None:
                continue
            found = self._settled_lookup(attr, scope)
            if found is not None:
                found_any = True
                _merge(vals, found, False)
        if self.modules.is_module(sub):
            vals[("M", sub)] = False
            found_any = True
        if not found_any and not attr.startswith("__"):
            hook = self._module_getattr(module)
            if hook:
                return hook
        return vals if found_any else None

    def _module_getattr(self, module: str) -> Values:
        """A name a module does not bind: the module's ``__getattr__`` function (PEP 562)
        runs, and the name is what it returns (deprecated aliases, lazy imports)."""
        out: Values = {}
        for path in self.modules.paths(module):
            scope = self.scopes.get(path)
            found = self._settled_lookup("__getattr__", scope) if scope is not None else None
            for val in found or {}:
                if val[0] == "S" and self.scopes[val[1]].kind == "function":
                    out[("R", val[1])] = True
        return out

    def _member_elements(self, vals: Values, attr: str, op: str) -> Values:
        """``obj.table["k"]``: what a class or module body keyed under that attribute, else
        the elements stored into it (``obj.table[]``), else the elements of its values."""
        if op != "[]":
            found = self._members(vals, attr + op)
            if found:
                return found
        return self._members(vals, attr + "[]") or self._elements_at(self._members(vals, attr), op)

    def _elements_at(self, vals: Values, op: str) -> Values:
        """The element ``op`` (``[]`` or a constant key) reads from values: a function
        returning tuple literals gives the member at that index (``<return>[1]``)."""
        if op == "[]":
            return self._elements(vals)
        out: Values = {}
        rest: Values = {}
        for val, inferred in vals.items():
            target = ("<return>" if val[0] == "G" else val[-1]) + op  # (a display: its name)
            if val[0] in ("G", "D"):
                self._note((val[1], target))
            if val[0] in ("G", "D") and target in self.scopes[val[1]].names:
                _merge(out, self._scope_target(val[1], target), True)
            else:
                rest[val] = inferred
        _merge(out, self._elements(rest) if rest else {}, False)
        return out

    def _elements(self, vals: Values) -> Values:
        out: Values = {}
        for val, _inferred in vals.items():
            if val[0] == "G":
                _merge(out, self._scope_target(val[1], "<return>[]"), True)
            elif val[0] == "D":
                _merge(out, self._scope_target(val[1], val[2] + "[]"), True)
            elif val[0] in ("I", "IS"):
                _merge(out, self._instance_elements(val), True)
            elif val[0] in ("Q", "QT"):  # a queryset's rows; the pair's instance (its bool calls nothing)
                out[("I", val[1])] = True
            elif val[0] == "X":
                out[EXTERNAL] = False
            elif val[0] == "S" and self.scopes[val[1]].kind == "class":
                _merge(out, self._class_subscript(val[1]), True)
        return out

    def _instance_elements(self, val: Value) -> Values:
        """An element of an instance, as iterating it gives one. A subscript (``x[k]``) reads
        as an element too (the two are written alike): an instance with a ``__getitem__``
        but no ``__iter__`` gives what that method returns when every one it may run is the
        repository's (a lookup table handing out the classes it maps); with both, or with
        an outside base's, nothing."""
        getitem = self.member(val, "__getitem__")
        if not getitem:
            return self._iteration(val)
        if all(v[0] in ("BM", "F") for v in getitem) and not self.member(val, "__iter__"):
            return self.call_results(getitem, "")
        return {}

    def _iteration(self, val: Value) -> Values:
        """What iterating an instance gives: what its ``__iter__`` yields when that is a
        generator, or what the ``__next__`` of the iterator it returns returns."""
        out: Values = {}
        for method, then in ITERATOR_NEXT.items():
            methods = self.member(val, method) or {}
            for it in self.call_results(methods, ""):
                if it[0] == "G":
                    _merge(out, self._scope_target(it[1], "<return>[]"), True)
                elif it[0] in ("I", "IS"):
                    _merge(out, self.call_results(self.member(it, then) or {}, ""), True)
            for m in methods if method == "__iter__" else ():
                if m[0] in ("S", "BM"):
                    _merge(out, self._delegated_items(m[1]), True)
        out.pop(EXTERNAL, None)  # an outside iterator's items: unknown, as before
        return out

    def _delegated_items(self, method_id: str) -> Values:
        """``def __iter__(self): return iter(self._items)``: iterating the instance gives
        the elements of the container it hands the iteration to."""
        scope = self.scopes.get(method_id)
        if scope is None:
            return {}
        self._note((method_id, "<return>"))
        out: Values = {}
        for src in scope.names.get("<return>", ()):
            if isinstance(src, Binding) and src.value and src.value.endswith(_ITERATING):
                _merge(out, self.resolve(src.value[: -len(_ITERATING)] + "[]", method_id) or {}, True)
        return out

    def _scope_target(self, scope_id: str, target: str) -> Values:
        scope = self.scopes.get(scope_id)
        if scope is None or target not in scope.names:
            return {}
        return self._resolve_sources(scope.names[target], scope)

    # ---------------------------------------------------------------- calls

    def targets(self, vals: Values) -> Iterator[Target]:
        """The code that runs when a value with these possibilities is called."""
        for val, inferred in vals.items():
            yield from self._targets_of(val, inferred)

    def _targets_of(self, val: Value, inferred: bool) -> Iterator[Target]:
        kind = val[0]
        if kind == "F":
            yield Target(val[1], inferred, False)
            return
        if kind == "QC":
            yield Target(val[2], True, True)
            return
        if kind == "QM":
            if val[2] in django.SAVING:
                yield from self.saved(val[1])
            return
        if kind == "R":  # calling what a property returns: the getter runs first
            # without the call's arguments: they go to what it returns (nothing to check)
            yield Target(val[1], inferred, None)
            if ("R->", val[1]) in self._active:
                return
            self._active.add(("R->", val[1]))
            try:
                for ret in self.returns(val[1]):
                    yield from self._targets_of(ret, True)
            finally:
                self._active.discard(("R->", val[1]))
            return
        if kind in ("S", "BM", "UB"):
            scope = self.scopes[val[1]]
            if scope.kind == "class":
                checked = kind != "UB"  # a partial's construction passes arguments of its own
                yield Target(val[1], inferred, False if checked else None)
                # type(C).__call__ is what calling C runs, then __new__ and __init__
                constructions = [
                    t for meta in self.metaclasses(val[1]) for t in self._dunder_targets(meta, "__call__", inferred)
                ]
                for dunder in ("__new__", "__init__"):
                    constructions.extend(self._dunder_targets(val[1], dunder, inferred))
                yield from (t if checked else Target(t.id, t.inferred, None) for t in constructions)
                yield from self._post_init(val[1], inferred)
                return
            bound = None if kind == "UB" else kind in ("BM", "R") or scope.method_kind == "classmethod"
            yield Target(val[1], inferred, bound)
            for wrapper in self.wrappers(val[1]):
                # a class decorator's __call__ gets the decorator's instance; a wrapper function
                # in a method's place is bound like the method (`self.m()` passes self to it)
                yield Target(wrapper, True, True if self.scopes[wrapper].kind == "method" else bound)
        elif kind in ("I", "IS"):
            yield from self._dunder_targets(val[1], "__call__", inferred)
        elif kind == "CS":
            yield from self._constructions(val[1], inferred)

    def _post_init(self, class_id: str, inferred: bool) -> Iterator[Target]:
        """The ``__post_init__`` (attrs: ``__attrs_post_init__``) the ``__init__`` a
        dataclass or attrs class was given calls, with the init-only fields as arguments
        (not checked)."""
        for cls in self.mro(class_id):
            if cls.startswith("X:"):
                return
            d = self.scopes[cls].definition
            if d is not None and d.generated_init is not None:
                break
            if self._defines(cls, "__init__"):
                return  # a hand-written __init__ runs instead
        else:
            return
        for hook in POST_INITS:
            for t in self._dunder_targets(class_id, hook, inferred):
                yield Target(t.id, t.inferred, None)

    def _defines(self, class_id: str, name: str) -> bool:
        """Whether the class body defines ``name`` with a ``def``."""
        return any(isinstance(b, Defn) for b in self.scopes[class_id].names.get(name, ()))

    def _constructions(self, class_id: str, inferred: bool) -> Iterator[Target]:
        """Calling a class that may be any subclass: each of them and what constructs it.

        With more subclasses than a value may hold, only the class itself: dispatch to
        that many says nothing (as for a method call on an instance of it).
        """
        subs: list[str] = []
        if self._building_subclasses:  # resolving class bases: subclasses are not known yet
            self.truncated = True
        else:
            subs = self.subclasses().get(class_id, [])
        classes = [class_id] + (subs if len(subs) <= MAX_VALUES else [])
        seen: set[str] = set()
        for i, cls in enumerate(classes):
            for t in self._targets_of(("S", cls), inferred or i > 0):
                if t.id not in seen:
                    seen.add(t.id)
                    # the class is only a guess at the object's type (`type(self)`, `cls`):
                    # a constructor is not checked against this call, nor given its arguments
                    yield Target(t.id, t.inferred, None)

    def _getattr_hook(self, class_id: str) -> Values:
        """An attribute an instance's class does not have: the ``__getattr__`` method the
        class gives runs, and the attribute is what it returns (as for a property read)."""
        hit = self.class_member(class_id, "__getattr__")
        if hit is None or hit[1] is None:
            return {}
        return {("R", v[1]): True for v in hit[0] if v[0] == "S" and self.scopes[v[1]].kind == "method"}

    def saved(self, model: str) -> Iterator[Target]:
        """``Order.objects.create(total=1)``: the manager makes an Order from the keywords
        and saves it, so the model's own ``__init__`` and ``save`` run (with arguments of
        Django's: nothing to check, nothing flows)."""
        yield Target(model, True, None)
        for name in ("__init__", "save"):
            for t in self._dunder_targets(model, name, True):
                yield Target(t.id, True, None)

    def _dunder_targets(self, class_id: str, dunder: str, inferred: bool) -> Iterator[Target]:
        hit = self.class_member(class_id, dunder)
        if hit is None:
            return
        for v, inf in hit[0].items():
            if v[0] == "S" and self.scopes[v[1]].kind != "class":
                yield Target(v[1], inferred or inf, True)

    def call_results(self, vals: Values, scope_id: str) -> Values:
        out: Values = {}
        for val, inferred in vals.items():
            kind = val[0]
            if kind == "X":
                out[EXTERNAL] = False
            elif kind == "B":
                _merge(out, self._builtin_result(val[1], scope_id), inferred)
            elif kind in ("S", "BM", "UB") and self.scopes[val[1]].kind == "class":
                out[("I", val[1])] = inferred
            elif kind == "CS":
                out[("IS", val[1])] = inferred
            elif kind in ("S", "BM", "UB", "F"):
                _merge(out, self.returns(val[1], wrapped=kind != "F"), True)
            elif kind in ("I", "IS"):
                for t in self._dunder_targets(val[1], "__call__", inferred):
                    _merge(out, self.returns(t.id), True)
            elif kind == "CE":
                _merge(out, self._scope_target(val[1], "<return>[]"), True)
            elif kind == "L" and len(val) == 3:
                self._note((val[1], val[2] + "()"))
                _merge(out, self._scope_target(val[1], val[2] + "()"), True)
            elif kind == "QM" and (result := django.method_result(val[2])) is not None:
                out[(result, val[1])] = True
            elif kind == "QC":  # a custom manager's or queryset's method: by convention, a queryset
                out[("Q", val[1])] = True
            elif kind == "R" and ("R()", val[1]) not in self._active:
                self._active.add(("R()", val[1]))
                try:
                    _merge(out, self.call_results(self.returns(val[1]), scope_id), True)
                finally:
                    self._active.discard(("R()", val[1]))
        return out

    def returns(self, func_id: str, wrapped: bool = True) -> Values:
        scope = self.scopes.get(func_id)
        if scope is None:
            return {}
        out = self._returned(func_id)
        if "<return>[]" in scope.names:
            out[("CM" if self._enter_method(func_id) else "G", func_id)] = True
        for wrapper in self.wrappers(func_id) if wrapped else ():
            _merge(out, self._returned(wrapper), True)
        return out

    def _returned(self, func_id: str) -> Values:
        """What a function's return statements give, its return annotation standing in for
        those that do not tell.

        A value the body does tell (``-> Base: return Sub()``) is more precise than the
        declared class, through which a call may dispatch to any override. An unknown or
        outside value, or one read from a parameter (fed by the repository's own calls
        only), is not: there the annotation is what callers can count on.
        """
        if self._returns_depth > MAX_RETURNS_DEPTH:
            self.truncated = True
            return {}
        self._returns_depth += 1
        try:
            return self._returned_values(func_id)
        finally:
            self._returns_depth -= 1

    def _returned_values(self, func_id: str) -> Values:
        self._note((func_id, "<return>"))
        scope = self.scopes[func_id]
        sources = scope.names.get("<return>", [])
        declared: list[object] = [b for b in sources if isinstance(b, Binding) and b.kind == "annotation"]
        if not declared:
            return self._resolve_sources(sources, scope) if sources else {}
        out: Values = {}
        untold = False
        for src in sources:
            if not (isinstance(src, Binding) and src.kind == "annotation"):
                told, certain = self._told(src, scope)
                untold = untold or not certain
                _merge(out, told, True)
        if untold or len(declared) == len(sources):
            _merge(out, self._resolve_sources(declared, scope), True)
        return out

    def _told(self, src: object, scope: Scope) -> tuple[Values, bool]:
        """What one return statement gives, and whether that is all it can give (not unknown,
        outside, or read from a parameter)."""
        outer = self.touched_param
        self.touched_param = 0
        vals = self._resolve_sources([src], scope)
        from_param = self.touched_param
        self.touched_param = outer | from_param
        return vals, bool(vals) and not from_param and EXTERNAL not in vals

    def _enter_method(self, func_id: str) -> str | None:
        """The method whose call enters the context manager a ``@contextmanager`` (or
        ``@asynccontextmanager``) generator function returns; None for other functions."""
        for deco in self.scopes[func_id].decorators:
            name = decorator_name(deco)
            if name in CONTEXT_MANAGERS:
                return CONTEXT_MANAGERS[name]
        return None

    def _builtin_result(self, name: str, scope_id: str) -> Values:
        if name == "super":
            scope = self.scopes.get(scope_id)
            while scope is not None and scope.owner_class is None:
                scope = self.scopes.get(scope.parent) if scope.parent else None
            if scope is not None and scope.owner_class:
                return {("P", scope.owner_class): False}
            return {}
        return {EXTERNAL: False}

    def wrappers(self, func_id: str) -> list[str]:
        """Functions decorators put in place of ``func_id`` (they run on each call). With
        decorators stacked (``@a @b def f``: what ``a`` made of what ``b`` made of ``f``)
        the name holds the outermost wrapper, which calls the next (see ``_decorated``);
        all are listed, as a decorator's return can be over-approximated (a registry's
        factory returning its own closures) and the outermost one then misread."""
        scope = self.scopes.get(func_id)
        if scope is None or not scope.decorators:
            return []
        out: list[str] = []
        for k in range(len(scope.decorators)):
            out.extend(self.decorator_wrappers(func_id, k))
        return out

    def decorator_wrappers(self, func_id: str, k: int) -> list[str]:
        """The functions the ``k``-th decorator of ``func_id`` (from the top) returns in its place."""
        key = (func_id, k)
        cached = self._wrappers.get(key)
        if cached is not None:
            return cached
        self._wrappers[key] = []  # a decorator that decorates itself must not recurse
        scope = self.scopes[func_id]
        deco = scope.decorators[k]
        if decorator_name(deco) in TRANSPARENT_DECORATORS:
            return []
        out = self._decorator_wrappers(func_id, deco, scope.parent or scope.path)
        self._wrappers[key] = out
        return out

    def _decorator_wrappers(self, func_id: str, deco: str, where: str) -> list[str]:
        out: list[str] = []
        for val in self.resolve(deco, where) or {}:
            if val[0] != "S":
                continue
            if self.scopes[val[1]].kind == "class":
                # `@Trace`: the name holds a Trace instance, and calling it runs __call__
                out.extend(t.id for t in self._dunder_targets(val[1], "__call__", True))
                continue
            for ret in self._scope_target(val[1], "<return>"):
                if ret[0] == "S" and ret[1] != func_id and self.scopes[ret[1]].kind != "class":
                    out.append(ret[1])
        return out

    def decorated_instances(self, func_id: str) -> Values:
        """The instances of classes of the repository that the outermost decorator of
        ``func_id`` returns in its place (``@command()`` returning ``Command(callback=f)``)."""
        scope = self.scopes.get(func_id)
        if scope is None or scope.kind == "class" or not scope.decorators:
            return {}
        deco = scope.decorators[0]
        if decorator_name(deco) in TRANSPARENT_DECORATORS:
            return {}
        out: Values = {}
        for val in self.resolve(deco, scope.parent or scope.path) or {}:
            if val[0] == "S" and self.scopes[val[1]].kind != "class":
                for ret in self._scope_target(val[1], "<return>"):
                    if ret[0] in ("I", "IS") and self.scopes[ret[1]].kind == "class":
                        out[ret] = True
        return out

    def _decorated(self, func_id: str, start: int) -> Values:
        """What a decorator above others receives: what the next ones made of the function
        (their wrappers), or the function itself when they put none in its place."""
        scope = self.scopes.get(func_id)
        if scope is None:
            return {}
        for k in range(start, len(scope.decorators)):
            made = self.decorator_wrappers(func_id, k)
            if made:
                return {("F", w): True for w in made}
        return {("S" if scope.kind == "class" else "F", func_id): False}

    def builtin_dunders(self, site: CallSite, scope_id: str) -> Iterator[Target]:
        """``len(x)`` runs ``type(x).__len__``: targets for in-repository classes."""
        assert site.callee is not None
        dunders = BUILTIN_DUNDERS.get(site.callee, ())
        if not dunders or not site.args or (site.callee in ONE_ITERABLE and (site.positional != 1 or site.star)):
            return
        for k, arg in enumerate(site.args[BUILTIN_ARGUMENTS.get(site.callee, slice(1))]):
            found = False
            for val in (self.resolve(arg, scope_id) or {}) if arg else {}:
                # a class object's type is its metaclass
                classes = [val[1]] if val[0] in ("I", "IS") else self._class_metaclasses(val)
                for cls in classes:
                    for dunder in dunders:
                        for target in self._protocol_targets(cls, dunder):
                            found = True
                            yield target
            # without an in-repository __iter__ the iterator is a builtin one: nothing to follow
            if found and k == 0 and site.callee in CONSUMING_BUILTINS and arg:
                yield from self.iterator_next(arg + ".__iter__", scope_id, site.line)

    def _protocol_targets(self, class_id: str, dunder: str) -> list[Target]:
        """The class's method for ``dunder``, or for what object's default of it runs
        (``str(x)`` of a class with only ``__repr__``); none where a builtin base has the
        method (a str subclass formats with str's own)."""
        for name in (dunder, *fallback_chain(dunder)):
            targets = list(self._dunder_targets(class_id, name, True))
            if targets or self.builtin_defines(class_id, name):
                return targets
        return []

    def setters(self, expr: str, scope_id: str, line: int) -> list[Target]:
        """The properties whose setter (or descriptors whose ``__set__``) assigning
        ``expr`` (``obj.attr``) runs.

        Only a property that the object's class (or, through ``self``, a subclass)
        has as a class attribute counts: not a property read that the attribute's
        stored value came from, nor one without an ``@attr.setter`` (assigning it
        raises, or a ``__setattr__`` takes it), nor a cached_property (not a data
        descriptor: assigning it calls nothing).
        """
        head, _, attr = expr.rpartition(".")
        vals = self.resolve_at(head, scope_id, line) if head else None
        found: dict[str, bool] = {}
        for val, inferred in (vals or {}).items():
            if val[0] not in ("I", "IS"):  # `Cls.attr = v` replaces the property instead
                continue
            if self.scopes[val[1]].kind != "class":
                continue
            own = self._class_property(val[1], attr)
            if own is not None:
                found[own] = found.get(own, True) and inferred
            if val[0] == "IS":
                subs: dict[str, bool] = {}
                for sub in self.subclasses().get(val[1], ()):
                    prop = self._class_property(sub, attr)
                    if prop is not None and prop != own:
                        subs[prop] = True
                if len(subs) <= MAX_VALUES:
                    for prop in subs:
                        found.setdefault(prop, True)
        return [Target(prop, inferred, True) for prop, inferred in found.items()]

    def _class_property(self, class_id: str, attr: str) -> str | None:
        """The settable property ``attr`` is on the class, if it is one (or the
        ``__set__`` of the descriptor the class body holds under ``attr``).

        A data descriptor wins over the instance's own attributes, so the lookup
        walks the MRO's class bodies only (``self.srid = v`` in a subclass still runs
        the base's setter).
        """
        for cls in self.mro(class_id):
            if cls.startswith("X:"):
                return None
            if attr not in self.scopes[cls].names:
                continue
            made = _made_property(self.scopes[cls].names[attr])
            if made is not None:  # `x = property(get_x, set_x)`
                setters = self._accessor(made, 1, cls, "S")
                return next(iter(setters))[1] if len(setters) == 1 else None
            hit = self.class_member(cls, attr)
            for val in hit[0] if hit is not None else {}:
                if val[0] == "I" and (setter := self._descriptor_setter(val[1])) is not None:
                    return setter  # `user = Perm()` in the body: assigning `obj.user` runs Perm.__set__
                scope = self.scopes.get(val[1]) if val[0] == "S" else None
                if scope is None or scope.method_kind != "property" or scope.parent != cls:
                    continue
                if "cached_property" in {decorator_name(d) for d in scope.decorators}:
                    continue
                if val[1] in self.setter_props:
                    return val[1]
            return None
        return None

    def class_object(self, expr: str, scope_id: str, line: int) -> bool:
        """Whether ``expr`` can only be a class of the repository (not an instance of one)."""
        vals = self.resolve_at(expr, scope_id, line) if expr else None
        return bool(vals) and all(v[0] == "CS" or self.is_class(v) for v in vals or {})

    def is_class(self, val: Value) -> bool:
        """Whether a value is exactly a class defined in the repository."""
        return val[0] == "S" and self.scopes[val[1]].kind == "class"

    def iterator_next(self, iter_call: str, scope_id: str, line: int) -> Iterator[Target]:
        """What iterating runs after ``iter_call`` (``x.__iter__``): the ``__next__`` of its result."""
        name = iter_call.rsplit(".", 1)[-1]
        vals = self.resolve_at(f"{iter_call}().{ITERATOR_NEXT[name]}", scope_id, line) or {}
        for t in self.targets(vals):
            yield Target(t.id, True, t.bound)


# Methods of outside types whose result the receiver tells: a container's reads give what
# was stored in it, an iterator's next one of its elements, a named tuple's _replace a copy
# and its class's _make a new one.
_CONTAINER_READS = {
    (".get", "()"): ("[]",), (".pop", "()"): ("[]",), (".setdefault", "()"): ("[]",), (".popleft", "()"): ("[]",),
    (".values", "()", "[]"): ("[]",), (".items", "()", "[]", "[]"): ("[]",),
    (".items", "()", "[]"): ("[]",), (".copy", "()"): (),
    # `sorted(d.items())`, `list(d.values())`: a new list of what iterating the view gives
    (".values", "()", ".__iter__", "()", "[]"): ("[]",), (".items", "()", ".__iter__", "()", "[]", "[]"): ("[]",),
    (".items", "()", ".__iter__", "()", "[]"): ("[]",),
    (".__next__", "()"): ("[]",),  # `next(it)` of an iterator declared `Iterator[T]`
    # `iter(xs)` of a container declared `list[T]`: iterated, or stepped with `next()`
    (".__iter__", "()", "[]"): ("[]",), (".__iter__", "()", ".__next__", "()"): ("[]",),
    ("._replace", "()"): (),  # a named tuple's copy with fields replaced: of the same class
    ("._make", "()"): ("()",),  # `Point._make(row)`: a Point, as `Point(*row)` makes
}
_CONTAINER_METHODS = frozenset(pattern[0] for pattern in _CONTAINER_READS)
# What a dict's key reads: nothing (the keys of a dict are not kept), through an
# attribute no object has.
_DICT_KEY = ".<dict key>"


def _outside_only(vals: Values) -> bool:
    """Whether every value is outside code's (what it gives is not known here)."""
    return all(v == EXTERNAL for v in vals)


def _container_ops(ops: tuple[str, ...], keys: bool = False) -> tuple[str, ...]:
    """``d.get(k)`` reads an element of ``d``, like ``d[k]``; so do values() and items().

    Used only when the expression does not resolve as written, so a repository
    class with a `get` method keeps its own meaning. With ``keys``, ``d.get("a")``
    reads ``d["a"]``; without, the bag, as any other element read (an index after
    ``items()[]`` is a pair's member, which the bag holds too).
    """
    if not any(op in _CONTAINER_METHODS for op in ops):
        return ops
    shape = tuple("()" if op[0] == "(" else "[]" if op[0] == "[" else op for op in ops)
    out: list[str] = []
    i = 0
    while i < len(ops):
        for pattern, replacement in _CONTAINER_READS.items():
            if shape[i : i + len(pattern)] == pattern:
                key = ops[i + 1][1:-1].partition(",")[0] if keys and pattern == (".get", "()") else ""
                if pattern[0] == ".items" and pattern[-2:] == ("[]", "[]") and ops[i + len(pattern) - 1] == "[0]":
                    out.append(_DICT_KEY)  # `for key, value in d.items()`: the bag holds values, not keys
                else:
                    out.extend((f"[{key}]",) if key else replacement)
                i += len(pattern)
                break
        else:
            out.append(ops[i])
            i += 1
    return tuple(out)


def _top_level_split(text: str) -> list[str]:
    """``a,b(c,d),e`` -> ``["a", "b(c,d)", "e"]``: the commas outside brackets."""
    parts: list[str] = []
    depth = start = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _get_defaults(ops: tuple[str, ...]) -> list[str]:
    """The default of each ``.get(k, default)`` with what follows it: ``d.get("a",h)()`` -> ``h()``."""
    out: list[str] = []
    for i in range(len(ops) - 1):
        if ops[i] == ".get" and "," in ops[i + 1] and ops[i + 1][0] == "(":
            out.append(ops[i + 1][1:-1].partition(",")[2] + "".join(ops[i + 2 :]))
    return out


def _live_bindings(bindings: list[Binding], line: int) -> list[Binding]:
    """The assignments that can reach ``line``: the last unconditional one before it
    hides the earlier ones; later ones stay (a loop can bring them around)."""
    before = [b for b in bindings if b.line < line]
    killers = [b for b in before if not b.conditional]
    if not killers:
        return bindings
    last = max(b.line for b in killers)
    return [b for b in bindings if b.line >= last]


def _alternative_sources(sources: list[object]) -> list[list[object]]:
    """The bindings of a name split into those of which one holds when it is read.

    Each assignment may be the one that ran last (it is conditional, or a rebinding
    made from elsewhere). A redefinition outside any branch (``from a import X``, then
    ``class X(Base)``) has hidden what came before it (``_live_at``); the imports and
    definitions left (``try: from a import X`` / ``except ImportError: class X``) stay
    one group, merged as before.
    """
    fixed: list[object] = [src for src in sources if isinstance(src, (Defn, Import))]
    out = [fixed] if fixed else []
    out.extend([src] for src in sources if not isinstance(src, (Defn, Import)))
    return out


def _stored_attr(attr: str) -> bool:
    """Whether ``obj.attr = v`` (or ``obj.attr[k] = v``) makes an instance attribute.

    Not ``obj.__class__ = cls``, which changes obj's type, nor another dunder: Python
    reads protocol methods from the type.
    """
    name = attr.removesuffix("[]")
    return name.isidentifier() and not (name.startswith("__") and name.endswith("__"))


def positional_param(params: tuple[Param, ...], j: int, star: bool) -> str | None:
    """The parameter the ``j``-th positional argument binds; ``args[]`` for an element of ``*args``.

    After ``f(*xs, ...)`` the position of a later argument is unknown: it goes to no ``*args``.
    """
    if j < len(params) and params[j].kind in ("positional", "positional_only"):
        return params[j].name
    if star:
        return None
    for p in params[: j + 1]:
        if p.kind == "var_positional":
            return p.name + "[]"
    return None


def keyword_param(params: tuple[Param, ...], keyword: str) -> str:
    """The parameter a keyword argument binds; ``kwargs[]`` for a value of ``**kwargs``."""
    var_keyword = None
    for p in params:
        if p.name == keyword and p.kind in ("positional", "keyword_only"):
            return keyword
        if p.kind == "var_keyword":
            var_keyword = p.name + "[]"
    return var_keyword or keyword


def _named_read(expr: str) -> bool:
    """Whether ``expr`` ends reading an attribute by a computed name (``self.visit_*``)."""
    ops = parse_expr(expr)[1]
    return bool(ops) and ops[-1].startswith(".") and "*" in ops[-1]


def _returns_a_parameter(func: Scope) -> bool:
    """Whether a function's returns include one of its parameters as it is, and nothing a
    call could not be told from (a generator's yields)."""
    sources = func.names.get("<return>", [])
    if not sources or "<return>[]" in func.names or func.method_kind == "property":
        return False
    if any(not isinstance(b, Binding) or b.kind not in ("return", "annotation") for b in sources):
        return False
    # (a method returning its receiver, `return self`, gives what it always gives)
    passed = set(func.params) - {func.first_param}
    return any(isinstance(b, Binding) and b.kind == "return" and b.value in passed for b in sources)


def _merge(into: Values, new: Values | None, inferred: bool) -> None:
    if not new:
        return
    for val, inf in new.items():
        flag = inf or inferred
        if val not in into or (into[val] and not flag):
            into[val] = flag


TYPING_BASES = frozenset({"Generic", "Protocol"})


def _typing_base(expr: str) -> bool:
    return expr.rsplit(".", 1)[-1] in TYPING_BASES


def _without_outside(vals: Values) -> Values:
    return {v: inf for v, inf in vals.items() if v[0] != "X"}


def _c3_merge(seqs: list[list[str]]) -> list[str]:
    seqs = [list(s) for s in seqs if s]
    out: list[str] = []
    while seqs:
        for seq in seqs:
            head = seq[0]
            if not any(head in s[1:] for s in seqs):
                break
        else:  # inconsistent hierarchy: Python would refuse it; fall back to depth-first
            head = seqs[0][0]
        out.append(head)
        seqs = [[x for x in s if x != head] for s in seqs]
        seqs = [s for s in seqs if s]
    return out
