"""A table's currency: chosen once on its Names page, shown with every amount of its money (its
page, its matches' settlement, the result card, the export), kept when another phone moved."""

import json

import pytest
from django.urls import reverse

from games.models import Table
from games.records import store
from tests.html import visible
from tests.test_accessibility import EXAMPLES

pytestmark = pytest.mark.django_db


def money_table(currency=""):
    table = Table.objects.create(
        name="Thursday", people=["Ann", "Bo", "Chen", "Dee"], currency=currency
    )
    document = json.loads((EXAMPLES / "gongzhu-match-to-floor.match.json").read_text())
    match = store(document)
    table.take_match(match)
    return table, match


def test_the_currency_is_set_once_and_shown_with_every_amount_of_money(client):
    table, match = money_table()
    setup = visible(client.get(reverse("table_setup", args=[table.public_id])).content.decode())
    assert "Currency" in setup
    response = client.post(
        reverse("table_currency", args=[table.public_id]), {"currency": "€", "seen": ""}
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.currency == "€" and table.version == 2  # taken, then the currency
    page = visible(client.get(reverse("table", args=[table.public_id])).content.decode())
    assert "€" in page and "pays" in page
    for url in (reverse("match", args=[match.public_id]), reverse("watch", args=[match.watch_id])):
        shown = visible(client.get(url).content.decode())
        assert "pays" in shown and "€" in shown, url
    csv = client.get(reverse("table_export_csv", args=[table.public_id])).content.decode()
    assert "€" in csv
    exported = client.get(reverse("table_export_json", args=[table.public_id])).json()
    assert exported["currency"] == "€"


def test_each_language_writes_the_currency_where_it_goes():
    from django.utils import translation

    from games.templatetags.scorekeeper import currency_of, money_signed

    with currency_of("€"):
        with translation.override("en"):
            assert visible(money_signed(-12.5, "money:2")) == "-€12.50"
        with translation.override("es"):
            assert visible(money_signed(12.5, "money:2")) == "+12,50\u00a0€"
        assert visible(money_signed(300, "beans:0")) == "+300"  # beans are not money
    with currency_of("تومان"), translation.override("fa"):
        shown = money_signed(-12.5, "money:2")
        assert shown == '<bdi dir="ltr">-12.50</bdi>\u00a0<bdi>تومان</bdi>'


def test_a_match_of_no_table_shows_its_money_without_a_currency(client):
    document = json.loads((EXAMPLES / "gongzhu-match-to-floor.match.json").read_text())
    match = store(document)
    shown = visible(client.get(reverse("match", args=[match.public_id])).content.decode())
    assert "pays" in shown and "€" not in shown and "$" not in shown


def test_a_currency_set_on_another_phone_since_is_said_and_kept_until_saved_again(client):
    table, _match = money_table("¥")
    response = client.post(
        reverse("table_currency", args=[table.public_id]), {"currency": "$", "seen": ""}
    )
    assert response.status_code == 422
    shown = visible(response.content.decode())
    assert "Another phone set the currency to ¥ since you opened this page: save again." in shown
    table.refresh_from_db()
    assert table.currency == "¥"
    again = client.post(
        reverse("table_currency", args=[table.public_id]), {"currency": "$", "seen": "¥"}
    )
    assert again.status_code == 302 and Table.objects.get(pk=table.pk).currency == "$"


@pytest.mark.parametrize("typed", ["a\nb", "x" * 13, "\u202e$"])
def test_a_currency_is_one_short_line(client, typed):
    table, _match = money_table()
    response = client.post(
        reverse("table_currency", args=[table.public_id]), {"currency": typed, "seen": ""}
    )
    assert response.status_code == 422
    assert Table.objects.get(pk=table.pk).currency == ""
