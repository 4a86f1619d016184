"""``signals`` edges: sending a signal (or saving and deleting a Django model) runs the
functions connected to it."""

from __future__ import annotations

import pytest
from helpers.linking import assert_derived_both_ways, facts

from impactbot.impact import SymbolGraph
from impactbot.link import incremental, link

MODELS = """
from django.db import models


class Order(models.Model):
    def pay(self):
        self.paid = True
        self.save()


class Customer(models.Model):
    pass
"""

SIGNALS = """
from django.dispatch import Signal

order_paid = Signal()
"""

RECEIVERS = """
from django.contrib.auth.models import User
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from shop import signals
from shop.models import Order


@receiver(post_save, sender=Order)
def order_saved(sender, instance, **kw):
    pass


@receiver(post_save, sender=User)
def user_saved(sender, instance, **kw):
    pass


@receiver(post_delete)
def anything_deleted(sender, **kw):
    pass


def notify(sender, **kw):
    pass


signals.order_paid.connect(notify)
"""

VIEWS = """
from shop.models import Customer, Order
from shop.signals import order_paid


def create():
    Order.objects.create(total=1)
    Customer.objects.create()


def remove(order_id):
    Order.objects.get(pk=order_id).delete()


def announce(order):
    order_paid.send(sender=Order, order=order)
"""

FILES = {"shop/__init__.py": "", "shop/models.py": MODELS, "shop/signals.py": SIGNALS,
         "shop/receivers.py": RECEIVERS, "shop/views.py": VIEWS}


def _signals(files: dict[str, str]) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in link(facts(files)).edges if e.kind == "signals"}


def test_sending_a_signal_runs_the_receivers_connected_to_it() -> None:
    assert _signals(FILES) == {
        ("shop/models.py::Order::pay", "shop/receivers.py::order_saved"),
        ("shop/views.py::create", "shop/receivers.py::order_saved"),
        ("shop/views.py::remove", "shop/receivers.py::anything_deleted"),
        ("shop/views.py::announce", "shop/receivers.py::notify"),
    }


def test_a_changed_receiver_has_the_code_saving_its_model_as_dependents() -> None:
    graph = SymbolGraph(link(facts(FILES)))
    assert {src for src, _ in graph.dependents("shop/receivers.py::order_saved")} == {
        "shop/models.py::Order::pay", "shop/views.py::create"}


def test_the_extractor_reads_receivers_as_written() -> None:
    found = facts(FILES)["shop/receivers.py"].receivers
    assert [(r.signal, r.handler, r.decorated, r.sender) for r in found] == [
        ("post_save", "order_saved", True, "Order"), ("post_save", "user_saved", True, "User"),
        ("post_delete", "anything_deleted", True, None), ("signals.order_paid", "notify", False, None),
    ]


CHANGES = {
    "a receiver added": ("shop/receivers.py", "\n\n@receiver(post_save, sender=Order)\ndef audit(sender, **kw):\n"
                                              "    pass\n"),
    "a signal sent": ("shop/views.py", "\n\ndef again(order):\n    order_paid.send(sender=Order)\n"),
}


@pytest.mark.parametrize(("target", "added"), CHANGES.values(), ids=CHANGES.keys())
def test_a_derived_graph_has_the_signal_edges_of_a_full_link(
    target: str, added: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    assert_derived_both_ways(FILES, target, FILES[target], FILES[target] + added)
