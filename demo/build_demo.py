"""Build the demo shop repository that `make run` analyses.

    * feature   calculate_order_total rounds per line; execute_query gains a timeout
    |
    * main      a small shop: orders, payments, checkout, auth, a db layer, tests

Usage: python demo/build_demo.py DIR   (DIR must not exist or be empty)
"""

from __future__ import annotations

import sys
from pathlib import Path

import pygit2

SIGNATURE = pygit2.Signature("Demo Author", "demo@example.com", 1_700_000_000, 0)

DB = '''\
"""Thin database layer: every module goes through execute_query."""

import sqlite3

_CONNECTION = None


def get_connection():
    global _CONNECTION
    if _CONNECTION is None:
        _CONNECTION = sqlite3.connect(":memory:")
    return _CONNECTION


def execute_query(sql, params=()):
    cursor = get_connection().execute(sql, params)
    return cursor.fetchall()
'''

DB_FEATURE = '''\
"""Thin database layer: every module goes through execute_query."""

import sqlite3

_CONNECTION = None


def get_connection():
    global _CONNECTION
    if _CONNECTION is None:
        _CONNECTION = sqlite3.connect(":memory:")
    return _CONNECTION


def execute_query(sql, params=(), timeout=5.0):
    connection = get_connection()
    connection.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
    cursor = connection.execute(sql, params)
    return cursor.fetchall()
'''

ORDERS = '''\
from shop.db import execute_query

TAX_RATE = 0.2


def calculate_order_total(items, discount=0.0):
    subtotal = sum(item["price"] * item["quantity"] for item in items)
    discounted = subtotal * (1 - discount)
    return round(discounted * (1 + TAX_RATE), 2)


def get_order(order_id):
    return execute_query("SELECT * FROM orders WHERE id = ?", (order_id,))


def save_order(user_id, total):
    return execute_query("INSERT INTO orders (user_id, total) VALUES (?, ?)", (user_id, total))


def list_orders(user_id):
    return execute_query("SELECT * FROM orders WHERE user_id = ?", (user_id,))
'''

ORDERS_FEATURE = ORDERS.replace(
    '''    subtotal = sum(item["price"] * item["quantity"] for item in items)
    discounted = subtotal * (1 - discount)
    return round(discounted * (1 + TAX_RATE), 2)''',
    '''    # round each line first, as the invoices do
    subtotal = sum(round(item["price"] * item["quantity"], 2) for item in items)
    discounted = subtotal * (1 - discount)
    return round(discounted * (1 + TAX_RATE), 2)''',
)

PAYMENTS = '''\
from shop.db import execute_query


class StripeClient:
    def charge(self, amount_cents, currency):
        return {"id": "ch_demo", "amount": amount_cents, "currency": currency}


def create_payment_intent(amount, currency="eur"):
    client = StripeClient()
    charge = client.charge(int(amount * 100), currency)
    execute_query("INSERT INTO payments (charge_id) VALUES (?)", (charge["id"],))
    return charge


def process_refund(payment_id):
    return execute_query("UPDATE payments SET refunded = 1 WHERE id = ?", (payment_id,))


def get_payment_history(user_id):
    return execute_query("SELECT * FROM payments WHERE user_id = ?", (user_id,))
'''

CHECKOUT = '''\
from shop.orders import calculate_order_total, save_order
from shop.payments import create_payment_intent
from shop.auth import validate_jwt_token


def process_checkout(cart, token):
    user = validate_jwt_token(token)
    amount = calculate_order_total(cart["items"], cart.get("discount", 0.0))
    intent = create_payment_intent(amount)
    save_order(user["id"], amount)
    return intent


def checkout_summary(cart):
    return {"items": len(cart["items"]), "total": calculate_order_total(cart["items"])}
'''

AUTH = '''\
import hashlib

from shop.db import execute_query


def validate_jwt_token(token):
    header, _, payload = token.partition(".")
    if not header or not payload:
        raise ValueError("malformed token")
    rows = execute_query("SELECT id FROM sessions WHERE token = ?", (token,))
    return {"id": rows[0][0] if rows else None}


def verify_password(user_id, password):
    rows = execute_query("SELECT hash FROM users WHERE id = ?", (user_id,))
    digest = hashlib.sha256(password.encode()).hexdigest()
    return bool(rows) and rows[0][0] == digest
'''

INVENTORY = '''\
from shop.db import execute_query


def reserve_stock(sku, quantity):
    return execute_query("UPDATE stock SET reserved = reserved + ? WHERE sku = ?", (quantity, sku))


def release_stock(sku, quantity):
    return execute_query("UPDATE stock SET reserved = reserved - ? WHERE sku = ?", (quantity, sku))


def stock_level(sku):
    return execute_query("SELECT level FROM stock WHERE sku = ?", (sku,))
'''

REPORTS = '''\
from shop import db


def daily_sales(day):
    return db.execute_query("SELECT SUM(total) FROM orders WHERE day = ?", (day,))


def top_customers(limit=10):
    return db.execute_query("SELECT user_id FROM orders GROUP BY user_id LIMIT ?", (limit,))


def refund_rate():
    return db.execute_query("SELECT AVG(refunded) FROM payments")
'''

USERS = '''\
from shop.db import execute_query as run_sql


def create_user(email):
    return run_sql("INSERT INTO users (email) VALUES (?)", (email,))


def delete_user(user_id):
    return run_sql("DELETE FROM users WHERE id = ?", (user_id,))
'''

TEST_CHECKOUT = '''\
from shop.checkout import checkout_summary, process_checkout


def test_checkout_summary_counts_items():
    cart = {"items": [{"price": 2.5, "quantity": 2}]}
    assert checkout_summary(cart)["items"] == 1


def test_process_checkout_rejects_bad_token():
    try:
        process_checkout({"items": []}, "garbage")
    except ValueError:
        return
    raise AssertionError("expected ValueError")
'''

TEST_ORDERS = '''\
from shop.orders import calculate_order_total


class TestOrderTotal:
    def test_applies_discount_and_tax(self):
        items = [{"price": 10.0, "quantity": 1}]
        assert calculate_order_total(items, discount=0.5) == 6.0
'''

TEST_AUTH = '''\
from shop.auth import verify_password


def test_unknown_user_has_no_password():
    assert verify_password(12345, "secret") is False
'''

PYPROJECT = '''\
[project]
name = "shop"
version = "0.1.0"

[tool.impactbot]
depth = 3
hub-cap = 10
'''

BASE_FILES = {
    "pyproject.toml": PYPROJECT,
    "shop/__init__.py": "",
    "shop/db.py": DB,
    "shop/orders.py": ORDERS,
    "shop/payments.py": PAYMENTS,
    "shop/checkout.py": CHECKOUT,
    "shop/auth.py": AUTH,
    "shop/inventory.py": INVENTORY,
    "shop/reports.py": REPORTS,
    "shop/users.py": USERS,
    "tests/test_checkout.py": TEST_CHECKOUT,
    "tests/test_orders.py": TEST_ORDERS,
    "tests/test_auth.py": TEST_AUTH,
}


def _commit(repo: pygit2.Repository, files: dict[str, str], message: str, parents: list) -> pygit2.Oid:
    root = Path(repo.workdir)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    repo.index.add_all()
    repo.index.write()
    tree = repo.index.write_tree()
    return repo.create_commit("HEAD", SIGNATURE, SIGNATURE, message, tree, parents)


def build(target: Path) -> None:
    if target.exists() and any(target.iterdir()):
        raise SystemExit(f"{target} exists and is not empty")
    repo = pygit2.init_repository(str(target), initial_head="main")
    base = _commit(repo, BASE_FILES, "shop: orders, payments, checkout, auth, db", [])
    repo.branches.local.create("feature", repo[base])
    repo.checkout("refs/heads/feature")
    _commit(
        repo,
        {"shop/orders.py": ORDERS_FEATURE, "shop/db.py": DB_FEATURE},
        "round order lines; add a query timeout",
        [base],
    )


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: build_demo.py DIR")
    build(Path(sys.argv[1]))
