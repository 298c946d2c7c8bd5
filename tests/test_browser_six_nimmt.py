"""A table plays 6 nimmt! on a phone: tap the cards each player took, or type the bullheads."""

import pytest
from playwright.sync_api import expect

from tests.conftest import PHONE, screenshot
from tests.table import save, start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def card(page, seat, number):
    """The checkbox of one card on one player's pad."""
    return page.locator(f"input[name=taken-{seat}][value='{number}']")


def tap(page, name, seat, numbers):
    """Pick a player, then tap the cards that player took."""
    page.locator(".sn-who", has_text=name).click()
    for number in numbers:
        page.locator(f"label:has(> input[name=taken-{seat}][value='{number}'])").click()


def type_bullheads(page, counts):
    page.locator("label.pill", has_text="Bullheads").click()
    for seat, count in enumerate(counts):
        page.locator(f"input[name=bullheads-{seat}]").fill(str(count))


def expect_totals(page, *totals):
    expect(page.locator(".scoreboard tfoot td")).to_have_text(list(totals))


def test_a_table_of_four_plays_to_66_by_tapping_cards(phone):
    page = phone
    start_match(page, "6 nimmt!", ["Ann", "Bo", "Chen", "Dee"])
    expect(page.locator(".status")).to_contain_text("Cards 1 to 84 are in play")

    # One pad at a time, cards 1-84 in rows of ten, and the phone never scrolls sideways.
    pad = page.locator(".sn-pad:visible")
    expect(pad).to_have_count(1)
    expect(pad.locator("input")).to_have_count(84)
    first, tenth, eleventh = (card(page, 0, n).bounding_box() for n in (1, 10, 11))
    assert tenth["y"] == first["y"] and eleventh["y"] > first["y"]
    assert tenth["x"] + tenth["width"] <= 390 and first["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    expect(page.locator("label:has(> input[name=taken-0][value='55'])")).to_contain_text("7")

    # Hand 1: a card Bo took is greyed out on everyone else's pad; counts follow the taps.
    tap(page, "Bo", 1, [55, 11, 22])
    expect(page.locator(".sn-who", has_text="Bo")).to_contain_text("17")
    tap(page, "Ann", 0, [1, 2, 3, 4])
    expect(card(page, 0, 55)).to_be_disabled()
    expect(page.locator(".sn-who", has_text="Ann")).to_contain_text("4")
    tap(page, "Chen", 2, [6, 7, 8, 9, 12, 13])
    tap(page, "Dee", 3, [10, 20, 30, 40, 50, 60, 70, 80, 33, 44, 66, 77, 14, 16, 17, 18, 19])
    expect(page.locator("#preview")).to_contain_text("Dee's bullheads this hand: 49")
    screenshot(page, "six-nimmt-tapping")
    save(page)
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_totals(page, "4", "17", "6", "49")
    expect(page.locator(".standings li").first).to_contain_text("Ann 62 to go to 66")
    expect(page.locator(".standings li").last).to_contain_text("Dee 17 to go to 66")

    # Too few cards: the message shows, the taps stay, nothing is saved.
    tap(page, "Ann", 0, [1, 2])
    save(page)
    expect(page.locator("#entry .error")).to_contain_text(
        "a hand's players take 24 to 40 cards in all, not 2"
    )
    expect(card(page, 0, 1)).to_be_checked()
    expect(card(page, 0, 2)).to_be_checked()
    expect(page.locator(".scoreboard tbody tr")).to_have_count(1)

    # Hand 2, typed in bullheads instead; a mistyped count comes back as typed.
    type_bullheads(page, [3, 5, 10, "8x"])
    save(page)
    expect(page.locator("#entry .error")).to_contain_text(
        "Dee's bullheads must be a whole number from 0 to 93"
    )
    expect(page.locator("input[name=bullheads-3]")).to_have_value("8x")
    expect(page.locator("input[name=bullheads-0]")).to_have_value("3")
    expect(page.locator("input[name=mode][value=bullheads]")).to_be_checked()
    screenshot(page, "six-nimmt-error")
    page.locator("input[name=bullheads-3]").fill("8")
    save(page)
    expect(page.locator("#entry .error")).to_have_count(0)
    expect(page.get_by_role("heading", name="Round 3")).to_be_visible()
    expect_totals(page, "7", "22", "16", "57")
    expect(page.locator(".standings li").last).to_contain_text("Dee 9 to go to 66")

    # Hand 3: Dee reaches 66 and the match ends; fewest bullheads wins.
    tap(page, "Ann", 0, [1, 2, 3, 4])
    tap(page, "Bo", 1, [26, 27, 28, 29, 31, 32])
    tap(page, "Chen", 2, [34, 36, 37, 38, 39, 41, 42, 43])
    tap(page, "Dee", 3, [5, 15, 25, 21, 23, 24])
    save(page)
    expect(page.locator(".banner")).to_contain_text("Ann won")
    expect(page.locator("#entry")).to_have_count(0)
    expect_totals(page, "11", "28", "24", "66")
    expect(page.locator(".sn-ranking li")).to_have_text(["Ann +8", "Bo -2", "Chen -1", "Dee -3"])
    screenshot(page, "six-nimmt-finished")

    # Hand 1 opens for editing with its taps in place.
    page.get_by_role("link", name="1", exact=True).click()
    expect(card(page, 1, 55)).to_be_checked()
    expect(card(page, 0, 55)).to_be_disabled()


def test_without_javascript_each_players_pad_is_a_set_of_checkboxes(browser, live_server):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False, **PHONE)
    page = context.new_page()
    start_match(page, "6 nimmt!", ["Ann", "Bo"])
    expect(page.locator(".sn-pad summary")).to_have_count(2)
    page.locator(".sn-pad summary", has_text="Bo").click()
    for number in (1, 5, 10, 55):
        page.locator(f"label:has(> input[name=taken-1][value='{number}'])").click()
    page.get_by_role("button", name="Save round").click()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_totals(page, "0", "13")
    context.close()
