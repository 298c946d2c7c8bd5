"""A season's screens: each game's leaderboard on the table's page, a person's page, two people
head to head, and every match of the table, paged and filtered."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Match, Table
from games.records import store, store_table
from tests.html import visible
from tests.season import season_document

pytestmark = pytest.mark.django_db

PEOPLE = ["Ann", "Bo", "Chen"]


def sheet(table, points, title="Hearts", closed=True, days_ago=0):
    """A score sheet of the table, one round, started days_ago at 8 pm."""
    document = {
        "game": "sheet",
        "players": table.people[: len(points)],
        "options": {"title": title, "zero_sum": True, "stake": 1},
        "rounds": [{"points": points}],
        "closed": closed,
    }
    match = store(document, table)
    when = timezone.now().replace(hour=20) - timedelta(days=days_ago)
    Match.objects.filter(pk=match.pk).update(created=when)
    return match


@pytest.fixture
def table():
    """Ann wins six Hearts evenings of three, Bo one; a Rummy in play."""
    made = Table.objects.create(name="Thursday", people=[*PEOPLE, "Dee"])
    for week in range(6):
        sheet(made, [2, -1, -1], days_ago=7 * (7 - week))
    sheet(made, [-1, 2, -1], days_ago=7)
    sheet(made, [1, -1, 0], title="Rummy", closed=False)
    return made


def words(shown):
    """The text with every run of spaces one space."""
    return " ".join(shown.split())


def text(response):
    return words(visible(response.content.decode()))


def test_the_tables_page_shows_each_games_leaderboard_new_people_unranked(table):
    page = Client().get(f"/t/{table.public_id}/").content.decode()
    board = page[page.index('class="table-ratings"') :]
    board = visible(board[: board.index("</section>")])
    assert "Rating in Hearts" in board
    assert "What is a rating?" in board and "everyone starts at 0" in board
    season = table.season(table.played())
    rows = season.leaderboard("sheet:Hearts")
    assert [r["name"] for r in rows] == ["Ann", "Bo", "Chen"]
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert rows[0]["figure"] > rows[1]["figure"]
    # Ann lost the latest evening to Bo: her figure went down on it, his up
    assert rows[0]["trend"] < 0 < rows[1]["trend"]
    assert f"1 Ann 7 matches ▼ down {-rows[0]['trend']} {rows[0]['figure']}" in words(board)
    assert f"2 Bo 7 matches ▲ up {rows[1]['trend']} {rows[1]['figure']}" in words(board)
    assert "Rummy" not in board  # in play: not rated
    # someone with fewer than 5 rated matches is new: shown, not ranked
    newcomer = Table.objects.create(name="New", people=PEOPLE)
    sheet(newcomer, [2, -1, -1])
    rows = newcomer.season(newcomer.played()).leaderboard("sheet:Hearts")
    assert all(r["new"] and r["rank"] is None for r in rows)
    assert "New Ann 1 of 5 matches" in text(Client().get(f"/t/{newcomer.public_id}/"))


def test_a_tap_on_a_name_opens_their_page(table):
    page = Client().get(f"/t/{table.public_id}/").content.decode()
    people = re.search(r'<nav class="table-people".*?</nav>', page, re.S).group(0)
    links = re.findall(r'href="([^"]+)"', people)
    assert links == [f"/t/{table.public_id}/people/{k}/" for k in range(1, 5)]
    watch = Client().get(f"/tw/{table.watch_id}/").content.decode()
    assert f'href="/tw/{table.watch_id}/people/1/"' in watch


def test_a_persons_page_has_their_rating_record_rivals_and_evenings(table):
    answer = Client().get(f"/t/{table.public_id}/people/1/")
    assert answer.status_code == 200
    shown = text(answer)
    assert "Ann" in shown and "At Thursday" in shown
    assert "Balance in money +11.00" in shown  # 6 x 2, less the evening Bo won
    hearts = table.season(table.played()).leaderboard("sheet:Hearts")[0]
    assert "Hearts place 1 in the ratings · 7 played, 6 won, average place 1.1" in shown
    assert str(hearts["figure"]) in shown
    assert "Head to head" in shown
    assert "Bo 7 matches together: Ann ahead 6, Bo ahead 1" in shown
    assert "In money: Ann +11.00, Bo -4.00" in shown
    assert "Finishes ahead of Ann most often: Bo" in shown
    assert "Closest rival (the most even record): Bo" in shown
    assert "Their evenings" in shown and "place 1" in shown
    assert f'href="/t/{table.public_id}/matches/?person=1"' in answer.content.decode()
    # Dee has played nothing yet
    assert "No match of theirs has ended yet." in text(
        Client().get(f"/t/{table.public_id}/people/4/")
    )


def test_two_people_head_to_head(table):
    shown = text(Client().get(f"/t/{table.public_id}/people/2/vs/1/"))
    assert "Bo and Ann" in shown
    assert "7 matches together" in shown
    assert "Bo ahead: 1 time" in shown and "Ann ahead: 6 times" in shown
    assert "In money, in these matches: Bo -4.00, Ann +11.00" in shown
    assert "Their latest matches together" in shown


@pytest.mark.parametrize(
    "path",
    ["people/0/", "people/5/", "people/1/vs/1/", "people/1/vs/9/", "people/99/vs/1/"],
)
def test_a_person_who_is_none_of_the_tables_is_not_found(table, path):
    assert Client().get(f"/t/{table.public_id}/{path}").status_code == 404
    assert Client().get(f"/tw/{table.watch_id}/{path}").status_code == 404


def test_a_watch_link_under_the_score_path_is_refused(table):
    for path in ("people/1/", "people/1/vs/2/", "matches/"):
        assert Client().get(f"/t/{table.watch_id}/{path}").status_code == 403
        assert Client().get(f"/tw/{table.public_id}/{path}").status_code == 404


def test_every_match_is_a_tap_away_paged_back_to_the_oldest():
    table = store_table(season_document(8, 120))
    client = Client()
    path, seen, pages = f"/t/{table.public_id}/matches/", 0, 0
    while path:
        page = client.get(path).content.decode()
        seen += page.count('class="match-link"')
        pages += 1
        older = re.search(r'href="([^"]+)" rel="next"', page)
        path = older and f"/t/{table.public_id}/matches/" + older.group(1).replace("&amp;", "&")
    assert (pages, seen) == (6, 120)
    oldest = table.matches.order_by("created", "pk").first()
    assert f'href="/m/{oldest.public_id}/"' in page
    watched = client.get(f"/tw/{table.watch_id}/matches/?page=6").content.decode()
    assert f'href="/w/{oldest.watch_id}/"' in watched
    assert oldest.public_id not in watched


def test_the_list_of_matches_is_filtered_by_game_and_by_person(table):
    client = Client()
    shown = text(client.get(f"/t/{table.public_id}/matches/?game=sheet:Rummy"))
    assert "1 match" in shown and "Rummy" in shown and "in play" in shown
    by_bo = text(client.get(f"/t/{table.public_id}/matches/?person=2&game=sheet:Hearts"))
    assert "7 matches" in by_bo
    nobody = text(client.get(f"/t/{table.public_id}/matches/?person=4"))
    assert "0 matches" in nobody and "No match is like that." in nobody
    # what the list cannot read is ignored, never a 500
    for query in (
        "?page=x",
        "?page=-3",
        "?game=nope",
        "?person=99",
        "?person=a&person=1",
        "?person=²",
    ):
        assert client.get(f"/t/{table.public_id}/matches/{query}").status_code == 200


def test_a_persons_page_is_drawn_once_per_state_of_the_table(table, django_assert_max_num_queries):
    client = Client()
    client.get(f"/t/{table.public_id}/people/1/")
    with django_assert_max_num_queries(2):  # the table's state, and the person's page kept
        client.get(f"/t/{table.public_id}/people/1/")
    table.pay("Bo", "Ann", 5, "money")
    assert "Balance in money +6.00" in text(client.get(f"/t/{table.public_id}/people/1/"))
