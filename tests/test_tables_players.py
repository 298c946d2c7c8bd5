"""A table's evenings where players come and go (issue 47): the ledger takes a player who left
with their frozen total and a latecomer with their start, summed by name (never by seat); five
for a four-seat game: who sits out is suggested (who sat out least, then longest ago), changed
with a tap, kept with the match and counted in the statistics."""

import io
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import ledger
from games.models import Match, Refused, Table
from games.records import WITH_ROUNDS, replayed, store_table
from tests.html import visible

pytestmark = pytest.mark.django_db

PEOPLE = ["Ann", "Bo", "Chen", "Eve"]


def zero_sum(table, players, rounds, comings=()):
    """A closed zero-sum sheet of table at 1 a point: rounds of points, with comings (after
    round k: ("join", name, seat) or ("leave", name)) in between."""
    match = table.start_match("sheet", players, {"zero_sum": True, "stake": 1})
    for number, points in enumerate(rounds, 1):
        match.add_round({"points": points}, f"r{number}")
        for after, kind, *what in comings:
            if after == number:
                getattr(match, kind)(*what)
    match.set_closed(True)
    return match


@pytest.fixture
def evening():
    """Two sheets: Eve joins the first after round 1 (at 0, a zero-sum sheet's start) and Bo
    leaves it after round 2; the second seats Eve first. By name: Ann 7 - 5 = 2, Bo -3, Chen
    -10 + 0 = -10, Eve 6 + 5 = 11."""
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    zero_sum(
        table,
        ["Ann", "Bo", "Chen"],
        [[10, -5, -5], [-4, 2, -2, 4], [1, None, -3, 2]],
        [(1, "join", "Eve", 3), (2, "leave", "Bo")],
    )
    zero_sum(table, ["Eve", "Ann", "Chen"], [[5, -5, 0]])
    return table


def test_balances_are_the_sum_of_the_settlements_by_name_with_who_left_and_who_came(evening):
    found = ledger.ledger(evening.people, evening.played(), [])
    assert found["balances"]["money"] == {"Ann": 2, "Bo": -3, "Chen": -10, "Eve": 11}
    paid = dict.fromkeys(PEOPLE, Decimal(0))
    for transfer in found["settlement"]["money"]:
        paid[transfer["from"]] += Decimal(str(transfer["amount"]))
        paid[transfer["to"]] -= Decimal(str(transfer["amount"]))
    assert {name: -amount for name, amount in paid.items()} == {
        "Ann": 2,
        "Bo": -3,
        "Chen": -10,
        "Eve": 11,
    }
    assert len(found["settlement"]["money"]) <= 3


def test_the_stored_results_are_what_the_rounds_replay_to(evening):
    stored = {m["match"]["pk"]: m["result"] for m in evening.played()}
    for match in evening.matches.prefetch_related(WITH_ROUNDS):
        game, board, _result = replayed(match)
        assert stored[match.pk] == {"game": match.game, **ledger.kept(game, board, match.closed)}
    call_command("rebuild_results", stdout=io.StringIO())
    assert {m["match"]["pk"]: m["result"] for m in evening.played()} == stored


def test_the_table_exports_and_imports_back_its_comings_and_goings(evening):
    client = Client()
    exported = client.get(reverse("table_export_json", args=[evening.public_id])).content
    document = json.loads(exported)
    assert document["matches"][0]["joined"] == {"Eve": 2}
    assert document["matches"][0]["left"] == {"Bo": 2}
    again = store_table(document)
    assert (
        ledger.ledger(again.people, again.played(), [])["balances"]
        == ledger.ledger(evening.people, evening.played(), [])["balances"]
    )


def test_a_renamed_person_is_renamed_in_who_joined_and_left(evening):
    evening.change_setup("Thursday", ["Ann", "Bob", "Chen", "Eva"])
    first = evening.matches.order_by("pk").first()
    assert (first.joined, first.left) == ({"Eva": first.joined["Eva"]}, {"Bob": 2})
    assert ledger.ledger(evening.people, evening.played(), [])["balances"]["money"] == {
        "Ann": 2,
        "Bob": -3,
        "Chen": -10,
        "Eva": 11,
    }


# ---- five for a four-seat game


FIVE = ["Ann", "Bo", "Chen", "Dee", "Eve"]
HAND = json.loads((Path(__file__).parent / "examples" / "gongzhu-plain.match.json").read_text())[
    "rounds"
][0]


def new_match_page(client, table, **query):
    url = reverse("table_new_match", args=[table.public_id, "gongzhu"])
    return client.get(url, query)


def start_suggested(client, table):
    """Start a Gongzhu match as the new-match page suggests: its seats and who sits out."""
    page = new_match_page(client, table).content.decode()
    seats = {f"player_{seat}": value_of(page, f"player_{seat}") for seat in range(4)}
    out = re.findall(r'name="sat_out" value="([^"]*)"', page)
    response = client.post(
        reverse("table_new_match", args=[table.public_id, "gongzhu"]),
        {**seats, "end": '"hands"', "hands": "1", "sat_out": out},
    )
    assert response.status_code == 302
    return Match.objects.latest("pk"), out


def value_of(page, name):
    return re.search(rf'name="{name}" value="([^"]*)"', page)[1]


def test_five_for_gongzhu_the_one_who_sat_out_least_then_longest_ago_sits_out(client):
    table = Table.objects.create(name="Five", people=FIVE)
    rotation = []
    for _ in range(7):
        match, out = start_suggested(client, table)
        match.add_round(HAND, "h1")
        assert match.players == [p for p in FIVE if p not in out]
        assert match.sat_out == out
        rotation.append(out[0])
    assert rotation == ["Ann", "Bo", "Chen", "Dee", "Eve", "Ann", "Bo"]
    rows = {
        (r["person"], r["game"]): r for r in ledger.statistics(ledger.People(FIVE), table.played())
    }
    assert {name: rows[(name, "gongzhu")]["sat_out"] for name in FIVE} == {
        "Ann": 2,
        "Bo": 2,
        "Chen": 1,
        "Dee": 1,
        "Eve": 1,
    }
    page = visible(client.get(reverse("table", args=[table.public_id])).content.decode())
    assert "Sat out" in page


def test_a_tap_puts_another_player_out_and_the_statistics_count_it(client):
    table = Table.objects.create(name="Five", people=FIVE)
    page = visible(new_match_page(client, table).content.decode())
    assert "Ann sits this match out (sat out 0 times so far)." in page
    html = new_match_page(client, table, out="Dee").content.decode()
    assert "Dee sits this match out" in visible(html)
    assert value_of(html, "player_3") == "Eve"
    assert 'href="?out=Ann"' in html  # Ann sits out instead, with a tap
    # asked for a name that is none of the table's people, or too many: the suggestion stands
    assert "Ann sits this match out" in visible(
        new_match_page(client, table, out="Zoe").content.decode()
    )


def test_who_sits_out_is_kept_only_of_the_tables_people_not_playing():
    table = Table.objects.create(name="Five", people=FIVE)
    match = table.start_match("gongzhu", FIVE[:4], {}, sat_out=["eve", "Ann", "Zoe", "Eve"])
    assert match.sat_out == ["Eve"]


def test_a_game_whose_players_are_a_range_suggests_nobody(client):
    table = Table.objects.create(name="Five", people=FIVE)
    url = reverse("table_new_match", args=[table.public_id, "least_score"])
    assert "sits this match out" not in visible(client.get(url).content.decode())


def test_who_sat_out_is_renamed_with_the_table_and_stays_one_of_its_people():
    table = Table.objects.create(name="Five", people=FIVE)
    match = table.start_match("gongzhu", FIVE[:4], {}, sat_out=["Eve"])
    table.change_setup("Five", ["Ann", "Bo", "Chen", "Dee", "Eva"])
    match.refresh_from_db()
    assert match.sat_out == ["Eva"]
    with pytest.raises(Refused):  # she sat a match of the table out: she stays one of its people
        table.change_setup("Five", FIVE[:4])
