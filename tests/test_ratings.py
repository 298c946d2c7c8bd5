"""Ratings per table and game: OpenSkill's Plackett-Luce model over each finished match's stored
places, oldest ended first, partners as teams; the export says enough to check every figure."""

import copy
import json
import math
import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from games import ratings, rules
from games.models import Match, Result, Table
from games.records import store, store_table
from tests.season import EXAMPLES, season_document

pytestmark = pytest.mark.django_db

TOLERANCE = 1e-9


def exported(table):
    """The table's JSON export, as its score link gives it."""
    return json.loads(Client().get(f"/t/{table.public_id}/table.json").content)


def game_key(match):
    """The game a match of the export is rated in (the slug; a score sheet's title)."""
    if match["game"] == "sheet":
        return "sheet:" + (match.get("options", {}).get("title") or "").strip()
    return match["game"]


def sides(match):
    """Seats rated together: Smear's partners, and Gongzhu's in pairs, sit opposite."""
    pairs = match["game"] == "smear" or (
        match["game"] == "gongzhu" and match.get("options", {}).get("mode") == "pairs"
    )
    n = len(match["players"])
    return [[0, 2], [1, 3]] if pairs and n == 4 else [[seat] for seat in range(n)]


def rated_by_openskill(document):
    """{game: {name: (mu, sigma, matches)}}: the export's rated matches, in its order, rated with
    the openskill package directly."""
    model, found, counts = PlackettLuce(), {}, {}
    for match in document["matches"]:
        if "places" not in match:
            continue
        game, places = game_key(match), match["places"]
        ratings_now = found.setdefault(game, {})
        teams = [[match["players"][seat] for seat in side] for side in sides(match)]
        ranks = [min(places[name] for name in team) for team in teams]
        new = model.rate(
            [[ratings_now.get(name) or model.rating() for name in team] for team in teams],
            ranks=ranks,
        )
        for team, rated in zip(teams, new):
            for name, rating in zip(team, rated):
                ratings_now[name] = rating
                counts[game, name] = counts.get((game, name), 0) + 1
    return {
        game: {name: (r.mu, r.sigma, counts[game, name]) for name, r in by_name.items()}
        for game, by_name in found.items()
    }


def finished(document):
    """Whether the match document is over (by its own end, or closed)."""
    return rules.outcome(*rules.replay(document))["finished"]


def assert_same(theirs, ours):
    """The export's ratings ({game: {name: {"mu", "sigma", "matches"}}}) are openskill's."""
    assert set(ours) == set(theirs)
    for game, by_name in theirs.items():
        assert set(ours[game]) == set(by_name), game
        for name, (mu, sigma, count) in by_name.items():
            mine = ours[game][name]
            assert abs(mine["mu"] - mu) <= TOLERANCE, (game, name)
            assert abs(mine["sigma"] - sigma) <= TOLERANCE, (game, name)
            assert mine["matches"] == count, (game, name)


def test_one_match_of_two_is_rated_as_worked_out_by_hand():
    """Plackett-Luce (Weng and Lin's algorithm 4) for two new players, Ann first: both start at
    mu 25, sigma 25/3, each sigma grown by tau 25/300 first; c is their spread with beta 25/6."""
    table = Table.objects.create(name="Two", people=["Ann", "Bo"])
    document = {"game": "sheet", "players": ["Ann", "Bo"], "rounds": [{"points": [5, 2]}]}
    table.take_match(store({**document, "closed": True}))
    sigma2 = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(2 * sigma2 + 2 * (25 / 6) ** 2)
    omega = sigma2 / c * 0.5  # the winner's 1 - p (p = 1/2 at equal skill); the loser's -p
    delta = (sigma2 / c**2) * 0.25 * (math.sqrt(sigma2) / c)  # p (1 - p), times gamma
    sigma = math.sqrt(sigma2) * math.sqrt(1 - delta)
    figures = exported(table)["ratings"]["sheet:"]
    assert figures["Ann"]["mu"] == pytest.approx(25 + omega, abs=TOLERANCE)
    assert figures["Bo"]["mu"] == pytest.approx(25 - omega, abs=TOLERANCE)
    assert figures["Ann"]["sigma"] == pytest.approx(sigma, abs=TOLERANCE)
    assert figures["Bo"]["sigma"] == pytest.approx(sigma, abs=TOLERANCE)
    # the figure shown: 10 x (mu - 3 sigma), whole
    season = table.season(table.played())
    assert season.leaderboard("sheet:")[0]["figure"] == round(10 * (25 + omega - 3 * sigma))

    # a tie: both share the first place; the one rated higher loses a little to the other
    table.take_match(store({**document, "rounds": [{"points": [3, 3]}], "closed": True}))
    tied = exported(table)["ratings"]["sheet:"]
    assert tied["Ann"]["mu"] < figures["Ann"]["mu"] and tied["Bo"]["mu"] > figures["Bo"]["mu"]
    assert tied["Ann"]["sigma"] < figures["Ann"]["sigma"]
    assert tied["Ann"]["matches"] == 2


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_rating_is_openskills_from_the_exports_matches_in_their_order(seed):
    document = season_document(seed, 240)
    table = store_table(document)
    export = exported(table)
    assert len(export["matches"]) == 240
    # imported in one go: they ended in the document's order, and are rated in it; those in
    # play last, as they started
    ended = [m for m in document["matches"] if finished(m)]
    in_play = [m for m in document["matches"] if not finished(m)]
    in_order = [m["players"] for m in ended + in_play]
    assert [m["players"] for m in export["matches"]] == in_order
    rated = [m for m in export["matches"] if "places" in m]
    games = {game_key(m) for m in rated}
    assert {"gongzhu", "smear", "sanming", "six_nimmt", "least_score", "sheet:Hearts"} <= games
    assert any(len(set(m["places"].values())) < len(m["places"]) for m in rated)  # ties
    assert any(m["game"] == "gongzhu" and m["options"].get("mode") == "pairs" for m in rated)
    unrated = [m for m in export["matches"] if "places" not in m]
    assert all(not m["rounds"] or not m["closed"] for m in unrated)
    assert_same(rated_by_openskill(export), export["ratings"])


def test_matches_are_rated_in_the_order_they_ended_then_by_id():
    table = Table.objects.create(name="Order", people=["Ann", "Bo", "Chen"])
    results = [[5, 2, 1], [1, 5, 2], [2, 1, 5]]
    made = []
    for points in results:
        match = store({"game": "sheet", "players": table.people, "rounds": [{"points": points}]})
        table.take_match(match)
        made.append(match)
    ended = timezone.now()
    for match in made:  # the first one started ended last; the other two at the same time
        match.set_closed(True)
    Result.objects.filter(match=made[0]).update(ended=ended + timedelta(hours=2))
    Result.objects.filter(match__in=made[1:]).update(ended=ended)
    export = exported(table)
    assert [m["rounds"][0]["points"] for m in export["matches"]] == [
        results[1],
        results[2],
        results[0],
    ]
    assert_same(rated_by_openskill(export), export["ratings"])


def test_a_match_in_play_or_closed_before_its_first_round_is_not_rated():
    table = Table.objects.create(name="Unrated", people=["Ann", "Bo"])
    in_play = store({"game": "sheet", "players": ["Ann", "Bo"], "rounds": [{"points": [1, 0]}]})
    empty = store({"game": "sheet", "players": ["Ann", "Bo"], "rounds": [], "closed": True})
    for match in (in_play, empty):
        table.take_match(match)
    export = exported(table)
    assert export["ratings"] == {}
    assert all("places" not in m for m in export["matches"])
    in_play.set_closed(True)  # closed by hand after a round: rated
    assert exported(table)["ratings"]["sheet:"]["Ann"]["matches"] == 1


def test_partners_are_rated_as_a_team_of_two():
    table = Table.objects.create(name="Pairs", people=["Ann", "Bo", "Chen", "Dee"])
    for game in ("smear-both-reach", "gongzhu-pairs"):
        document = json.loads((EXAMPLES / f"{game}.match.json").read_text())
        table.take_match(store({**document, "closed": True}))
    figures = exported(table)["ratings"]
    for game in ("smear", "gongzhu"):
        by_name = figures[game]
        # partners sit opposite: seats 0 and 2 (Ann, Chen), 1 and 3 (Bo, Dee)
        assert by_name["Ann"]["mu"] == pytest.approx(by_name["Chen"]["mu"])
        assert by_name["Bo"]["mu"] == pytest.approx(by_name["Dee"]["mu"])
        assert by_name["Ann"]["mu"] != pytest.approx(by_name["Bo"]["mu"])


def test_an_import_ignores_the_ratings_it_is_given_and_works_them_out_anew():
    document = season_document(5, 60)
    first = exported(store_table(document))
    forged = copy.deepcopy(first)
    forged.update(table="Forged", ratings={"sheet:": {"Ann": {"mu": 99, "sigma": 1}}})
    for match in forged["matches"]:
        if "places" in match:
            match["places"] = dict.fromkeys(match["places"], 1)
    again = exported(store_table(forged))
    assert again["ratings"] == first["ratings"]
    assert [m.get("places") for m in again["matches"]] == [
        m.get("places") for m in first["matches"]
    ]


def sheet_table(name, matches, seats):
    """A table of score sheets (matches: [(players, [points of each round])]) with each
    match's seats in the order seats(k, n) gives (a list of seat indices)."""
    people = sorted({player for players, _ in matches for player in players})
    table = Table.objects.create(name=name, people=people)
    for k, (players, rounds) in enumerate(matches):
        order = seats(k, len(players))
        document = {
            "game": "sheet",
            "players": [players[seat] for seat in order],
            "rounds": [{"points": [points[seat] for seat in order]} for points in rounds],
            "closed": True,
        }
        table.take_match(store(document))
    return table


def figures_of(table):
    """{game: {name: (mu, sigma, matches)}} and {name: head to head} of the table."""
    played = table.played()
    season = table.season(played)
    document = season.document()
    heads = {name: ratings.head_to_head(table.people, played, name) for name in table.people}
    return to_9_places(document), heads


def to_9_places(value):
    """value with each float rounded to 1e-9 (seats in another order add up in another order)."""
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, dict):
        return {key: to_9_places(item) for key, item in value.items()}
    if isinstance(value, list):
        return [to_9_places(item) for item in value]
    return value


PEOPLE = ["Ann", "Bo", "Chen", "Dee", "Eve"]
MATCHES = st.lists(
    st.lists(st.sampled_from(PEOPLE), min_size=2, max_size=5, unique=True).flatmap(
        lambda players: st.tuples(
            st.just(players),
            st.lists(
                st.lists(st.integers(0, 3), min_size=len(players), max_size=len(players)),
                min_size=1,
                max_size=3,
            ),
        )
    ),
    min_size=1,
    max_size=12,
)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(matches=MATCHES, seed=st.integers(0, 1000))
def test_swapping_seats_changes_no_rating_and_no_head_to_head(matches, seed):
    rng = random.Random(seed)
    as_typed = sheet_table("Typed", matches, lambda k, n: list(range(n)))
    swapped = sheet_table("Swapped", matches, lambda k, n: rng.sample(range(n), n))
    assert figures_of(as_typed) == figures_of(swapped)


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(matches=MATCHES)
def test_renaming_a_person_changes_no_rating_and_no_head_to_head_but_the_name(matches):
    table = sheet_table("Renamed", matches, lambda k, n: list(range(n)))
    before, heads = figures_of(table)
    old = table.people[0]
    table.change_setup(table.name, ["Zoë", *table.people[1:]])

    def renamed(value):
        if isinstance(value, dict):
            return {("Zoë" if key == old else key): renamed(v) for key, v in value.items()}
        return value

    after, heads_after = figures_of(Table.objects.get(pk=table.pk))
    assert after == renamed(before)
    assert heads_after == renamed(heads)


def test_editing_an_old_round_changes_exactly_what_it_should():
    table = Table.objects.create(name="Edits", people=["Ann", "Bo", "Chen"])
    for title, points in [("Hearts", [5, 1, 0]), ("Rummy", [0, 4, 2]), ("Hearts", [1, 2, 3])]:
        document = {
            "game": "sheet",
            "players": table.people,
            "options": {"title": title},
            "rounds": [{"points": points}],
            "closed": True,
        }
        table.take_match(store(document))
    before = exported(table)["ratings"]
    oldest = table.matches.order_by("pk").first()

    oldest.change_round(1, {"points": [6, 1, 0]})  # the same places: nothing moves
    assert exported(table)["ratings"] == before

    oldest.change_round(1, {"points": [0, 1, 5]})  # Chen first now, Ann last
    after = exported(table)
    assert after["ratings"]["sheet:Rummy"] == before["sheet:Rummy"]
    assert after["ratings"]["sheet:Hearts"] != before["sheet:Hearts"]
    assert after["matches"][0]["places"] == {"Ann": 3, "Bo": 2, "Chen": 1}
    assert_same(rated_by_openskill(after), after["ratings"])
    # the table's page is drawn from the new figures
    page = Client().get(f"/t/{table.public_id}/").content.decode()
    hearts = table.season(table.played()).leaderboard("sheet:Hearts")
    assert f'<span class="total" dir="ltr">{hearts[0]["figure"]}</span>' in page


def test_a_match_added_to_a_table_counts_once_it_ends():
    table = Table.objects.create(name="Later", people=["Ann", "Bo"])
    match = Match.objects.create(game="sheet", players=["Ann", "Bo"], options={}, table=table)
    match.add_round({"points": [3, 1]})
    assert exported(table)["ratings"] == {}
    match.set_closed(True)
    assert exported(table)["ratings"]["sheet:"]["Ann"]["matches"] == 1
    match.set_closed(False)  # reopened: not rated until it ends again
    assert exported(table)["ratings"] == {}


def test_equal_figures_share_a_rank_and_five_matches_rank_a_newcomer():
    table = Table.objects.create(name="Ties", people=["Ann", "Bo", "Chen", "Dee"])
    for _ in range(5):  # Ann and Bo share first place every time, Chen last
        document = {"game": "sheet", "players": ["Ann", "Bo", "Chen"], "closed": True}
        table.take_match(store({**document, "rounds": [{"points": [3, 3, 0]}]}))
    document = {"game": "sheet", "players": ["Dee", "Chen"], "closed": True}
    table.take_match(store({**document, "rounds": [{"points": [1, 0]}]}))
    rows = table.season(table.played()).leaderboard("sheet:")
    assert [(r["name"], r["rank"], r["new"]) for r in rows] == [
        ("Ann", 1, False),
        ("Bo", 1, False),
        ("Chen", 3, False),
        ("Dee", None, True),  # one match: shown, not ranked
    ]
    assert rows[0]["figure"] == rows[1]["figure"] > rows[2]["figure"]
