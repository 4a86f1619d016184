"""``for cls in Base.__subclasses__(): cls().run()``: a registry of plugins by subclassing."""

from __future__ import annotations

from helpers.linking import assert_derived_both_ways, facts

from impactbot.link import link

PLUGINS = """
class Plugin:
    def run(self):
        pass


class Csv(Plugin):
    def run(self):
        pass


class Json(Csv):
    def run(self):
        pass


class Other:
    def run(self):
        pass
"""


def calls(source: str, caller: str = "m.py::use") -> dict[str, str]:
    """Targets of the caller's calls, with their confidence."""
    graph = link(facts({"m.py": PLUGINS + source}))
    return {e.target.split("::", 1)[1]: e.confidence for e in graph.edges if e.kind == "calls" and e.source == caller}


def test_iterating_the_subclasses_calls_each_subclass_and_its_method_as_a_guess() -> None:
    found = calls("\n\ndef use():\n    for cls in Plugin.__subclasses__():\n        cls().run()\n")
    assert found == {"Csv": "inferred", "Csv::run": "inferred", "Json": "inferred", "Json::run": "inferred"}


def test_a_classmethod_walks_the_subclasses_of_the_class_it_is_called_on() -> None:
    source = (
        "\n\nclass Registry(Plugin):\n"
        "    @classmethod\n"
        "    def every(cls):\n"
        "        return [sub() for sub in cls.__subclasses__()]\n"
        "\n\nclass Mine(Registry):\n    def run(self):\n        pass\n"
        "\n\ndef use():\n    for p in Registry.every():\n        p.run()\n"
    )
    assert "Mine::run" in calls(source)
    assert "Other::run" not in calls(source)


def test_a_class_without_subclasses_here_leaves_them_to_outside_code() -> None:
    source = "\n\ndef use():\n    for cls in Other.__subclasses__():\n        cls().go()\n"
    graph = link(facts({"m.py": PLUGINS + source}))
    assert not [e for e in graph.edges if e.source == "m.py::use"]
    assert dict(graph.unresolved).get("m.py::use", 0) == 0


def test_a_subclass_added_in_another_file_is_derived_like_a_full_link() -> None:
    files = {
        "plugins.py": PLUGINS,
        "use.py": (
            "from plugins import Plugin\n\n\ndef use():\n"
            "    for cls in Plugin.__subclasses__():\n        cls().run()\n"
        ),
    }
    assert_derived_both_ways(
        files, "extra.py",
        "X = 1\n",
        "from plugins import Plugin\n\n\nclass Xml(Plugin):\n    def run(self):\n        pass\n",
    )
