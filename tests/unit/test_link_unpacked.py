"""Arguments unpacked from a name into a call: ``f(*xs)``, ``f(**opts)``."""

from __future__ import annotations

from helpers.linking import assert_derived_both_ways, derived_from, facts

from impactbot.link import link
from impactbot.model import LinkedGraph

HANDLERS = """
def save():
    pass

def load():
    pass

def run(handler, other=None):
    return handler()
"""


def called_by_run(source: str) -> set[str]:
    graph = link(facts({"m.py": HANDLERS + source}))
    return called_by(graph, "m.py::run")


def called_by(graph: LinkedGraph, caller: str) -> set[str]:
    return {e.target for e in graph.edges if e.kind == "calls" and e.source == caller}


def test_a_literal_dict_gives_each_parameter_its_own_key() -> None:
    assert called_by_run('OPTS = {"handler": save, "other": load}\nrun(**OPTS)\n') == {"m.py::save"}


def test_a_literal_tuple_gives_each_position_its_element() -> None:
    assert called_by_run("ARGS = (load, save)\nrun(*ARGS)\n") == {"m.py::load"}
    assert called_by_run("REST = (save,)\nrun(load, *REST)\n") == {"m.py::load"}


def test_an_explicit_keyword_wins_over_the_unpacked_key() -> None:
    assert called_by_run('OPTS = {"handler": save}\nrun(handler=load, **OPTS)\n') == {"m.py::load"}


def test_a_container_the_code_changes_passes_no_element() -> None:
    # its bag holds every value: no parameter is told which one it gets
    source = 'OPTS = {"other": load}\nOPTS.update(extra())\nOPTS["handler"] = save\nrun(**OPTS)\n'
    assert called_by_run(source) == set()


def test_forwarded_keywords_reach_the_callee_s_own_keywords() -> None:
    graph = link(facts({"m.py": HANDLERS + """
class Base:
    def __init__(self, **options):
        self.callback = options.get("callback")

    def fire(self):
        return self.callback()

class Child(Base):
    def __init__(self, **options):
        super().__init__(**options)

Child(callback=save).fire()
"""}))
    assert called_by(graph, "m.py::Base::fire") == {"m.py::save"}


def test_a_derived_graph_follows_a_renamed_parameter() -> None:
    use = "from m import run, save\nOPTS = {'handler': save}\nrun(**OPTS)\n"
    old = facts({"m.py": HANDLERS, "u.py": use})
    renamed = HANDLERS.replace("run(handler, other=None):\n    return handler()",
                               "run(callback, other=None):\n    return callback()")
    new = dict(old, **facts({"m.py": renamed}))
    graph, derived = derived_from(old, new)
    assert called_by(graph, "m.py::run") == {"m.py::save"}
    assert derived == link(new)
    assert called_by(derived, "m.py::run") == set()


def test_forwarded_arguments_give_each_named_parameter_its_place_or_keyword() -> None:
    by_place = "def relay(*args):\n    return run(*args)\n\nrelay(load, save)\n"
    assert called_by_run(by_place) == {"m.py::load"}
    by_keyword = "def relay(**kw):\n    return run(**kw)\n\nrelay(other=load, handler=save)\n"
    assert called_by_run(by_keyword) == {"m.py::save"}
    after_a_named_one = "def relay(first, *args):\n    return run(*args)\n\nrelay(load, save)\n"
    assert called_by_run(after_a_named_one) == {"m.py::save"}


def test_a_function_reads_its_own_args_and_kwargs_by_place_and_keyword() -> None:
    graph = link(facts({"m.py": HANDLERS + """
def pick(*args, **kwargs):
    args[1]()
    kwargs["done"]()

pick(save, load, done=save, other=load)
"""}))
    assert called_by(graph, "m.py::pick") == {"m.py::load", "m.py::save"}
    only_second = link(facts({"m.py": HANDLERS + "def pick(*args):\n    args[1]()\n\npick(save, load)\n"}))
    assert called_by(only_second, "m.py::pick") == {"m.py::load"}


def test_arguments_forwarded_twice_keep_their_places() -> None:
    # the middle function's elements come from a forward that puts them where they were
    twice = "def middle(*args):\n    return run(*args)\n\ndef relay(*args):\n    return middle(*args)\n\n"
    assert called_by_run(twice + "relay(load, save)\n") == {"m.py::load"}
    graph = link(facts({"m.py": HANDLERS + twice.replace("return run(*args)", "return args[1]()")
                        + "relay(load, save)\n"}))
    assert called_by(graph, "m.py::middle") == {"m.py::save"}
    by_keyword = "def middle(**kw):\n    return run(**kw)\n\ndef relay(**kw):\n    return middle(**kw)\n\n"
    assert called_by_run(by_keyword + "relay(other=load, handler=save)\n") == {"m.py::save"}


def test_two_wrappers_stacked_on_a_function_pass_it_the_caller_s_arguments() -> None:
    source = """
import functools

def logged(f):
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return f(*args, **kwargs)
    return wrapper

def timed(f):
    def timing(*args, **kwargs):
        return f(*args, **kwargs)
    return timing

@timed
@logged
def handle(handler, other=None):
    return handler()

handle(save, other=load)
"""
    assert called_by(link(facts({"m.py": HANDLERS + source})), "m.py::handle") == {"m.py::save"}


def test_arguments_forwarded_after_others_have_lost_their_places() -> None:
    # `middle(save, *args)` shifts the forwarded elements: no named parameter of the
    # next callee is told which it gets (a read by place in middle itself still is)
    shifted = "def middle(*args):\n    return run(*args)\n\ndef relay(*args):\n    return middle(save, *args)\n\n"
    assert called_by_run(shifted + "relay(load)\n") == set()
    graph = link(facts({"m.py": HANDLERS + shifted.replace("return run(*args)", "return args[1]()")
                        + "relay(load)\n"}))
    assert called_by(graph, "m.py::middle") == {"m.py::load"}


def test_a_function_forwarding_to_itself_ends() -> None:
    source = "def again(*args):\n    args[0]()\n    return again(*args)\n\nagain(save)\n"
    assert called_by(link(facts({"m.py": HANDLERS + source})), "m.py::again") == {"m.py::again", "m.py::save"}


def test_a_derived_graph_follows_a_forward_that_changes() -> None:
    relay = "from m import run, save, load\n\ndef relay(*args):\n    return run(*args)\n\nrelay(load, save)\n"
    assert_derived_both_ways({"m.py": HANDLERS}, "u.py", relay, relay.replace("relay(load, save)", "relay(save)"))
    assert_derived_both_ways({"m.py": HANDLERS}, "u.py", relay, relay.replace("run(*args)", "run(save, *args)"))
    twice = relay.replace("relay(load, save)", "def outer(*args):\n    return relay(*args)\n\nouter(load, save)")
    shifted = twice.replace("return relay(*args)", "return relay(save, *args)")
    assert_derived_both_ways({"m.py": HANDLERS}, "u.py", twice, shifted)


def test_args_rebound_or_stored_into_read_as_a_whole() -> None:
    # what calls passed is no longer all the name holds, nor at the same places
    source = "def pick(*args):\n    args = args[1:]\n    args[0]()\n\npick(save, load)\n"
    rebound = link(facts({"m.py": HANDLERS + source}))
    assert called_by(rebound, "m.py::pick") == {"m.py::save", "m.py::load"}
    stored = link(facts({"m.py": HANDLERS + "def pick(**kw):\n    kw['cb'] = load\n    kw['cb']()\n\npick(cb=save)\n"}))
    assert called_by(stored, "m.py::pick") == {"m.py::save", "m.py::load"}


def test_a_container_unpacked_into_args_or_kwargs_gives_them_all_its_elements() -> None:
    # the callee's own *args/**kwargs hold every element, wherever the container came from
    each = "def each(*fns):\n    for f in fns:\n        f()\n\n"
    steps = "def steps():\n    xs = [save]\n    xs.append(load)\n    each(*xs)\n\nsteps()\n"
    assert called_by(link(facts({"m.py": HANDLERS + each + steps})), "m.py::each") == {"m.py::save", "m.py::load"}
    named = "def named(**fns):\n    for f in fns.values():\n        f()\n\nnamed(**{'a': save})\n"
    assert called_by(link(facts({"m.py": HANDLERS + named})), "m.py::named") == {"m.py::save"}


def test_elements_unpacked_into_args_have_no_place() -> None:
    # `fns[1]` may be any of them: the call does not show where the container's elements land
    source = "def second(*fns):\n    fns[1]()\n\ndef go(xs):\n    second(*xs)\n\ngo([save, load])\n"
    assert called_by(link(facts({"m.py": HANDLERS + source})), "m.py::second") == {"m.py::save", "m.py::load"}
