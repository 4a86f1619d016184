"""Facts about one Python file: definitions, call sites, imports and bindings.

The file is parsed once and one tree-sitter query collects every node of
interest in a single pass in C; each capture list then goes through one handler
of a pass. Scopes are byte ranges (definition bodies), so the scope of a node is one
bisect away, and decorators, default values and annotations, which sit outside
the body, land in the enclosing scope just as Python evaluates them.

The passes live in ``_pycalls`` (call sites), ``_pybindings`` (bindings,
imports, ``__all__``) and ``_pydefs`` (definitions); ``_pystate`` holds what they
share. Their hot loops (calls, attributes, assignments) are written out with
local variables because they run about a million times on a Django-sized tree.
"""

from __future__ import annotations

import codecs
import io
import tokenize

from impactbot.extract._pybindings import BindingFacts
from impactbot.extract._pycalls import CallFacts
from impactbot.extract._pydefs import DefinitionFacts
from impactbot.extract._pyfingerprint import fingerprint
from impactbot.extract._pynarrow import NarrowingFacts
from impactbot.extract._pyroutes import RouteFacts
from impactbot.extract._pystate import engine, first_of, line_count
from impactbot.model import Definition, FileFacts
from impactbot.stack import deeper_stack

# Expressions are rendered by recursion over the tree, a frame or two per level: a chain
# of a few hundred `a + b + ...` or `x or y or ...` terms (generated tables, long
# string concatenations) must not cost the whole file its facts.
EXPRESSION_RECURSION_LIMIT = 12_000
LFS_POINTER = b"version https://git-lfs.github.com/spec/"


def extract_python(data: bytes) -> FileFacts:
    """FileFacts of one Python source blob. Pure; never raises on bad source.

    Source with syntax errors yields what could be read plus ``error``.
    """
    if data.startswith(LFS_POINTER):
        return _unread(data, "a Git LFS pointer: the file's content is not in the repository")
    shared = engine()
    try:
        with deeper_stack(EXPRESSION_RECURSION_LIMIT):
            return _FileExtraction(shared, as_utf8(data)).run()
    except Exception as exc:  # a tree shape no handler expected: report, never abort a run
        return _unread(data, f"could not extract facts: {type(exc).__name__}: {exc}")


def unread(data: bytes, error: str) -> FileFacts:
    """The facts of a blob not read: its module, and that nothing more is known."""
    return _unread(data, error)


def _unread(data: bytes, error: str) -> FileFacts:
    return FileFacts(
        language="python",
        definitions=(Definition("", "module", 1, line_count(data), fingerprint([data])),),
        calls=(),
        imports=(),
        error=error,
        unread=True,
    )




def as_utf8(data: bytes) -> bytes:
    """The source in UTF-8, which is all tree-sitter reads: a file whose coding cookie
    names another encoding (PEP 263, ``# -*- coding: latin-1 -*-``) is decoded with it.
    Lines stay where they were, so the diff's line numbers still apply."""
    if b"coding" not in data[:512]:
        return data
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        if codecs.lookup(encoding).name in ("utf-8", "utf-8-sig"):
            return data
        return data.decode(encoding).encode("utf-8")
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return data  # not decodable as declared: parsed as it is, errors and all


class _FileExtraction(CallFacts, BindingFacts, DefinitionFacts, NarrowingFacts, RouteFacts):
    """All passes over one file; ``run()`` once."""

    def run(self) -> FileFacts:
        self._calls()  # first: assignments reuse the rendered callees
        self._assignments()
        self._augmented()
        self._loops()
        self._withs()
        self._deletes()
        self._returns()
        self._small_bindings()
        self._type_aliases()
        self._lambda_returns()
        self._lambda_params()
        self._keyed_elements()  # last of the binding passes: it judges every use they marked
        self._subscripts()
        self._operators()
        self._interpolations()
        self._raises()
        definitions = self._definition_facts()
        routes, requests = self._web()
        receivers = self._receivers()
        sites = self._dependencies(self.sites + self._op_sites() + self._attributes())
        sites.sort(key=first_of)
        self.bindings.sort(key=first_of)
        return FileFacts(
            language="python",
            definitions=definitions,
            calls=tuple([site for _, site in sites]),
            imports=self._imports(),
            bindings=tuple([b for _, b in self.bindings]),
            all_names=self._all_names(),
            error=self._error(),
            narrowings=self._narrowings(),
            probes=self._probes(),
            expected_errors=self._expected_errors(),
            routes=routes,
            requests=requests,
            receivers=receivers,
            plugins=tuple(dict.fromkeys(self.plugins)),
            lambdas=self._lambdas(),
            loops=self._loop_spans(),
            postponed_annotations=self._postponed_annotations(),
            discarded=self._discarded(),
            awaited=self._awaited(),
        )

    def _postponed_annotations(self) -> bool:
        if b"__future__" not in self.data:
            return False
        return any(child.type == "future_import_statement" and b"annotations" in (child.text or b"")
                   for child in self.tree.root_node.named_children)

    def _error(self) -> str | None:
        root = self.tree.root_node
        if not root.has_error:
            return None
        node = root
        while True:
            for child in node.children:
                if child.is_error or child.is_missing:
                    return f"syntax error at line {child.start_point.row + 1}"
                if child.has_error:
                    node = child
                    break
            else:
                return f"syntax error at line {node.start_point.row + 1}"
