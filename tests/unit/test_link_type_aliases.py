"""``type Name = ...`` (PEP 695): an annotation naming the alias names the classes it stands for."""

from __future__ import annotations

from helpers.linking import facts

from impactbot.link import link

SOURCE = """
class Email:
    def send(self): pass

class Sms:
    def send(self): pass

type Channel = Email | Sms
type Maybe = Email | None

if False:
    type Dead = Sms

def notify(channel: Channel, maybe: Maybe):
    channel.send()
    maybe.send()
"""


def test_an_annotation_naming_a_type_alias_is_an_instance_of_its_classes() -> None:
    graph = link(facts({"m.py": SOURCE}))
    sent = [(e.source, e.target) for e in graph.edges if e.kind == "calls" and e.source == "m.py::notify"]
    assert sorted(sent) == [("m.py::notify", "m.py::Email::send"), ("m.py::notify", "m.py::Sms::send")]
    # each parameter gets its own alias's classes
    calls = sorted((c.line, c.target) for c in graph.calls if c.caller == "m.py::notify")
    assert calls == [(15, "m.py::Email::send"), (15, "m.py::Sms::send"), (16, "m.py::Email::send")]
