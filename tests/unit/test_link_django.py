"""Django's ORM: a model's manager and querysets give its instances, and a relation
field read through an instance gives the related model (or a queryset of it)."""

from __future__ import annotations

import pytest
from helpers.linking import assert_derived_both_ways, facts

from impactbot.link import incremental, link

MODELS = """
from django.db import models


class Customer(models.Model):
    name = models.CharField(max_length=10)

    def greet(self):
        return "hi " + self.name

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)


class TimeStamped(models.Model):
    class Meta:
        abstract = True

    def touch(self):
        pass


class Item(TimeStamped):
    def price(self):
        return 1


class Order(TimeStamped):
    customer = models.ForeignKey(Customer, on_delete=models.CASCADE)
    referrer = models.ForeignKey("shop.Customer", null=True, on_delete=models.SET_NULL)
    parent = models.ForeignKey("self", null=True, on_delete=models.CASCADE)
    items = models.ManyToManyField(Item)

    def mark_paid(self):
        self.save()

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
"""

VIEWS = """
from shop.models import Customer, Order


def pay(order_id):
    order = Order.objects.get(pk=order_id)
    order.mark_paid()


def unpaid():
    for order in Order.objects.filter(paid=False).exclude(total=0).order_by("id")[:10]:
        order.save()


def greet_buyer(order):
    order = Order.objects.select_related("customer").first()
    order.customer.greet()
    order.referrer.save()
    order.parent.mark_paid()


def prices():
    return [item.price() for item in Order.objects.last().items.all()]


def ensure(name):
    customer, created = Customer.objects.get_or_create(name=name)
    customer.save()
    Customer._default_manager.create(name=name).greet()
    Order.objects.latest("id").touch()
"""

CALLS = {
    "get()": ("shop/views.py::pay", "shop/models.py::Order::mark_paid"),
    "filter() chained and sliced, iterated": ("shop/views.py::unpaid", "shop/models.py::Order::save"),
    "a ForeignKey to a class": ("shop/views.py::greet_buyer", "shop/models.py::Customer::greet"),
    "a ForeignKey named by a string": ("shop/views.py::greet_buyer", "shop/models.py::Customer::save"),
    "a ForeignKey to 'self'": ("shop/views.py::greet_buyer", "shop/models.py::Order::mark_paid"),
    "a ManyToManyField's queryset": ("shop/views.py::prices", "shop/models.py::Item::price"),
    "get_or_create()'s instance": ("shop/views.py::ensure", "shop/models.py::Customer::save"),
    "_default_manager.create()": ("shop/views.py::ensure", "shop/models.py::Customer::greet"),
    "a method of an abstract base": ("shop/views.py::ensure", "shop/models.py::TimeStamped::touch"),
}

FILES = {"shop/__init__.py": "", "shop/models.py": MODELS, "shop/views.py": VIEWS}


def _calls(files: dict[str, str]) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in link(facts(files)).edges if e.kind == "calls"}


@pytest.mark.parametrize("edge", CALLS.values(), ids=CALLS.keys())
def test_what_the_orm_gives_is_an_instance_of_the_model(edge: tuple[str, str]) -> None:
    assert edge in _calls(FILES)


def test_only_what_the_calls_give_is_linked() -> None:
    calls = _calls(FILES)
    # what each call gives is an instance of its own model, not of every model
    assert ("shop/views.py::greet_buyer", "shop/models.py::Order::save") not in calls
    assert ("shop/views.py::pay", "shop/models.py::Customer::greet") not in calls
    assert ("shop/views.py::prices", "shop/models.py::Order::save") not in calls


def test_creating_through_the_manager_saves_a_new_instance() -> None:
    views = """
from shop.models import Customer, Item, Order


def sign_up(name):
    return Customer.objects.create(name=name)


def restock():
    Item.objects.update_or_create(pk=1)


def count():
    Order.objects.bulk_create([])
    return Order.objects.count()
"""
    graph = link(facts({**FILES, "shop/views.py": views}))
    calls = {(e.source, e.target): e.confidence for e in graph.edges if e.kind == "calls"}
    assert calls[("shop/views.py::sign_up", "shop/models.py::Customer")] == "inferred"
    assert calls[("shop/views.py::sign_up", "shop/models.py::Customer::save")] == "inferred"
    assert ("shop/views.py::restock", "shop/models.py::Item") in calls  # Item saves with Django's save
    assert not {target for source, target in calls if source == "shop/views.py::count"}  # bulk_create saves none
    # Django passes the keywords on: the call is not checked against a signature
    assert not [c for c in graph.calls if c.caller == "shop/views.py::sign_up"]


def test_a_class_that_is_no_model_gets_no_manager() -> None:
    files = {
        "shop/__init__.py": "",
        "shop/models.py": "class Plain:\n    def save(self):\n        pass\n",
        "shop/views.py": "from shop.models import Plain\n\ndef f():\n    Plain.objects.get().save()\n",
    }
    assert not {c for c in _calls(files) if c[1] == "shop/models.py::Plain::save"}


def test_a_derived_graph_follows_a_relation_field_given_another_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    other = MODELS.replace("models.ForeignKey(Customer,", "models.ForeignKey(Item,")
    assert_derived_both_ways(FILES, "shop/models.py", MODELS, other)


MANAGED = """
from django.db import models


class OrderQuerySet(models.QuerySet):
    def paid(self):
        return self.filter(paid=True)


class OrderManager(models.Manager):
    def get_queryset(self):
        return OrderQuerySet(self.model, using=self._db)

    def recent(self):
        return self.get_queryset().order_by("-id")


class Order(models.Model):
    objects = OrderManager()

    def ship(self):
        pass


class Invoice(models.Model):
    objects = OrderQuerySet.as_manager()

    def send(self):
        pass


class Refund(models.Model):
    objects = OrderManager.from_queryset(OrderQuerySet)()

    def ship(self):
        pass
"""

MANAGED_USES = """
from shop.models import Invoice, Order, Refund


def ship_paid():
    for order in Order.objects.paid():
        order.ship()
    Order.objects.recent().first().ship()


def send_paid():
    Invoice.objects.paid().last().send()


def refund():
    Refund.objects.recent().get(pk=1).ship()
    Refund.objects.paid()
"""


def test_a_models_own_manager_and_queryset_methods_keep_the_model() -> None:
    calls = _calls({"shop/__init__.py": "", "shop/models.py": MANAGED, "shop/uses.py": MANAGED_USES})
    assert {
        ("shop/uses.py::ship_paid", "shop/models.py::OrderQuerySet::paid"),
        ("shop/uses.py::ship_paid", "shop/models.py::OrderManager::recent"),
        ("shop/uses.py::ship_paid", "shop/models.py::Order::ship"),
        ("shop/uses.py::send_paid", "shop/models.py::OrderQuerySet::paid"),
        ("shop/uses.py::send_paid", "shop/models.py::Invoice::send"),
        ("shop/uses.py::refund", "shop/models.py::OrderManager::recent"),
        ("shop/uses.py::refund", "shop/models.py::Refund::ship"),
        ("shop/uses.py::refund", "shop/models.py::OrderQuerySet::paid"),
    } <= calls
    assert ("shop/uses.py::ship_paid", "shop/models.py::Refund::ship") not in calls
    assert ("shop/uses.py::send_paid", "shop/models.py::OrderManager::recent") not in calls


RELATED = """
from django.db import models


class AbstractCustomer(models.Model):
    class Meta:
        abstract = True

    def order_totals(self):
        return [o.total() for o in self.orders.all()]


class Customer(AbstractCustomer):
    def greet(self):
        pass


class Profile(models.Model):
    customer = models.OneToOneField(Customer, on_delete=models.CASCADE)

    def avatar(self):
        pass


class Order(models.Model):
    customer = models.ForeignKey(Customer, related_name="orders", on_delete=models.CASCADE)
    buyer = models.ForeignKey("Customer", related_name="+", on_delete=models.CASCADE)

    def total(self):
        pass


class Note(models.Model):
    customer = models.ForeignKey(Customer, on_delete=models.CASCADE)

    def text(self):
        pass
"""

RELATED_USES = """
from shop.models import Customer


def summary(customer_id):
    customer = Customer.objects.get(pk=customer_id)
    for order in customer.orders.filter(paid=True):
        order.total()
    customer.note_set.first().text()
    customer.profile.avatar()
"""


def test_a_relation_is_read_back_from_the_model_it_points_to() -> None:
    calls = _calls({"shop/__init__.py": "", "shop/models.py": RELATED, "shop/uses.py": RELATED_USES})
    assert {("shop/uses.py::summary", "shop/models.py::Order::total"),
            ("shop/uses.py::summary", "shop/models.py::Note::text"),
            ("shop/uses.py::summary", "shop/models.py::Profile::avatar"),
            # an abstract model's code reads what its concrete subclass gets
            ("shop/models.py::AbstractCustomer::order_totals", "shop/models.py::Order::total")} <= calls


def test_a_derived_graph_follows_a_related_name_changed_in_another_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    renamed = RELATED.replace('related_name="orders"', 'related_name="purchases"')
    files = {"shop/__init__.py": "", "shop/uses.py": RELATED_USES}
    assert_derived_both_ways(files, "shop/models.py", RELATED, renamed)


def test_a_derived_graph_follows_a_manager_changed_in_another_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    before = "    objects = OrderManager()\n\n    def ship"
    other = MANAGED.replace(before, "    objects = OrderQuerySet.as_manager()\n\n    def ship")
    assert other != MANAGED
    files = {"shop/__init__.py": "", "shop/uses.py": MANAGED_USES}
    assert_derived_both_ways(files, "shop/models.py", MANAGED, other)


LOOKUPS_MODELS = """
from django.db import models


class Order(models.Model):
    def pay(self):
        pass


class Invoice(models.Model):
    def send(self):
        pass
"""

BLOG_MODELS = """
from django.db import models


class Order(models.Model):
    def publish(self):
        pass
"""

LOOKUPS = """
from django.apps import apps
from django.shortcuts import get_object_or_404
from oscar.core.loading import get_model

Order = get_model("shop", "Order")


def pay(pk):
    Order.objects.get(pk=pk).pay()


def publish():
    model = apps.get_model("blog.Order")
    model().publish()


def send(pk):
    invoice = get_object_or_404(apps.get_model("shop", "Invoice"), pk=pk)
    invoice.send()
    again = get_object_or_404(Order.objects.filter(paid=False), pk=pk)
    again.pay()
"""

LOOKUP_FILES = {"shop/__init__.py": "", "shop/models.py": LOOKUPS_MODELS, "blog/__init__.py": "",
                "blog/models.py": BLOG_MODELS, "shop/views.py": LOOKUPS}


def test_models_looked_up_by_name_and_fetched_by_shortcuts_are_the_repositorys() -> None:
    edges = {(e.source, e.target) for e in link(facts(LOOKUP_FILES)).edges if e.kind == "calls"}
    v = "shop/views.py::"
    assert {
        (v + "pay", "shop/models.py::Order::pay"),  # get_model("shop", "Order"): the shop app's
        (v + "publish", "blog/models.py::Order::publish"),  # "blog.Order"
        (v + "send", "shop/models.py::Invoice::send"),  # get_object_or_404(Model, ...): one row
        (v + "send", "shop/models.py::Order::pay"),  # ... or of a queryset
    } <= edges
    assert (v + "pay", "blog/models.py::Order::publish") not in edges


def test_a_derived_graph_follows_a_model_looked_up_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    after = LOOKUPS_MODELS.replace("class Invoice(models.Model):", "class Invoice:")
    assert_derived_both_ways(LOOKUP_FILES, "shop/models.py", LOOKUPS_MODELS, after)


GENERIC_VIEWS = """
from django.views.generic import DetailView
from rest_framework import generics

from shop.models import Invoice, Order


class OrderDetail(DetailView):
    model = Order

    def get_context_data(self, **kwargs):
        self.get_object().pay()


class UnpaidOrders(generics.ListAPIView):
    queryset = Order.objects.filter(paid=False)

    def summary(self):
        for order in self.get_queryset():
            order.pay()


class OrderEdit(DetailView):
    model = Order

    def get_success_url(self):
        return self.object.pay()

    def summary(self):
        for order in self.object_list:
            order.pay()


class OwnObject(DetailView):
    model = Order

    def get_object(self):
        return Invoice()

    def render(self):
        self.get_object().send()
"""


def test_a_generic_views_object_and_queryset_are_of_the_model_it_names() -> None:
    files = {**LOOKUP_FILES, "shop/generic.py": GENERIC_VIEWS}
    edges = {(e.source, e.target) for e in link(facts(files)).edges if e.kind == "calls"}
    g = "shop/generic.py::"
    assert {(g + "OrderDetail::get_context_data", "shop/models.py::Order::pay"),
            (g + "UnpaidOrders::summary", "shop/models.py::Order::pay"),
            (g + "OwnObject::render", "shop/models.py::Invoice::send"),
            (g + "OrderEdit::get_success_url", "shop/models.py::Order::pay"),  # self.object
            (g + "OrderEdit::summary", "shop/models.py::Order::pay")} <= edges  # self.object_list
    assert (g + "OwnObject::render", "shop/models.py::Order::pay") not in edges  # its own get_object


FORMS = """
from django import forms
from django.db import models
from rest_framework import serializers


class SignupForm(forms.Form):
    def clean_email(self):
        return self.cleaned_data["email"]

    def clean(self):
        pass

    def helper(self):
        pass


class OrderSerializer(serializers.ModelSerializer):
    def validate_total(self, value):
        return value

    def create(self, validated_data):
        pass


class Ticket(models.Model):
    def update(self, **fields):
        pass


class OwnForm(forms.Form):
    def is_valid(self):
        return True

    def clean(self):
        pass
"""

FORM_VIEWS = """
from shop.forms import OrderSerializer, OwnForm, SignupForm, Ticket


def signup(request):
    form = SignupForm(request.POST)
    return form.is_valid()


def order(data):
    serializer = OrderSerializer(data=data)
    serializer.is_valid(raise_exception=True)
    serializer.save()


def ticket():
    Ticket().save()


def own():
    OwnForm().is_valid()
"""


def test_a_framework_method_runs_the_hooks_the_repositorys_subclass_defines() -> None:
    files = {"shop/__init__.py": "", "shop/forms.py": FORMS, "shop/views.py": FORM_VIEWS}
    edges = {(e.source, e.target) for e in link(facts(files)).edges if e.kind == "calls"}
    v, f = "shop/views.py::", "shop/forms.py::"
    assert {t for s, t in edges if s == v + "signup"} >= {f + "SignupForm::clean_email", f + "SignupForm::clean"}
    assert f + "SignupForm::helper" not in {t for s, t in edges if s == v + "signup"}
    assert {t for s, t in edges if s == v + "order"} >= {f + "OrderSerializer::validate_total",
                                                         f + "OrderSerializer::create"}
    assert f + "Ticket::update" not in {t for s, t in edges if s == v + "ticket"}  # a model's save()
    assert f + "OwnForm::clean" not in {t for s, t in edges if s == v + "own"}  # its own is_valid runs


OWN_BASE = """
class ModelBase(type):
    pass


class Model(metaclass=ModelBase):
    def save(self):
        pass
"""

OWN_QUERYSET = """
class QuerySet:
    def create(self, **kwargs):
        return self.model(**kwargs)

    def filter(self, *args, **kwargs):
        return self._chain()

    def _chain(self):
        return self.__class__()

    def first(self):
        pass
"""


def test_in_djangos_own_source_a_models_objects_hands_on_the_querysets_methods() -> None:
    # the manager class is made at run time from QuerySet's methods, and ModelBase adds it
    files = {
        "django/__init__.py": "", "django/db/__init__.py": "",
        "django/db/models/__init__.py": "from django.db.models.base import Model\n",
        "django/db/models/base.py": OWN_BASE, "django/db/models/query.py": OWN_QUERYSET,
        "django/db/models/options.py": "class Options:\n    def get_field(self, name):\n        pass\n",
        "tests/test_orm.py": "from django.db import models\n\n\nclass Author(models.Model):\n    pass\n\n\n"
                             "def test_create():\n    Author.objects.create(name='x')\n"
                             "    Author.objects.filter(name='x').first()\n"
                             "    Author._meta.get_field('name')\n    Author()._meta.get_field('name')\n",
    }
    called = {e.target for e in link(facts(files)).edges if e.source == "tests/test_orm.py::test_create"}
    assert {"django/db/models/query.py::QuerySet::create", "django/db/models/query.py::QuerySet::filter",
            "django/db/models/query.py::QuerySet::first", "django/db/models/options.py::Options::get_field"} <= called
    # anywhere else, a class named QuerySet is nobody's manager
    elsewhere = {path.replace("django/", "orm/"): text.replace("from django.db", "from orm.db")
                 for path, text in files.items()}
    assert not {e for e in link(facts(elsewhere)).edges
                if e.source == "tests/test_orm.py::test_create" and "QuerySet" in e.target}


MODEL_FORMS = """
from django import forms
from rest_framework import serializers
from shop.models import Customer


class CustomerForm(forms.ModelForm):
    class Meta:
        model = Customer
        fields = ["name"]


class CustomerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Customer
        fields = "__all__"


class ContactForm(forms.Form):
    pass
"""

MODEL_FORM_VIEWS = """
from shop.forms import ContactForm, CustomerForm, CustomerSerializer


def sign_up(data):
    form = CustomerForm(data)
    if form.is_valid():
        form.save()


def api(data):
    serializer = CustomerSerializer(data=data)
    serializer.is_valid(raise_exception=True)
    serializer.save()


def contact(data):
    ContactForm(data).save()
"""


def test_saving_a_model_form_or_serializer_saves_its_meta_model() -> None:
    files = {**FILES, "shop/forms.py": MODEL_FORMS, "shop/views.py": MODEL_FORM_VIEWS}
    saves = {s for s, t in _calls(files) if t == "shop/models.py::Customer::save"}
    assert saves == {"shop/views.py::sign_up", "shop/views.py::api"}  # a plain form has no model


def test_a_derived_graph_follows_a_model_form_given_another_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    other = MODEL_FORMS.replace("model = Customer\n        fields = [", "model = Order\n        fields = [")
    other = other.replace("import Customer", "import Customer, Order")
    files = {**FILES, "shop/views.py": MODEL_FORM_VIEWS}
    assert_derived_both_ways(files, "shop/forms.py", MODEL_FORMS, other)


def test_a_derived_graph_follows_a_created_models_save_coming_or_going(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    views = "from shop.models import Customer\n\n\ndef sign_up(name):\n    return Customer.objects.create(name=name)\n"
    without = MODELS.replace("    def save(self, *args, **kwargs):\n        super().save(*args, **kwargs)\n\n\n"
                             "class TimeStamped", "class TimeStamped")
    assert without != MODELS
    assert_derived_both_ways({**FILES, "shop/views.py": views}, "shop/models.py", MODELS, without)


COPIED = """
from django.db import models


class BookQuerySet(models.QuerySet):
    def published(self):
        return self.filter(published=True)


class BookManager(models.Manager.from_queryset(BookQuerySet)):
    def popular(self):
        return self.published().filter(stars=5)


class Book(models.Model):
    objects = BookManager()

    def lend(self):
        pass
"""

COPIED_USES = """
from shelf.models import Book


def lend_published():
    Book.objects.published().first().lend()
    Book.objects.filter(stars=5).published()
    Book.objects.popular()
"""


def test_a_manager_made_from_a_queryset_has_the_querysets_methods() -> None:
    calls = _calls({"shelf/__init__.py": "", "shelf/models.py": COPIED, "shelf/uses.py": COPIED_USES})
    assert {
        ("shelf/uses.py::lend_published", "shelf/models.py::BookQuerySet::published"),
        ("shelf/uses.py::lend_published", "shelf/models.py::BookManager::popular"),
        ("shelf/uses.py::lend_published", "shelf/models.py::Book::lend"),
        ("shelf/models.py::BookManager::popular", "shelf/models.py::BookQuerySet::published"),
    } <= calls
    graph = link(facts({"shelf/__init__.py": "", "shelf/models.py": COPIED, "shelf/uses.py": COPIED_USES}))
    lines = {e.lines for e in graph.edges if e.source == "shelf/uses.py::lend_published"
             and e.target == "shelf/models.py::BookQuerySet::published"}
    assert lines == {(6, 7)}  # through the manager, and through a queryset it hands back


def test_a_manager_made_from_a_queryset_of_another_name_does_not_get_it() -> None:
    # only the class the call names: another manager base is what it is
    plain = COPIED.replace("models.Manager.from_queryset(BookQuerySet)", "models.Manager")
    calls = _calls({"shelf/__init__.py": "", "shelf/models.py": plain, "shelf/uses.py": COPIED_USES})
    assert ("shelf/models.py::BookManager::popular", "shelf/models.py::BookQuerySet::published") not in calls


def test_a_derived_graph_follows_the_queryset_a_manager_is_made_from(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "MAX_AFFECTED", 1.0)
    other = COPIED.replace("class BookQuerySet(models.QuerySet):", "class OtherQuerySet(models.QuerySet):\n"
                           "    def published(self):\n        pass\n\n\nclass BookQuerySet(models.QuerySet):")
    other = other.replace("from_queryset(BookQuerySet)", "from_queryset(OtherQuerySet)")
    files = {"shelf/__init__.py": "", "shelf/uses.py": COPIED_USES}
    assert_derived_both_ways(files, "shelf/models.py", COPIED, other)
