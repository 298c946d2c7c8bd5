"""Players who come and go at the table (issue 47): "Someone joins" and "Someone leaves" on a
score sheet, Least Score or 6 nimmt! match, each one model method under the write lock (Match.join,
Match.leave), carrying the version its form was drawn at and an entry key, kept in History with
Undo, said back in one line on the match page; and every hostile input refused in words with
nothing changed."""

import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games import memo
from games.models import Conflict, Match, Refused, Round, RoundEvent, SetupChange, Table, Unknown
from tests.html import visible
from tests.players import played_at_the_table

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).parent / "examples"
PLAYERS = sorted(EXAMPLES.glob("players_*.match.json"))


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def sheet(players=("Ann", "Bo", "Chen"), rounds=(), **options):
    """A score sheet match with rounds saved (each a list of points)."""
    match = Match.objects.create(game="sheet", players=list(players), options=options)
    for number, points in enumerate(rounds, 1):
        match.add_round({"points": list(points)}, f"round-{number}")
    match.refresh_from_db()
    return match


def page(client, match, name="match", **query):
    response = client.get(reverse(name, args=[match.public_id]), query)
    return response.status_code, response.content.decode()


def join_form(client, match, name, seat, late_start, confirm=True, **more):
    """Post the join form as a phone does: the first step, then (confirm) the second."""
    match.refresh_from_db()
    form = {
        "name": name,
        "seat": str(seat),
        "late_start": late_start,
        "version": str(match.version),
        "entry_key": more.pop("entry_key", "join-key"),
        **more,
    }
    if confirm:
        form["confirm"] = "1"
    return client.post(reverse("match_join", args=[match.public_id]), form)


def leave_form(client, match, name, **more):
    match.refresh_from_db()
    form = {"name": name, "version": str(match.version), "entry_key": "leave-key", **more}
    return client.post(reverse("match_leave", args=[match.public_id]), form)


def result_of(match):
    match.refresh_from_db()
    memo.forget()
    return memo.board(match)["result"]


# ---- the rule book's worked examples, played at the table


@pytest.mark.parametrize("path", PLAYERS, ids=lambda path: path.stem)
def test_a_worked_example_played_at_the_table_gives_the_rule_books_result(path):
    match = played_at_the_table(load(path))
    expected = load(path.with_name(path.name.replace(".match.", ".result.")))
    assert result_of(match) == expected
    # the table's stored result is the engine's too
    assert match.result.kept["finished"] == expected["finished"]


# ---- a join, step by step


def test_the_join_form_says_each_start_and_then_the_one_chosen_before_confirming(client):
    match = sheet(rounds=[[5, 3, 1], [2, 4, 7]], late_start="average")
    status, html = page(client, match, "match_join")
    text = visible(html)
    assert status == 200
    # totals 7, 7, 8: their average 7.33 is 7, the lowest 7, the highest 8
    for shown in (
        "At the average total: 7",
        "At 0",
        "At the lowest total: 7",
        "At the highest total: 8",
    ):
        assert shown in text
    assert "Between Chen and Ann" in text  # a seat in the seating order, clockwise
    response = join_form(client, match, " Eve ", 3, "highest", confirm=False)
    text = visible(response.content.decode())
    assert "Eve starts at 8, the highest total." in text
    assert "Sits between Chen and Ann." in text
    match.refresh_from_db()
    assert match.players == ["Ann", "Bo", "Chen"]  # nothing changed before the confirmation


def test_a_join_seats_the_player_for_the_next_round_and_says_it_back_with_undo(client):
    match = sheet(rounds=[[5, 3, 1], [2, 4, 7]], late_start="average")
    response = join_form(client, match, "Eve", 1, "average")
    assert response.status_code == 302
    change = SetupChange.objects.get()
    assert response["Location"] == reverse("match", args=[match.public_id]) + f"?said={change.pk}"
    match.refresh_from_db()
    assert match.players == ["Ann", "Eve", "Bo", "Chen"]
    assert match.joined == {"Eve": 3}
    # every stored round has nothing for her, in her seat, and so has its history
    assert [r.entry for r in match.rounds.all()] == [
        {"points": [5, None, 3, 1]},
        {"points": [2, None, 4, 7]},
    ]
    assert all(e.entry["points"][1] is None for e in RoundEvent.objects.all())
    status, html = page(client, match, said=str(change.pk))
    text = visible(html)
    assert "Eve joined: plays from round 3, starting at 7." in text
    assert f'action="/m/{match.public_id}/setup/{change.pk}/undo/"' in html
    # the entry form asks her too; the scoreboard shows "–" where she did not play
    assert 'name="points-1"' in html
    assert html.count('<td class="away"') == 2
    assert "plays from round 3" in text
    result = result_of(match)
    assert (result["start"], result["totals"]) == ([0, 7, 0, 0], [7, 7, 7, 8])


def test_the_said_line_is_only_for_the_latest_change_of_the_match(client):
    match = sheet(rounds=[[5, 3, 1]])
    match.join("Eve", 3)
    first = SetupChange.objects.get()
    match.leave("Bo")
    _status, html = page(client, match, said=str(first.pk))
    assert "Eve joined:" not in visible(html) and "data-undo" not in html
    _status, html = page(client, match, said="not-a-number")
    assert "data-undo" not in html


def test_undo_of_a_join_takes_the_seat_away_again_on_the_match_page(client):
    match = sheet(rounds=[[5, 3, 1]])
    change = match.join("Eve", 0)
    url = reverse("match_setup_undo", args=[match.public_id, change.pk])
    response = client.post(url, {"next": "match", "version": match.version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="match-body"' in response.content.decode()
    # the undo said back in its turn, its own Undo seating her again
    assert "Eve no longer joins Undo" in " ".join(visible(response.content.decode()).split())
    match.refresh_from_db()
    assert (match.players, match.joined) == (["Ann", "Bo", "Chen"], {})
    assert [r.entry for r in match.rounds.all()] == [{"points": [5, 3, 1]}]
    history = visible(page(client, match, "history")[1])
    assert "Eve joined, playing from round 2" in history
    assert "Eve no longer joins" in history


def test_undo_of_a_join_is_refused_once_the_player_has_played_naming_the_round(client):
    match = sheet(rounds=[[5, 3, 1]])
    change = match.join("Eve", 3)
    seen = match.version  # the Undo line drawn now
    match.add_round({"points": [1, 1, 1, 9]}, "r2")
    url = reverse("match_setup_undo", args=[match.public_id, change.pk])
    response = client.post(url, {"next": "match", "version": seen})
    assert response.status_code == 409
    assert "Not undone: the match was changed since" in visible(response.content.decode())
    response = client.post(url)  # from History
    assert response.status_code == 422
    assert "Eve has played round 2: delete their rounds first" in visible(response.content.decode())
    match.refresh_from_db()
    assert match.players == ["Ann", "Bo", "Chen", "Eve"]


def test_a_join_before_the_first_round_seats_the_player_with_everyone(client):
    match = sheet()
    join_form(client, match, "Eve", 3, "zero")
    match.refresh_from_db()
    assert (match.players, match.joined) == (["Ann", "Bo", "Chen", "Eve"], {})
    assert "start" not in result_of(match)


def test_deleting_or_restoring_a_round_before_a_join_keeps_the_round_the_player_joined_at(client):
    match = sheet(rounds=[[5, 3, 1], [2, 4, 7]])
    match.join("Eve", 3)
    match.add_round({"points": [1, 1, 1, 9]}, "r3")
    match.delete_round(1)
    result = result_of(match)
    assert [r["points"] for r in result["rounds"]] == [[2, 4, 7, None], [1, 1, 1, 9]]
    match.restore_round(1)
    assert result_of(match)["rounds"][2]["points"] == [1, 1, 1, 9]


# ---- a leave


def test_a_leave_freezes_the_total_says_so_and_asks_only_the_others(client):
    match = sheet(rounds=[[5, 3, 1], [2, 4, 7]])
    status, html = page(client, match, "match_leave")
    assert status == 200 and "Bo leaves" in visible(html)
    response = leave_form(client, match, "Bo")
    assert response.status_code == 302
    _status, html = page(client, match, said=response["Location"].split("=")[1])
    text = visible(html)
    assert "Bo left after round 2, with 7." in text
    assert "left after round 2" in text.split("Bo left after round 2, with 7.")[1]
    assert 'name="points-1"' not in html and 'name="points-2"' in html
    match.add_round({"points": [1, None, 1]}, "r3")
    result = result_of(match)
    assert (result["totals"], result["left"]) == ([8, 7, 9], {"Bo": 2})


def test_rename_in_names_and_options_follows_joins_and_leaves():
    match = sheet(rounds=[[5, 3, 1]])
    match.join("Eve", 3)
    match.leave("Bo")
    match.change_setup(["Ann", "Bob", "Chen", "Eva"], {})
    match.refresh_from_db()
    assert (match.joined, match.left) == ({"Eva": 2}, {"Bob": 1})


# ---- hostile input: a clear message, nothing changed


def unchanged(match, before):
    match.refresh_from_db()
    return (match.players, match.joined, match.left, match.version) == before


def state(match):
    match.refresh_from_db()
    return (match.players, match.joined, match.left, match.version)


@pytest.mark.parametrize(
    "players, name, message",
    [
        # past the player limit: Least Score is for 2 to 8
        (
            ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8"],
            "Zoe",
            "Least Score is for 2 to 8 players",
        ),
        # a name already at the table, however it is typed
        (["Ann", "Bo", "Chen"], " ann ", "two players are called ann"),
        (["Ann", "Bo", "Chen"], "x" * 41, "is longer than 40 characters"),
        (["Ann", "Bo", "Chen"], "Eve\nEve", "a player's name cannot hold line breaks"),
    ],
)
def test_a_join_the_rules_refuse_is_said_next_to_the_name(client, players, name, message):
    match = Match.objects.create(game="least_score", players=players)
    match.add_round({"declarer": 0, "hands": [1] + [5] * (len(players) - 1)}, "r1")
    before = state(match)
    response = join_form(client, match, name, 1, "highest")
    assert response.status_code == 422
    assert message in visible(response.content.decode())
    assert unchanged(match, before)


def test_an_empty_name_is_asked_for():
    client = Client()
    match = sheet(rounds=[[1, 2, 3]])
    response = join_form(client, match, "  ", 1, "zero")
    assert "Type the name of the player who joins." in visible(response.content.decode())


def test_nobody_joins_or_leaves_a_finished_match(client):
    match = sheet(rounds=[[5, 3, 1]], hands=1)
    before = state(match)
    for response in (join_form(client, match, "Eve", 1, "zero"), leave_form(client, match, "Bo")):
        assert response.status_code == 422
        assert "the match is finished: nobody joins or leaves it now" in visible(
            response.content.decode()
        )
    assert unchanged(match, before)
    _status, html = page(client, match)
    assert "Someone joins" not in html


def test_a_leave_that_leaves_one_player_is_refused_unless_the_game_ends_there(client):
    match = sheet(players=["Ann", "Bo"], rounds=[[5, 3]])
    before = state(match)
    response = leave_form(client, match, "Bo")
    assert response.status_code == 422
    assert "if Bo leaves, nobody is left to play with: close the match instead" in visible(
        response.content.decode()
    )
    assert unchanged(match, before)
    # Least Score's last one standing: Bo leaving ends the match and Ann wins, as the rules say
    least = Match.objects.create(game="least_score", players=["Ann", "Bo"])
    least.add_round({"declarer": 0, "hands": [1, 9]}, "r1")
    least.leave("Bo")
    assert (result_of(least)["finished"], result_of(least)["winners"]) == (True, ["Ann"])


def test_the_same_join_sent_twice_joins_once(client):
    match = sheet(rounds=[[5, 3, 1]])
    first = join_form(client, match, "Eve", 3, "zero", entry_key="twice")
    again = join_form(client, match, "Eve", 3, "zero", entry_key="twice", version="0")
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    match.refresh_from_db()
    assert match.players == ["Ann", "Bo", "Chen", "Eve"]
    assert SetupChange.objects.count() == 1


def test_a_join_drawn_before_a_round_from_another_phone_is_refused_with_both_sides(client):
    match = sheet(rounds=[[5, 3, 1]], late_start="highest")
    match.refresh_from_db()
    drawn_at = match.version
    match.add_round({"points": [1, 20, 1]}, "other-phone")
    form = {
        "name": "Eve",
        "seat": "3",
        "late_start": "highest",
        "version": str(drawn_at),
        "entry_key": "k",
        "shown": "5",  # the start its confirmation said
        "confirm": "1",
    }
    response = client.post(reverse("match_join", args=[match.public_id]), form)
    assert response.status_code == 409
    text = visible(response.content.decode())
    assert "changed from another phone: the start you saw, 5, is now 23" in text
    assert "Eve starts at 23, the highest total." in text
    match.refresh_from_db()
    assert match.players == ["Ann", "Bo", "Chen"]
    # confirming again, from the form drawn now, joins
    version = re.search(r'name="version" value="(\d+)"', response.content.decode())[1]
    assert join_form(client, match, "Eve", 3, "highest", version=version).status_code == 302


def test_a_stale_leave_is_refused_and_the_page_drawn_as_it_stands():
    match = sheet(rounds=[[5, 3, 1]])
    with pytest.raises(Conflict):
        match.leave("Bo", "k", seen=match.version - 1)
    response = leave_form(Client(), match, "Bo", version=str(match.version - 1))
    assert response.status_code == 422
    text = visible(response.content.decode())
    assert "changed from another phone" in text and "You tapped Bo" in text
    assert "Bo leaves" in text  # the list as it stands now, to tap again
    assert match.left == {}


def test_a_game_with_fixed_seats_has_neither_page_nor_method():
    match = Match.objects.create(game="gongzhu", players=["Ann", "Bo", "Chen", "Dee"])
    client = Client()
    assert page(client, match, "match_join")[0] == 404
    assert page(client, match, "match_leave")[0] == 404
    with pytest.raises(Refused) as refused:
        match.join("Eve", 4)
    assert str(refused.value.error) == "Gongzhu has fixed seats: nobody joins or leaves a match"


def test_a_watch_link_can_neither_join_nor_leave(client):
    match = sheet(rounds=[[5, 3, 1]])
    before = state(match)
    for name in ("match_join", "match_leave"):
        url = reverse(name, args=[match.watch_id])
        assert client.get(url).status_code == 403
        form = {"name": "Eve", "seat": "3", "late_start": "zero", "version": "0", "confirm": "1"}
        assert client.post(url, {**form, "entry_key": "w"}).status_code == 403
    assert unchanged(match, before)
    _status, watch = page(client, match, "watch")
    assert "/join/" not in watch and "/leave/" not in watch


def test_a_leave_before_any_round_or_twice_is_refused_in_words():
    match = sheet()
    with pytest.raises(Refused) as refused:
        match.leave("Bo")
    assert "once a round is played" in str(refused.value.error)
    match.add_round({"points": [1, 2, 3]}, "r1")
    match.leave("Bo")
    with pytest.raises(Refused) as refused:
        match.leave("bo")
    assert str(refused.value.error) == "Bo has left already"
    with pytest.raises(Refused) as refused:
        match.leave("Zoe")
    assert str(refused.value.error) == "Zoe is not one of the players"


def test_a_long_right_to_left_name_joins_and_shows_its_dashes(client):
    name = "فاطمه‌زهرا " + "ب" * 29  # 40 characters, a non-joiner inside
    assert len(name) == 40
    match = sheet(rounds=[[5, 3, 1]])
    assert join_form(client, match, name, 3, "zero").status_code == 302
    match.refresh_from_db()
    assert match.players[3] == name
    _status, html = page(client, match)
    assert '<td class="away"' in html
    assert name in visible(html)


# ---- a table's match


def test_a_tables_match_seats_only_the_tables_people_and_never_adds_one(client):
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen", "Eve"])
    match = table.start_match("sheet", ["Ann", "Bo", "Chen"], {})
    match.add_round({"points": [1, 2, 3]}, "r1")
    before = state(match)
    response = join_form(client, match, "Zoe", 3, "zero")
    text = visible(response.content.decode())
    assert response.status_code == 422
    assert "Zoe is not one of this table's people" in text
    assert "/setup/" not in response.content.decode()  # this phone does not hold the table's link
    table.refresh_from_db()
    assert table.people == ["Ann", "Bo", "Chen", "Eve"]
    assert unchanged(match, before)
    with pytest.raises(Unknown):
        match.join("Zoe", 3)
    # a phone holding the table's score link is pointed at its names page
    client.get(reverse("table", args=[table.public_id]))
    response = join_form(client, match, "Zoe", 3, "zero")
    assert reverse("table_setup", args=[table.public_id]) in response.content.decode()
    # one of its people joins
    assert join_form(client, match, "eve", 3, "zero").status_code == 302
    match.refresh_from_db()
    assert match.players == ["Ann", "Bo", "Chen", "eve"] or match.players[3].lower() == "eve"


def test_rounds_stay_as_they_were_when_a_refused_join_changed_nothing():
    match = sheet(rounds=[[5, 3, 1]], zero_sum=False)
    entries = list(Round.objects.values_list("entry", flat=True))
    with pytest.raises(Refused):
        match.join("Ann", 1)
    assert list(Round.objects.values_list("entry", flat=True)) == entries


def test_a_rematch_is_played_by_those_who_stayed_and_those_who_came():
    match = sheet(rounds=[[5, 3, 1]])
    match.join("Eve", 3)
    match.add_round({"points": [1, 1, 1, 1]}, "r2")
    match.leave("Bo")
    match.set_closed(True)
    following = match.rematch()
    assert (following.players, following.joined, following.left) == (["Ann", "Chen", "Eve"], {}, {})


def test_once_someone_joined_a_later_joiner_starts_by_the_same_rule(client):
    match = sheet(rounds=[[5, 3, 1]], late_start="highest")
    match.join("Eve", 3, "highest")
    match.add_round({"points": [1, 1, 1, 1]}, "r2")
    _status, html = page(client, match, "match_join")
    text = visible(html)
    assert "At the highest total: 6" in text
    assert "At the lowest total" not in text and "At 0" not in text
    assert "“Names and options” changes it for them all" in text
    assert join_form(client, match, "Fay", 4, "lowest").status_code == 422  # not offered
    match.refresh_from_db()
    assert match.players == ["Ann", "Bo", "Chen", "Eve"]


@pytest.mark.parametrize("game", ["sheet", "gongzhu"])
def test_nobody_is_said_to_come_late_before_the_first_round(client, game):
    """A new match names no latecomer: everyone sits down for round 1 (Gongzhu's fixed seats
    too); a player seated after round 1 is "plays from round 2"."""
    match = Match.objects.create(game=game, players=["Ann", "Bo", "Chen", "Dee"])
    _status, text = page(client, match)
    assert "plays from round" not in visible(text)
    if game == "sheet":
        match.add_round({"points": [1, 2, 3, 4]}, "first")
        assert join_form(client, match, "Eve", 4, "zero").status_code == 302
        assert "Eve plays from round 2" in " ".join(visible(page(client, match)[1]).split())
