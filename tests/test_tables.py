"""The regulars' table: its people, its matches, payments, and the ledger computed from them."""

import csv
import io
import json
import re
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import ledger, models, rules
from games.models import Match, Payment, Refused, Table, Unknown
from games.records import WITH_ROUNDS, replayed, store
from tests.html import visible

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).parent / "examples"
GONGZHU_STAKE = 0.01  # money per point: the examples' thousands of points are tens of money
# Three evenings of Gongzhu at a stake and Sanming run-fast for beans (finished matches).
EVENINGS = [
    (date(2026, 11, 5), ["gongzhu-ceiling", "sanming-16-card"]),
    (date(2026, 11, 12), ["gongzhu-match-to-floor", "sanming-bomb-pay", "sanming-flat-17"]),
    (date(2026, 11, 19), ["gongzhu-two-decks", "sanming-one-kid"]),
]
PEOPLE = ["Ann", "Bo", "Chen", "Dee"]
ONE_WEEK = timedelta(days=7)


def example(name):
    """An example match document, a Gongzhu one at GONGZHU_STAKE."""
    document = json.loads((EXAMPLES / f"{name}.match.json").read_text(encoding="utf-8"))
    if document["game"] == "gongzhu":
        document["options"] = {**document.get("options", {}), "stake": GONGZHU_STAKE}
    return document


def on(match, day):
    """Date the match to an evening (8 pm, the server's time)."""
    when = timezone.make_aware(datetime(day.year, day.month, day.day, 20))
    Match.objects.filter(pk=match.pk).update(created=when)


@pytest.fixture
def table():
    """Thursday Gongzhu with three evenings played: each match imported, then added."""
    made = Table.objects.create(name="Thursday Gongzhu", people=PEOPLE)
    for day, names in EVENINGS:
        for name in names:
            match = store(example(name))
            made.take_match(match)
            on(match, day)
    return made


def results(table):
    return [replayed(m)[2] for m in table.matches.prefetch_related(WITH_ROUNDS)]


def summed(table):
    """{unit: {name: sum of the matches' settlement amounts}}, added up here by hand."""
    sums = {}
    for result in results(table):
        unit = "beans" if result["game"] == "sanming" else "money"
        for name, amount in zip(result["players"], result["settlement"]["amounts"]):
            by_name = sums.setdefault(unit, {})
            by_name[name] = by_name.get(name, 0) + Decimal(str(amount))
    return {unit: {n: by_name[n] for n in PEOPLE if n in by_name} for unit, by_name in sums.items()}


def live_payments(table):
    return [p.as_paid() for p in table.payments.filter(deleted=None)]


def summary(table):
    return ledger.summary(table.people, table.played(), live_payments(table))


def test_each_matchs_stored_result_is_what_its_rounds_replay_to(table):
    """The rows a table adds up are the engine's results of the rounds (written under the
    match's lock by each change), and rebuild_results writes the same rows again."""
    stored = {m["match"]["pk"]: m["result"] for m in table.played()}
    for match in table.matches.prefetch_related(WITH_ROUNDS):
        game, board, result = replayed(match)
        assert stored[match.pk] == {"game": match.game, **ledger.kept(game, board, match.closed)}
        assert stored[match.pk]["places"] == game.ranking(board)
    call_command("rebuild_results", stdout=io.StringIO())
    assert {m["match"]["pk"]: m["result"] for m in table.played()} == stored


def test_balances_are_the_matches_settlements_with_payments_counted(table):
    table.pay("Dee", "Ann", Decimal("20.50"), "money")
    table.pay("chen", "ANN", 100, "beans")  # names as the app compares them
    found = ledger.ledger(table.people, table.played(), live_payments(table))
    expected = summed(table)
    expected["money"]["Dee"] += Decimal("20.50")  # Dee owes 20.50 less
    expected["money"]["Ann"] -= Decimal("20.50")  # and Ann is owed 20.50 less
    expected["beans"]["Chen"] += 100
    expected["beans"]["Ann"] -= 100
    for unit in ("money", "beans"):
        assert {k: Decimal(str(v)) for k, v in found["balances"][unit].items()} == expected[unit]
    assert set(found["balances"]) == {"money", "beans"}


def test_the_settlement_is_the_fewest_transfers_of_the_balances(table):
    table.pay("Dee", "Ann", 5, "money")
    found = ledger.ledger(table.people, table.played(), live_payments(table))
    for unit, balance in found["balances"].items():
        paid = dict.fromkeys(balance, Decimal(0))
        for transfer in found["settlement"][unit]:
            paid[transfer["from"]] += Decimal(str(transfer["amount"]))
            paid[transfer["to"]] -= Decimal(str(transfer["amount"]))
        owing = [name for name, amount in balance.items() if amount]
        assert len(found["settlement"][unit]) <= len(owing) - 1
        # after the transfers, each balance is what the unsettled remainder leaves
        left = {name: Decimal(str(balance[name])) + paid[name] for name in balance}
        assert sum(1 for amount in left.values() if amount) <= 1


def test_a_match_without_a_stake_counts_in_the_statistics_only():
    game, board, closed = rules.replay({**example("gongzhu-ceiling"), "options": {"ceiling": 300}})
    result = {"game": "gongzhu", **ledger.kept(game, board, closed)}
    match = {"match": None, "date": date(2026, 11, 5), "result": result}
    assert ledger.ledger(PEOPLE, [match], []) == {"balances": {}, "settlement": {}}
    found = ledger.summary(PEOPLE, [match], [])
    assert [row["played"] for row in found["statistics"]] == [1, 1, 1, 1]


def test_statistics_count_played_won_and_the_average_place(table):
    rows = {(r["person"], r["game"]): r for r in summary(table)["statistics"]}
    assert rows["Ann", "gongzhu"]["played"] == 3
    assert rows["Dee", "gongzhu"]["played"] == 3 and ("Dee", "sanming") not in rows
    assert rows["Ann", "sanming"]["played"] == 4
    wins = sum(r["won"] for (_p, game), r in rows.items() if game == "gongzhu")
    assert wins >= 3
    assert all(1 <= r["average_place"] <= 4 for r in rows.values())


def test_evenings_list_each_matchs_game_and_winners(table):
    days = summary(table)["evenings"]
    assert [d["date"] for d in days] == [day for day, _names in EVENINGS]
    assert [m["game"] for m in days[1]["matches"]] == ["gongzhu", "sanming", "sanming"]
    assert all(m["winners"] and m["finished"] for d in days for m in d["matches"])
    best = summary(table)["extremes"]
    for by_name in best.values():
        for found in by_name.values():
            assert found["best"]["amount"] >= found["worst"]["amount"]
    assert "Dee" not in best["beans"]


def test_a_best_and_worst_evening_takes_two_evenings():
    table = Table.objects.create(name="Once", people=PEOPLE)
    table.take_match(store(example("sanming-16-card")))
    assert summary(table)["extremes"] == {}
    table.take_match(store(example("sanming-one-kid")))
    Match.objects.filter(pk=table.matches.first().pk).update(created=timezone.now() - ONE_WEEK)
    assert set(summary(table)["extremes"]["beans"]) == {"Ann", "Bo", "Chen"}


def test_an_evening_that_runs_past_midnight_stays_one_evening(client):
    table = Table.objects.create(name="Late", people=PEOPLE)
    starts = [(5, 21), (6, 0), (6, 1), (12, 21)]  # November, hour: 0:00 and 1:00 after the 5th
    for (day, hour), name in zip(
        starts, ["gongzhu-ceiling", "sanming-16-card", *["gongzhu-two-decks"] * 2]
    ):
        match = store(example(name))
        table.take_match(match)
        when = timezone.make_aware(datetime(2026, 11, day, hour))
        Match.objects.filter(pk=match.pk).update(created=when)
    page = visible(client.get(reverse("table", args=[table.public_id])).content.decode())
    evenings = page.split("Evenings")[1]
    assert "Nov. 5, 2026" in evenings and "Nov. 12, 2026" in evenings
    assert "Nov. 6" not in evenings


def test_the_running_balance_ends_at_the_balance(table):
    table.pay("Dee", "Ann", 7, "money")
    payments = [{**p.document(), "date": date(2026, 11, 20)} for p in table.payments.all()]
    found = ledger.summary(table.people, table.played(), payments)
    dates, money = found["running"]["money"]
    assert dates[-1] == date(2026, 11, 20) and len(dates) == 4
    assert {name: line[-1] for name, line in money.items()} == found["balances"]["money"]


# ---- the table's changes, under its lock


def test_a_name_that_is_nobodys_is_asked_and_nothing_is_stored():
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen"])
    with pytest.raises(Unknown) as asked:
        table.start_match("sanming", ["ann", "Bo", "Dee"], {})
    assert asked.value.names == ["Dee"]
    assert not Match.objects.exists()
    table.refresh_from_db()
    assert table.people == ["Ann", "Bo", "Chen"] and table.version == 0
    match = table.start_match("sanming", ["ann", "Bo", "Dee"], {}, adding=True)
    table.refresh_from_db()
    assert table.people == ["Ann", "Bo", "Chen", "Dee"] and match.table == table


def test_a_match_played_elsewhere_is_added_once_and_its_rematch_follows():
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    match = store(example("gongzhu-ceiling"))
    table.take_match(match)
    other = Table.objects.create(name="Friday", people=PEOPLE)
    with pytest.raises(Refused):
        other.take_match(match)
    assert Match.objects.get(pk=match.pk).table == table
    assert match.rematch().table == table


def test_a_payment_is_between_two_of_the_tables_people():
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo"])
    for payer, payee in [("Ann", "Zed"), ("Ann", "ann")]:
        with pytest.raises(Refused):
            table.pay(payer, payee, 5, "money")
    assert not Payment.objects.exists()


def test_a_deleted_payment_leaves_the_balances_and_can_be_restored():
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo"])
    payment = table.pay("Ann", "Bo", 5, "money")
    table.set_payment_deleted(payment.pk, True)
    assert summary(table)["balances"] == {}
    with pytest.raises(Payment.DoesNotExist):
        table.set_payment_deleted(payment.pk, True)  # deleted already: from another phone
    table.set_payment_deleted(payment.pk, False)
    assert summary(table)["balances"]["money"] == {"Ann": 5, "Bo": -5}


# ---- the pages


def page(client, url, status=200):
    response = client.get(url)
    assert response.status_code == status, response.content.decode()[:2000]
    return response.content.decode()


def test_a_table_is_made_from_home_with_its_people(client):
    assert reverse("new_table") in page(client, reverse("home"))
    form = {"name": "Thursday Gongzhu", "people": "Ann\r\n 张伟 \r\n\r\nZahra, Бат"}
    response = client.post(reverse("new_table"), form)
    table = Table.objects.get()
    assert response.url == reverse("table", args=[table.public_id])
    assert table.people == ["Ann", "张伟", "Zahra", "Бат"]
    shown = visible(page(client, response.url))
    assert "Thursday Gongzhu" in shown and "No balances yet" in shown


@pytest.mark.parametrize(
    "people, said",
    [("Ann\nann", "two players are called ann"), ("Ann", "2 to 24"), ("x" * 41 + "\nBo", "40")],
)
def test_a_tables_people_are_checked_as_players_names(client, people, said):
    response = client.post(reverse("new_table"), {"name": "Thursday", "people": people})
    assert response.status_code == 422 and said in visible(response.content.decode())
    assert not Table.objects.exists()


def test_the_tables_page_shows_balances_first_and_who_pays_whom(client, table):
    table.pay("Dee", "Ann", 5, "money")
    shown = visible(page(client, reverse("table", args=[table.public_id])))
    assert shown.index("Balance in beans") < shown.index("Play a match")
    found = ledger.ledger(table.people, table.played(), live_payments(table))
    first = found["settlement"]["money"][0]
    assert f"{first['from']} pays {first['to']}" in shown
    assert "Who wins most" in shown and "Best and worst evening" in shown


def test_the_page_is_drawn_again_when_a_match_of_the_table_changes(client):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen"])
    match = table.start_match("sanming", ["Ann", "Bo", "Chen"], {})
    url = reverse("table", args=[table.public_id])
    assert "1 round, in play" not in visible(page(client, url))
    match.add_round(example("sanming-16-card")["rounds"][0], "")
    assert "1 round, in play" in visible(page(client, url))


def test_a_match_started_from_the_table_belongs_to_it_and_an_unknown_name_is_asked(client):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen"])
    url = reverse("table_new_match", args=[table.public_id, "sanming"])
    assert 'value="Bo"' in page(client, url)
    form = {"player_0": "ann", "player_1": "Bo", "player_2": "Dee"}
    asked = client.post(url, form)
    assert asked.status_code == 200
    shown = visible(asked.content.decode())
    assert "Dee is not one of this table's people." in shown  # in Chen's seat: a typo?
    assert "Chen was a typo: call Chen Dee everywhere at this table" in shown
    assert "Dee is someone new: add to the table" in shown
    assert not Match.objects.exists()
    started = client.post(url, {**form, "add_people": "1"})
    match = Match.objects.get()
    assert started.url == reverse("match", args=[match.public_id]) and match.table == table
    table.refresh_from_db()
    assert table.people == ["Ann", "Bo", "Chen", "Dee"]


def test_a_match_already_played_is_added_by_its_score_link(client):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen"])
    match = store(example("sanming-16-card"))
    take = reverse("table_take", args=[table.public_id])
    watch = client.post(take, {"link": f"http://x/w/{match.watch_id}/"})
    assert "paste its score link" in visible(watch.content.decode())
    assert client.post(take, {"link": "nothing"}).status_code == 422
    response = client.post(take, {"link": f"https://example.org/m/{match.public_id}/"})
    assert response.status_code == 302
    assert Match.objects.get(pk=match.pk).table == table


def test_a_match_with_a_stranger_is_asked_before_it_is_added(client):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo"])
    match = store(example("sanming-16-card"))
    take = reverse("table_take", args=[table.public_id])
    asked = client.post(take, {"link": match.public_id})
    assert "Chen is not one of this table's people" in visible(asked.content.decode())
    assert Match.objects.get(pk=match.pk).table is None
    client.post(take, {"link": match.public_id, "add_people": "1"})
    assert Match.objects.get(pk=match.pk).table == table


def test_paid_moves_the_balances_and_deleting_it_moves_them_back(client, table):
    url = reverse("table", args=[table.public_id])
    before = visible(page(client, url))
    form = {"payer": "Dee", "payee": "Ann", "amount": "۱۲٫۵", "unit": "money"}
    client.post(reverse("table_pay", args=[table.public_id]), form)
    payment = Payment.objects.get()
    assert payment.amount == Decimal("12.5")
    after = visible(page(client, url))
    assert after != before and "Dee paid Ann 12.50" in after and "12.50 money" not in after
    client.post(reverse("payment_delete", args=[table.public_id, payment.pk]))
    shown = visible(page(client, url))
    balances = shown.split("Play a match")[0]
    assert balances == before.split("Play a match")[0] != after.split("Play a match")[0]
    assert "Restore" in shown
    client.post(reverse("payment_restore", args=[table.public_id, payment.pk]))
    assert visible(page(client, url)).split("Play a match")[0] == after.split("Play a match")[0]


def test_a_payment_to_oneself_is_refused_in_words(client, table):
    form = {"payer": "Ann", "payee": "Ann", "amount": "5", "unit": "money"}
    response = client.post(reverse("table_pay", args=[table.public_id]), form)
    assert response.status_code == 422
    assert "a payment is between two people" in visible(response.content.decode())
    assert not Payment.objects.exists()


def test_the_watch_link_reads_and_links_matches_by_their_watch_links(client, table):
    shown = page(client, reverse("table_watch", args=[table.watch_id]))
    assert table.public_id not in shown and 'action="/t/' not in shown
    for match in table.matches.all():
        assert match.public_id not in shown and f"/w/{match.watch_id}/" in shown
    assert client.get(reverse("table", args=[table.watch_id])).status_code == 403


# ---- acceptance: three evenings at stakes, two payments, through the pages; export, import


def pay(client, table, payer, payee, amount, unit):
    form = {"payer": payer, "payee": payee, "amount": amount, "unit": unit}
    assert client.post(reverse("table_pay", args=[table.public_id]), form).status_code == 302


def exported(client, table):
    response = client.get(reverse("table_export_json", args=[table.public_id]))
    assert response["Content-Disposition"].startswith("attachment;")
    return json.loads(response.content.decode())


def test_three_evenings_and_two_payments_add_up_to_the_settlements_less_the_payments(client, table):
    pay(client, table, "Dee", "Ann", "20.50", "money")
    pay(client, table, "Chen", "Ann", "100", "beans")
    document = exported(client, table)
    expected = summed(table)
    expected["money"]["Dee"] += Decimal("20.50")
    expected["money"]["Ann"] -= Decimal("20.50")
    expected["beans"]["Chen"] += 100
    expected["beans"]["Ann"] -= 100
    balances = {
        unit: {name: Decimal(str(v)) for name, v in by_name.items()}
        for unit, by_name in document["balances"].items()
    }
    assert balances == expected
    for unit, balance in expected.items():
        assert document["settlement"][unit] == rules.settle.transfers(
            list(balance), list(balance.values())
        )
    shown = visible(page(client, reverse("table", args=[table.public_id])))
    for transfer in document["settlement"]["money"]:
        assert f"{transfer['from']} pays {transfer['to']} {transfer['amount']:.2f}" in shown


def test_the_json_export_imports_back_through_the_import_page(client, table):
    pay(client, table, "Dee", "Ann", "20.50", "money")
    document = exported(client, table)
    assert [m["date"] for m in document["matches"]][:2] == ["2026-11-05"] * 2
    tampered = {**document, "balances": {"money": {"Ann": 1_000_000}}, "settlement": {}}
    text = json.dumps(tampered, ensure_ascii=False)
    response = client.post(reverse("import_match"), {"document": text})
    assert response.status_code == 302
    copy = Table.objects.exclude(pk=table.pk).get()
    assert response.url == reverse("table", args=[copy.public_id])
    again = exported(client, copy)
    assert again["balances"] == document["balances"]
    assert again["settlement"] == document["settlement"]
    assert again["matches"] == document["matches"] and again["payments"] == document["payments"]


@pytest.mark.parametrize(
    "change, said",
    [
        ({"people": ["Ann", "Bo", "Chen"]}, "match 1: Dee is not one of this table's people"),
        ({"payments": [{"from": "Ann", "to": "Zed", "amount": 5, "unit": "money"}]}, "Zed is"),
        ({"payments": [{"from": "Ann", "to": "ann", "amount": 5, "unit": "money"}]}, "two"),
        (
            {"payments": [{"from": "Ann", "to": "Bo", "amount": 0.001, "unit": "money"}]},
            "payment 1: How much: Ensure this value is greater than or equal to 0.01.",
        ),
        (
            {"payments": [{"from": "Ann", "to": "Bo", "amount": 5, "unit": "gold"}]},
            "payment 1: In: Select a valid choice. gold is not one of the available choices.",
        ),
        ({"table": ""}, "a table's name"),
    ],
)
def test_a_table_document_that_is_wrong_is_refused_in_words_and_nothing_is_stored(
    client, table, change, said
):
    document = {**exported(client, table), **change}
    response = client.post(reverse("import_match"), {"document": json.dumps(document)})
    assert response.status_code == 422 and said in visible(response.content.decode())
    assert Table.objects.count() == 1 and Match.objects.count() == 7


def test_a_refused_match_in_a_table_document_names_the_match_and_its_round(client, table):
    document = exported(client, table)
    document["matches"][1]["rounds"][0] = {"nonsense": 1}
    response = client.post(reverse("import_match"), {"document": json.dumps(document)})
    assert "match 2: round 1:" in visible(response.content.decode())


def test_the_csv_export_has_a_row_per_match_and_payment_and_the_balances(client, table):
    pay(client, table, "Dee", "Ann", "20.50", "money")
    response = client.get(reverse("table_export_csv", args=[table.public_id]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Date", "Game", "In", *PEOPLE]
    assert len(rows) == 1 + 7 + 1 + 2
    assert rows[1][:3] == ["2026-11-05", "Gongzhu", "money"]
    assert rows[8][1] == "Paid" and rows[8][2:] == ["money", "-20.50", "", "", "20.50"]
    balances = exported(client, table)["balances"]
    beans = next(row for row in rows if row[1] == "Balance" and row[2] == "beans")
    assert beans[3:] == [str(balances["beans"].get(name, "")) for name in PEOPLE]
    assert beans[-1] == ""  # Dee never played for beans


def test_home_lists_the_tables_this_phone_opened(client, table):
    assert "Thursday Gongzhu" not in visible(page(client, reverse("home")))
    page(client, reverse("table", args=[table.public_id]))
    home = page(client, reverse("home"))
    assert f'href="/t/{table.public_id}/"' in home and "Thursday Gongzhu" in visible(home)
    watcher = Client()
    page(watcher, reverse("table_watch", args=[table.watch_id]))
    home = page(watcher, reverse("home"))
    assert f'href="/tw/{table.watch_id}/"' in home and table.public_id not in home


def test_a_match_in_play_is_shown_first_by_its_watch_link_to_watchers(client, table):
    match = table.start_match("sanming", ["Ann", "Bo", "Chen"], {})
    shown = page(client, reverse("table_watch", args=[table.watch_id]))
    in_play = shown.split('class="table-in-play"')[1].split("</section>")[0]
    assert f'href="/w/{match.watch_id}/"' in in_play and match.public_id not in shown
    scoring = page(client, reverse("table", args=[table.public_id]))
    assert f'href="/m/{match.public_id}/"' in scoring.split('class="table-in-play"')[1]


def test_a_full_table_refuses_more_matches_and_payments_in_words(monkeypatch):
    monkeypatch.setattr(models, "MAX_TABLE_MATCHES", 1)
    monkeypatch.setattr(models, "MAX_PAYMENTS", 1)
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen"])
    table.start_match("sanming", ["Ann", "Bo", "Chen"], {})
    with pytest.raises(Refused) as refused:
        table.start_match("sanming", ["Ann", "Bo", "Chen"], {})
    assert str(refused.value.error) == "a table keeps at most 1 matches: make a new table"
    with pytest.raises(Refused):
        table.take_match(store(example("sanming-16-card")))
    table.pay("Ann", "Bo", 1, "money")
    with pytest.raises(Refused) as refused:
        table.pay("Ann", "Bo", 1, "money")
    assert "at most 1 payments" in str(refused.value.error)
    assert table.matches.count() == 1 and table.payments.count() == 1
    rematch = table.matches.get().rematch()  # played, outside the full table
    assert rematch.table is None and table.matches.count() == 1


@pytest.mark.parametrize(
    "url, form",
    [
        ("table_pay", {"payer": "Ann", "payee": "Bo", "amount": "abc", "unit": "money"}),
        ("table_pay", {"payer": "Ann", "payee": "Bo", "amount": "-5", "unit": "money"}),
        ("table_pay", {"payer": "Ann", "payee": "Bo", "amount": "NaN", "unit": "money"}),
        ("table_pay", {"payer": "Ann", "payee": "Bo", "amount": "1e400", "unit": "money"}),
        ("table_pay", {"payer": "Ann", "payee": "Bo", "amount": "2000000", "unit": "money"}),
        ("table_pay", {"payer": "Zed", "payee": "Bo", "amount": "5", "unit": "money"}),
        ("table_pay", {"payer": "Ann", "payee": "Bo", "amount": "5", "unit": "gold"}),
        ("table_take", {"link": "x" * 301}),
        ("table_take", {}),
    ],
)
def test_what_is_typed_wrong_is_said_next_to_it_and_nothing_is_stored(client, url, form):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo"])
    response = client.post(reverse(url, args=[table.public_id]), form)
    assert response.status_code == 422
    assert 'class="error"' in response.content.decode()
    assert not Payment.objects.exists() and not table.matches.exists()


@pytest.mark.parametrize(
    "form",
    [
        {"name": "x" * 61, "people": "Ann\nBo"},
        {"name": "", "people": "Ann\nBo"},
        {"name": "Thursday", "people": "\n".join(f"P{k}" for k in range(25))},
        {"name": "Thursday", "people": "x" * 2000},
    ],
)
def test_a_table_that_cannot_be_made_says_why_next_to_what_was_typed(client, form):
    response = client.post(reverse("new_table"), form)
    assert response.status_code == 422 and 'class="error"' in response.content.decode()
    assert not Table.objects.exists()


def test_the_tables_page_is_drawn_once_per_state(client, table, django_assert_num_queries):
    url = reverse("table", args=[table.public_id])
    page(client, url)
    with django_assert_num_queries(1):  # the table's state; the page is the one drawn for it
        page(client, url)
    with django_assert_num_queries(4):  # the state, the table, its matches' results, payments
        page(client, reverse("table_watch", args=[table.watch_id]))


def test_a_payment_form_sent_twice_records_the_payment_once(client, table):
    shown = page(client, reverse("table", args=[table.public_id]))
    keys = re.findall(r'name="entry_key" value="([^"]+)"', shown)
    assert len(keys) == len(set(keys)) == 1 + 2 + 3  # "Paid", and one a transfer
    form = {"payer": "Chen", "payee": "Ann", "amount": "971", "unit": "beans", "entry_key": keys[1]}
    for _tap in range(2):  # a double tap, or a retry after a lost answer
        client.post(reverse("table_pay", args=[table.public_id]), form)
    other = {**form, "payee": "Bo", "amount": "750", "entry_key": keys[2]}
    client.post(reverse("table_pay", args=[table.public_id]), other)
    assert [(p.payee, p.amount) for p in table.payments.all()] == [("Ann", 971), ("Bo", 750)]
    again = page(client, reverse("table", args=[table.public_id]))
    assert not set(keys) & set(re.findall(r'name="entry_key" value="([^"]+)"', again))


def test_the_tables_result_card_has_the_balances_and_who_pays_whom(client, table):
    shown = page(client, reverse("table_watch", args=[table.watch_id]))
    card = json.loads(re.search(r'<script type="application/json">(.*?)</script>', shown).group(1))
    assert card["title"] == "Thursday Gongzhu" and card["date"] == "Nov. 19, 2026"
    names = [line["name"].strip("\u2066\u2067\u2068\u2069") for line in card["standings"]]
    assert names[0] == "Ann" and [line["winner"] for line in card["standings"]][:2] == [True, False]
    assert card["note"] == "Balance in beans" and len(card["standings"]) == 3  # Dee: no beans
    assert [line["total"].strip("\u2066\u2067\u2068\u2069") for line in card["standings"]] == [
        "+1071",
        "+750",
        "-1821",
    ]
    headings = [payments["heading"] for payments in card["payments"]]
    assert headings == ["Balance in money", "Who pays whom, in beans", "Who pays whom, in money"]
    clean = [
        [line.translate(dict.fromkeys(range(0x2066, 0x206A))) for line in block["lines"]]
        for block in card["payments"][:2]
    ]
    assert sorted(line.split()[0] for line in clean[0]) == PEOPLE  # Dee, with money only, too
    assert clean[1] == ["Chen pays Ann 1071", "Chen pays Bo 750"]


def test_a_match_of_the_table_leads_back_to_it_by_a_link_of_its_own_kind():
    table = Table.objects.create(name="Thursday Gongzhu", people=PEOPLE)
    match = store(example("gongzhu-ceiling"))
    client = Client()
    before = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert "Back to" not in before
    table.take_match(match)  # the page drawn before is not shown again
    watching = client.get(reverse("watch", args=[match.watch_id])).content.decode()
    assert f'href="/tw/{table.watch_id}/"' in watching
    assert table.public_id not in watching


def test_a_matchs_score_link_leads_to_its_tables_watch_link_unless_the_phone_holds_more():
    """F12: one match's score link is not the key to every match, payment and export of its
    table: its way back is the table's watch link, unless this phone opened the table's own
    score link."""
    table = Table.objects.create(name="Thursday Gongzhu", people=PEOPLE)
    match = table.start_match("sanming", ["Ann", "Bo", "Chen"], {})
    stranger = Client()
    scoring = stranger.get(reverse("match", args=[match.public_id])).content.decode()
    assert f'href="/tw/{table.watch_id}/"' in scoring and table.public_id not in scoring
    assert "Thursday Gongzhu" in visible(scoring).split("Round 1")[0]  # at the top
    regular = Client()
    regular.get(reverse("table", args=[table.public_id]))
    scoring = regular.get(reverse("match", args=[match.public_id])).content.decode()
    assert f'href="/t/{table.public_id}/"' in scoring
    again = stranger.get(reverse("match", args=[match.public_id])).content.decode()
    assert table.public_id not in again  # the page drawn for the regular is not the stranger's


def test_the_tables_share_page_shows_both_links_as_qr_codes_to_its_scorers_only(client):
    table = Table.objects.create(name="Thursday Gongzhu", people=PEOPLE)
    page = client.get(reverse("table", args=[table.public_id])).content.decode()
    assert f'href="/t/{table.public_id}/share/"' in page
    shared = client.get(reverse("table_share", args=[table.public_id])).content.decode()
    assert shared.count("<svg") == 2 and "Share this table" in visible(shared)
    for link in (f"/t/{table.public_id}/", f"/tw/{table.watch_id}/"):
        assert f'href="http://testserver{link}"' in shared
    assert client.get(f"/t/{table.watch_id}/share/").status_code == 403
    watching = client.get(reverse("table_watch", args=[table.watch_id])).content.decode()
    assert "/share/" not in watching


# ---- fixing a table's names after it started


def test_a_person_renamed_in_the_table_is_renamed_in_its_matches_ledger_and_payments(client):
    table = Table.objects.create(name="Thursdy", people=["Ann", "Bbo", "Chen", "Dee"])
    document = {**example("gongzhu-ceiling"), "players": ["Ann", "bbo", "Chen", "Dee"]}
    table.take_match(store(document))
    table.pay("Bbo", "Ann", 5, "money")
    before = summary(table)["balances"]["money"]
    url = reverse("table_setup", args=[table.public_id])
    form = {
        "name": "Thursday",
        **{f"person_{k}": n for k, n in enumerate(["Ann", "Bo", "Chen", "Dee"])},
    }
    response = client.post(url, {**form, "added": "Eve"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.name == "Thursday" and table.people == ["Ann", "Bo", "Chen", "Dee", "Eve"]
    assert table.matches.get().players == ["Ann", "Bo", "Chen", "Dee"]
    assert table.payments.get().payer == "Bo"
    after = summary(table)["balances"]["money"]
    assert after == {("Bo" if name == "Bbo" else name): v for name, v in before.items()}
    shown = visible(page(client, url))
    assert "Name: Thursdy → Thursday" in shown and "Bbo → Bo" in shown
    assert "Eve joined the table" in shown


def test_a_table_change_is_undone_and_a_person_who_played_stays(client):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen", "Dee"])
    change = table.change_setup("Thursday", ["Ann", "Bo", "Chen", "Dee", "Eve"])
    table.take_match(store({**example("sanming-16-card"), "players": ["Ann", "Bo", "Eve"]}))
    undo = reverse("table_setup_undo", args=[table.public_id, change.pk])
    refused = client.post(undo)
    assert refused.status_code == 422
    assert "Eve has played or paid at this table: they stay one of its people" in visible(
        refused.content.decode()
    )
    renamed = table.change_setup("Thursday", ["Ann", "Bob", "Chen", "Dee", "Eve"])
    assert client.post(reverse("table_setup_undo", args=[table.public_id, renamed.pk])).url
    table.refresh_from_db()
    assert table.people[1] == "Bo" and table.matches.get().players == ["Ann", "Bo", "Eve"]
    assert client.post(undo).status_code == 422  # Eve still played: nothing is done


def test_the_page_lists_the_latest_payments_and_the_export_every_one(client):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo"])
    for cents in range(25):
        table.pay("Ann", "Bo", Decimal(1) + Decimal(cents) / 100, "money")
    shown = visible(page(client, reverse("table", args=[table.public_id])))
    assert shown.count("Ann paid Bo") == 20 and "Ann paid Bo 1.24" in shown
    assert "Ann paid Bo 1.04" not in shown and "every payment is in the exports" in shown
    assert len(exported(client, table)["payments"]) == 25
