"""The standings come first: after a save, every player's total is on the phone's screen without
scrolling, in every game at its largest common table, on the small phones too; every name and
total at the largest table (a score sheet of 12), the ended banner and the Undo line included;
and a watching phone opens on the same standings."""

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.conftest import PHONE, screenshot
from tests.table import save

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ann", "Bo", "Chen", "Dee", "Eve", "Fay", "Gus", "Hal"]
SCREENS = {"390x844": (390, 844), "360x640": (360, 640)}


def pill(page, name, value):
    """Tap the big radio button of field name with this value."""
    page.locator(f"label:has(input[name='{name}'][value='{value}'])").click()


def gongzhu(page):
    """Every scoring card to Ann."""
    page.locator(".gz-seat", has_text="Ann").click()
    page.get_by_role("button", name="The rest to Ann").click()


def least_score(page):
    pill(page, "declarer", 0)
    for seat in range(8):
        page.locator(f"input[name=hand-{seat}]").fill("2" if seat == 0 else str(10 + seat))


def sanming(page):
    pill(page, "winner", 0)
    pill(page, "cards_left-1", 5)
    pill(page, "cards_left-2", 9)


def six_nimmt(page):
    pill(page, "mode", "bullheads")
    for seat in range(8):
        page.locator(f"input[name=bullheads-{seat}]").fill(str(10 + seat))


def smear(page):
    pill(page, "bidder", 0)
    pill(page, "bid", 2)
    for point in ("high", "low", "jack", "game"):
        pill(page, point, 0)


def sheet(page):
    for seat in range(8):
        page.locator(f"input[name=points-{seat}]").fill(str(5 * seat))


TABLES = {
    "gongzhu": (4, gongzhu),
    "least_score": (8, least_score),
    "sanming": (3, sanming),
    "six_nimmt": (8, six_nimmt),
    "smear": (4, smear),
    "sheet": (8, sheet),
}


def totals_on_screen(page, count, height):
    """Each standing's total lies wholly inside the viewport, as the page stands (no scroll)."""
    totals = page.locator(".standings .total")
    expect(totals).to_have_count(count)
    for k in range(count):
        box = totals.nth(k).bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height, (k, box)


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("game", TABLES)
def test_after_a_save_every_total_is_on_screen(browser, live_server, game, screen):
    players, play = TABLES[game]
    match = Match.start(game, NAMES[:players], {})
    width, height = SCREENS[screen]
    viewport = {**PHONE, "viewport": {"width": width, "height": height}}
    page = browser.new_context(base_url=live_server.url, **viewport).new_page()
    page.goto(f"/m/{match.public_id}/")
    play(page)
    page.get_by_role("button", name="Save round").scroll_into_view_if_needed()
    save(page)
    expect(page.get_by_role("heading", name="Round 2")).to_be_attached()
    sides = 2 if game == "smear" else players
    totals_on_screen(page, sides, height)
    screenshot(page, f"standings-{game}-{screen}")

    watcher = browser.new_context(base_url=live_server.url, **viewport).new_page()
    watcher.goto(f"/w/{match.watch_id}/")
    totals_on_screen(watcher, sides, height)
    page.context.close()
    watcher.context.close()


NAMES_12 = [
    "Ann", "Bartholomew", "陈静", "Dolores", "Evangeline", "Fitzgerald",
    "Guinevere", "Hildegard", "Ignatius", "Josephine", "Kristoffer", "Leopoldina",
]  # fmt: skip


def hands(field, low):
    """A round typing low, low + 1, ... into field-N of every seat shown."""

    def play(page):
        inputs = page.locator(f"input[name^={field}-]")
        for seat in range(inputs.count()):
            inputs.nth(seat).fill(str(low + seat))

    return play


def least_score_at_most(page):
    pill(page, "declarer", 0)
    hands("hand", 2)(page)


# Each game at its largest table (a score sheet: 12 of its 20), options that end the match on
# the first save (or none), and a round.
LARGEST = {
    "gongzhu": (4, {"end": "hands", "hands": 1}, gongzhu),
    "least_score": (8, {"end": "first_out", "threshold": 5}, least_score_at_most),
    "sanming": (3, {"target": 5, "kid_below": 0}, sanming),
    "six_nimmt": (10, {"end": "hands", "hands": 1}, lambda page: six_nimmt_pad(page)),
    "smear": (4, {"target": 1}, smear),
    "sheet": (12, {"hands": 1}, hands("points", -5)),
}


def six_nimmt_pad(page):
    pill(page, "mode", "bullheads")
    hands("bullheads", 5)(page)  # 5 to 14: 95 in all, as 10 players take


def every_name_and_total_on_screen(page, count, height):
    """Each standing's names and total lie wholly inside the viewport, as the page stands."""
    for part in (".name", ".total"):
        boxes = page.locator(f".standings {part}")
        expect(boxes).to_have_count(count)
        for k in range(count):
            box = boxes.nth(k).bounding_box()
            assert 0 <= box["y"] and box["y"] + box["height"] <= height, (part, k, box)


@pytest.mark.parametrize("ending", [True, False], ids=["ending", "playing"])
@pytest.mark.parametrize("game", LARGEST)
def test_every_player_at_a_glance_at_the_largest_table(browser, live_server, game, ending):
    players, options, play = LARGEST[game]
    match = Match.start(game, NAMES_12[:players], options if ending else {})
    page = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    page.goto(f"/m/{match.public_id}/")
    play(page)
    page.get_by_role("button", name="Save round").scroll_into_view_if_needed()
    save(page)
    expect(page.locator("[data-undo]")).to_be_visible()
    if ending:
        banner = page.locator(".banner.done h2")
        expect(banner).to_be_visible()
        assert banner.bounding_box()["y"] >= 0
    every_name_and_total_on_screen(page, 2 if game == "smear" else players, 844)
    screenshot(page, f"glance-{game}-{players}-{'ending' if ending else 'playing'}")
    page.context.close()


def test_twelve_players_with_three_winners_and_two_endings_fit_one_screen(browser, live_server):
    options = {"title": "Mahjong with the neighbours", "target": 10, "hands": 1}
    match = Match.start("sheet", NAMES_12, options)
    page = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    page.goto(f"/m/{match.public_id}/")
    for seat, points in enumerate([12, 12, 12, 9, 8, 7, 6, 5, 4, 3, 2, 1]):
        page.locator(f"input[name=points-{seat}]").fill(str(points))
    save(page)
    expect(page.locator(".banner.done h2")).to_have_text("Ann, Bartholomew, 陈静 won")
    expect(page.locator(".banner.done p")).to_have_count(2)  # who reached 10, the hand played
    every_name_and_total_on_screen(page, 12, 844)
    page.context.close()


def test_the_standings_put_the_leader_first_and_say_how_far_each_is_from_66(phone):
    match = Match.start("six_nimmt", ["Ann", "Bo", "Chen"], {})
    match.add_round({"bullheads": [30, 2, 12]})
    phone.goto(f"/m/{match.public_id}/")
    rows = phone.locator(".standings li")
    expect(rows).to_have_text(
        ["★ Bo 64 to go to 66 2", "2 Chen 54 to go to 66 12", "3 Ann 36 to go to 66 30"]
    )


def test_the_form_sits_between_the_standings_and_the_rounds_and_a_live_check_updates_both(
    phone,
):
    match = Match.start("six_nimmt", ["Ann", "Bo", "Chen"], {})
    match.add_round({"bullheads": [30, 2, 12]})
    phone.goto(f"/m/{match.public_id}/")
    in_order = phone.evaluate(
        """() => ['.standings', '#entry', '.breakdown', '.scoreboard']
                 .map((s) => document.querySelector(s))
                 .every((el, k, all) => k === 0 ||
                        all[k - 1].compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)
        """
    )
    assert in_order
    pill(phone, "mode", "bullheads")
    phone.locator("input[name=bullheads-0]").fill("7")
    match.add_round({"bullheads": [1, 40, 3]})  # another phone's save
    expect(phone.locator(".standings li").first).to_have_text("★ Chen 51 to go to 66 15")
    expect(phone.locator(".scoreboard")).to_contain_text("42")  # Bo's new total, out of band
    expect(phone.locator(".breakdown h2")).to_have_text("Round 2")
    expect(phone.locator("input[name=bullheads-0]")).to_have_value("7")  # what was typed stays
