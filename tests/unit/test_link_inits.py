"""The __init__ a class gets from its bases' fields, against what Python itself generates."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from impactbot.extract import extract
from impactbot.link import link
from impactbot.model import Signature

HEADER = """\
from dataclasses import KW_ONLY, InitVar, dataclass, field
from typing import ClassVar, Generic, NamedTuple, TypeVar

T = TypeVar("T")

"""

# Each case defines classes in one module; the last class is the one checked.
EXACT = {
    "fields of the base first": """
@dataclass
class A:
    x: int
    y: int = 0

@dataclass
class B(A):
    z: int = 1
""",
    "a field defined again keeps its place and takes the new default": """
@dataclass
class A:
    x: int
    y: int

@dataclass
class B(A):
    z: int = 2
    x: int = 0
    y: int = 1
""",
    "a base's ClassVar and init=False names keep their place when made fields": """
@dataclass
class A:
    a: ClassVar[int] = 1
    b: int = 0
    c: int = field(default=0, init=False)

@dataclass
class B(A):
    c: int = 3
    a: int = 2
""",
    "a field made a ClassVar or init=False leaves __init__": """
@dataclass
class A:
    a: int
    b: int = 0

@dataclass
class B(A):
    a: ClassVar[int] = 1
    b: int = field(default=0, init=False)
    c: int = 0
""",
    "a diamond takes each base's whole table in reverse MRO order": """
@dataclass
class X:
    x: int = 0

@dataclass
class Y(X):
    y: int = 1

@dataclass
class Z(X):
    x: int = 9
    z: int = 2

@dataclass
class D(Y, Z):
    d: int = 3
""",
    "keyword-only fields go last, the base's too": """
@dataclass
class K:
    _: KW_ONLY
    k: int

@dataclass(kw_only=True)
class L(K):
    l: int = 0

@dataclass
class M(L):
    m: int
    n: int = field(default=1, kw_only=True)
""",
    "an InitVar of a base is a parameter": """
@dataclass
class A:
    seed: InitVar[int] = 0

@dataclass
class B(A):
    b: int = 0
""",
    "a base with its own __init__ or init=False still gives its fields": """
@dataclass
class A:
    a: int

    def __init__(self, raw):
        self.a = raw

@dataclass(init=False)
class B(A):
    b: int = 0

@dataclass
class C(B):
    c: int = 0
""",
    "Generic and object bases add nothing": """
@dataclass
class A(Generic[T], object):
    a: int

@dataclass
class B(A, Generic[T]):
    b: int = 0
""",
    "a plain subclass of a NamedTuple keeps its fields": """
class P(NamedTuple):
    x: int
    y: int = 0

class Q(P):
    extra: int = 5

    def norm(self):
        return self.x
""",
    "a plain subclass of a dataclass runs its __init__": """
@dataclass
class A:
    a: int

@dataclass
class B(A):
    b: int = 0

class C(B):
    pass

class D(C):
    pass
""",
}

UNKNOWN = {
    "a plain base": """
class Plain:
    pass

@dataclass
class B(Plain):
    b: int = 0
""",
    "an outside base": """
from somewhere import Model

@dataclass
class B(Model):
    b: int = 0
""",
    "a base that may be one of two classes": """
import sys

if sys.flags.optimize:
    @dataclass
    class Base:
        a: int
else:
    @dataclass
    class Base:
        a: int
        b: int

@dataclass
class B(Base):
    c: int = 0
""",
    "a base from an assignment": """
@dataclass
class A:
    a: int

Alias = A

@dataclass
class B(Alias):
    b: int = 0
""",
    "an attrs base": """
import attrs

@attrs.define
class A:
    a: int

@dataclass
class B(A):
    b: int = 0
""",
    "a plain subclass with its own __new__": """
class P(NamedTuple):
    x: int

class Q(P):
    def __new__(cls, raw):
        return super().__new__(cls, int(raw))
""",
    "a class Python refuses (a field without default after one with)": """
@dataclass
class A:
    a: int = 0

@dataclass
class B(A):
    b: int
""",
}


def _checked(source: str) -> tuple[str, Signature | None]:
    facts = extract((HEADER + source).encode(), "python")
    last = [d for d in facts.definitions if d.kind == "class"][-1]
    symbols = {s.qualname: s for s in link({"m.py": facts}).symbols}
    return last.qualname, symbols[last.qualname].signature


def _shape(signature: inspect.Signature) -> list[tuple[str, str, bool]]:
    kinds = {inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional", inspect.Parameter.KEYWORD_ONLY: "keyword_only"}
    return [(p.name, kinds[p.kind], p.default is not inspect.Parameter.empty)
            for p in signature.parameters.values() if p.name != "self"]


@pytest.mark.parametrize("source", EXACT.values(), ids=EXACT.keys())
def test_the_inherited_init_is_the_one_python_generates(source: str) -> None:
    name, signature = _checked(source)
    namespace: dict[str, Any] = {}
    exec(compile(HEADER + source, "<case>", "exec", dont_inherit=True), namespace)  # no lazy annotations
    expected = _shape(inspect.signature(namespace[name]))
    assert signature is not None
    assert [(p.name, p.kind, p.has_default) for p in signature.params] == expected


@pytest.mark.parametrize("source", UNKNOWN.values(), ids=UNKNOWN.keys())
def test_a_class_with_bases_not_known_exactly_gets_no_signature(source: str) -> None:
    assert _checked(source)[1] is None
