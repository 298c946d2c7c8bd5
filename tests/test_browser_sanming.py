"""A table plays Sanming run-fast on a phone: hands to 100, a mistyped hand, the kid rule, beans."""

import pytest
from playwright.sync_api import expect

from tests.conftest import PHONE, screenshot
from tests.table import save, start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap(page, button, times=1):
    for _ in range(times):
        page.get_by_role("button", name=button).click()


def tap_cards(page, seat, count):
    """One tap on a loser's number of cards left (1-17)."""
    page.locator(f"label:has(> input[name=cards_left-{seat}][value='{count}'])").click()


def fill_hand(page, winner, cards, bombed=None):
    """Tap who went out and each loser's cards left, then type the times bombed."""
    page.locator("#entry label.pill", has_text=winner).click()
    for seat, count in cards.items():
        tap_cards(page, seat, count)
    for seat, count in (bombed or {}).items():
        page.locator(f"input[name=bombed-{seat}]").fill(str(count))


def expect_totals(page, totals):
    """The scoreboard's totals row reads totals (retrying while htmx settles the new round)."""
    expect(page.locator(".scoreboard tfoot td")).to_have_text(totals, use_inner_text=True)


def test_a_table_plays_sanming_to_the_end_and_settles_the_kid(phone):
    page = phone
    start_match(page, "Sanming run-fast", ["Ann", "Bo", "Chen"], bean_rate=5)
    expect(page.locator(".status")).to_contain_text("The holder of 3♠ leads the first hand.")

    # Hand 1 by taps: Ann goes out, her row goes away; Bo 6 cards, Chen 11.
    page.locator("#entry label.pill", has_text="Ann").click()
    expect(page.locator('.sanming-seat[data-seat="0"]')).to_be_hidden()
    tap_cards(page, 1, 6)
    expect(page.locator("input[name=cards_left-1][value='6']")).to_be_checked()
    tap_cards(page, 2, 11)
    expect(page.locator("#preview")).to_contain_text("Chen: 11 cards ×2 = 22")
    screenshot(page, "sanming-entry")
    save(page)
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_totals(page, ["0", "6", "22"])
    expect(page.locator(".status")).to_contain_text("Ann won the last hand and leads the next.")

    # A mistyped hand: Chen's cards left forgotten. The message shows, what was typed stays.
    fill_hand(page, "Bo", {0: 3})
    tap(page, "One bomb more for Chen")
    save(page)
    expect(page.locator("#entry .error")).to_contain_text("Tap how many cards Chen has left.")
    expect(page.locator("input[name=winner][value='1']")).to_be_checked()
    expect(page.locator("input[name=cards_left-0][value='3']")).to_be_checked()
    expect(page.locator("input[name=bombed-2]")).to_have_value("1")
    expect(page.locator(".scoreboard tbody tr")).to_have_count(1)
    screenshot(page, "sanming-error")

    tap_cards(page, 2, 14)
    expect(page.locator("#preview")).to_contain_text("Chen: 14 cards ×2 = 28, bombed once ×2 = 56")
    save(page)
    expect_totals(page, ["3", "6", "78"])
    expect(page.locator(".status")).to_contain_text("Highest total 78 (Chen): 22 short of 100.")

    # Bo 9 cards bombed once (18), Chen 13 cards (26): Chen reaches 104 and the match ends.
    fill_hand(page, "Ann", {1: 9, 2: 13}, bombed={1: 1})
    save(page)
    expect_totals(page, ["3", "24", "104"])
    expect(page.locator("#entry")).to_have_count(0)
    expect(page.locator(".banner")).to_contain_text("Ann won")

    # The kid rule: Ann's 3 is below 5, so she goes to 0; Bo and Chen double.
    for name, effect, total, counts in [
        ("Ann", "below 5: counts 0", "3", "0"),
        ("Bo", "counts double", "24", "48"),
        ("Chen", "counts double", "104", "208"),
    ]:
        row = page.locator(".kid-rule tbody tr", has_text=name)
        expect(row.locator("th small")).to_have_text(effect)
        expect(row.locator("td")).to_have_text([total, counts], use_inner_text=True)
    expect(page.locator(".kid-rule")).to_contain_text("Settled at 5 beans a point.")

    # Results 0→+256, 48→+112, 208→−368; at 5 beans a point.
    rows = page.locator(".settlement tbody tr")
    settled = [["Ann", "+256", "+1280"], ["Bo", "+112", "+560"], ["Chen", "-368", "-1840"]]
    expect(rows).to_have_count(len(settled))
    for number, cells in enumerate(settled):
        expect(rows.nth(number).locator("th, td")).to_have_text(cells, use_inner_text=True)
    expect(page.locator(".transfers li")).to_have_text(
        ["Chen pays Ann 1280", "Chen pays Bo 560"], use_inner_text=True
    )
    screenshot(page, "sanming-finished")


def test_a_hand_is_entered_without_javascript(browser, live_server, phone):
    start_match(phone, "Sanming run-fast", ["Ann", "Bo", "Chen"], bean_rate=1)
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False, **PHONE)
    page = context.new_page()
    page.goto(phone.url)
    expect(page.get_by_role("button", name="One bomb more for Bo")).to_be_hidden()
    fill_hand(page, "Chen", {0: 17, 1: 12}, bombed={1: 1})
    page.get_by_role("button", name="Save round").click()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_totals(page, ["68", "48", "0"])
    expect(page.locator(".breakdown")).to_contain_text("Bo: 12 cards ×2 = 24, bombed once ×2 = 48")
    context.close()


def test_bombs_typed_on_a_persian_keyboard_are_counted_and_stepped(phone):
    page = phone
    start_match(page, "Sanming run-fast", ["Ann", "Bo", "Chen"])
    bombs = page.locator("input[name=bombed-1]")
    bombs.fill("")
    bombs.press_sequentially("۱")  # typed, as a phone keyboard types it
    expect(bombs).to_have_value("۱")
    tap(page, "One bomb more for Bo")
    expect(bombs).to_have_value("2")
    bombs.fill("")
    bombs.press_sequentially("١")
    fill_hand(page, "Chen", {0: 17, 1: 12})
    save(page)
    expect_totals(page, ["68", "48", "0"])
