"""The Python extractor: one source snippet in, exact facts out (pyflakes-style).

Every test parses real source with tree-sitter; the helpers only pick the facts
a test is about, so each assertion reads like the rule it checks.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from impactbot.extract import EXTRACTOR_VERSION, extract, language_for
from impactbot.extract._pyexpr import MAX_CHAIN
from impactbot.extract.python import extract_python
from impactbot.model import CallSite, Definition, FileFacts, Import, Param, Signature

# ------------------------------------------------------------------ harness


def facts(source: str | bytes) -> FileFacts:
    data = textwrap.dedent(source).lstrip("\n").encode() if isinstance(source, str) else source
    return extract_python(data)


def defs(source: str) -> dict[str, Definition]:
    return {d.qualname: d for d in facts(source).definitions}


def kinds(source: str) -> list[tuple[str, str]]:
    return [(d.qualname, d.kind) for d in facts(source).definitions]


def sites(source: str, kind: str = "call") -> list[tuple[str, str | None, int]]:
    """(scope, callee, line) of every call site of one kind, in source order."""
    return [(c.scope, c.callee, c.line) for c in facts(source).calls if c.kind == kind]


def calls(source: str) -> list[CallSite]:
    return [c for c in facts(source).calls if c.kind == "call"]


def call(source: str) -> CallSite:
    (site,) = calls(source)
    return site


def binds(source: str) -> list[tuple[str, str, str | None, str]]:
    """(scope, target, value, kind) of every binding, in source order."""
    return [(b.scope, b.target, b.value, b.kind) for b in facts(source).bindings]


def imports(source: str) -> list[tuple[str, str, str | None, str | None, int, bool]]:
    return [(i.scope, i.module, i.name, i.alias, i.level, i.type_only) for i in facts(source).imports]


def fingerprint(source: str, qualname: str = "") -> str:
    found = facts(source).definition(qualname)
    assert found is not None, f"no definition {qualname!r}"
    return found.fingerprint


# -------------------------------------------------------------- definitions


def test_the_module_is_a_definition_spanning_the_file() -> None:
    module = facts("x = 1\n\ny = 2\n").definitions[0]
    assert (module.qualname, module.kind, module.start_line, module.end_line) == ("", "module", 1, 3)
    assert (module.signature, module.decorators, module.bases) == (None, (), ())


def test_an_empty_file_is_a_module_of_one_line() -> None:
    result = facts(b"")
    assert [(d.qualname, d.kind, d.start_line, d.end_line) for d in result.definitions] == [("", "module", 1, 1)]
    assert (result.calls, result.imports, result.bindings, result.all_names, result.error) == ((), (), (), None, None)


def test_each_kind_of_definition_and_its_qualified_name() -> None:
    source = """
        class Cart:
            def total(self): ...
            async def save(self): ...
            @staticmethod
            def make(): ...
            @classmethod
            def create(cls): ...
            @property
            def size(self): ...
            class Line:
                def price(self): ...

        def build():
            def inner():
                class Local: ...
            return inner

        async def fetch(): ...
        """
    assert kinds(source) == [
        ("", "module"),
        ("Cart", "class"),
        ("Cart::total", "method"),
        ("Cart::save", "method"),
        ("Cart::make", "method"),
        ("Cart::create", "method"),
        ("Cart::size", "method"),
        ("Cart::Line", "class"),
        ("Cart::Line::price", "method"),
        ("build", "function"),
        ("build::inner", "function"),
        ("build::inner::Local", "class"),
        ("fetch", "function"),
    ]


def test_a_def_inside_a_conditional_class_body_is_still_a_method() -> None:
    source = """
        class Compat:
            if PY2:
                def text(self): ...
        """
    assert kinds(source)[-1] == ("Compat::text", "method")


def test_lambdas_and_comprehensions_are_not_definitions() -> None:
    source = """
        def build():
            key = lambda item: item.price
            return [price(i) for i in items if (lambda: i)()]
        """
    assert kinds(source) == [("", "module"), ("build", "function")]


def test_a_name_defined_twice_in_one_scope_is_one_symbol() -> None:
    source = """
        if FAST:
            def load():
                return fast()
        else:
            def load():
                return slow()
        """
    (only,) = [d for d in facts(source).definitions if d.qualname == "load"]
    assert (only.start_line, only.end_line) == (2, 6)
    assert fingerprint(source.replace("slow()", "slower()"), "load") != only.fingerprint


def test_a_property_setter_belongs_to_the_property() -> None:
    source = """
        class Cart:
            @property
            def total(self):
                return self._total

            @total.setter
            def total(self, value):
                self._total = value
        """
    found = defs(source)
    assert list(found) == ["", "Cart", "Cart::total"]
    total = found["Cart::total"]
    assert (total.start_line, total.end_line, total.decorators) == (2, 8, ("property",))
    assert total.signature == Signature((Param("self", "positional", False),))
    assert fingerprint(source.replace("= value", "= int(value)"), "Cart::total") != total.fingerprint


def test_lines_start_at_the_first_decorator_and_end_at_the_last_line_of_code() -> None:
    source = """
        @first
        @second(1)
        def handler(
            request,
        ):
            return request
            # trailing comment inside the body

        x = 1
        """
    handler = defs(source)["handler"]
    assert (handler.start_line, handler.end_line) == (1, 6)


def test_signature_records_every_parameter_kind() -> None:
    source = """
        def f(a, b: int, /, c=1, d: "Repo" = None, *args: str, e, f=2, **kw: dict[str,  int]) -> Optional[
            Repo
        ]: ...
        """
    assert defs(source)["f"].signature == Signature(
        (
            Param("a", "positional_only", False),
            Param("b", "positional_only", False, "int"),
            Param("c", "positional", True, None, "1"),
            Param("d", "positional", True, '"Repo"', "None"),
            Param("args", "var_positional", False, "str"),
            Param("e", "keyword_only", False),
            Param("f", "keyword_only", True, None, "2"),
            Param("kw", "var_keyword", False, "dict[str, int]"),
        ),
        returns="Optional[Repo]",
    )


def test_a_signature_leaves_out_parentheses_around_a_whole_annotation_or_default() -> None:
    wrapped = """
        def f(
            node: (
                int | str
            ),
            limit: int = (10),
            pair=(1, 2),
        ) -> (None): ...
        """
    signature = defs(wrapped)["f"].signature
    assert signature == defs("def f(node: int | str, limit: int = 10, pair=(1, 2)) -> None: ...")["f"].signature
    assert signature is not None and signature.text() == "(node: int | str, limit: int = 10, pair=(1, 2)) -> None"
    kept = defs("def f(sentinel=(marker := object())): ...")["f"].signature
    assert kept is not None and kept.params[0].default == "(marker := object())"


def test_a_signature_writes_plain_string_literals_in_double_quotes() -> None:
    single = defs("def f(a='', b: 'Node' = U'q', c=B'ruok', d=f'{x}', e='say \"hi\"') -> 'Node': ...")["f"]
    double = defs('def f(a="", b: "Node" = "q", c=b"ruok", d=f\'{x}\', e=\'say "hi"\') -> "Node": ...')["f"]
    assert single.signature == double.signature
    assert single.signature is not None
    assert single.signature.text() == """(a="", b: "Node" = "q", c=b"ruok", d=f'{x}', e='say "hi"') -> "Node\""""


def test_a_bare_star_makes_the_rest_keyword_only() -> None:
    signature = defs("def f(self, *, key, default=None): ...")["f"].signature
    assert signature is not None
    assert [(p.name, p.kind, p.has_default) for p in signature.params] == [
        ("self", "positional", False),
        ("key", "keyword_only", False),
        ("default", "keyword_only", True),
    ]
    assert signature.text() == "(self, *, key, default=None)"


def test_classes_and_modules_have_no_signature() -> None:
    found = defs("class A: ...")
    assert found["A"].signature is None
    assert found[""].signature is None


def test_decorators_are_recorded_as_exprs() -> None:
    source = """
        class A:
            @property
            @functools.lru_cache()
            @app.route("/x", methods=["GET"])
            @x.setter
            def m(self): ...
        """
    assert defs(source)["A::m"].decorators == ("property", "functools.lru_cache()", "app.route()", "x.setter")


def test_bases_are_positional_class_arguments_only() -> None:
    source = """
        class Repo(Base, mod.Mixin, Generic[T], metaclass=Meta, **extra):
            pass
        """
    assert defs(source)["Repo"].bases == ("Base", "mod.Mixin", "Generic")
    assert defs(source)["Repo"].metaclass == "Meta"


def test_a_subscripted_base_is_its_generic_class() -> None:
    source = """
        class Pair(Base[K, V], mod.Mixin[int][str]):
            pass
        """
    assert defs(source)["Pair"].bases == ("Base", "mod.Mixin")


def test_with_blocks_expecting_an_exception_are_recorded() -> None:
    source = """
        def test_refused():
            with pytest.raises(TypeError):
                f(1, 2)
            with open(p) as fh, raises(ValueError, match="x") as info:
                g()
                h()
            with open(p):
                f(3)

        class T(unittest.TestCase):
            def test_b(self):
                with self.assertRaisesRegex(KeyError, "k"):
                    d[1]

            def test_c(self):  # Django's
                with self.assertRaisesMessage(TypeError, "missing"):
                    GenericPrefetch("question")
        """
    facts = extract(textwrap.dedent(source).encode(), "python")
    assert facts.expected_errors == ((3, 4), (5, 7), (13, 14), (17, 18))


def test_lambdas_are_recorded_with_their_scope_and_lines() -> None:
    source = """
        key = lambda item: item.name

        class Box:
            def sort(self, items):
                items.sort(key=lambda i: (
                    i.size, i.name))
                return [lambda: x for x in items]
        """
    facts = extract(textwrap.dedent(source).encode(), "python")
    assert facts.lambdas == (("", 2, 2), ("Box::sort", 6, 7), ("Box::sort", 8, 8))


def test_loops_are_recorded_with_their_scope_and_lines() -> None:
    source = """
        for name in names:
            pass

        async def pump(queue):
            while True:
                async for item in queue:
                    handle(item)
            total = [x for x in queue]
        """
    facts = extract(textwrap.dedent(source).encode(), "python")
    # a comprehension's loop is not a statement: nothing after it comes around to it
    assert facts.loops == (("", 2, 3), ("pump", 6, 8), ("pump", 7, 8))


def test_async_is_recorded() -> None:
    found = defs("async def a(): ...\ndef b(): ...\nclass C:\n    async def m(self): ...\n")
    assert (found["a"].is_async, found["b"].is_async, found["C::m"].is_async) == (True, False, True)


# -------------------------------------------------------------- fingerprints

ORIGINAL = '''
@register(name='total')
def total(cart, discount):
    """Sum the lines of a cart."""
    subtotal = sum(line.price for line in cart.lines)  # the raw sum
    if subtotal > LIMIT and discount:
        return (subtotal - discount) * RATE
    return {'value': subtotal, "currency": cart.currency}
'''

REFORMATTED = '''
# a comment before the function
@register(name="total")
def total(
    cart,
    discount,
):
    """
    Sum the lines   of a cart.
    """
    # explain the sum
    subtotal = sum(
        line.price for line in cart.lines
    )
    if (
        subtotal > LIMIT
        and discount
    ):
        return (
            (subtotal - discount) * RATE
        )
    return {
        "value": subtotal,
        'currency': cart.currency,
    }
'''


def test_fingerprint_ignores_formatting_comments_commas_quotes_and_parens() -> None:
    assert fingerprint(REFORMATTED, "total") == fingerprint(ORIGINAL, "total")


def test_fingerprint_ignores_indentation_style_and_statement_separators() -> None:
    tabs = ORIGINAL.replace("    ", "\t")
    joined = ORIGINAL.replace('cart."""\n    subtotal', 'cart."""; subtotal')
    one_line = ORIGINAL.replace(
        "if subtotal > LIMIT and discount:\n        return", "if subtotal > LIMIT and discount: return"
    )
    for variant in (tabs, joined, one_line):
        assert variant != ORIGINAL
        assert fingerprint(variant, "total") == fingerprint(ORIGINAL, "total")


def test_fingerprint_ignores_backslash_continuations_and_blank_lines() -> None:
    assert fingerprint("x = a + \\\n    b\n\n\ny = 2\n") == fingerprint("x = a + b\ny = 2\n")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("subtotal = sum", "sub_total = sum"),  # a renamed variable
        ("* RATE", "* RATE2"),
        ("'value'", "'values'"),  # a changed literal
        ("Sum the lines", "Sum all the lines"),  # a changed docstring
        ("name='total'", "name='totals'"),  # a changed decorator argument
        ("@register(", "@registry("),
        ("(subtotal - discount) * RATE", "subtotal - discount * RATE"),  # parens that group
        ("> LIMIT", ">= LIMIT"),
        ("def total(cart, discount)", "def total(cart, discount=0)"),
        ("cart.currency}", "cart.currency, 'x': 1}"),
    ],
)
def test_fingerprint_sees_every_real_token_change(old: str, new: str) -> None:
    assert old in ORIGINAL
    assert fingerprint(ORIGINAL.replace(old, new), "total") != fingerprint(ORIGINAL, "total")


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("if a:\n    b()\nc()\n", "if a:\n    b()\n    c()\n"),  # a statement moved into a block
        ("x = (1,)\n", "x = (1)\n"),  # a one-element tuple's comma matters
        ("x = d[1,]\n", "x = d[1]\n"),
        ("x = ' '.join(y)\n", "x = ''.join(y)\n"),  # whitespace inside a string literal
        ("x = 'a,)'\n", "x = 'a)'\n"),
        ("x = b'a'\n", "x = 'a'\n"),  # a string prefix
        ("def f():\n    return\n    x\n", "def f():\n    return x\n"),
        ("a\n(b)\n", "a(b)\n"),
        ("x = 'a' 'b'\n", "x = 'a b'\n"),  # adjacent strings join without a blank
        ("class A(B, metaclass=M): ...\n", "class A(B, metaclass=N): ...\n"),
    ],
)
def test_fingerprint_sees_structure_that_tokens_alone_do_not_show(before: str, after: str) -> None:
    qualname = "A" if "class" in before else "f" if "def f" in before else ""
    assert fingerprint(before, qualname) != fingerprint(after, qualname)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("for (k, v) in d.items():\n    print(k)\n", "for k, v in d.items():\n    print(k)\n"),
        ("(a, b) = p\nreturn (b, a)\n", "a, b = p\nreturn b, a\n"),
        ("x = (1, 2)\ny += (3, 4)\n", "x = 1, 2\ny += 3, 4\n"),
        ("for x in (a, b):\n    yield (x, x)\n", "for x in a, b:\n    yield x, x\n"),
        ('return [x if x else "-" for x in xs]\n', 'return [(x if x else "-") for x in xs]\n'),
        ("on = (\n    off\n) = False\n", "on = off = (\n    False\n)\n"),
        ("return x + (y) - (obj).attr + (f)(z) + (d)[0]\n", "return x + y - obj.attr + f(z) + d[0]\n"),
        ("return [v for v in vs if (v and w)]\n", "return [v for v in vs if v and w]\n"),
        ("key = lambda v: (v.a if v else 0)\n", "key = lambda v: v.a if v else 0\n"),
        ("def f(node: (int | str)) -> (None):\n    pass\n", "def f(node: int | str) -> None:\n    pass\n"),
        # black splits them with a trailing comma
        ("for a, b in ((1, 2), (3, 4)):\n    pass\n", "for a, b in (\n    (1, 2),\n    (3, 4),\n):\n    pass\n"),
        ("from os import path, sep\n", "from os import (\n    path,\n    sep,\n)\n"),
        # a pair inside a pair
        ("return x or ((a and b))\n", "return x or (a and b)\n"),
        ("return x + ((y * 2)) + (((z)))\n", "return x + (y * 2) + z\n"),
    ],
)
def test_fingerprint_ignores_parentheses_python_reads_as_nothing(before: str, after: str) -> None:
    qualname = "f" if "def f" in before else ""
    assert fingerprint(before, qualname) == fingerprint(after, qualname)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("x = (a, b), c\n", "x = a, b, c\n"),
        ("f((1, 2))\n", "f(1, 2)\n"),
        ("x = [(a, b)]\n", "x = [a, b]\n"),
        ("(k,) = p\n", "k = p\n"),
        ("for (k,) in p:\n    pass\n", "for k in p:\n    pass\n"),
        ("x = -(a + b)\n", "x = -a + b\n"),
        ("x = (a + b).c\n", "x = a + b.c\n"),
        ("x = (a or b)[0]\n", "x = a or b[0]\n"),
        ("x = (1, 2)\n", "x = ((1, 2),)\n"),
        ("x = ((a + b)) * c\n", "x = a + b * c\n"),
        ("from os import path, sep\n", "from os import path\n"),
    ],
)
def test_fingerprint_keeps_parentheses_that_group(before: str, after: str) -> None:
    assert fingerprint(before) != fingerprint(after)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ('x = "\\xE4\\u00e4"\n', 'x = "ää"\n'),  # escapes
        ("x = 'it\\'s'\n", 'x = "it\'s"\n'),
        ('x = "a\\tb"\n', 'x = "a\tb"\n'),
        ('x = """a\\nb"""\n', 'x = """a\nb"""\n'),
        ('x = b"\\x41\\102"\n', 'x = b"AB"\n'),
        ('x = r"\\d+"\n', 'x = "\\\\d+"\n'),  # raw or doubled, the same backslash
        ('x = U"\\N{BULLET}"\n', 'x = "\u2022"\n'),
        ('x = "ab" "cd"\n', 'x = "abcd"\n'),  # implicit concatenation, as ruff joins it
        ('x = ("ab"  # why\n     "c\\x64")\n', 'x = ("abcd")\n'),
        ('f("a" \\\n  "b", 1)\n', 'f("ab", 1)\n'),
        ("x = 0x1F | 0o17 | 0b1\n", "x = 31 | 15 | 1\n"),  # integer bases and separators
        ("x = 1_000_000 if y else 0XFF\n", "x = 1000000 if y else 255\n"),
        ("x = 1_000.5\n", "x = 1000.5\n"),
    ],
)
def test_fingerprint_ignores_how_a_literal_value_is_spelled(before: str, after: str) -> None:
    assert fingerprint(before) == fingerprint(after)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ('x = "\\x00"\n', 'x = "\\x01"\n'),
        ('x = "a\\nb"\n', 'x = "a b"\n'),  # an escaped newline is not a blank
        ('x = "a\\tb"\n', 'x = "a,b"\n'),
        ('x = b"\\x41"\n', 'x = "A"\n'),  # bytes are not text
        ('x = "0x1F"\n', 'x = "31"\n'),  # digits inside a string are text
        ('x = "\\x30x1F"\n', 'x = "31"\n'),
        ('x = f"{a}\\n"\n', 'x = f"{a}\\t"\n'),  # f-strings keep their spelling
        ('x = f"{a}" "b"\n', 'x = f"{a}" "c"\n'),
        ("x = 0x10\n", "x = 10\n"),
        ("x = v0x1F\n", "x = v31\n"),  # names are not numbers
        ("x = v1_000\n", "x = v1000\n"),
    ],
)
def test_fingerprint_sees_a_literal_whose_value_changed(before: str, after: str) -> None:
    assert fingerprint(before) != fingerprint(after)


def test_a_docstring_keeps_its_spelling() -> None:
    assert fingerprint('def f():\n    "d\\x41"\n', "f") != fingerprint('def f():\n    "dA"\n', "f")


def test_fingerprint_ignores_trailing_commas_except_in_one_element_tuples() -> None:
    assert fingerprint("f(a, b,)\nx = [1, 2,]\n") == fingerprint("f(a, b)\nx = [1, 2]\n")
    assert fingerprint("x = (1,)\n") == fingerprint("x = ( 1 , )\n")


def test_fingerprint_ignores_docstring_quotes_and_whitespace_only() -> None:
    single = 'def f():\n    "Doc."\n'
    assert fingerprint('def f():\n    """\n    Doc.\n    """\n', "f") == fingerprint(single, "f")
    assert fingerprint('def f():\n    """Doc!"""\n', "f") != fingerprint(single, "f")


def test_a_nested_definition_changes_only_its_own_fingerprint() -> None:
    source = """
        class Cart:
            tax = 0.2

            def total(self):
                def rounded(x):
                    return round(x, 2)
                return rounded(self.net)
        """
    edited = source.replace("round(x, 2)", "round(x, 3)")
    before, after = defs(source), defs(edited)
    assert after["Cart::total::rounded"].fingerprint != before["Cart::total::rounded"].fingerprint
    for qualname in ("", "Cart", "Cart::total"):
        assert after[qualname].fingerprint == before[qualname].fingerprint


def test_a_class_fingerprint_names_its_methods_but_not_their_bodies() -> None:
    source = "class A:\n    def m(self):\n        return 1\n"
    assert fingerprint(source.replace("1", "2"), "A") == fingerprint(source, "A")
    assert fingerprint(source.replace("def m", "def n"), "A") != fingerprint(source, "A")


def test_the_module_fingerprint_covers_top_level_statements_not_definitions() -> None:
    source = "import os\n\ndef f():\n    return 1\n\nX = 1\n"
    assert fingerprint(source.replace("return 1", "return 2")) == fingerprint(source)
    assert fingerprint(source + "\ndef g(): ...\n") == fingerprint(source)
    assert fingerprint(source.replace("X = 1", "X = 2")) != fingerprint(source)


def test_a_fingerprint_does_not_depend_on_where_the_definition_sits() -> None:
    flat = "def f(x):\n    if x:\n        return 1\n"
    nested = "if True:\n    def f(x):\n        if x:\n            return 1\n"
    assert fingerprint(flat, "f") == fingerprint(nested, "f")


def test_a_fingerprint_is_a_short_hex_hash() -> None:
    value = fingerprint("x = 1\n")
    assert len(value) == 32
    int(value, 16)


# --------------------------------------------------------------- call sites


def test_call_sites_belong_to_the_innermost_enclosing_definition() -> None:
    source = """
        setup()

        class Cart:
            log = make_logger()

            @decorate(config())
            def total(self, rounding=default_rounding()):
                key = lambda line: line_price(line)
                return [price(x) for x in lines()]
        """
    assert sites(source) == [
        ("", "setup", 1),
        ("Cart", "make_logger", 4),
        ("Cart", "decorate", 6),
        ("Cart", "config", 6),
        ("Cart", "default_rounding", 7),
        ("Cart::total", "line_price", 8),
        ("Cart::total", "price", 9),
        ("Cart::total", "lines", 9),
    ]


@pytest.mark.parametrize(
    ("expression", "callee"),
    [
        ("foo()", "foo"),
        ("self.repo.save()", "self.repo.save"),
        ("mod.func(1)", "mod.func"),
        ("super().save()", "super().save"),
        ("handlers[0]()", "handlers[0]"),
        ("handlers[-1]()", "handlers[-1]"),
        ("handlers['save']()", 'handlers["save"]'),
        ("handlers[name]()", "handlers[]"),
        ("handlers['a.b']()", "handlers[]"),
        ("handlers.get('save')()", 'handlers.get("save")'),
        ("handlers.get('save', fallback)()", 'handlers.get("save",fallback)'),
        ("handlers.get(name, self.fallback)()", "handlers.get(,self.fallback)"),
        ("handlers.get(name)()", "handlers.get()"),
        ("[f, g][1]()", "g"),
        ("{'h': {'on': f}}['h']['on']()", "f"),
        ("dict(a=f)['a']()", "f"),
        ("(lambda: 1)()", "<lambda@1:5>"),  # one taking no parameters is told by where it stands
        ("super().save()", "super().save"),
        ("super(Base, self).save()", "super(Base,self).save"),
        ("super(mod.Base, cls).make()", "super(mod.Base,cls).make"),
        ("super(type(self), self).save()", "super().save"),
        ("(factory)()", "factory"),
        ("a.b[k].c(x)", "a.b[].c"),
        ("''.join(parts)", "<builtin:str>().join"),  # a method of the builtin type
        ("(a or b)()", None),
        ("(self . repo\n    .save())", "self.repo.save"),
    ],
)
def test_callee_is_the_expr_of_the_function_part(expression: str, callee: str | None) -> None:
    outermost = calls(f"x = {expression}\n")[0]
    assert outermost.callee == callee


def test_a_call_of_a_call_is_two_sites() -> None:
    assert sites("make()()\n") == [("", "make()", 1), ("", "make", 1)]


def test_arguments_are_counted_and_rendered() -> None:
    site = call("f(a, b.c, 1, *rest, key=val, flag=True, **options)\n")
    assert (site.positional, site.keywords, site.star, site.starstar) == (3, ("key", "flag"), True, True)
    assert site.args == ("a", "b.c", None)
    assert site.kwargs == (("key", "val"), ("flag", None), ("*", "rest"), ("**", "options"))


@pytest.mark.parametrize(
    ("source", "unpacked"),
    [
        ("f(a, *xs)", (("*", "xs"),)),
        ("f(*self.args, **self.kw)", (("*", "self.args"), ("**", "self.kw"))),
        ("f(*xs, a)", ()),  # a positional after the star: no element's position is known
        ("f(*xs, *ys)", ()),
        ("f(*[g], *xs)", (("*", "xs"),)),  # the literal's elements are written out
        ("f(**a, **b)", (("**", "a"), ("**", "b"))),
        ("f(*make(), **{'k': g})", (("k", "g"), ("*", "make()"))),
    ],
)
def test_what_a_call_unpacks_is_kept_with_its_keywords(source: str, unpacked: tuple[tuple[str, str], ...]) -> None:
    (site,) = [c for c in calls(source + "\n") if c.callee == "f"]
    assert site.kwargs == unpacked


@pytest.mark.parametrize(
    ("source", "args", "kwargs"),
    [
        ("f()", (), ()),
        (
            "f(x, y.z, None, True, 3, 4.5, key=name, n=0)",
            ("x", "y.z", None, None, None, None),
            (("key", "name"), ("n", None)),
        ),
        ("f(\n    a,\n    b,\n)", ("a", "b"), ()),
        ("f('a, b', \"c\")", (None, None), ()),
        ("f(a == b, not c, d if e else g)", (None, None, None), ()),
        ("f(lambda: 1, key=lambda x: x)", ("<lambda@1:2>",), (("key", "<lambda>"),)),
        ("f(x for x in y)", (None,), ()),
        ("f(items[0], self.get(1))", ("items[0]", "self.get(1)"), ()),
        ("f(a, # comment\n  b)", ("a", "b"), ()),
        ("f(rb'x', u\"y\", key='a, b = c')", (None, None), (("key", None),)),
        ("f('''a''', x)", (None, "x"), ()),
        ("f('a' 'b', x)", (None, "x"), ()),
        ("f(f'{g(x)}', y)", (None, "y"), ()),
        ('f(x, y="it\'s")', ("x",), (("y", None),)),
    ],
)
def test_argument_exprs(source: str, args: tuple[str | None, ...], kwargs: tuple[tuple[str, str | None], ...]) -> None:
    outer = calls(source + "\n")[0]
    assert (outer.callee, outer.args, outer.kwargs, outer.positional) == ("f", args, kwargs, len(args))


def test_a_lambda_taking_no_parameters_binds_what_calling_it_gives() -> None:
    source = "def run():\n    make = lambda: Session(url)\n    other = lambda x: Session(x)\n"
    assert [(s, t, v) for s, t, v, _ in binds(source)] == [
        ("run", "make", "<lambda@2:11>"),
        ("run", "<lambda@2:11>()", "Session()"),
        ("run", "other", "<lambda>"),
    ]


def test_nested_calls_in_arguments_are_their_own_sites() -> None:
    assert sites("outer(inner(x), key=other())\n") == [("", "outer", 1), ("", "inner", 1), ("", "other", 1)]


def test_decorators_are_sites_in_the_scope_that_contains_the_definition() -> None:
    source = """
        class Views:
            @property
            def name(self): ...

            @app.route("/x")
            def index(self): ...
        """
    decorators = [c for c in facts(source).calls if c.kind == "decorator"]
    assert [(c.scope, c.callee, c.line, c.positional, c.args) for c in decorators] == [
        ("Views", "property", 2, 1, ("name",)),
        ("Views", "app.route()", 5, 1, ("index",)),
    ]
    assert ("Views", "app.route", 5) in sites(source)


@pytest.mark.parametrize(
    ("expression", "callee"),
    [
        ("a + b", "a.__add__"),
        ("a - b", "a.__sub__"),
        ("a * b", "a.__mul__"),
        ("a / b", "a.__truediv__"),
        ("a // b", "a.__floordiv__"),
        ("a % b", "a.__mod__"),
        ("a ** b", "a.__pow__"),
        ("a @ b", "a.__matmul__"),
        ("a << b", "a.__lshift__"),
        ("a >> b", "a.__rshift__"),
        ("a & b", "a.__and__"),
        ("a | b", "a.__or__"),
        ("a ^ b", "a.__xor__"),
        ("a == b", "a.__eq__"),
        ("a != b", "a.__ne__"),
        ("a < b", "a.__lt__"),
        ("a <= b", "a.__le__"),
        ("a > b", "a.__gt__"),
        ("a >= b", "a.__ge__"),
        ("k in box", "box.__contains__"),
        ("k not in box", "box.__contains__"),
        ("-a", "a.__neg__"),
        ("+a", "a.__pos__"),
        ("~a", "a.__invert__"),
        ("a[k]", "a.__getitem__"),
        ("self.cart.total() + 1", "self.cart.total().__add__"),
    ],
)
def test_operators_are_protocol_call_sites(expression: str, callee: str) -> None:
    assert sites(f"x = {expression}\n", "operator") == [("", callee, 1)]


def test_statements_imply_protocol_calls() -> None:
    source = """
        def f():
            total += 1
            d[k] = v
            d[k] += 1
            del cache[k]
            with Lock() as held:
                pass
            for x in rows:
                pass
            return [y for y in cols]

        async def g():
            async with session() as s:
                pass
            async for item in stream:
                pass
        """
    assert sites(source, "operator") == [
        ("f", "total.__iadd__", 2),
        ("f", "d.__setitem__", 3),
        ("f", "d[].__iadd__", 4),
        ("f", "d.__getitem__", 4),
        ("f", "cache.__delitem__", 5),
        ("f", "Lock().__enter__", 6),
        ("f", "Lock().__exit__", 6),
        ("f", "rows.__iter__", 8),
        ("f", "cols.__iter__", 10),
        ("g", "session().__aenter__", 13),
        ("g", "session().__aexit__", 13),
        ("g", "stream.__aiter__", 15),
    ]


def test_comparison_chains_call_each_left_operand() -> None:
    assert sites("ok = low <= x < high is not None\n", "operator") == [("", "low.__le__", 1), ("", "x.__lt__", 1)]


def test_operator_sites_are_kept_once_per_scope_and_callee_at_the_first_line() -> None:
    source = "a + 1\na + 2\ndef f():\n    a + 3\n    a + 4\n"
    assert sites(source, "operator") == [("", "a.__add__", 1), ("f", "a.__add__", 4)]


def test_operands_that_cannot_be_expressed_give_no_operator_site() -> None:
    assert sites("x = 1 + 2\ny = (a or b)[0]\nz = -3\n", "operator") == []


def test_annotations_imply_no_operator_sites() -> None:
    source = "x: Optional[int] | None = None\ndef f(a: typing.Union[A, B]) -> list[int] | None: ...\n"
    assert sites(source, "operator") == []


def test_attribute_reads_that_are_not_called_are_sites() -> None:
    source = """
        def save(self):
            self.repo.save(self.item)
            self.count += 1
            self.cache = {}
            del self.old
            return self.repo
        """
    assert sites(source, "attribute") == [
        ("save", "self.repo", 2),
        ("save", "self.item", 2),
        ("save", "self.count", 3),
    ]
    assert sites(source) == [("save", "self.repo.save", 2)]


def test_assigned_attributes_are_store_sites() -> None:
    source = """
        def save(self, other):
            self.cache = {}
            self.cache = []
            other.a.b = 1
            self.count += 1
        """
    assert sites(source, "store") == [("save", "self.cache", 2), ("save", "other.a.b", 4)]


def test_attribute_sites_include_every_prefix_of_a_chain() -> None:
    assert sites("x = a.b.c\n", "attribute") == [("", "a.b.c", 1), ("", "a.b", 1)]


def test_dead_code_emits_no_calls_and_no_bindings() -> None:
    source = """
        import typing
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from repo import Repo
            checked()
            x = Repo()
        else:
            alive()
        if typing.TYPE_CHECKING:
            import cart
            dead()
        if False:
            import legacy
            dead()
        if 0:
            dead()
            y: int = 1
        elif ready:
            alive()
        """
    result = facts(source)
    assert [(c.callee, c.line) for c in result.calls] == [
        ("alive", 8),
        ("typing.TYPE_CHECKING", 9),  # the condition itself is live code
        ("alive", 19),
    ]
    assert result.bindings == ()
    assert [(i.module, i.name, i.type_only) for i in result.imports] == [
        ("typing", None, False),
        ("typing", "TYPE_CHECKING", False),
        ("repo", "Repo", True),
        ("cart", None, True),
        ("legacy", None, True),
    ]


def test_definitions_in_dead_code_are_kept_but_do_not_call() -> None:
    source = """
        if TYPE_CHECKING:
            def stub(x: Repo) -> int:
                return helper(x)
        """
    result = facts(source)
    assert [d.qualname for d in result.definitions] == ["", "stub"]
    assert (result.calls, result.bindings) == ((), ())


# ------------------------------------------------------------------ imports


def test_every_import_form() -> None:
    source = """
        from __future__ import annotations
        import a.b
        import a.b as c, d
        from a.b import c as d, e
        from . import x
        from ..pkg.mod import y
        from .sibling import z as w
        from m import *
        """
    assert imports(source) == [
        ("", "a.b", None, None, 0, False),
        ("", "a.b", None, "c", 0, False),
        ("", "d", None, None, 0, False),
        ("", "a.b", "c", "d", 0, False),
        ("", "a.b", "e", None, 0, False),
        ("", "", "x", None, 1, False),
        ("", "pkg.mod", "y", None, 2, False),
        ("", "sibling", "z", "w", 1, False),
        ("", "m", "*", None, 0, False),
    ]
    bound = [i.bound_name for i in facts(source).imports]
    assert bound == ["a", "c", "d", "d", "e", "x", "y", "w", "*"]


def test_imports_in_both_branches_of_a_try_and_inside_functions() -> None:
    source = """
        try:
            import ujson as json
        except ImportError:
            import json

        def load():
            from .codec import (
                decode,
                encode,
            )
        """
    assert facts(source).imports == (
        Import("", "ujson", None, "json", 0, 2, conditional=True),
        Import("", "json", None, None, 0, 4, conditional=True),
        Import("load", "codec", "decode", None, 1, 7),
        Import("load", "codec", "encode", None, 1, 7),
    )


# ----------------------------------------------------------------- bindings


def test_assignments_bind_names_attributes_and_elements() -> None:
    source = """
        def setup(self, obj, d):
            x = make()
            a = b = factory.build()
            self.repo = Repo()
            obj.x = value
            d["k"] = handler
            n = 1
        """
    assert binds(source) == [
        ("setup", "x", "make()", "assign"),
        ("setup", "a", "factory.build()", "assign"),
        ("setup", "b", "factory.build()", "assign"),
        ("setup", "self.repo", "Repo()", "assign"),
        ("setup", "obj.x", "value", "assign"),
        ("setup", "d[]", "handler", "assign"),
        ("setup", "n", None, "assign"),
    ]


def test_an_annotated_assignment_binds_an_instance_and_the_value() -> None:
    assert binds("repo: Repo = make_repo()\n") == [
        ("", "repo", "Repo()", "annotation"),
        ("", "repo", "make_repo()", "assign"),
    ]


def test_unpacking_pairs_literal_sequences_and_indexes_anything_else() -> None:
    assert binds("a, b = f, g\nc, (d, e) = t\nfirst, *rest, last = items\n") == [
        ("", "a", "f", "assign"),
        ("", "b", "g", "assign"),
        ("", "c", "t[0]", "assign"),
        ("", "d", "t[1][0]", "assign"),
        ("", "e", "t[1][1]", "assign"),
        ("", "first", "items[0]", "assign"),
        ("", "rest", None, "assign"),
        ("", "rest[]", "items[]", "assign"),
        ("", "last", "items[-1]", "assign"),
    ]


def test_a_starred_target_of_a_literal_is_a_new_list_of_the_members_it_gets() -> None:
    assert binds("first, *rest, last = f, g, h, k\n") == [
        ("", "first", "f", "assign"),
        ("", "rest", None, "assign"),
        ("", "rest[]", "g", "assign"),
        ("", "rest[]", "h", "assign"),
        ("", "last", "k", "assign"),
        ("", "rest[0]", "g", "assign"),
        ("", "rest[1]", "h", "assign"),
        ("", "rest[-2]", "g", "assign"),
        ("", "rest[-1]", "h", "assign"),
    ]


def keyed(source: str) -> list[tuple[str, str, str | None]]:
    """(scope, target, value) of the keyed element bindings (``x["a"]``, ``x[0]``)."""
    return [(s, t, v) for s, t, v, _ in binds(source) if t.endswith("]") and not t.endswith("[]")]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('ops = {"a": f, "b": "text"}\nops["a"]()\n', [("", 'ops["a"]', "f"), ("", 'ops["b"]', None)]),
        ("ops = {'a': f, 1: g}\n", [("", 'ops["a"]', "f"), ("", "ops[1]", "g")]),
        ("ops = {'a': f, 'a': g}\n", [("", 'ops["a"]', "g")]),
        ("fs = (f,)\n", [("", "fs[0]", "f"), ("", "fs[-1]", "f")]),
        ("ops = dict(a=f)\n", [("", 'ops["a"]', "f")]),
        ("cfg = {'h': {'on': f}}\n", [("", 'cfg["h"]', None), ("", 'cfg["h"]["on"]', "f")]),
        ("cfg = {'h': {'on': f}}\nx = cfg['h']\n", [("", 'cfg["h"]', None)]),
        ("cfg = {'h': {'on': f}}\ncfg['h']['on'] = g\n",  # a store one level down, under constant keys
         [("", 'cfg["h"]', None), ("", 'cfg["h"]["on"]', "f"), ("", 'cfg["h"]["on"]', "g")]),
        ("ops = {'a': f}\ndef add():\n    ops['b'] = g\n", [("", 'ops["a"]', "f"), ("add", 'ops["b"]', "g")]),
        ("def run():\n    ops = {'a': f}\n    return ops['a']()\n", [("run", 'ops["a"]', "f")]),
        ("def get():\n    return f, g\n", [("get", "<return>[0]", "f"), ("get", "<return>[1]", "g")]),
    ],
)
def test_literals_the_file_keeps_bind_keyed_elements(source: str, expected: list[tuple[str, str, str | None]]) -> None:
    assert keyed(source) == expected


@pytest.mark.parametrize(
    "source",
    [
        "ops = {'a': 'x', 'b': 2}\n",
        "ops = {'a': f, **more}\n",
        "ops = {k: f}\n",
        "ops = {1.0: f}\n",
        "ops = {'a.b': f}\n",
        "fs = [f, *more]\n",
        "ops = {'a': f}\nops[k] = g\n",
        "ops = {'a': f}\nops.update(more)\n",
        "ops = {'a': f}\nops.update([('a', g)])\n",
        "ops = {'a': f}\nops.setdefault('b', g)\n",
        "fs = [f]\nfs.append(g)\n",
        "fs = [f]\nfs += [g]\n",
        "fs = [f]\ndel fs[0]\n",
        "ops = {'a': f}\nregister(ops)\n",
        "ops = {'a': f}\nother = ops\n",
        "ops = {'a': f}\ndef get():\n    return ops\n",
        "ops = {'a': f}\nops = {'a': g}\n",
        "ops = {'a': f}\nfor ops in x:\n    pass\n",
        "ops = other = {'a': f}\n",
        "ops = {'a': f}\ndef run():\n    global ops\n",
        "def get():\n    if x:\n        return f, g\n    return pair\n",
        "def get():\n    yield f\n    return f, g\n",
        "def get():\n    return [f, g]\n",
    ],
)
def test_literals_that_may_change_bind_no_keyed_elements(source: str) -> None:
    assert keyed(source) == []


def test_reads_that_leave_a_literal_as_it_is() -> None:
    source = """
        ops = {'a': f, 'b': g}
        ops['a']()
        ops.get('b', h)()
        for name in ops:
            print(name, len(ops), 'a' in ops, list(ops.items()), ops.keys())
        if ops and not ops:
            pass
        call(**ops)
        """
    assert keyed(source) == [("", 'ops["a"]', "f"), ("", 'ops["b"]', "g")]


def test_conditional_values_bind_each_alternative() -> None:
    assert binds("h = fast if ok else slow\ng = custom or default\nk = a and b\n") == [
        ("", "h", "fast", "assign"),
        ("", "h", "slow", "assign"),
        ("", "g", "custom", "assign"),
        ("", "g", "default", "assign"),
        ("", "k", "a", "assign"),
        ("", "k", "b", "assign"),
    ]


def test_container_literals_and_container_calls_bind_elements() -> None:
    source = """
        handlers = [on_save, on_load]
        table = {"save": on_save}
        pair = (f, g)
        names = {h}
        handlers.append(on_quit)
        seen.add(record)
        handlers += [on_exit]
        """
    assert binds(source) == [
        ("", "handlers", None, "assign"),
        ("", "handlers[]", "on_save", "assign"),
        ("", "handlers[]", "on_load", "assign"),
        ("", "table", None, "assign"),
        ("", "table[]", "on_save", "assign"),
        ("", "table[\"save\"]", "on_save", "assign"),
        ("", "pair", None, "assign"),
        ("", "pair[]", "f", "assign"),
        ("", "pair[]", "g", "assign"),
        ("", "pair[0]", "f", "assign"),
        ("", "pair[1]", "g", "assign"),
        ("", "pair[-2]", "f", "assign"),
        ("", "pair[-1]", "g", "assign"),
        ("", "names", None, "assign"),
        ("", "names[]", "h", "assign"),
        ("", "handlers[]", "on_quit", "assign"),
        ("", "seen[]", "record", "assign"),
        ("", "handlers[]", "on_exit", "assign"),
    ]


def test_calls_that_put_elements_in_a_container_bind_them() -> None:
    source = """
        steps.extend(more)
        steps.insert(0, first)
        table.setdefault("k", fallback)
        table.update(extra)
        table.update(save=on_save, **rest)
        self.hooks.extend([on_exit])
        steps.insert(first)
        table.update(a, b)
        __all__.extend(names)
        """
    assert [(t, v) for _, t, v, _ in binds(source) if not t.startswith("<arg")] == [
        ("steps[]", "more[]"),
        ("steps[]", "first"),
        ("table[]", "fallback"),
        ("table[]", "extra[]"),
        ("table[]", "on_save"),
        ("table[]", "rest[]"),
        ("self.hooks[]", "<arg@6:18>[]"),
    ]


def test_slices_and_sequences_built_from_another_stand_for_iterating_it() -> None:
    source = """
        a = xs[1:]
        b = xs[1:][0]
        c = list(xs)
        d = sorted(xs, key=len)
        e = list()
        f = list(xs, ys)
        """
    found = [(t, v) for _, t, v, _ in binds(source)]
    assert [(t, v) for t, v in found if "[" not in t] == [
        ("a", "xs"),
        ("b", "xs[]"),
        ("c", "xs.__iter__()"),
        ("d", "xs.__iter__()"),
        ("e", "list()"),
        ("f", "list()"),
    ]
    # the slice's places are the source's from its start on
    assert {("a[0]", "xs[1]"), ("a[1]", "xs[2]"), ("a[-1]", "xs[-1]")} <= set(found)


def test_a_slice_bound_to_a_name_keeps_the_places_of_its_elements() -> None:
    source = """
        a = xs[1:3]
        b = xs[i:]
        c = xs[::2]
        d = xs[:]
        args = args[1:]
        """
    found = [(t, v) for _, t, v, _ in binds(source)]
    assert [(t, v) for t, v in found if t.startswith("a")] == [
        ("a", "xs"), ("a[0]", "xs[1]"), ("a[-2]", "xs[1]"), ("a[1]", "xs[2]"), ("a[-1]", "xs[2]"),
        ("args", "args"),  # rebinding the name it slices: its places would read themselves
    ]
    # bounds not known, or a step: a place is any element
    assert {v for t, v in found if t.startswith(("b[", "c["))} == {"xs[]"}
    assert [t for t, _ in found if t.startswith("d")] == ["d"]


def test_a_relation_field_binds_the_model_it_names() -> None:
    source = """
        class Order(models.Model):
            customer = models.ForeignKey(Customer, on_delete=models.CASCADE)
            parent = models.ForeignKey("self", null=True)
            items = ManyToManyField(to="shop.Item")
            name = models.CharField(max_length=3)
        """
    assert [(s, t, v) for s, t, v, _ in binds(source) if t.startswith("<model:")] == [
        ("Order", "<model:customer>", "Customer"),
        ("Order", "<model:parent>", '"self"'),
        ("Order", "<model:items>", '"shop.Item"'),
    ]


def test_a_walrus_binds_its_name() -> None:
    assert binds("if (match := pattern.search(text)):\n    pass\n") == [("", "match", "pattern.search()", "assign")]


def test_an_awaited_or_run_coroutine_is_what_it_returns() -> None:
    source = (
        "async def use(loop):\n"
        "    client = await connect()\n"
        "    data = (await client.get()).json()\n"
        "    timed = await asyncio.wait_for(connect(), 5)\n"
        "    ran = loop.run_until_complete(connect())\n"
        "    top = asyncio.run(main())\n"
    )
    assert binds(source) == [
        ("use", "client", "connect()", "assign"),
        ("use", "data", "client.get().json()", "assign"),
        ("use", "timed", "connect()", "assign"),
        ("use", "ran", "connect()", "assign"),
        ("use", "top", "main()", "assign"),
    ]


def test_annotations_bind_instances_wherever_they_appear() -> None:
    source = """
        store: Store

        class Cart:
            repo: Repo
            lines: list[Line]

        def total(cart: Cart, maybe: Optional[Repo], either: Union[A, B], pipe: Repo | None,
                  seq: Sequence["pkg.Item"], index: dict[str, Line], kind: type[Base],
                  *extra: Extra, **named: "Named") -> Iterator[Line]:
            local: int = 0
        """
    assert binds(source) == [
        ("", "store", "Store()", "annotation"),
        ("Cart", "repo", "Repo()", "annotation"),
        ("Cart", "lines[]", "Line()", "annotation"),
        ("total", "cart", "Cart()", "annotation"),
        ("total", "maybe", "Repo()", "annotation"),
        ("total", "either", "A()", "annotation"),
        ("total", "either", "B()", "annotation"),
        ("total", "pipe", "Repo()", "annotation"),
        ("total", "seq[]", "pkg.Item()", "annotation"),
        ("total", "index[]", "Line()", "annotation"),
        ("total", "kind", "Base", "annotation"),
        ("total", "extra[]", "Extra()", "annotation"),
        ("total", "named[]", "Named()", "annotation"),
        ("total", "<return>[]", "Line()", "annotation"),
        ("total", "local", "int()", "annotation"),
        ("total", "local", None, "assign"),
    ]


def test_a_string_annotation_is_read_as_the_expression_it_contains() -> None:
    assert binds('x: "Optional[pkg.Repo]"\ny: "not valid ("\n') == [("", "x", "pkg.Repo()", "annotation")]


def test_returns_and_yields_bind_the_return_value() -> None:
    source = """
        def make(flag):
            if flag:
                return Fast()
            return slow or default

        def stream():
            yield Item()
            yield from other()
            return
        """
    assert binds(source) == [
        ("make", "<return>", "Fast()", "return"),
        ("make", "<return>", "slow", "return"),
        ("make", "<return>", "default", "return"),
        ("stream", "<return>[]", "Item()", "return"),
        ("stream", "<return>[]", "other()[]", "return"),
    ]


def test_parameter_defaults_bind_in_the_function_scope() -> None:
    # as defaults: the linker evaluates them where the def stands (`def run(cb=cb)`)
    assert binds("def run(cb=handler, retries=3, hook=mod.hook):\n    pass\n") == [
        ("run", "cb", "handler", "default"),
        ("run", "hook", "mod.hook", "default"),
    ]


def test_loops_and_comprehensions_bind_elements() -> None:
    source = """
        def walk(rows, pairs):
            for row in rows:
                pass
            for key, (a, b) in pairs.items():
                pass
            return {name: value for name, value in pairs}
        """
    assert binds(source) == [
        ("walk", "row", "rows[]", "for"),
        ("walk", "key", "pairs.items()[][0]", "for"),
        ("walk", "a", "pairs.items()[][1][0]", "for"),
        ("walk", "b", "pairs.items()[][1][1]", "for"),
        ("walk", "<return>", None, "return"),
        ("walk", "<return>[]", "value", "return"),
        ("walk", "name", "pairs[][0]", "for"),
        ("walk", "value", "pairs[][1]", "for"),
    ]


def test_enumerate_zip_and_map_bind_each_target_to_what_gives_it() -> None:
    source = """
        def walk(rows, names, hooks):
            for i, row in enumerate(rows, start=1):
                pass
            for name, (a, b) in zip(names, hooks.items(), strict=True):
                pass
            for pair in enumerate(rows):
                pass
            for x, y in zip(*rows):
                pass
            for parsed in map(parsers.parse, rows):
                pass
            for n, (left, right) in enumerate(zip(names, rows)):
                pass
        """
    assert binds(source) == [
        ("walk", "i", "<builtin:int>()", "for"),
        ("walk", "row", "rows[]", "for"),
        ("walk", "name", "names[]", "for"),
        ("walk", "a", "hooks.items()[][0]", "for"),
        ("walk", "b", "hooks.items()[][1]", "for"),
        # one target for the tuples: each place of an item as unpacking binds it
        ("walk", "pair", "enumerate()[]", "for"),
        ("walk", "pair[0]", "<builtin:int>()", "for"),
        ("walk", "pair[1]", "rows[]", "for"),
        # arguments it cannot tell apart: as for any call
        ("walk", "x", "zip()[][0]", "for"),
        ("walk", "y", "zip()[][1]", "for"),
        ("walk", "parsed", "parsers.parse()", "for"),
        ("walk", "n", "<builtin:int>()", "for"),
        ("walk", "left", "names[]", "for"),
        ("walk", "right", "rows[]", "for"),
    ]


def test_with_and_except_bind_what_they_produce() -> None:
    source = """
        def run():
            with open(path) as fh, Lock():
                pass
            try:
                pass
            except (KeyError, errors.Missing) as exc:
                pass
            except ValueError as err:
                pass
            except OSError:
                pass
        """
    assert binds(source) == [
        ("run", "fh", "open().__enter__()", "with"),
        ("run", "exc", "KeyError()", "except"),
        ("run", "exc", "errors.Missing()", "except"),
        ("run", "err", "ValueError()", "except"),
    ]


def test_global_and_nonlocal_declarations_bind_nothing_known() -> None:
    source = """
        def outer():
            global registry
            def inner():
                nonlocal count
        """
    assert binds(source) == [("outer", "registry", None, "global"), ("outer::inner", "count", None, "nonlocal")]


def test_assignments_in_a_branch_or_loop_of_their_scope_are_conditional() -> None:
    source = """
        def run(items):
            total = 0
            if items:
                first = items[0]
            for item in items:
                last = item
            with lock:
                held = True
            try:
                value = parse()
            except ValueError:
                value = None
            def inner():
                fresh = 1

        class Config:
            if DEBUG:
                level = 1
        flag = 1
        if ready:
            loaded = 1
        """
    conditional = {b.target: b.conditional for b in facts(source).bindings if b.kind == "assign"}
    assert conditional == {
        "total": False,
        "first": True,
        "last": True,
        "held": True,
        "value": True,
        "fresh": False,  # straight in the body of its own function
        "level": True,
        "flag": False,
        "loaded": True,  # a branch of the module may be skipped too
    }


def test_imports_and_definitions_in_a_branch_or_loop_of_their_scope_are_conditional() -> None:
    source = """
        import os
        try:
            from ujson import dumps
        except ImportError:
            def dumps(data): ...
        def run():
            import sys
            if sys:
                import json
                @cache
                def inner(): ...
        class Config:
            if DEBUG:
                def level(self): ...
            def name(self): ...
        for _ in ():
            class Later: ...
        """
    result = facts(source)
    assert {i.bound_name: i.conditional for i in result.imports} == {
        "os": False, "dumps": True, "sys": False, "json": True
    }
    assert {d.qualname: d.conditional for d in result.definitions if d.qualname} == {
        "dumps": True,
        "run": False,
        "run::inner": True,  # counted from its decorator
        "Config": False,
        "Config::level": True,
        "Config::name": False,
        "Later": True,
    }


def test_a_lambda_value_is_the_lambda_expr() -> None:
    assert binds("key = lambda item: item.price\n") == [("", "key", "<lambda>", "assign")]


# ------------------------------------------------------------------ __all__


def test_all_names_from_a_static_list_extended_and_appended() -> None:
    source = """
        __all__ = ["Cart", 'build']
        __all__ += ("extra",)
        __all__.extend(["more"])
        __all__.append("last")
        """
    result = facts(source)
    assert result.all_names == ("Cart", "build", "extra", "more", "last")
    assert [(b.target, b.value) for b in result.bindings] == [
        ("__all__", None),
        ("__all__[]", '"Cart"'),
        ("__all__[]", '"build"'),
        ("__all__[]", '"extra"'),
        ("__all__[]", '"more"'),
        ("__all__[]", '"last"'),
    ]


@pytest.mark.parametrize(
    "source",
    [
        "x = 1\n",
        "__all__ = base.__all__ + ['x']\n",
        "__all__ = ['a', name]\n",
        "__all__ = [f'{x}']\n",
        "__all__ = ['a']\n__all__ += other\n",
        "__all__.append('x')\n",
        "def f():\n    __all__ = ['a']\n",
    ],
)
def test_all_names_is_none_when_absent_or_not_static(source: str) -> None:
    assert facts(source).all_names is None


def test_an_empty_all_is_known_to_be_empty() -> None:
    assert facts("__all__ = []\n").all_names == ()


# ---------------------------------------------------------- errors and input


def test_syntax_errors_keep_what_can_be_read() -> None:
    source = "def good():\n    return ok()\n\ndef bad(:\n    pass\n"
    result = facts(source)
    assert result.error == "syntax error at line 4"
    assert "good" in [d.qualname for d in result.definitions]
    assert ("good", "ok", 2) in [(c.scope, c.callee, c.line) for c in result.calls]


def test_bytes_that_are_not_utf8_are_decoded_with_replacement() -> None:
    result = facts(b'# caf\xe9\ndef f(a="\xff"):\n    return g("\xe9", a)\n__all__ = ["f\xe9"]\n')
    assert result.error is None
    assert [(c.scope, c.callee, c.args) for c in result.calls] == [("f", "g", (None, "a"))]
    assert result.all_names == ("f\ufffd",)


def test_invalid_bytes_in_code_are_a_syntax_error_not_a_crash() -> None:
    result = facts(b"def caf\xe9():\n    return r\xe9sum\xe9(x)\n")
    assert result.error == "syntax error at line 1"
    assert [d.kind for d in result.definitions] == ["module", "function"]


def test_a_coding_cookie_names_the_encoding_of_the_file() -> None:
    source = "# -*- coding: latin-1 -*-\ndef caf\xe9():\n    return r\xe9sum\xe9('\xe9')\n".encode("latin-1")
    result = facts(source)
    assert result.error is None
    assert sites_of(result) == [("café", "résumé", 3)]
    # a cookie naming no codec Python knows: the bytes are read as they are
    assert facts(b"# coding: klingon\ndef f():\n    return g()\n").calls[0].callee == "g"
    # a UTF-8 cookie changes nothing, and neither does a byte order mark
    plain = "def größe():\n    return maß()\n"
    assert sites_of(facts(("# coding: utf-8\n" + plain).encode())) == [("größe", "maß", 3)]
    assert sites_of(facts(b"\xef\xbb\xbf" + plain.encode())) == [("größe", "maß", 2)]


def test_long_operator_chains_keep_the_file_and_its_calls() -> None:
    """Generated code strings hundreds of terms together; the file keeps its facts."""
    terms = 2000
    for operator in ("+", "or", "if x else"):
        source = f"def f(x):\n    return {f' {operator} '.join(['g()'] * terms)}\n\ndef h():\n    return f(1)\n"
        result = facts(source)
        assert result.error is None, operator
        callees = [c.callee for c in result.calls if c.kind == "call"]
        assert callees.count("g") == terms and "f" in callees, operator
    nested = facts("X = " + "[" * 1500 + "]" * 1500 + "\ny = f()\n")
    assert nested.error is None and [c.callee for c in nested.calls] == ["f"]


@pytest.mark.parametrize(
    ("name", "callee"),
    [
        ('"visit_" + kind', "self.visit_*"),
        ('"clean_%s" % field', "self.clean_*"),
        ('"has_%s_permission" % perm', "self.has_*_permission"),
        ('"_get_%(kind)s_rows" % names', "self._get_*_rows"),
        ('f"do_{verb}"', "self.do_*"),
        ('f"on_{event}_done"', "self.on_*_done"),
        ('"handle_{}".format(kind)', "self.handle_*"),
        ('"get_" + field + "_display"', "self.get_*_display"),
        ('"plain"', "self.plain"),
        # nothing constant to start the name with, or no name at all: unknown
        ('f"{verb}_x"', "getattr()"),
        ('"%s_x" % verb', "getattr()"),
        ("verb", "getattr()"),
        ('"a-" + verb', "getattr()"),
    ],
)
def test_a_computed_getattr_name_keeps_its_constant_ends(name: str, callee: str) -> None:
    source = f"class V:\n    def run(self, kind, field, perm, names, verb, event):\n        getattr(self, {name})()\n"
    assert callee in [c.callee for c in facts(source).calls if c.kind == "call"]


def test_a_name_bound_to_text_holds_a_str_not_what_the_text_names() -> None:
    source = """\
    FMT = "Hello {0}"
    RAW = b"x"
    JOINED = ("a"
              "b")


    class View:
        template = "page.html"

        def render(self):
            self.title = f"Page {1}"
    """
    values = {b.target: b.value for b in facts(source).bindings}
    assert values == {"FMT": "<builtin:str>()", "RAW": "<builtin:bytes>()", "JOINED": "<builtin:str>()",
                      "template": "<builtin:str>()", "self.title": "<builtin:str>()"}


def test_a_git_lfs_pointer_is_named_as_such() -> None:
    result = facts(b"version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12345\n")
    assert result.error is not None and "Git LFS pointer" in result.error
    assert [d.kind for d in result.definitions] == ["module"]


def sites_of(result: FileFacts) -> list[tuple[str, str | None, int]]:
    return [(c.scope, c.callee, c.line) for c in result.calls if c.kind == "call"]


def test_non_ascii_identifiers_are_read() -> None:
    assert sites("def größe():\n    return maß(ä.ö)\n") == [("größe", "maß", 2)]


def test_garbage_never_raises() -> None:
    sample = (ORIGINAL + REFORMATTED + Path(__file__).read_text()[:4000]).encode()
    for cut in range(0, len(sample), 97):
        for data in (sample[:cut], sample[cut:], sample[:cut] + b"\x00\xff(" + sample[cut:]):
            result = extract_python(data)
            assert result.error is None or result.error.startswith("syntax error"), result.error
            assert result.definitions[0].qualname == ""


# ---------------------------------------------------- determinism and order


def test_same_bytes_give_equal_facts_in_source_order() -> None:
    sample = (Path(__file__).parent.parent.parent / "impactbot" / "extract" / "python.py").read_bytes()
    first, second = extract_python(sample), extract_python(sample)
    assert first == second
    lines = [c.line for c in first.calls]
    assert lines == sorted(lines)
    assert [b.line for b in first.bindings] == sorted(b.line for b in first.bindings)
    assert [d.start_line for d in first.definitions] == sorted(d.start_line for d in first.definitions)


def test_facts_do_not_depend_on_the_process() -> None:
    """Hash seeds differ between processes; the facts must not."""
    script = (
        "import hashlib, sys; from impactbot.extract import extract; "
        "data = open(sys.argv[1], 'rb').read(); "
        "print(hashlib.sha256(repr(extract(data, 'python')).encode()).hexdigest())"
    )
    target = str(Path(__file__).parent.parent.parent / "impactbot" / "extract" / "python.py")
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", script, target], env=env, capture_output=True, check=True)
        digests.add(out.stdout.strip())
    local = hashlib.sha256(repr(extract(Path(target).read_bytes(), "python")).encode()).hexdigest()
    assert digests == {local.encode()}


# ------------------------------------------------------------ stage surface


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("pkg/cart.py", "python"),
        ("typings/cart.pyi", "python"),
        ("setup.py", "python"),
        ("README.md", None),
        ("Makefile", None),
        ("pkg.py/data", None),
        ("script.pyc", None),
        (".py", "python"),
    ],
)
def test_language_for(path: str, language: str | None) -> None:
    assert language_for(path) == language


def test_extract_dispatches_on_language() -> None:
    data = b"def f():\n    return g()\n"
    assert extract(data, "python") == extract_python(data)
    other = extract(data, "cobol")
    assert (other.definitions, other.calls, other.error) == ((), (), "unsupported language 'cobol'")


def test_the_grammar_is_built_once_per_process() -> None:
    from impactbot.extract._pygrammar import grammar

    assert grammar() is grammar()
    assert grammar().parser is grammar().parser


def test_extractor_version_names_the_grammar() -> None:
    assert EXTRACTOR_VERSION.startswith("python-")
    assert "tree-sitter-python" in EXTRACTOR_VERSION


GENERATED = b"""\
from dataclasses import dataclass, field, KW_ONLY
from typing import ClassVar, NamedTuple
import attr
import attrs


@dataclass
class Point:
    x: int
    y: int = 0
    tags: list = field(default_factory=list)
    hidden: int = field(init=False, default=0)
    required: int = field(repr=False)
    count: ClassVar[int] = 0


@dataclass(kw_only=True)
class Options:
    a: int
    b: str = "x"


@dataclass
class Mixed:
    a: int
    _: KW_ONLY
    b: int


@dataclass
class Child(Point):
    z: int


@dataclass(init=False)
class NoInit:
    a: int


@dataclass
class OwnInit:
    a: int

    def __init__(self, a, b):
        self.a = a


class Pair(NamedTuple):
    x: int
    y: int = 1


@attrs.define
class Secret:
    _token: str
    name: str = "n"


@attrs.define
class Unannotated:
    x = attrs.field()


@attr.s
class OldStyle:
    x: int = attr.ib()
    _y = attr.ib(5)
    z = attr.ib(init=False)
    w = attr.ib(kw_only=True, alias="width", default=1)
    note: str = "not a field without auto_attribs"


@attrs.define
class Guessed:
    x = attrs.field()
    y: int = attrs.field(factory=list)
    z: int


@attr.s(auto_attribs=True)
class Auto:
    x: int


class Plain:
    a: int = 1
"""


def test_the_init_a_dataclass_attrs_or_named_tuple_gets() -> None:
    facts = extract(GENERATED, "python")
    found = {d.qualname: d.generated_init.text() if d.generated_init else None
             for d in facts.definitions if d.kind == "class"}
    assert found == {
        "Point": "(x: int, y: int = …, tags: list = …, required: int)",
        "Options": "(*, a: int, b: str = …)",
        "Mixed": "(a: int, *, b: int)",
        "Child": None,  # a base's fields come first: not guessed
        "NoInit": None,
        "OwnInit": None,  # its own __init__ is the signature callers see
        "Pair": "(x: int, y: int = …)",
        "Secret": "(token: str, name: str = …)",
        "Unannotated": "(x)",
        # attr.s without auto_attribs=True takes attr.ib() fields alone, in their order
        "OldStyle": "(x: int, y=…, *, width=…)",
        "Guessed": "(x, y: int = …)",  # an unannotated attrs.field(): annotations alone are no fields
        "Auto": "(x: int)",
        "Plain": None,
    }


def test_a_dataclass_records_its_own_fields_whatever_its_bases() -> None:
    facts = extract(GENERATED, "python")
    found = {d.qualname: d.dataclass_fields for d in facts.definitions if d.kind == "class"}
    child = found["Child"]
    assert child is not None and child.writes_init
    assert [(name, p.kind if p else None) for name, p in child.fields] == [("z", "positional")]
    point = found["Point"]
    assert point is not None  # init=False and ClassVar fields take no argument, but keep their place
    assert [name for name, p in point.fields] == ["x", "y", "tags", "hidden", "required", "count"]
    assert [name for name, p in point.fields if p is None] == ["hidden", "count"]
    assert found["NoInit"] is not None and not found["NoInit"].writes_init  # its fields are still a base's
    assert found["OwnInit"] is not None and not found["OwnInit"].writes_init
    assert found["Pair"] is None and found["Secret"] is None and found["Plain"] is None


REDEFINED = b"""\
import sys
from typing import TYPE_CHECKING


if sys.version_info >= (3, 8):
    def parse(text):
        return text
else:
    def parse(text, strict):
        return text


def dump(obj):
    return obj


def dump(obj, indent):
    return obj


try:
    def load(data):
        return data
except ImportError:
    def load(data, *, fast=False):
        return data


def scan(x):
    return x


if sys.flags.optimize:
    def scan(x, y):
        return x


if TYPE_CHECKING:
    def typed(x: int) -> int: ...
else:
    def typed(x):
        return x


def real(x, y):
    return x


if TYPE_CHECKING:
    def real(x: int) -> int: ...


if sys.platform == "win32":
    class Path:
        def __init__(self, raw):
            self.raw = raw

        def drive(self):
            return "c"
else:
    class Path:
        def __init__(self, raw, sep="/"):
            self.raw = raw
"""


def test_a_name_defined_in_branches_keeps_every_signature_that_can_be_live() -> None:
    facts = extract(REDEFINED, "python")
    found = {d.qualname: (d.signature.text() if d.signature else None, [v.text() for v in d.variants])
             for d in facts.definitions if d.qualname}
    assert found == {
        "parse": ("(text, strict)", ["(text)"]),
        "dump": ("(obj, indent)", []),  # the second def replaces the first, always
        "load": ("(data, *, fast=False)", ["(data)"]),
        "scan": ("(x, y)", ["(x)"]),  # the second def may not run
        "typed": ("(x)", []),  # the stub under TYPE_CHECKING never runs
        "real": ("(x, y)", []),  # nor does it replace what ran before it
        "Path": (None, []),
        "Path::__init__": ('(self, raw, sep="/")', ["(self, raw)"]),
        # one of the two classes has no such method: a call may meet anything there
        "Path::drive": ("(self)", ["(*args, **kwargs)"]),
    }


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("a, b = pair\n", [("", "pair.__iter__", 1)]),
        ("[a, *rest] = make()\n", [("", "make().__iter__", 1)]),
        ("a, b = (pair)\n", [("", "pair.__iter__", 1)]),
        ("a, b = 1, 2\n", []),
        ("a, b = [x, y]\n", []),
        ("a = pair\n", []),
        ("def g():\n    yield from walker\n", [("g", "walker.__iter__", 2)]),
        ("def g():\n    yield walker\n", []),
    ],
)
def test_unpacking_and_yield_from_iterate(source: str, expected: list[tuple[str, str, int]]) -> None:
    assert sites(source, "operator") == expected


NARROWING = '''
def f(x, y):
    if isinstance(x, Foo):
        x.run()
    elif isinstance(x, (mod.Bar, Baz)) and isinstance(y, Foo):
        x.go()
    if not isinstance(y, Foo):
        raise TypeError
    y.run()
    assert isinstance(x, Foo), "msg"
    x.run()
    if isinstance(x.attr, Foo) or isinstance(y, Bar):
        pass
    if isinstance(self.backend, Disk):
        pass
    if not isinstance(x, Foo):
        pass
    else:
        pass
'''


def test_isinstance_narrows_where_it_holds() -> None:
    found = [(n.scope, n.name, n.classes, n.start, n.end) for n in facts(NARROWING).narrowings]
    assert found == [
        ("f", "x", ("Foo",), 3, 3),
        ("f", "x", ("mod.Bar", "Baz"), 5, 5),
        ("f", "y", ("Foo",), 5, 5),
        ("f", "y", ("Foo",), 8, 18),  # after an if-not whose body raises
        ("f", "x", ("Foo",), 10, 18),  # after the assert
        ("f", "self.backend", ("Disk",), 14, 14),  # a dotted name
    ]


MATCHING = """\
def f(x, box):
    match x:
        case Foo():
            pass
        case mod.Bar(a=1) | Baz() as found:
            pass
        case [Foo()] | Qux():
            pass
        case Foo() if box:
            pass
    match box.item:
        case Foo(v=v):
            pass
    match g(x):
        case Foo():
            pass
"""


def test_a_class_pattern_narrows_the_match_subject_in_its_case() -> None:
    found = [(n.scope, n.name, n.classes, n.start, n.end) for n in facts(MATCHING).narrowings]
    assert found == [
        ("f", "x", ("Foo",), 4, 4),
        ("f", "found", ("mod.Bar", "Baz"), 6, 6),  # the as name, too
        ("f", "x", ("mod.Bar", "Baz"), 6, 6),
        # a union with a sequence pattern tells nothing; a guard changes nothing
        ("f", "x", ("Foo",), 10, 10),
        ("f", "box.item", ("Foo",), 13, 13),  # a dotted subject; a call is none
    ]


def test_a_generated_chain_of_thousands_of_calls_is_read_without_overflowing() -> None:
    # each call of a chain renders the chain below it: past MAX_CHAIN links the outer
    # calls render as unknown rather than taking minutes and overflowing the stack
    facts = extract(b"def f(x):\n    return x" + b".a()" * 2000 + b"\n", "python")
    assert facts.error is None
    assert len(facts.calls) == 2000
    rendered = [c.callee for c in facts.calls if c.callee is not None]
    assert "x.a" in rendered and "x.a().a" in rendered
    assert len(rendered) < 100 and all(c.count(".a") <= MAX_CHAIN for c in rendered)


def test_a_long_callee_still_names_what_it_calls() -> None:
    # the last name of a callee longer than any special name still selects its rendering
    long_receiver = b"self." + b"very_long_attribute_name_of_a_receiver." * 3
    source = b"def f(self):\n    r = " + long_receiver + b"stack.enter_context(Res())\n"
    found = {b.target: b.value for b in extract(source, "python").bindings}
    assert found["r"] == "Res().__enter__()"


@pytest.mark.parametrize(("source", "postponed"), [
    ('"""Doc."""\nfrom __future__ import annotations, division\n', True),
    ("from __future__ import generator_stop\n", False),
    ("import annotations\n", False),
    ("x = '__future__ annotations'\n", False),
])
def test_whether_a_file_postpones_its_annotations(source: str, postponed: bool) -> None:
    assert extract_python(source.encode()).postponed_annotations is postponed


def test_calls_whose_value_is_dropped_are_listed_with_their_callee() -> None:
    source = textwrap.dedent("""\
        def run(store):
            store.save()
            kept = store.load()
            print(store.load())
            await store.flush()
            make()(1)
            return store.close()
        """)
    assert extract_python(source.encode()).discarded == ((2, "store.save"), (4, "print"), (6, "make()"))


def test_calls_whose_value_is_awaited_are_listed_with_their_callee() -> None:
    source = textwrap.dedent("""\
        async def run(store):
            await store.save()
            kept = await (store.load(1))
            later = store.load(2)
            nested = await gather(fetch())
            return [await item() for item in store], unawait(3)
        """)
    assert extract_python(source.encode()).awaited == ((2, "store.save"), (3, "store.load"), (5, "gather"),
                                                       (6, "item"))


def test_hasattr_tests_mark_the_bodies_that_run_only_on_objects_having_the_attribute() -> None:
    source = """
        def setup(ctx, self):
            if hasattr(ctx, "load_default_certs"):
                ctx.load_default_certs()
            elif self.opts and hasattr(self.opts, 'verify'):
                self.opts.verify()
            if not hasattr(ctx, "close"):
                pass
            if hasattr(ctx, name) or hasattr(ctx, "x"):
                pass
        """
    assert facts(source).probes == (
        ("setup", "ctx", "load_default_certs", 3, 3),
        ("setup", "self.opts", "verify", 5, 5),
    )  # a negation, a computed name or an `or` tells nothing
