"""``requests`` edges: a test client's request reaches the handler of each route it matches."""

from __future__ import annotations

import pytest
from helpers.linking import assert_derived_both_ways, facts

from impactbot.impact import SymbolGraph
from impactbot.link import incremental, link

FLASK = """
from flask import Flask

app = Flask(__name__)


@app.route("/orders/<int:order_id>", methods=["GET"])
def show_order(order_id):
    return "order"


@app.post("/orders")
def create_order():
    return "created"


@app.route("/")
def index():
    return "index"
"""

FASTAPI = """
from fastapi import APIRouter

router = APIRouter(prefix="/items")


@router.get("/{item_id}")
async def read_item(item_id: int):
    return {}


@router.delete("/{item_id}")
async def delete_item(item_id: int):
    return {}
"""

VIEWS = """
from django.views import View


def order_detail(request, pk):
    return None


class OrderList(View):
    def get(self, request):
        return None

    def post(self, request):
        return None
"""

URLS = """
from django.urls import path, re_path

from shop import views

urlpatterns = [
    path("orders/<int:pk>/", views.order_detail, name="order-detail"),
    path("orders/", views.OrderList.as_view(), name="orders"),
    re_path(r"^legacy/(?P<pk>[0-9]+)/$", views.order_detail),
]
"""

FLASK_TESTS = """
from flask import url_for


def test_show(client):
    assert client.get("/orders/5").status_code == 200


def test_show_by_endpoint(client):
    client.get(url_for("show_order", order_id=1))


def test_create(client):
    client.post("/orders")


def test_index(client):
    client.get("/")


def test_wrong_method(client):
    client.delete("/orders/5")


def test_not_a_client():
    settings = {}
    settings.get("/orders/5")
"""

FASTAPI_TESTS = """
def test_item(client):
    client.get(f"/api/items/{42}?verbose=1")


def test_delete_item(client):
    client.delete("/items/7")


def test_elsewhere(client):
    client.get("/users/7")
"""

DJANGO_TESTS = """
from django.test import TestCase
from django.urls import reverse


class OrderTests(TestCase):
    def test_detail(self):
        self.client.get(reverse("shop:order-detail", args=[1]))

    def test_list(self):
        self.client.get("/shop/orders/")

    def test_create(self):
        self.client.post("http://testserver/shop/orders/")

    def test_legacy(self):
        self.client.get("/legacy/3/")

    def test_unknown(self):
        self.client.get("/shop/customers/")


class NamedUrlTests(TestCase):
    def setUp(self):
        self.list_url = reverse("orders")

    def test_list(self):
        self.client.get(self.list_url)

    def test_detail(self):
        url = reverse("order-detail", args=[1])
        self.client.get(url)

    def test_legacy(self):
        self.client.get(LEGACY)


LEGACY = "/legacy/5/"
"""

DRF_VIEWS = """
from rest_framework import viewsets
from rest_framework.decorators import action


class ArchiveMixin:
    @action(detail=True, methods=["post"], url_path="archive-now")
    def archive(self, request, pk=None):
        pass


class OrderViewSet(ArchiveMixin, viewsets.ModelViewSet):
    @action(detail=False)
    def recent_orders(self, request):
        pass

    def get_queryset(self):
        return []

    def perform_create(self, serializer):
        serializer.save()

    def retrieve(self, request, pk=None):
        return None


class TagViewSet(viewsets.ReadOnlyModelViewSet):
    pass
"""

DRF_URLS = """
from django.urls import include, path
from rest_framework.routers import DefaultRouter

from api import views

router = DefaultRouter()
router.register("orders", views.OrderViewSet, basename="order")
router.register(r"tags", views.TagViewSet)

urlpatterns = [path("api/", include(router.urls))]
"""

DRF_TESTS = """
from django.urls import reverse
from rest_framework.test import APITestCase


class OrderApiTests(APITestCase):
    def test_list(self):
        self.client.get("/api/orders/")

    def test_create(self):
        self.client.post(reverse("order-list"), {"total": 1}, format="json")

    def test_detail(self):
        self.client.get(reverse("order-detail", args=[1]))

    def test_delete(self):
        self.client.delete("/api/orders/1/")

    def test_tags(self):
        self.client.get("/api/tags/")

    def test_actions(self):
        self.client.get("/api/orders/recent_orders/")
        self.client.post(reverse("order-archive", args=[1]))
        self.client.post("/api/orders/7/archive-now/")
"""

FLASK_FILES = {"web/__init__.py": "", "web/app.py": FLASK, "tests/test_web.py": FLASK_TESTS}
FASTAPI_FILES = {"web/__init__.py": "", "web/api.py": FASTAPI, "tests/test_api.py": FASTAPI_TESTS}
DJANGO_FILES = {"shop/__init__.py": "", "shop/views.py": VIEWS, "shop/urls.py": URLS, "shop/tests.py": DJANGO_TESTS}

DRF_FILES = {"api/__init__.py": "", "api/views.py": DRF_VIEWS, "api/urls.py": DRF_URLS, "api/tests.py": DRF_TESTS}

EXPECTED = {
    "flask": (FLASK_FILES, {
        ("tests/test_web.py::test_show", "web/app.py::show_order"),
        ("tests/test_web.py::test_show_by_endpoint", "web/app.py::show_order"),
        ("tests/test_web.py::test_create", "web/app.py::create_order"),
        ("tests/test_web.py::test_index", "web/app.py::index"),
    }),
    "fastapi": (FASTAPI_FILES, {
        ("tests/test_api.py::test_item", "web/api.py::read_item"),
        ("tests/test_api.py::test_delete_item", "web/api.py::delete_item"),
    }),
    "django": (DJANGO_FILES, {
        ("shop/tests.py::OrderTests::test_detail", "shop/views.py::order_detail"),
        ("shop/tests.py::OrderTests::test_list", "shop/views.py::OrderList::get"),
        ("shop/tests.py::OrderTests::test_create", "shop/views.py::OrderList::post"),
        ("shop/tests.py::OrderTests::test_legacy", "shop/views.py::order_detail"),
        ("shop/tests.py::NamedUrlTests::test_list", "shop/views.py::OrderList::get"),
        ("shop/tests.py::NamedUrlTests::test_detail", "shop/views.py::order_detail"),
        ("shop/tests.py::NamedUrlTests::test_legacy", "shop/views.py::order_detail"),
    }),
    "rest framework viewsets": (DRF_FILES, {
        ("api/tests.py::OrderApiTests::test_list", "api/views.py::OrderViewSet::get_queryset"),
        ("api/tests.py::OrderApiTests::test_create", "api/views.py::OrderViewSet::perform_create"),
        ("api/tests.py::OrderApiTests::test_detail", "api/views.py::OrderViewSet::retrieve"),
        ("api/tests.py::OrderApiTests::test_detail", "api/views.py::OrderViewSet::get_queryset"),
        ("api/tests.py::OrderApiTests::test_delete", "api/views.py::OrderViewSet::get_queryset"),
        ("api/tests.py::OrderApiTests::test_tags", "api/views.py::TagViewSet"),
        ("api/tests.py::OrderApiTests::test_actions", "api/views.py::OrderViewSet::recent_orders"),
        ("api/tests.py::OrderApiTests::test_actions", "api/views.py::ArchiveMixin::archive"),
    }),
}


def _requests(files: dict[str, str]) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in link(facts(files)).edges if e.kind == "requests"}


@pytest.mark.parametrize(("files", "expected"), EXPECTED.values(), ids=EXPECTED.keys())
def test_each_request_reaches_the_handler_of_the_route_it_matches(
    files: dict[str, str], expected: set[tuple[str, str]]
) -> None:
    assert _requests(files) == expected


def test_the_extractor_reads_routes_and_requests_as_written() -> None:
    found = facts({**FLASK_FILES, **FASTAPI_FILES, **DJANGO_FILES, **DRF_FILES})
    assert [(r.pattern, r.handler, r.kind, r.name) for r in found["api/urls.py"].routes] == [
        ("orders", "views.OrderViewSet", "viewset", "order"), ("tags", "views.TagViewSet", "viewset", None),
        ("api/", "router.urls", "mount", None)]
    assert [(r.pattern, r.handler, r.kind, r.methods, r.name) for r in found["shop/urls.py"].routes] == [
        ("orders/<int:pk>/", "views.order_detail", "path", (), "order-detail"),
        ("orders/", "views.OrderList.as_view()", "path", (), "orders"),
        ("^legacy/(?P<pk>[0-9]+)/$", "views.order_detail", "regex", (), None),
    ]
    assert [(r.pattern, r.handler) for r in found["web/api.py"].routes] == [
        ("/items/{item_id}", "read_item"), ("/items/{item_id}", "delete_item")]  # the router's prefix
    assert [(r.pattern, r.handler, r.methods) for r in found["web/app.py"].routes] == [
        ("/orders/<int:order_id>", "show_order", ("GET",)),
        ("/orders", "create_order", ("POST",)),
        ("/", "index", ()),
    ]
    requests = [(r.scope, r.method, r.path, r.name) for f in found.values() for r in f.requests]
    assert ("test_item", "GET", "/api/items/\x00", None) in requests
    assert ("OrderTests::test_detail", "GET", None, "shop:order-detail") in requests
    assert ("OrderTests::test_create", "POST", "/shop/orders/", None) in requests
    assert not [r for r in requests if r[0] == "test_not_a_client"]


def test_a_changed_view_has_the_tests_requesting_it_as_dependents() -> None:
    graph = SymbolGraph(link(facts(DJANGO_FILES)))
    assert {src for src, _ in graph.dependents("shop/views.py::OrderList::get")} == {
        "shop/tests.py::OrderTests::test_list", "shop/tests.py::NamedUrlTests::test_list"}


CHANGES = {
    "a request added": ("tests/test_web.py", "\n\ndef test_more(client):\n    client.get('/orders/9')\n"),
    "a route added": ("web/app.py", "\n\n@app.route('/orders/<int:order_id>/items')\ndef items(order_id):\n    pass\n"),
}


@pytest.mark.parametrize(("target", "added"), CHANGES.values(), ids=CHANGES.keys())
def test_a_derived_graph_has_the_request_edges_of_a_full_link(
    target: str, added: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    assert_derived_both_ways(FLASK_FILES, target, FLASK_FILES[target], FLASK_FILES[target] + added)


def test_a_test_module_defining_its_own_app_requests_its_own_routes() -> None:
    own = "from fastapi import FastAPI\n\napp = FastAPI()\n\n\n@app.get('/items/')\ndef items():\n    return []\n\n\n" \
          "def test_items(client):\n    client.get('/items/')\n"
    other = own.replace("def test_items", "def test_other")
    edges = _requests({"tests/test_one.py": own, "tests/test_two.py": other})
    assert edges == {("tests/test_one.py::test_items", "tests/test_one.py::items"),
                     ("tests/test_two.py::test_other", "tests/test_two.py::items")}


CLI = """
import click


@click.group()
def cli():
    pass


@cli.command()
def build_cmd():
    pass


@cli.command("deploy")
@click.option("--env")
def deploy_app(env):
    pass


@cli.group
def db():
    pass


@db.command()
def migrate():
    pass
"""

CLI_TESTS = """
from click.testing import CliRunner

from app.cli import cli


def test_build():
    runner = CliRunner()
    runner.invoke(cli, ["build"])


def test_deploy():
    CliRunner().invoke(cli, "deploy --env prod")


def test_migrate():
    CliRunner().invoke(cli, args=["db", "migrate", "--fake"])


def test_own_command():
    @click.command()
    def build():
        pass

    CliRunner().invoke(build, ["build"])
"""


def test_a_cli_runner_invokes_the_commands_it_names() -> None:
    graph = link(facts({"app/__init__.py": "", "app/cli.py": CLI, "tests/test_cli.py": CLI_TESTS}))
    edges = {(e.source, e.target, e.kind) for e in graph.edges if e.source.startswith("tests/")}
    t = "tests/test_cli.py::"
    assert edges == {
        (t + "test_build", "app/cli.py::cli", "calls"), (t + "test_build", "app/cli.py::build_cmd", "requests"),
        (t + "test_deploy", "app/cli.py::cli", "calls"), (t + "test_deploy", "app/cli.py::deploy_app", "requests"),
        (t + "test_migrate", "app/cli.py::cli", "calls"), (t + "test_migrate", "app/cli.py::db", "requests"),
        (t + "test_migrate", "app/cli.py::migrate", "requests"),
        # a command the test defines itself is the one its runner invokes
        (t + "test_own_command", t + "test_own_command::build", "calls"),
        (t + "test_own_command", t + "test_own_command::build", "requests"),
    }


def test_call_command_runs_the_management_command_of_that_name() -> None:
    command = "from django.core.management.base import BaseCommand\n\n\nclass Command(BaseCommand):\n" \
              "    def handle(self, *args, **options):\n        pass\n"
    tests = "from django.core.management import call_command\n\n\ndef test_import():\n" \
            "    call_command('import_data', '--dry-run')\n\n\ndef test_other():\n    call_command('migrate')\n"
    files = {
        "shop/__init__.py": "", "shop/management/commands/import_data.py": command,
        "shop/management/commands/_helpers.py": command, "shop/tests/test_commands.py": tests,
    }
    assert _requests(files) == {
        ("shop/tests/test_commands.py::test_import", "shop/management/commands/import_data.py::Command::handle")}


DEPS = """
def get_db():
    yield 1


def get_user(db=Depends(get_db)):
    return "u"
"""

ENDPOINTS = """
from typing import Annotated

from fastapi import Depends, FastAPI, Security

from app.deps import get_db, get_user

app = FastAPI()


@app.get("/items/{item_id}")
def read_item(item_id: int, db=Depends(get_db), user: Annotated[str, Depends(get_user)] = None):
    return item_id


@app.get("/me")
async def me(user=Security(get_user, scopes=["me"])):
    return user
"""


def test_a_path_operation_calls_its_dependencies() -> None:
    deps = "from fastapi import Depends\n" + DEPS
    graph = link(facts({"app/__init__.py": "", "app/deps.py": deps, "app/main.py": ENDPOINTS}))
    calls = {(e.source, e.target) for e in graph.edges if e.kind == "calls"}
    assert {("app/main.py::read_item", "app/deps.py::get_db"), ("app/main.py::read_item", "app/deps.py::get_user"),
            ("app/main.py::me", "app/deps.py::get_user"), ("app/deps.py::get_user", "app/deps.py::get_db")} <= calls
    assert not {c for c in calls if c[0] == "app/main.py" and c[1].startswith("app/deps.py")}
    # FastAPI passes a dependency its own arguments: no call is kept for signature checks
    assert not [c for c in graph.calls if c.target.startswith("app/deps.py")]


def test_every_request_runs_the_middleware_and_the_request_hooks() -> None:
    settings = "MIDDLEWARE = [\n    'django.middleware.security.SecurityMiddleware',\n" \
               "    'proj.middleware.TimingMiddleware',\n]\n"
    middleware = "class TimingMiddleware:\n    def __init__(self, get_response):\n        self.r = get_response\n\n" \
                 "    def __call__(self, request):\n        return self.r(request)\n\n" \
                 "    def helper(self):\n        pass\n"
    hooks = FLASK + "\n\n@app.before_request\ndef load_user():\n    pass\n\n\n@app.errorhandler(404)\n" \
                    "def not_found(e):\n    return 'nf'\n"
    files = {**FLASK_FILES, "web/app.py": hooks, "proj/__init__.py": "", "proj/settings.py": settings,
             "proj/middleware.py": middleware}
    edges = _requests(files)
    every = {"proj/middleware.py::TimingMiddleware::__call__", "web/app.py::load_user", "web/app.py::not_found"}
    # the hooks of the app module run for the requests matching its routes, the middleware
    # of the settings (a file declaring no route) for every request
    requesting = {"tests/test_web.py::" + t for t in ("test_show", "test_show_by_endpoint", "test_create",
                                                      "test_index")}
    assert {(t, h) for t in requesting for h in every} <= edges
    assert {h for t, h in edges if t == "tests/test_web.py::test_wrong_method"} == {
        "proj/middleware.py::TimingMiddleware::__call__"}
    assert not {e for e in edges if e[0] == "tests/test_web.py::test_not_a_client"}
    assert ("tests/test_web.py::test_show", "proj/middleware.py::TimingMiddleware::helper") not in edges


def test_a_hook_a_test_declares_runs_for_that_tests_requests_only() -> None:
    tests = "from flask import Flask\n\n\ndef test_hooked(client):\n    app = Flask(__name__)\n\n" \
            "    @app.before_request\n    def check():\n        pass\n\n    client.get('/orders/1')\n\n\n" \
            "def test_plain(client):\n    client.get('/orders/2')\n"
    edges = _requests({**FLASK_FILES, "tests/test_hooks.py": tests})
    assert ("tests/test_hooks.py::test_hooked", "tests/test_hooks.py::test_hooked::check") in edges
    assert not {e for e in edges if e[0] == "tests/test_hooks.py::test_plain" and e[1].endswith("::check")}


def test_a_test_client_bound_to_any_name_makes_requests() -> None:
    tests = "from fastapi.testclient import TestClient\n\nfrom web.api import app\n\ntc = TestClient(app)\n\n\n" \
            "def test_item():\n    tc.get('/items/3')\n"
    edges = _requests({**FASTAPI_FILES, "tests/test_api.py": tests})
    assert ("tests/test_api.py::test_item", "web/api.py::read_item") in edges
    tests = "from rest_framework.test import APIClient\n\n\ndef test_item():\n    api = APIClient()\n" \
            "    api.get('/items/3')\n"
    edges = _requests({**FASTAPI_FILES, "tests/test_api.py": tests})
    assert ("tests/test_api.py::test_item", "web/api.py::read_item") in edges


def test_a_namespaced_name_is_reversed_in_the_urlconf_of_that_app_name() -> None:
    urls = URLS.replace("urlpatterns = [", "app_name = 'shop'\n\nurlpatterns = [")
    blog_urls = "from django.urls import path\n\nfrom blog import views\n\nurlpatterns = [\n" \
                "    path('', views.index, name='index'),\n" \
                "    path('posts/<int:pk>/', views.post, name='order-detail'),\n]\n"
    blog_views = "def index(request):\n    pass\n\n\ndef post(request, pk):\n    pass\n"
    tests = "from django.urls import reverse\n\n\n" \
            "def test_shop(client):\n    client.get(reverse('shop:order-detail'))\n\n\n" \
            "def test_admin(client):\n    client.get(reverse('admin:index'))\n\n\n" \
            "def test_plain(client):\n    client.get(reverse('order-detail'))\n"
    files = {**DJANGO_FILES, "shop/urls.py": urls, "blog/__init__.py": "", "blog/urls.py": blog_urls,
             "blog/views.py": blog_views, "shop/test_names.py": tests}
    edges = {e for e in _requests(files) if e[0].startswith("shop/test_names.py")}
    assert edges == {("shop/test_names.py::test_shop", "shop/views.py::order_detail"),
                     ("shop/test_names.py::test_plain", "blog/views.py::post")}


ROOT_URLS = """
from django.urls import include, path, re_path

from shop import urls as shop_urls
from shop import views as shop_views

urlpatterns = [
    path("shop/", include("shop.urls")),
    path("blog/", include(("blog.urls", "blog"))),
    re_path(r"^api/v1/", include("api.urls")),
    path("again/", include(shop_urls)),
    path("inline/", include([path("one/", shop_views.index), path("<int:pk>/", shop_views.detail)])),
]
"""

APP_URLS = """
from django.urls import path

from {app} import views

urlpatterns = [
    path("", views.index, name="index"),
    path("<{converter}>/", views.detail, name="detail"),
]
"""

APP_VIEWS = "def index(request):\n    pass\n\n\ndef detail(request, key):\n    pass\n"

ROUTER_URLS = """
from django.urls import include, path
from rest_framework.routers import DefaultRouter

from api import views

router = DefaultRouter()
router.register("orders", views.OrderViewSet, basename="order")
urlpatterns = [path("", include(router.urls))]
"""

ROUTER_VIEWS = """
from rest_framework import viewsets


class OrderViewSet(viewsets.ModelViewSet):
    def list(self, request):
        pass

    def retrieve(self, request, pk=None):
        pass
"""

MOUNTED_TESTS = """
from django.urls import reverse


def test_shop_index(client):
    client.get("/shop/")


def test_shop_detail(client):
    client.get("/shop/5/")


def test_again(client):
    client.get("/again/5/")


def test_inline(client):
    client.get("/inline/one/")
    client.get("/inline/7/")


def test_blog(client):
    client.get("/blog/hello-world/")


def test_blog_by_name(client):
    client.get(reverse("blog:index"))


def test_api(client):
    client.get("/api/v1/orders/")
    client.get("/api/v1/orders/3/")


def test_root(client):
    client.get("/")


def test_unknown(client):
    client.get("/elsewhere/5/")
"""

MOUNTED_DJANGO = {
    "proj/__init__.py": "", "proj/urls.py": ROOT_URLS,
    "shop/__init__.py": "", "shop/urls.py": APP_URLS.format(app="shop", converter="int:pk"), "shop/views.py": APP_VIEWS,
    "blog/__init__.py": "", "blog/urls.py": APP_URLS.format(app="blog", converter="slug:slug"),
    "blog/views.py": APP_VIEWS,
    "api/__init__.py": "", "api/urls.py": ROUTER_URLS, "api/views.py": ROUTER_VIEWS,
    "tests/test_web.py": MOUNTED_TESTS,
}


def test_an_included_urlconf_serves_its_routes_under_the_prefix_of_each_include() -> None:
    t = "tests/test_web.py::"
    assert _requests(MOUNTED_DJANGO) == {
        (t + "test_shop_index", "shop/views.py::index"),  # `""` under `shop/`, not the site's root
        (t + "test_shop_detail", "shop/views.py::detail"),  # a pattern of parameters alone, mounted
        (t + "test_again", "shop/views.py::detail"),  # the same URLconf included by its module
        (t + "test_inline", "shop/views.py::index"), (t + "test_inline", "shop/views.py::detail"),
        (t + "test_blog", "blog/views.py::detail"),
        (t + "test_blog_by_name", "blog/views.py::index"),  # `include(("blog.urls", "blog"))`'s namespace
        (t + "test_api", "api/views.py::OrderViewSet::list"),  # a regex prefix over a router's URLs
        (t + "test_api", "api/views.py::OrderViewSet::retrieve"),
    }


def test_the_extractor_reads_what_each_include_mounts() -> None:
    found = facts(MOUNTED_DJANGO)
    assert [(r.pattern, r.handler, r.kind, r.name, r.owner) for r in found["proj/urls.py"].routes] == [
        ("shop/", "module:shop.urls", "mount", None, "urlpatterns"),
        ("blog/", "module:blog.urls", "mount", "blog", "urlpatterns"),
        ("^api/v1/", "module:api.urls", "mount-regex", None, "urlpatterns"),
        ("again/", "shop_urls", "mount", None, "urlpatterns"),
        ("<int:pk>/", "shop_views.detail", "path", None, "<inline:12:20>"),
        ("inline/", "<inline:12:20>", "mount", None, "urlpatterns"),
        ("one/", "shop_views.index", "path", None, "<inline:12:20>"),
    ]
    assert [(r.kind, r.owner) for r in found["api/urls.py"].routes] == [("viewset", "router"), ("mount", "urlpatterns")]


FASTAPI_MAIN = """
from fastapi import FastAPI

from app.routers import items, users

app = FastAPI()
app.include_router(items.router, prefix="/items")
app.include_router(users.router, prefix="/v1", tags=["users"])


@app.get("/")
def root():
    pass
"""

FASTAPI_ITEMS = """
from fastapi import APIRouter

router = APIRouter()


@router.get("/")
def list_items():
    pass


@router.get("/{item_id}")
def get_item(item_id: int):
    pass
"""

FASTAPI_USERS = """
from fastapi import APIRouter

router = APIRouter(prefix="/users")


@router.get("/{user_id}")
def get_user(user_id: int):
    pass
"""

FLASK_FACTORY = """
from flask import Flask

from app.admin import bp


def create_app():
    app = Flask(__name__)
    app.register_blueprint(bp, url_prefix="/admin")
    return app
"""

FLASK_ADMIN = """
from flask import Blueprint

bp = Blueprint("admin", __name__)


@bp.route("/")
def dashboard():
    pass


@bp.route("/<int:user_id>")
def user(user_id):
    pass
"""

ROUTER_TESTS = """
def test_items(client):
    client.get("/items/")
    client.get("/items/4")


def test_users(client):
    client.get("/v1/users/4")


def test_root(client):
    client.get("/")


def test_admin(client):
    client.get("/admin/")
    client.get("/admin/3")
"""

MOUNTED_ROUTERS = {
    "app/__init__.py": "", "app/main.py": FASTAPI_MAIN, "app/routers/__init__.py": "",
    "app/routers/items.py": FASTAPI_ITEMS, "app/routers/users.py": FASTAPI_USERS,
    "app/factory.py": FLASK_FACTORY, "app/admin.py": FLASK_ADMIN, "tests/test_app.py": ROUTER_TESTS,
}


def test_routers_and_blueprints_serve_their_routes_under_the_prefix_they_are_mounted_with() -> None:
    t = "tests/test_app.py::"
    assert _requests(MOUNTED_ROUTERS) == {
        (t + "test_items", "app/routers/items.py::list_items"), (t + "test_items", "app/routers/items.py::get_item"),
        (t + "test_users", "app/routers/users.py::get_user"),  # the mount's prefix, then the router's own
        (t + "test_root", "app/main.py::root"),
        (t + "test_admin", "app/admin.py::dashboard"), (t + "test_admin", "app/admin.py::user"),
    }


MOUNT_CHANGES = {
    "an include added": ("proj/urls.py", '    path("more/", include("blog.urls")),\n]\n'),
    "a prefix changed": ("proj/urls.py", None),
}


@pytest.mark.parametrize(("target", "added"), MOUNT_CHANGES.values(), ids=MOUNT_CHANGES.keys())
def test_a_derived_graph_follows_changed_mounts(target: str, added: str | None,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    before = MOUNTED_DJANGO[target]
    after = before.replace("]\n", added, 1) if added else before.replace('"shop/"', '"elsewhere/"')
    assert after != before
    assert_derived_both_ways(MOUNTED_DJANGO, target, before, after)


AIOHTTP_APP = """
from aiohttp import web

from shop import views

routes = web.RouteTableDef()


@routes.get("/health")
async def health(request):
    pass


def create_app():
    app = web.Application()
    app.router.add_get("/orders/{id}", views.order, name="order")
    app.router.add_route("POST", "/orders", views.create)
    app.router.add_view("/things", views.ThingView)
    app.add_routes([web.get("/items", views.items), web.post("/items", views.create_item)])
    app.add_routes(routes)
    admin = web.Application()
    admin.router.add_get("/stats", views.stats)
    app.add_subapp("/admin/", admin)
    return app
"""

STARLETTE_APP = """
from starlette.applications import Starlette
from starlette.routing import Mount, Route

from shop import views

api = [Route("/users/{id:int}", views.user, methods=["GET"])]
app = Starlette(routes=[
    Route("/", views.home),
    Mount("/api", routes=api),
    Mount("/v2", routes=[Route("/orders/{id}", views.order)]),
])
"""

REGISTERED_VIEWS = """
from aiohttp import web


async def user(request):
    pass


async def order(request):
    pass


async def create(request):
    pass


async def items(request):
    pass


async def create_item(request):
    pass


async def stats(request):
    pass


async def home(request):
    pass


class ThingView(web.View):
    async def get(self):
        pass

    async def post(self):
        pass
"""

REGISTERED_TESTS = """
async def test_aiohttp(client):
    await client.get("/orders/1")
    await client.post("/orders")
    await client.get("/things")
    await client.post("/items")
    await client.get("/health")
    await client.get("/admin/stats")


def test_starlette(client):
    client.get("/api/users/3")
    client.get("/v2/orders/3")


def test_stats_elsewhere(client):
    client.get("/stats")
"""


def test_routes_registered_by_calls_reach_their_handlers_under_their_mounts() -> None:
    files = {"shop/__init__.py": "", "shop/views.py": REGISTERED_VIEWS, "shop/aio.py": AIOHTTP_APP,
             "shop/star.py": STARLETTE_APP, "tests/test_apps.py": REGISTERED_TESTS}
    t, v = "tests/test_apps.py::", "shop/views.py::"
    assert _requests(files) == {
        # aiohttp: add_get/add_route/add_view in an app factory, web.post in add_routes, a
        # RouteTableDef added to the app, a sub-application under /admin/
        (t + "test_aiohttp", v + "order"), (t + "test_aiohttp", v + "create"),
        (t + "test_aiohttp", v + "ThingView::get"), (t + "test_aiohttp", v + "create_item"),
        (t + "test_aiohttp", "shop/aio.py::health"), (t + "test_aiohttp", v + "stats"),
        # Starlette: Route objects, Mount of a list by name and of one written inline
        (t + "test_starlette", v + "user"), (t + "test_starlette", v + "order"),
    }
    routes = facts(files)["shop/aio.py"].routes
    assert [(r.pattern, r.handler, r.kind, r.methods, r.owner) for r in routes if r.scope] == [
        ("/orders/{id}", "views.order", "path", ("GET",), "app"),
        ("/orders", "views.create", "path", ("POST",), "app"),
        ("/things", "views.ThingView", "path", (), "app"),
        ("/items", "views.items", "path", ("GET",), "app"), ("/items", "views.create_item", "path", ("POST",), "app"),
        ("", "routes", "mount", (), "app"),
        ("/stats", "views.stats", "path", ("GET",), "admin"),
        ("/admin/", "admin", "mount", (), "app"),
    ]


def test_an_app_factorys_hooks_run_for_the_requests_to_its_routes() -> None:
    factory = ("from flask import Flask\n\n\ndef create_app():\n    app = Flask(__name__)\n\n"
               "    @app.before_request\n    def load_user():\n        pass\n\n"
               "    @app.route('/orders')\n    def orders():\n        pass\n\n    return app\n")
    tests = "def test_orders(client):\n    client.get('/orders')\n"
    assert _requests({"web/__init__.py": "", "web/app.py": factory, "tests/test_web.py": tests}) == {
        ("tests/test_web.py::test_orders", "web/app.py::create_app::orders"),
        ("tests/test_web.py::test_orders", "web/app.py::create_app::load_user"),
    }


FIXTURE_APP = """
import pytest
from aiohttp import web


@pytest.fixture
def app():
    async def handler(request):
        pass

    @web.middleware
    async def timing(request, handler):
        pass

    application = web.Application()
    application.router.add_get("/", handler)
    return application


async def test_root(client):
    await client.get("/")
"""


def test_a_fixtures_app_serves_the_requests_of_its_own_module_only() -> None:
    other = "async def test_elsewhere(client):\n    await client.get('/')\n"
    edges = _requests({"tests/test_app.py": FIXTURE_APP, "tests/test_other.py": other})
    assert edges == {("tests/test_app.py::test_root", "tests/test_app.py::app::handler"),
                     ("tests/test_app.py::test_root", "tests/test_app.py::app::timing")}  # its middleware


BLUEPRINTS = """
from flask import Blueprint, Flask

auth = Blueprint("auth", __name__, url_prefix="/auth")
shop = Blueprint("shop", __name__, url_prefix="/shop")


@auth.route("/login")
def login():
    pass


@shop.route("/cart")
def cart():
    pass


def create_app():
    app = Flask(__name__)
    app.register_blueprint(auth)
    app.register_blueprint(shop, url_prefix="/store")
    return app
"""

BLUEPRINT_TESTS = """
def test_login(client):
    client.get("/auth/login")


def test_cart(client):
    client.get("/store/cart")


def test_old_cart(client):
    client.get("/shop/cart")
"""


def test_a_blueprint_is_served_under_its_own_prefix_unless_registered_under_another() -> None:
    edges = _requests({"web/__init__.py": "", "web/app.py": BLUEPRINTS, "tests/test_bp.py": BLUEPRINT_TESTS})
    assert edges == {("tests/test_bp.py::test_login", "web/app.py::login"),
                     ("tests/test_bp.py::test_cart", "web/app.py::cart")}  # url_prefix= replaces /shop


def test_a_client_flask_hands_out_is_one_whatever_its_name() -> None:
    tests = ("from web.app import app\n\n\ndef test_with():\n    with app.test_client() as c:\n"
             "        c.get('/orders/5')\n\n\ndef test_assigned():\n    tc = app.test_client()\n"
             "    tc.post('/orders')\n")
    assert _requests({**FLASK_FILES, "tests/test_web.py": tests}) == {
        ("tests/test_web.py::test_with", "web/app.py::show_order"),  # `with app.test_client() as c`
        ("tests/test_web.py::test_assigned", "web/app.py::create_order"),  # `tc = app.test_client()`
    }
