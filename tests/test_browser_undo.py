"""Undo after a save, in a browser: one tap takes the round back out on the server and on a
second phone within the live delay; the offer goes after 10 s and its sentence stays, so nothing
moves; the line covers nothing a player reads, in any game (its box meets no other's)."""

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.conftest import PHONE, screenshot
from tests.table import save
from tests.test_browser_gongzhu import play_hand
from tests.test_browser_live_table import fill_round
from tests.test_browser_standings import TABLES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match():
    return Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"], options={})


def test_undo_takes_the_round_out_here_on_the_server_and_on_the_other_phone(phones, match):
    first, second = phones
    for page in phones:
        page.goto(f"/m/{match.public_id}/")
    for declarer, hands in ((0, [7, 15, 20]), (1, [9, 4, 30])):
        fill_round(first, declarer, hands)
        save(first)
    undo = first.locator("[data-undo]")
    expect(undo).to_contain_text("Round 2 is saved.")
    expect(second.locator(".scoreboard tbody tr")).to_have_count(2, timeout=15_000)
    expect(second.locator("[data-undo]")).to_have_count(0)  # the saving phone's alone

    undo.get_by_role("button", name="Undo").click()
    expect(first.locator(".scoreboard tbody tr")).to_have_count(1)
    expect(first.locator("[data-round-heading]")).to_have_text("Round 2")
    expect(undo).to_have_text("Round 2 deleted. Undo", use_inner_text=True)  # said, undoable
    assert match.live_rounds().count() == 1
    expect(second.locator(".scoreboard tbody tr")).to_have_count(1, timeout=6_000)


def test_the_undo_offer_goes_after_10_seconds(phones, match):
    page = phones[0]
    page.clock.install()
    page.goto(f"/m/{match.public_id}/")
    fill_round(page, 0, [7, 15, 20])
    save(page)
    expect(page.locator("[data-undo]")).to_be_visible()
    standings = page.locator(".standings").bounding_box()
    page.clock.run_for(9_000)
    expect(page.locator("[data-undo]")).to_be_visible()
    page.clock.run_for(1_500)
    expect(page.locator("[data-undo]")).to_have_count(0)
    expect(page.get_by_role("button", name="Undo")).to_have_count(0)
    expect(page.locator(".undo")).to_have_text("Round 1 is saved.")
    assert page.locator(".standings").bounding_box() == standings  # nothing moved


# Every element shown whose box meets the Undo line's, but the line, what is in it and what
# holds it.
COVERED = """(undo) => {
  const line = undo.getBoundingClientRect();
  return Array.from(document.body.querySelectorAll("*")).filter((el) => {
    if (el === undo || undo.contains(el) || el.contains(undo)) return false;
    if (!el.checkVisibility({visibilityProperty: true})) return false;  // a closed list's too
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && box.left < line.right && line.left < box.right
      && box.top < line.bottom && line.top < box.bottom;
  }).map((el) => `${el.tagName}.${el.className} ${el.textContent.trim().slice(0, 40)}`);
}"""


def expect_covers_nothing(page):
    undo = page.locator("[data-undo]")
    expect(undo).to_be_visible()
    assert undo.evaluate(COVERED) == []
    page.mouse.wheel(0, 600)  # scrolled, still nothing under it
    assert undo.evaluate(COVERED) == []


@pytest.mark.parametrize("game", TABLES)
def test_the_undo_line_covers_nothing_in_any_game(browser, live_server, game):
    players, play = TABLES[game]
    match = Match.start(
        game, ["Ann", "Bo", "Chen", "Dee", "Eve", "Fay", "Gus", "Hal"][:players], {}
    )
    page = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    page.goto(f"/m/{match.public_id}/")
    play(page)
    save(page)
    expect_covers_nothing(page)
    screenshot(page.context.pages[0], f"undo-{game}")
    page.context.close()


def test_the_undo_line_covers_nothing_when_the_save_ends_the_match(phones):
    page = phones[0]
    match = Match.start(
        "gongzhu", ["Ann", "Bo", "Chen", "Dee"], {"end": "hands", "hands": 1, "stake": 0.01}
    )
    page.goto(f"/m/{match.public_id}/")
    play_hand(page, [], {"Ann": "QS", "Bo": "JD"}, rest="Chen")
    expect(page.locator(".banner.done")).to_be_visible()
    expect_covers_nothing(page)
