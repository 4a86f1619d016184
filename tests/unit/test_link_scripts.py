"""``subprocess.run([sys.executable, "-m", "app.main"])`` runs a module of the repository as a
script: the call reaches the module, whose module-level code is what runs."""

from __future__ import annotations

import pytest
from helpers.linking import assert_derived_both_ways, derived_from, facts

from impactbot.link import link

APP = {
    "app/__init__.py": "",
    "app/main.py": "def main():\n    pass\n\n\nif __name__ == '__main__':\n    main()\n",
    "app/__main__.py": "from app.main import main\n\nmain()\n",
}


def reached(test: str) -> dict[str, str]:
    graph = link(facts({**APP, "tests/test_run.py": test}))
    return {e.target: e.confidence for e in graph.edges if e.source.startswith("tests/") and e.kind == "calls"}


RUNS = {
    "subprocess.run": ('subprocess.run([sys.executable, "-m", "app.main", "1"], check=True)', "app/main.py"),
    "check_output": ('subprocess.check_output([sys.executable, "-m", "app.main"])', "app/main.py"),
    "a tuple, Popen": ('subprocess.Popen((sys.executable, "-m", "app.main"))', "app/main.py"),
    "a package: its __main__": ('subprocess.run([sys.executable, "-m", "app"])', "app/__main__.py"),
    "exec's own arguments": ('asyncio.create_subprocess_exec(sys.executable, "-m", "app.main")', "app/main.py"),
    "a file": ('subprocess.run([sys.executable, "app/main.py", "1"])', "app/main.py"),
    "a file from another directory": ('subprocess.check_call(["python", "./main.py"])', "app/main.py"),
}


@pytest.mark.parametrize(("call", "module"), RUNS.values(), ids=RUNS.keys())
def test_a_test_running_a_module_reaches_it(call: str, module: str) -> None:
    test = f"import asyncio\nimport subprocess\nimport sys\n\n\ndef test_run():\n    {call}\n"
    assert reached(test) == {module: "inferred"}


def test_code_on_the_command_line_runs_no_file() -> None:
    test = 'import subprocess\nimport sys\n\n\ndef test_run():\n    subprocess.run([sys.executable, "-c", "x.py"])\n'
    assert reached(test) == {}


def test_a_module_of_another_project_is_outside_code() -> None:
    graph = link(facts({**APP, "tests/test_run.py": (
        "import subprocess\nimport sys\n\n\ndef test_run():\n"
        '    subprocess.run([sys.executable, "-m", "pytest", "-q"])\n'
    )}))
    assert not [e for e in graph.edges if e.source == "tests/test_run.py::test_run"]
    assert dict(graph.unresolved).get("tests/test_run.py::test_run", 0) == 0


def test_a_package_main_added_later_is_derived_like_a_full_link() -> None:
    test = "import subprocess\nimport sys\n\n\ndef test_run():\n    subprocess.run([sys.executable, '-m', 'app'])\n"
    files = {"app/__init__.py": "", "app/main.py": APP["app/main.py"], "tests/test_run.py": test}
    assert_derived_both_ways(files, "app/__main__.py", "X = 1\n", APP["app/__main__.py"])


def test_a_script_file_added_or_gone_is_derived_like_a_full_link() -> None:
    test = "import subprocess\nimport sys\n\n\ndef test_run():\n    subprocess.run([sys.executable, 'main.py'])\n"
    without = facts({"app/__init__.py": "", "app/util.py": "X = 1\n", "tests/test_run.py": test})
    with_script = {**without, **facts({"tools/main.py": "def main():\n    pass\n\n\nmain()\n"})}
    for old, new in ((without, with_script), (with_script, without)):
        _graph, derived = derived_from(old, new)
        assert derived == link(new)
    assert ("tests/test_run.py::test_run", "tools/main.py") in {(e.source, e.target) for e in link(with_script).edges}
