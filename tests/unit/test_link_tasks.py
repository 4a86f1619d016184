"""Task queues: ``send_email.delay(...)`` runs the task ``send_email`` (Celery, Dramatiq)."""

from __future__ import annotations

from helpers.linking import facts

from impactbot.link import link

TASKS = """
import dramatiq
from celery import shared_task

from proj.celery import app


@shared_task
def send_email(user_id):
    pass


@app.task(bind=True, max_retries=3)
def sync(self, account_id):
    pass


@dramatiq.actor
def index(doc_id):
    pass


def plain(x):
    pass
"""

USES = """
from celery import chain

from tasks import index, plain, send_email, sync


def signup(user):
    send_email.delay(user.id)
    sync.apply_async(args=[1], countdown=5)


def pipeline():
    chain(send_email.s(1), sync.si(2))()
    index.send(3)


def not_a_task():
    plain.delay(3)
"""


def test_a_task_runs_through_its_queue_methods() -> None:
    graph = link(facts({"tasks.py": TASKS, "views.py": USES}))
    calls = {(e.source, e.target) for e in graph.edges if e.kind == "calls"}
    assert {("views.py::signup", "tasks.py::send_email"), ("views.py::signup", "tasks.py::sync"),
            ("views.py::pipeline", "tasks.py::send_email"), ("views.py::pipeline", "tasks.py::sync"),
            ("views.py::pipeline", "tasks.py::index")} <= calls
    assert not {c for c in calls if c[0] == "views.py::not_a_task"}
    # the worker passes the arguments (and `bind=True` adds the task): no call is kept for
    # the signature checks that tell breaking call sites
    assert not [c for c in graph.calls if c.target.startswith("tasks.py::")]
