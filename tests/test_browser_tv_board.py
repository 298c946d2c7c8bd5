"""The watch link on a TV: on a wide landscape screen eight players' standings are read across a
room, with the last round and the chart, on one screen with nothing to tap; a round saved on a
phone shows on the TV within the live delay. A phone, or a screen held upright, keeps the phone's
page."""

import pytest
from playwright.sync_api import expect

from games.models import Match, Table
from tests.conftest import PHONE, screenshot
from tests.table import save

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bo", "Chen", "Dolores", "Enkhtuya", "Farhad", "Grete", "Hiroshi"]
ROUNDS = [
    [7, 18, 17, 4, 11, 19, 15, 20],
    [18, 2, 19, 0, 26, 15, 8, 17],
    [7, 6, 22, 15, 17, 26, 17, 15],
]
TOTALS = [sum(points) for points in zip(*ROUNDS)]
LIVE_DELAY = 8_000  # ms: the live check asks every 3 s (static/app.js), and one may be under way
# What can be tapped or typed into, shown (checkVisibility) anywhere on the page.
TAPPABLE = """() => [...document.querySelectorAll(
    'a, button, summary, input:not([type=hidden]), select, textarea, [tabindex]')]
  .filter((element) => element.checkVisibility())
  .map((element) => element.outerHTML.slice(0, 80))"""


@pytest.fixture
def match():
    """Hearts to 500 on a score sheet: eight players, three rounds played."""
    match = Match.objects.create(
        game="sheet", players=PLAYERS, options={"title": "Hearts", "target": 500}
    )
    for points in ROUNDS:
        match.add_round({"points": points})
    return match


def tv(browser, live_server, width=1920, height=1080, scheme="light"):
    """A TV's browser: a landscape screen, no touch."""
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": width, "height": height},
        color_scheme=scheme,
    )
    context.set_default_timeout(10_000)
    return context.new_page()


def on_screen(page, locator):
    """True when the whole of what locator finds is inside the window (no scrolling)."""
    box = locator.bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


def font_px(locator):
    return float(locator.evaluate("(element) => getComputedStyle(element).fontSize")[:-2])


@pytest.mark.parametrize(
    "width, height, scheme", [(1920, 1080, "light"), (1920, 1080, "dark"), (1280, 720, "light")]
)
def test_the_tv_board_reads_across_a_room_on_one_screen_with_nothing_to_tap(
    browser, live_server, match, width, height, scheme
):
    page = tv(browser, live_server, width, height, scheme)
    page.goto(f"/w/{match.watch_id}/")
    totals = page.locator(".standings .total")
    expect(totals).to_have_text([str(total) for total in sorted(TOTALS, reverse=True)])
    for row in range(len(PLAYERS)):
        assert on_screen(page, totals.nth(row)), f"total {row + 1} is off the screen"
        # 4 % of the width: 77 px on a 1920 px TV, read from across the room
        assert font_px(totals.nth(row)) >= 0.04 * width
        assert font_px(page.locator(".standings .name").nth(row)) >= 0.03 * width
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    expect(page.locator(".breakdown")).to_contain_text("Round 3")
    assert on_screen(page, page.locator(".breakdown"))
    chart = page.locator(".chart svg")
    expect(chart).to_be_visible()
    assert on_screen(page, chart)
    assert chart.bounding_box()["height"] >= 0.3 * height
    expect(page.locator(".scoreboard")).to_be_hidden()  # the standings and the chart say it
    assert page.evaluate(TAPPABLE) == []
    screenshot(page, f"tv-board-{width}x{height}-{scheme}")
    page.context.close()


def test_a_round_saved_on_a_phone_shows_on_the_tv_within_the_live_delay(
    browser, live_server, match
):
    board = tv(browser, live_server)
    board.goto(f"/w/{match.watch_id}/")
    leader = board.locator(".standings li").first
    expect(leader).to_contain_text("Farhad")
    scorer = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    scorer.goto(f"/m/{match.public_id}/")
    for seat, points in enumerate([30, 0, 0, 0, 0, 0, 0, 0]):
        scorer.locator(f"#points-{seat}").fill(str(points))
    save(scorer)
    expect(scorer.get_by_role("heading", name="Round 5")).to_be_visible()

    expect(board.locator(".breakdown h2")).to_have_text("Round 4", timeout=LIVE_DELAY)
    expect(leader.locator(".name")).to_have_text("Ann")
    expect(board.locator(".standings .total")).to_have_text(
        [str(total) for total in sorted([TOTALS[0] + 30, *TOTALS[1:]], reverse=True)]
    )
    expect(board.locator(".chart polyline").first).to_be_visible()
    assert board.evaluate(TAPPABLE) == []
    assert board.evaluate("document.documentElement.scrollHeight") <= 1080
    screenshot(board, "tv-board-after-a-round")
    scorer.context.close()
    board.context.close()


@pytest.mark.parametrize("size", [PHONE["viewport"], {"width": 1080, "height": 1920}])
def test_a_phone_or_an_upright_screen_keeps_the_phones_watch_page(
    browser, live_server, match, size
):
    page = tv(browser, live_server, size["width"], size["height"])
    page.goto(f"/w/{match.watch_id}/")
    expect(page.locator(".scoreboard")).to_be_visible()
    expect(page.get_by_role("link", name="Scorekeeper")).to_be_visible()
    assert font_px(page.locator(".standings .total").first) < 30
    page.context.close()


def test_before_the_first_round_the_tv_says_no_rounds_yet(browser, live_server):
    match = Match.objects.create(game="sheet", players=PLAYERS, options={})
    page = tv(browser, live_server)
    page.goto(f"/w/{match.watch_id}/")
    expect(page.locator(".standings .total")).to_have_text(["0"] * len(PLAYERS))
    expect(page.get_by_text("No rounds yet.")).to_be_visible()
    expect(page.locator(".scoreboard thead")).to_be_hidden()  # the standings name everyone
    assert page.evaluate(TAPPABLE) == []
    page.context.close()


def test_an_ended_match_on_the_tv_shows_the_winner_and_who_pays_whom_on_one_screen(
    browser, live_server
):
    match = Match.objects.create(
        game="sheet", players=PLAYERS, options={"zero_sum": True, "stake": 1, "hands": 2}
    )
    for points in ([9, -3, 4, -2, 1, -5, 2, -6], [-4, 8, -1, 3, -7, 2, 5, -6]):
        match.add_round({"points": points})
    page = tv(browser, live_server)
    page.goto(f"/w/{match.watch_id}/")
    expect(page.locator(".banner.done")).to_contain_text("Grete won")  # 7, then Ann 5, Bo 5
    expect(page.locator(".settlement .transfers")).to_contain_text("Hiroshi pays")
    expect(page.locator(".chart svg")).to_be_visible()
    totals = page.locator(".standings .total")
    for row in range(len(PLAYERS)):
        assert on_screen(page, totals.nth(row)), f"total {row + 1} is off the screen"
        assert font_px(totals.nth(row)) >= 0.03 * 1920
    for shown in (".banner.done", ".settlement", ".chart svg"):
        assert on_screen(page, page.locator(shown)), f"{shown} is off the screen"
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    assert page.evaluate(TAPPABLE) == []
    screenshot(page, "tv-board-ended")
    page.context.close()


def test_the_tables_watch_link_on_a_tv_shows_the_board_of_the_match_in_play(browser, live_server):
    table = Table.objects.create(name="Thursday Hearts", people=PLAYERS)
    match = table.start_match("sheet", PLAYERS, {"title": "Hearts", "target": 500})
    for points in ROUNDS:
        match.add_round({"points": points})
    page = tv(browser, live_server)
    page.goto(f"/tw/{table.watch_id}/")
    totals = page.locator(".standings .total")
    expect(totals).to_have_text([str(total) for total in sorted(TOTALS, reverse=True)])
    assert font_px(totals.first) >= 0.04 * 1920
    expect(page.get_by_role("heading", name="Thursday Hearts")).to_be_hidden()
    assert page.evaluate(TAPPABLE) == []
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080

    match.add_round({"points": [30, 0, 0, 0, 0, 0, 0, 0]})  # saved on a phone
    expect(page.locator(".breakdown h2")).to_have_text("Round 4", timeout=LIVE_DELAY)
    expect(page.locator(".standings li").first.locator(".name")).to_have_text("Ann")
    screenshot(page, "tv-board-table")

    phone = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    phone.goto(f"/tw/{table.watch_id}/")  # a phone: the table, and no live check of the match
    expect(phone.get_by_role("heading", name="Thursday Hearts")).to_be_visible()
    expect(phone.locator("#match-body")).to_have_count(0)
    phone.context.close()
    page.context.close()


@pytest.mark.parametrize("people", [4, 24])
def test_a_tables_board_fits_one_tv_screen_with_every_balance_and_transfer(
    browser, live_server, people
):
    """Between matches a table's watch link on a TV is its board: every person's balance in
    each unit and every transfer, the name once, transfers at least 24 px, on one 1920 x 1080
    screen (a long list in two columns, then smaller type) and nothing to scroll."""
    names = [f"Person {k + 1}" for k in range(people)]
    table = Table.objects.create(name="Thursday", people=names)
    for k in range(0, people, 2):  # a payment makes both balances, in money and in beans
        table.pay(names[k], names[k + 1], 5 + k, "money")
        table.pay(names[k + 1], names[k], 100 + k, "beans")
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1920, "height": 1080}
    )
    page = context.new_page()
    page.goto(f"/tw/{table.watch_id}/")
    page.wait_for_load_state("load")
    expect(page.locator(".table-balance")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    expect(page.get_by_text("Thursday", exact=True)).to_have_count(1)
    rows = page.locator(".table-balance li")
    expect(rows).to_have_count(2 * (people + people // 2))
    for row in rows.all():
        box = row.bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= 1080
    sizes = page.locator(".table-balance .transfers li").evaluate_all(
        "rows => rows.map(row => parseFloat(getComputedStyle(row).fontSize))"
    )
    assert min(sizes) >= 24
    screenshot(page, f"table-tv-{people}")
    context.close()
