from __future__ import annotations

import ast

import pytest

from perf.scripted_pr import ScriptedCommit, ScriptError, script_pull_request
from perf.tests.corpus import generated, stdlib_slice


def _defs(source: bytes) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """Qualified name -> def node, nesting joined with dots as the script names them."""
    found = {}

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                found[prefix + child.name] = child
                walk(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            elif not isinstance(child, ast.expr):
                walk(child, prefix)

    walk(ast.parse(source), "")
    return found


def _changed_functions(before: bytes, after: bytes) -> set[str]:
    old, new = _defs(before), _defs(after)
    changed = {name for name in old.keys() - new.keys()}
    for name in old.keys() & new.keys():
        # nested defs are their own entries: compare the function's own statements only
        if ast.dump(old[name].args) != ast.dump(new[name].args) or _own(old[name]) != _own(new[name]):
            changed.add(name)
    return changed


def _own(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    return [ast.dump(s) for s in node.body if not isinstance(s, ast.FunctionDef | ast.ClassDef)]


def _check_commit(files: dict[str, bytes], commit: ScriptedCommit) -> None:
    """Every edit in the log is a real change, and nothing else changed."""
    claimed = {(e.path, e.function) for e in commit.edits}
    actual = {(path, name) for path, text in commit.files.items() for name in _changed_functions(files[path], text)}
    assert actual == claimed


@pytest.mark.parametrize(
    "files",
    [generated(), stdlib_slice("email", "json")],
    ids=["generated", "stdlib-email-json"],
)
def test_feature_commit_has_ten_bodies_one_signature_one_removal(files: dict[str, bytes]) -> None:
    pr = script_pull_request(files, seed=1)
    kinds = [e.kind for e in pr.feature.edits]
    assert (kinds.count("body"), kinds.count("signature"), kinds.count("removed")) == (10, 1, 1)
    assert len({e.path for e in pr.feature.edits if e.kind == "body"}) == 5
    _check_commit(files, pr.feature)


@pytest.mark.parametrize("files", [generated(), stdlib_slice("email", "json")], ids=["generated", "stdlib-email-json"])
def test_followup_edits_three_functions_in_two_untouched_files(files: dict[str, bytes]) -> None:
    pr = script_pull_request(files, seed=1)
    assert [e.kind for e in pr.followup.edits] == ["body"] * 3
    assert len(pr.followup.files) == 2
    assert not set(pr.followup.files) & set(pr.feature.files)
    _check_commit(files, pr.followup)


def _calls_to(name: str, files: dict[str, bytes]) -> list[int]:
    """Positional-argument counts of every bare-name call ``name(...)`` in ``files``."""
    return [
        len(node.args)
        for text in files.values()
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    ]


def test_signature_change_adds_a_required_parameter_that_callers_now_miss() -> None:
    files = generated()
    pr = script_pull_request(files, seed=1)
    edit = next(e for e in pr.feature.edits if e.kind == "signature")
    before = _defs(files[edit.path])[edit.function].args
    after = _defs(pr.feature.files[edit.path])[edit.function].args
    assert [a.arg for a in after.args] == [a.arg for a in before.args] + ["strict"]
    assert after.defaults == []
    calls = _calls_to(edit.function, {**files, **pr.feature.files})
    assert calls
    assert all(count == len(before.args) for count in calls)


def test_removed_function_had_callers_that_are_left_calling_it() -> None:
    files = generated()
    pr = script_pull_request(files, seed=1)
    edit = next(e for e in pr.feature.edits if e.kind == "removed")
    assert edit.function in _defs(files[edit.path])
    assert edit.function not in _defs(pr.feature.files[edit.path])
    assert _calls_to(edit.function, {**files, **pr.feature.files})


def test_same_seed_same_pull_request_and_other_seed_another() -> None:
    files = stdlib_slice("email", "json")
    assert script_pull_request(files, seed=7) == script_pull_request(files, seed=7)
    assert script_pull_request(files, seed=7) != script_pull_request(files, seed=8)


def test_files_it_cannot_edit_safely_are_kept_but_never_touched() -> None:
    files = generated()
    files["pkg/crlf.py"] = files["pkg/mod3.py"].replace(b"\n", b"\r\n")
    files["pkg/latin1.py"] = b"# -*- coding: latin-1 -*-\n" + files["pkg/mod4.py"] + b"# caf\xe9\n"
    files["pkg/broken.py"] = b"def oops(:\n"
    for seed in range(5):
        pr = script_pull_request(files, seed=seed)
        touched = set(pr.feature.files) | set(pr.followup.files)
        assert not touched & {"pkg/crlf.py", "pkg/latin1.py", "pkg/broken.py"}


def test_corpus_without_called_functions_cannot_be_scripted() -> None:
    lonely = b"def alone(x):\n    a = x\n    b = a\n    return b\n"
    with pytest.raises(ScriptError, match="in-repo callers"):
        script_pull_request({"a.py": lonely}, seed=1)
