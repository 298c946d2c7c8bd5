"""A season at the table on a phone (390 x 844, English and Persian, light and dark): the
leaderboard, a tap on a name to their page and to two people head to head, the list of every
match paged back to the oldest; and the TV board between matches at 1920 x 1080."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Match, Table
from games.records import store, store_table
from tests.conftest import phone_in, screenshot
from tests.season import season_document
from tests.test_browser_tv_board import font_px, on_screen, tv

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The names on a TV board shown cut short (an ellipsis where the rest would be).
NAMES_CUT = """() => [...document.querySelectorAll('.table-balance .name, .leaderboard .name')]
  .filter((name) => name.checkVisibility() && name.scrollWidth > name.clientWidth + 1)
  .map((name) => name.textContent)"""
SETTINGS = [("en", "light"), ("en", "dark"), ("fa", "light"), ("fa", "dark")]
WORDS = {
    "en": {"rating": "What is a rating?", "all": "matches, by evening", "oldest": "Oldest"},
    "fa": {"rating": "امتیاز مهارت چیست؟", "all": "به ترتیب شب‌ها", "oldest": "قدیمی‌ترین"},
}


@pytest.fixture
def season():
    """A table of 45 matches of every game among six people, every one ended."""
    document = season_document(3, 45, people=["Ann", "Bo", "Chen", "Dee", "Eve", "Farhad"])
    for match in document["matches"]:
        match["closed"] = True
    return store_table(document)


def fits_the_phone(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("language, scheme", SETTINGS)
def test_the_leaderboard_and_a_persons_page_on_a_phone(
    browser, live_server, season, language, scheme
):
    page = phone_in(browser, live_server, language, scheme)
    page.goto(f"/t/{season.public_id}/")
    board = page.locator(".table-ratings .leaderboard[open]")
    expect(board).to_have_count(1)  # the game last played, open; the others one tap away
    expected = season.season(season.played())
    game = expected.games()[0]
    rows = expected.leaderboard(game)
    expect(board.locator(".total")).to_have_text([str(row["figure"]) for row in rows])
    board.scroll_into_view_if_needed()
    for row in board.locator("li").all():
        box = row.bounding_box()
        assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.locator(".table-ratings > .rating-terms summary").click()
    expect(page.locator(".table-ratings > .rating-terms li").first).to_be_visible()
    fits_the_phone(page)
    screenshot(page, f"season-table-{language}-{scheme}")

    leader = board.locator("li").first.locator("a.name")
    expect(leader).to_have_text(rows[0]["name"])
    leader.click()
    expect(page.locator("h1")).to_have_text(rows[0]["name"])
    expect(page.locator(".person-games li").first).to_be_visible()
    expect(page.locator(".head-to-head .match-link")).to_have_count(5)
    fits_the_phone(page)
    screenshot(page, f"season-person-{language}-{scheme}")

    page.locator(".head-to-head .match-link").first.click()
    expect(page.locator(".head-to-head")).to_be_visible()
    expect(page.locator("h1")).to_contain_text(rows[0]["name"])
    fits_the_phone(page)
    screenshot(page, f"season-pair-{language}-{scheme}")
    page.context.close()


@pytest.mark.parametrize("language, scheme", SETTINGS)
def test_the_paged_list_of_matches_reaches_the_oldest_match(
    browser, live_server, season, language, scheme
):
    page = phone_in(browser, live_server, language, scheme)
    page.goto(f"/t/{season.public_id}/")
    page.get_by_role("link", name=re.compile(WORDS[language]["all"])).click()
    expect(page.locator(".match-link")).to_have_count(20)
    page.get_by_role("link", name=WORDS[language]["oldest"]).click()
    expect(page.locator(".match-link")).to_have_count(5)
    fits_the_phone(page)
    screenshot(page, f"season-matches-{language}-{scheme}")
    oldest = Match.objects.filter(table=season).order_by("created", "pk").first()
    page.locator(f'a[href="/m/{oldest.public_id}/"]').click()
    expect(page).to_have_url(re.compile(f"/m/{oldest.public_id}/$"))
    page.context.close()


def test_the_watch_links_list_opens_a_matchs_watch_link(browser, live_server, season):
    page = phone_in(browser, live_server, "en", "light")
    page.goto(f"/tw/{season.watch_id}/matches/?page=3")
    oldest = Match.objects.filter(table=season).order_by("created", "pk").first()
    page.locator(f'a[href="/w/{oldest.watch_id}/"]').click()
    expect(page).to_have_url(re.compile(f"/w/{oldest.watch_id}/$"))
    expect(page.locator('a[href^="/m/"], form[action^="/m/"]')).to_have_count(0)
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_between_matches_the_tv_board_shows_the_leaderboard_of_the_game_last_played(
    browser, live_server, season, scheme
):
    page = tv(browser, live_server, scheme=scheme)
    page.goto(f"/tw/{season.watch_id}/")
    page.wait_for_load_state("load")
    expected = season.season(season.played())
    rows = expected.leaderboard(expected.games()[0])
    board = page.locator(".table-ratings .leaderboard")
    expect(board.first).to_be_visible()
    expect(board.nth(1)).to_be_hidden()  # the other games' wait for a phone
    expect(board.first.locator(".total")).to_have_text([str(row["figure"]) for row in rows])
    for total in board.first.locator(".total").all():
        assert on_screen(page, total) and font_px(total) >= 0.02 * 1920
    for balance in page.locator(".table-balance li").all():
        assert on_screen(page, balance)
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    screenshot(page, f"season-tv-{scheme}")
    page.context.close()


def test_a_tv_board_of_24_people_in_two_units_and_a_leaderboard_fits_one_screen(
    browser, live_server
):
    names = [f"Person {k + 1}" for k in range(24)]
    table = Table.objects.create(name="Big Thursday", people=names)
    for first in range(0, 24, 12):  # everyone plays two Hearts sheets at a stake, twelve a match
        for shift in range(2):
            players = names[first : first + 12]
            points = [(k * 7 + shift * 5) % 11 - 5 for k in range(11)]
            document = {
                "game": "sheet",
                "players": players,
                "options": {"title": "Hearts", "zero_sum": True, "stake": 1},
                "rounds": [{"points": [*points, -sum(points)]}],
                "closed": True,
            }
            table.take_match(store(document))
    for k in range(0, 24, 2):
        table.pay(names[k], names[k + 1], 100 + k, "beans")
    page = tv(browser, live_server)
    page.goto(f"/tw/{table.watch_id}/")
    page.wait_for_load_state("load")
    rows = page.locator(".table-ratings .leaderboard li")
    expect(rows).to_have_count(24)
    for row in [*rows.all(), *page.locator(".table-balance li").all()]:
        assert on_screen(page, row)
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    assert page.evaluate(NAMES_CUT) == []  # static/table.js: smaller type rather than "Pers…"
    screenshot(page, "season-tv-24")
    page.context.close()
