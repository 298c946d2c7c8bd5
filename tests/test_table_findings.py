"""The attack round on tables, payments and the ledger (issue 43): each finding's reproduction,
now answered in words, and a table's page, TV board and exports summed from stored results."""

import json
import sqlite3
import threading
import time

import psycopg
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import formats, translation

from games import memo
from games.drawn import DrawnPage
from games.forms import PaymentForm
from games.models import Match, Payment, Table
from games.records import store
from tests.html import visible
from tests.server import DATABASES, Phone, Server, database
from tests.test_attack_findings import at_once
from tests.test_tables import EXAMPLES, PEOPLE

pytestmark = pytest.mark.django_db

PAID_ONLY = {
    "table": "T",
    "people": ["Ann", "Bo"],
    "payments": [{"from": "Ann", "to": "Bo", "amount": 5, "unit": "money"}],
}


def imported(client, document):
    """The answer to importing a table's document (as text, or a dict made JSON)."""
    text = document if isinstance(document, str) else json.dumps(document, ensure_ascii=False)
    return client.post(reverse("import_match"), {"document": text})


def said(response):
    return visible(response.content.decode())


def sheet_match(players, rounds, closed=True, date="2026-11-05"):
    """A zero-sum score sheet at a stake of 1, as a table's document lists a match."""
    return {
        "game": "sheet",
        "players": players,
        "options": {"zero_sum": True, "stake": 1},
        "rounds": [{"points": points} for points in rounds],
        "closed": closed,
        "date": date,
    }


def test_f1_a_table_with_a_payment_and_no_match_shows_its_balances(client):
    response = imported(client, PAID_ONLY)
    table = Table.objects.get()
    assert response.url == reverse("table", args=[table.public_id])
    for url in (response.url, reverse("table_watch", args=[table.watch_id])):
        shown = said(client.get(url))
        assert "Balance in money" in shown and "Bo pays Ann 5" in shown
    scoring = client.get(response.url).content.decode()
    assert reverse("table_new_match", args=[table.public_id, "gongzhu"]) in scoring
    refused = client.post(
        reverse("table_pay", args=[table.public_id]),
        {"payer": "Ann", "payee": "Ann", "amount": "5", "unit": "money"},
    )
    assert refused.status_code == 422 and "a payment is between two people" in said(refused)


@pytest.mark.parametrize(
    "amount",
    ["1e26", "1e308", "1e400", "1" + "0" * 29, "9" * 4000],
    ids=["1e26", "1e308", "1e400", "30 digits", "4000 digits"],
)
def test_f2_an_imported_payment_beyond_any_amount_is_refused_in_words(client, amount):
    text = json.dumps(PAID_ONLY).replace('"amount": 5', f'"amount": {amount}')
    response = imported(client, text)
    assert response.status_code == 422
    assert "This table cannot be imported: payment 1: How much:" in said(response)
    assert not Table.objects.exists() and not Payment.objects.exists()


def test_f3_an_imported_payment_in_a_list_of_units_is_refused_in_words(client):
    document = json.loads(json.dumps(PAID_ONLY))
    document["payments"][0]["unit"] = ["money"]
    response = imported(client, document)
    assert response.status_code == 422 and "payment 1: In: Select a valid choice" in said(response)
    assert not Table.objects.exists()


def test_f4_a_table_name_with_a_nul_is_refused_like_a_players_name(client):
    response = imported(client, {**PAID_ONLY, "table": "T\x00ursday"})
    assert response.status_code == 422
    assert "a table's name cannot hold line breaks or control characters" in said(response)
    assert not Table.objects.exists()


@pytest.mark.parametrize("name", ["Thurs\nday", "Thurs\x85day", "Thurs\u0007\u001b[31mday"])
def test_f4b_a_table_name_with_a_control_character_is_refused_by_the_form_and_the_import(
    client, name
):
    response = client.post(reverse("new_table"), {"name": name, "people": "Ann\nBo"})
    assert response.status_code in (400, 422)  # a form field with C0 controls: refused at once
    if response.status_code == 422:
        assert "a table's name cannot hold line breaks or control characters" in said(response)
    response = imported(client, {**PAID_ONLY, "table": name})
    assert response.status_code == 422
    assert "a table's name cannot hold line breaks or control characters" in said(response)
    assert not Table.objects.exists()


@pytest.mark.parametrize("name", ["\u202eyadsruhT", "Thurs\u200bday"])
def test_f4b_invisible_and_bidi_characters_are_cleaned_from_a_table_name(client, name):
    client.post(reverse("new_table"), {"name": name, "people": "Ann\nBo"})
    imported(client, {**PAID_ONLY, "table": name})
    stored = list(Table.objects.values_list("name", flat=True))
    assert stored == [name.replace("\u202e", "").replace("\u200b", "")] * 2


@pytest.mark.parametrize("kind", DATABASES)
def test_f5_rematches_at_once_never_pass_the_tables_most_matches(kind, tmp_path):
    """30 phones tap Rematch on 30 different matches of a table holding 495 at one moment: the
    table's room is counted under its lock, so it ends with 500 matches (the rest are played
    outside it)."""
    document = {
        "table": "Big",
        "people": ["Ann", "Bo"],
        "matches": [sheet_match(["Ann", "Bo"], [[1, -1]]) for _ in range(495)],
    }
    with database(kind) as url:
        server = Server(tmp_path, url)
        server.env.update(RATE_NEW_MATCHES="100000/h", RATE_IMPORTS="100000/h")
        server.start()
        try:
            phone = Phone(server.url)
            phone.get("/import/")
            status, _body, location = phone.post("/import/", {"document": json.dumps(document)})
            assert status == 302
            links = stored_score_links(url, tmp_path)
            posts = [(f"/m/{token}/rematch/", {}) for token in links[:30]]
            statuses = at_once(server, location, posts)
            phone.get(location)
        finally:
            server.stop()
        assert statuses == [302] * 30
        assert "500 matches" in visible(phone.page)
        assert len(stored_score_links(url, tmp_path)) == 525  # 25 rematches outside the table
        assert len(stored_score_links(url, tmp_path, in_table=True)) == 500


def stored_score_links(url, data_dir, in_table=False):
    """The score links of the matches a test server's database holds (those of a table only)."""
    query = "SELECT public_id FROM games_match" + (
        " WHERE table_id IS NOT NULL" if in_table else ""
    )
    if url is None:
        with sqlite3.connect(data_dir / "db.sqlite3") as db:
            return [row[0] for row in db.execute(query)]
    with psycopg.connect(url) as db:
        return [row[0] for row in db.execute(query)]


def big_table(matches=120, rounds=20):
    """A table of matches zero-sum score sheets (three of its four people each), rounds rounds
    each, five an evening; the last is in play."""
    document = {
        "table": "Thursday",
        "people": PEOPLE,
        "matches": [
            sheet_match(
                [PEOPLE[(k + seat) % 4] for seat in range(3)],
                [[1, 0, -1]] * rounds,
                closed=k < matches - 1,
                date=f"2025-{1 + k // 50:02d}-{1 + (k // 5) % 10:02d}",
            )
            for k in range(matches)
        ],
    }
    response = imported(Client(), document)
    assert response.status_code == 302, said(response)[:500]
    return Table.objects.get(name="Thursday"), json.dumps(document, ensure_ascii=False)


def test_f6_a_repeated_export_is_answered_from_what_was_made_once(
    client, django_assert_num_queries
):
    table, _document = big_table()
    url = reverse("table_export_json", args=[table.public_id])
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    with django_assert_num_queries(2):  # the table by its link, and its state: nothing made
        again = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert again.content == first.content and again["Content-Encoding"] == "gzip"
    plain = client.get(url)  # a phone that takes no gzip gets the same document
    assert json.loads(plain.content)["table"] == "Thursday"


def test_f7_the_watch_page_in_five_languages_is_kept_and_small(client, django_assert_num_queries):
    table, _document = big_table()
    url = reverse("table_watch", args=[table.watch_id])
    languages = ["en", "zh-hans", "es", "fa", "mn"]
    sizes = [len(client.get(url, HTTP_ACCEPT_LANGUAGE=code).content) for code in languages]
    assert max(sizes) < 60_000  # the latest evenings and matches, not every one
    for code in languages:
        with django_assert_num_queries(1):  # the state only: the page kept for its language
            client.get(url, HTTP_ACCEPT_LANGUAGE=code)
    translation.deactivate()


def test_f8_a_save_in_the_match_in_play_redraws_the_table_from_its_stored_results(client):
    """The table's page after a round of its match in play is saved: drawn anew, from one row a
    match, whatever the rounds (no round is read, none replayed)."""
    table, _document = big_table()
    url = reverse("table", args=[table.public_id])
    client.get(url)
    in_play = table.matches.get(closed=False)
    in_play.add_round({"points": [2, -1, -1]})
    with CaptureQueriesContext(connection) as queries:
        shown = said(client.get(url))
    assert "21 rounds, in play" in shown
    assert not [q["sql"] for q in queries if "games_round" in q["sql"]]
    assert len(queries) <= 5  # the state, the table, its matches' results, payments, session


def test_f9_a_tables_export_imports_back_and_weighs_about_what_its_import_did(client):
    table, document = big_table(matches=200, rounds=40)
    export = client.get(reverse("table_export_json", args=[table.public_id])).content
    assert len(export) < 1.25 * len(document.encode())  # compact: no indentation
    assert imported(client, export.decode()).status_code == 302
    copy = Table.objects.exclude(pk=table.pk).get()
    again = client.get(reverse("table_export_json", args=[copy.public_id])).content
    assert json.loads(again)["matches"] == json.loads(export)["matches"]


def test_f11_a_rounding_remainder_is_said_where_it_arises(client):
    table = Table.objects.create(name="Stakes", people=PEOPLE)
    document = json.loads((EXAMPLES / "gongzhu-match-to-floor.match.json").read_text())
    document["options"] = {**document.get("options", {}), "stake": 0.05}
    table.take_match(store(document))
    shown = said(client.get(reverse("table", args=[table.public_id])))
    day = formats.date_format(Match.objects.get().day, "SHORT_DATE_FORMAT")
    assert f"Rounding in Gongzhu of {day} left -0.60 unsettled" in shown
    balances = json.loads(client.get(reverse("table_export_json", args=[table.public_id])).content)
    assert round(sum(balances["balances"]["money"].values()), 2) == -0.6


def test_f13_a_refused_table_import_speaks_of_the_table(client):
    people = [f"P{k}" for k in range(25)]
    response = imported(client, {"table": "T", "people": people, "payments": {}})
    assert "This table cannot be imported: A table is for 2 to 24 players" in said(response)
    response = imported(client, {"table": "T", "people": ["Ann", "Bo"], "payments": {}})
    assert "This table cannot be imported: a table's payments must be a list" in said(response)


@pytest.mark.parametrize("amount", ["12.345", "1000000.005"])
def test_f14_an_imported_payment_keeps_the_rule_paid_has(client, amount):
    response = imported(client, json.dumps(PAID_ONLY).replace('"amount": 5', f'"amount": {amount}'))
    assert response.status_code == 422 and not Payment.objects.exists()
    table = Table.objects.create(name="T", people=["Ann", "Bo"])
    form = {"payer": "Ann", "payee": "Bo", "amount": amount, "unit": "money"}
    paid = client.post(reverse("table_pay", args=[table.public_id]), form)
    assert paid.status_code == 422 and not Payment.objects.exists()
    rule = PaymentForm(table, form).errors["amount"][0]  # what "Paid" says next to the amount
    assert rule in said(paid) and f"payment 1: How much: {rule}" in said(response)


def test_f12_the_matches_of_a_table_do_not_open_its_score_link(client):
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    match = table.start_match("sanming", ["Ann", "Bo", "Chen"], {})
    memo.forget()
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert table.public_id not in page and f"/tw/{table.watch_id}/" in page


def test_f6_a_page_asked_for_at_once_is_drawn_once():
    """Twelve requests at once for the same page (the same export, say): the first draws it,
    the others wait for it, rather than twelve drawings side by side in a worker's memory."""
    drawings, start = [], threading.Barrier(12)

    def draw():
        drawings.append(1)
        time.sleep(0.2)
        return DrawnPage("drawn")

    def ask():
        start.wait()
        pages.append(memo.drawn(("export", "same"), draw).text)

    pages = []
    threads = [threading.Thread(target=ask) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert pages == ["drawn"] * 12 and len(drawings) == 1


def test_f7_a_table_page_is_kept_whatever_host_a_stranger_names(client, django_assert_num_queries):
    """The page names no host (static/share.js shows its watch link's whole address): a
    stranger naming host after host in his requests is answered from the page kept."""
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    url = reverse("table_watch", args=[table.watch_id])
    client.get(url, HTTP_HOST="a.example")
    for host in ("b.example", "c.example", "127.0.0.1"):
        with django_assert_num_queries(1):  # the state only
            client.get(url, HTTP_HOST=host)
