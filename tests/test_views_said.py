"""After every change, one line at the top of the page the phone lands on saying what changed,
with Undo (games/said.py): a round changed, deleted, restored; a fix of the options; a payment.
An Undo drawn before another change is refused with a line, and changes nothing."""

import pytest
from django.urls import reverse

from games import memo
from games.models import Match, Round, Table
from tests.html import visible
from tests.views import new_least_score, post_round

pytestmark = pytest.mark.django_db


def text(response):
    return " ".join(visible(response.content.decode()).split())


def landed(client, response):
    """The page a redirect lands on, as text."""
    assert response.status_code == 302 and "?said=" in response["Location"]
    return text(client.get(response["Location"]))


def undo(client, response, version=None, **headers):
    """Tap the Undo of the page response: post its form, with the version it was drawn at."""
    html = response.content.decode()
    action = html.split('<form class="undo" method="post" action="')[1].split('"')[0]
    drawn = html.split('name="version" value="')[1].split('"')[0]
    return client.post(action, {"version": version or drawn, "next": "match"}, **headers)


@pytest.fixture
def two_rounds(client):
    match = new_least_score(client)
    post_round(client, match, 0, 7, 15, 20)
    post_round(client, match, 1, 9, 4, 30)
    match.refresh_from_db()
    return match


def change_round_2(client, match, hand):
    form = {"declarer": "1", "hand-0": "9", "hand-1": "4", "hand-2": hand}
    form["version"] = str(match.version)
    return client.post(reverse("round_edit", args=[match.public_id, 2]), form)


def test_a_round_changed_is_said_at_the_top_with_its_row_and_undo_puts_it_back(client, two_rounds):
    response = change_round_2(client, two_rounds, "35")
    page = client.get(response["Location"])
    assert "Round 2 changed: Chen, hand: 30 → 35 Undo" in text(page)
    assert 'data-row="2"' in page.content.decode()  # its scoreboard row highlighted
    back = undo(client, page, HTTP_HX_REQUEST="true")
    assert back.status_code == 200
    assert "Round 2 changed: Chen, hand: 35 → 30 Undo" in text(back)
    assert [r.entry["hands"] for r in Round.objects.order_by("number")][1] == [9, 4, 30]


def test_a_negative_number_in_a_changed_round_keeps_its_minus_in_front_in_persian(client):
    """Persian reads right to left: "-60 → -80" stays so only while each is isolated as a number."""
    match = Match.start("sheet", ["Ann", "Bo"], {"title": "Hearts"})
    match.add_round({"points": [-60, 60]})
    match.refresh_from_db()
    form = {"points-0": "-80", "points-1": "80", "version": str(match.version)}
    response = client.post(reverse("round_edit", args=[match.public_id, 1]), form)
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    line = page.split('<span role="status">')[1].split("</span>")[0]
    assert '<bdi dir="ltr">-60</bdi> ← <bdi dir="ltr">-80</bdi>' in line


def test_an_undo_drawn_before_another_change_is_refused_and_changes_nothing(client, two_rounds):
    response = change_round_2(client, two_rounds, "35")
    page = client.get(response["Location"])
    post_round(client, two_rounds, 2, 1, 2, 3)  # another phone saves round 3 meanwhile
    refused = undo(client, page)
    assert refused.status_code == 409
    assert "Not undone: the match was changed since" in text(refused)
    assert "Undo" not in text(refused)
    assert Round.objects.get(number=2).entry["hands"] == [9, 4, 35]


def test_a_round_deleted_then_restored_each_say_so_with_undo(client, two_rounds):
    url = reverse("round_delete", args=[two_rounds.public_id, 1])
    deleted = client.post(url, {"version": two_rounds.version})
    assert "Round 1 deleted. Undo" in landed(client, deleted)
    restored = client.post(reverse("round_restore", args=[two_rounds.public_id, 1]))
    assert "Round 1 is back in its place. Undo" in landed(client, restored)
    assert two_rounds.live_rounds().count() == 2


def test_the_line_is_for_the_latest_change_only(client, two_rounds):
    response = change_round_2(client, two_rounds, "35")
    post_round(client, two_rounds, 2, 1, 2, 3)
    assert "Round 2 changed" not in text(client.get(response["Location"]))


def test_a_fix_of_the_options_is_said_back_with_undo(client, two_rounds):
    form = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen", "threshold": "150"}
    form["version"] = str(two_rounds.version)
    response = client.post(reverse("match_setup", args=[two_rounds.public_id]), form)
    page = client.get(response["Location"])
    assert "Names and options changed: Out past this total: 100 → 150 Undo" in text(page)
    back = undo(client, page)
    assert "Out past this total: 150 → 100" in landed(client, back)


@pytest.fixture
def table():
    return Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen"])


def test_paid_is_said_at_the_top_of_the_table_with_undo(client, table):
    form = {"payer": "Bo", "payee": "Ann", "amount": "12", "unit": "money"}
    form["version"] = str(table.version)
    response = client.post(reverse("table_pay", args=[table.public_id]), form)
    page = client.get(response["Location"])
    assert "Bo paid Ann 12.00. Undo" in text(page)
    deleted = undo(client, page)
    assert "Deleted: Bo paid Ann 12.00. Undo" in landed(client, deleted)
    assert table.payments.get().deleted is not None


def test_an_undo_of_a_payment_after_another_is_refused(client, table):
    form = {"payer": "Bo", "payee": "Ann", "amount": "12", "unit": "money"}
    response = client.post(reverse("table_pay", args=[table.public_id]), form)
    page = client.get(response["Location"])
    table.pay("Chen", "Ann", 3, "money")  # another phone
    refused = undo(client, page)
    assert refused.status_code == 409
    assert "Not undone: the table was changed since" in text(refused)
    assert table.payments.filter(deleted__isnull=True).count() == 2


def test_a_stake_set_after_start_is_said_and_money_shows_in_the_standings_from_then_on(client):
    match = Match.start("gongzhu", ["Ann", "Bo", "Chen", "Dee"], {})
    hearts = ["AH", "KH", "QH", "JH", *[f"{n}H" for n in range(2, 11)]]
    match.add_round({"captured": [["QS", *hearts], ["JD", "10C"], [], []], "exposed": []})
    page = text(client.get(reverse("match", args=[match.public_id])))
    assert "+" not in page.split("Standings")[-1].split("Round 2")[0]  # no money at a stake of 0
    form = {f"player_{k}": name for k, name in enumerate(match.players)}
    form.update(all_red_pig="on", auto_expose_fourth="on", stake="0.01", version=str(match.version))
    response = client.post(reverse("match_setup", args=[match.public_id]), form)
    page = client.get(response["Location"])
    shown = text(page)
    assert "Names and options changed: Money a point: 0 → 0.01 Undo" in shown
    match.refresh_from_db()
    totals = dict(zip(match.players, memo.board(match)["table"].totals))
    assert f"{totals['Bo']} +{totals['Bo'] / 100:.2f}" in shown  # Bo's total, then his money
    assert 'class="money"' in page.content.decode()
