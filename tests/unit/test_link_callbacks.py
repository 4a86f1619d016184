"""Functions handed to a library function that calls them (``impactbot.link.callbacks``)."""

from __future__ import annotations

from helpers.linking import derived_from, facts

from impactbot.link import link
from impactbot.model import LinkedGraph


def calls_from(graph: LinkedGraph, caller: str) -> dict[str, str]:
    """Target id -> confidence of the caller's call edges."""
    return {e.target: e.confidence for e in graph.edges if e.kind == "calls" and e.source == caller}


def test_the_function_passing_a_key_calls_it() -> None:
    graph = link(facts({"m.py": """
        def rank(x):
            return -x

        def use(xs):
            return sorted(xs, key=rank), max(xs, key=rank)
        """}))
    assert calls_from(graph, "m.py::use") == {"m.py::rank": "inferred"}


def test_a_callback_edge_is_not_checked_against_the_call_s_arguments() -> None:
    graph = link(facts({"m.py": """
        import functools

        def add(a, b, c):
            return a + b + c

        def use():
            return functools.partial(add, 1)
        """}))
    assert calls_from(graph, "m.py::use") == {"m.py::add": "inferred"}
    assert not [c for c in graph.calls if c.target == "m.py::add"]


def test_a_bound_method_and_a_class_given_as_factory() -> None:
    graph = link(facts({"m.py": """
        import threading
        from collections import defaultdict

        class Bucket:
            def __init__(self):
                self.items = []

        class Worker:
            def loop(self):
                pass

            def start(self):
                threading.Thread(target=self.loop, daemon=True).start()
                return defaultdict(Bucket)
        """}))
    assert set(calls_from(graph, "m.py::Worker::start")) == {
        "m.py::Worker::loop", "m.py::Bucket", "m.py::Bucket::__init__",
    }


def test_a_repository_function_gets_the_callback_as_a_parameter_instead() -> None:
    graph = link(facts({"m.py": """
        def rank(x):
            return -x

        def sorted(xs, key):
            return [key(x) for x in xs]

        def use(xs):
            return sorted(xs, key=rank)
        """}))
    assert set(calls_from(graph, "m.py::use")) == {"m.py::sorted"}
    assert set(calls_from(graph, "m.py::sorted")) == {"m.py::rank"}


def test_common_names_count_only_through_their_module() -> None:
    graph = link(facts({
        "m.py": """
            import atexit
            from signal import signal, SIGTERM
            from registry import register

            def bye():
                pass

            def on_term(signum, frame):
                pass

            def plugin():
                pass

            def setup():
                atexit.register(bye)
                signal(SIGTERM, on_term)
                register(plugin)
            """,
    }))
    assert set(calls_from(graph, "m.py::setup")) == {"m.py::bye", "m.py::on_term"}


def test_only_the_arguments_the_library_calls() -> None:
    graph = link(facts({"m.py": """
        import threading

        def work():
            pass

        def name():
            pass

        def use(xs):
            threading.Timer(1.0, work, args=[name]).start()
            return sorted(xs, reverse=name)
        """}))
    assert set(calls_from(graph, "m.py::use")) == {"m.py::work"}


def test_a_derived_graph_gets_a_new_callback_edge() -> None:
    old = facts({"m.py": "def rank(x):\n    return x\n\ndef use(xs):\n    return sorted(xs)\n"})
    new = facts({"m.py": "def rank(x):\n    return x\n\ndef use(xs):\n    return sorted(xs, key=rank)\n"})
    _, derived = derived_from(old, new)
    assert derived == link(new)
    assert set(calls_from(derived, "m.py::use")) == {"m.py::rank"}


def test_a_derived_graph_drops_the_edge_when_the_function_given_leaves_another_file() -> None:
    use = "from a import rank\n\ndef use(xs):\n    return sorted(xs, key=rank)\n"
    old = facts({"a.py": "def rank(x):\n    return x\n", "m.py": use})
    new = facts({"a.py": "rank = None\n", "m.py": use})
    graph, derived = derived_from(old, new)
    assert set(calls_from(graph, "m.py::use")) == {"a.py::rank"}
    assert derived == link(new)
    assert calls_from(derived, "m.py::use") == {}


def test_a_field_factory_is_called_by_the_class_that_declares_it() -> None:
    graph = link(facts({"m.py": """
        from dataclasses import dataclass, field

        class Settings:
            pass

        def default_name():
            return "x"

        @dataclass
        class Job:
            settings: Settings = field(default_factory=Settings)
            name: str = field(default=default_name)
        """}))
    assert set(calls_from(graph, "m.py::Job")) == {"m.py::Settings"}


def test_an_assertion_given_the_code_to_run_calls_it() -> None:
    graph = link(facts({"app.py": """
        def parse(text):
            return int(text)

        def load(path):
            return open(path)

        def render(x):
            return str(x)
        """, "test_app.py": """
        import unittest
        import pytest
        from app import load, parse, render

        class ParseTest(unittest.TestCase):
            def test_bad(self):
                self.assertRaises(ValueError, parse, "x")
                self.assertRaisesRegex(OSError, "missing", load, "/nowhere")

            def test_message(self):
                self.assertRaises(ValueError)  # a context manager: nothing handed over

        def test_legacy_form():
            pytest.raises(TypeError, render, 1, 2)
        """}))
    assert set(calls_from(graph, "test_app.py::ParseTest::test_bad")) == {"app.py::parse", "app.py::load"}
    assert calls_from(graph, "test_app.py::ParseTest::test_message") == {}
    assert calls_from(graph, "test_app.py::test_legacy_form") == {"app.py::render": "inferred"}


def test_task_groups_and_worker_threads_of_trio_and_anyio_run_what_they_are_given() -> None:
    graph = link(facts({"m.py": """
        import anyio
        import trio
        from trio import run

        def crunch(n):
            return n

        async def serve(port):
            pass

        async def handle(conn):
            pass

        async def main():
            async with trio.open_nursery() as nursery:
                nursery.start_soon(serve, 80)
            async with anyio.create_task_group() as tg:
                tg.start_soon(handle, None)
            await trio.to_thread.run_sync(crunch, 1)

        def cli():
            run(main)
            anyio.run(main)
        """}))
    assert calls_from(graph, "m.py::main") == {
        "m.py::serve": "inferred", "m.py::handle": "inferred", "m.py::crunch": "inferred"}
    assert calls_from(graph, "m.py::cli") == {"m.py::main": "inferred"}


def test_a_default_named_like_its_parameter_is_the_name_around_the_def() -> None:
    # flask-restx: `Api(default_id=default_id)` stores the function `utils.default_id`
    files = {
        "ids.py": "def default_id(resource, method):\n    return method + resource\n",
        "api.py": "from ids import default_id\n\n\nclass Api:\n    def __init__(self, default_id=default_id):\n"
                  "        self.default_id = default_id\n\n    def op(self, name):\n"
                  "        return self.default_id(name, 'get')\n\n\n"
                  "class Tables:\n    key = default_id\n\n    def sort(self, rows, key=key):\n"
                  "        return key(rows, 1)\n",
    }
    graph = link(facts(files))
    assert calls_from(graph, "api.py::Api::op") == {"ids.py::default_id": "inferred"}
    assert calls_from(graph, "api.py::Tables::sort") == {"ids.py::default_id": "inferred"}
    # a derived graph reads the default where a full link does
    edited = {**files, "ids.py": files["ids.py"].replace("method + resource", "resource + method")}
    assert derived_from(facts(files), facts(edited))[1] == link(facts(edited))
