"""A table plays Least Score on a phone: start, play to the end, edit a round, mistype a hand."""

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot
from tests.table import save, start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def play_round(page, declarer, hands):
    """Tap the declarer, enter each hand still in (a number, cards as text, or a list of cards
    to tap in the picker), save."""
    fill_round(page, declarer, hands)
    save(page, "Save round")


def fill_round(page, declarer, hands):
    page.locator("#entry label.pill", has_text=declarer).click()
    for seat, hand in hands.items():
        if isinstance(hand, int):
            page.locator(f"input[name=hand-{seat}]").fill(str(hand))
            continue
        page.locator(f"details:has(input[name=cardtext-{seat}]) summary").click()
        if isinstance(hand, str):
            page.locator(f"input[name=cardtext-{seat}]").fill(hand)
        else:
            for card in hand:
                page.locator(f"label.ls-card:has(input[name=cards-{seat}][value='{card}'])").click()


def expect_totals(page, totals):
    expect(page.locator(".scoreboard tfoot td")).to_have_text(totals)


def test_a_table_plays_least_score_to_the_end(phone):
    page = phone
    start_match(page, "Least Score", ["Ann", "Bo", "Chen"], threshold=25)

    fill_round(page, "Ann", {0: 7, 1: 15, 2: 20})
    expect(page.locator("#preview")).to_contain_text("Ann declared: the declaration stands")
    save(page, "Save round")
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_totals(page, ["0", "8", "13"])
    expect(page.locator(".breakdown")).to_contain_text("Ann declared: the declaration stands")

    # A mistyped hand: the message shows, the typed values stay, nothing is saved.
    play_round(page, "Bo", {0: 9, 1: 5, 2: 75})
    expect(page.locator("#entry .error")).to_contain_text("Chen's hand total must be")
    expect(page.locator("input[name=hand-2]")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("input[name=hand-0]")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("input[name=hand-0]")).to_have_value("9")
    expect(page.locator("input[name=hand-2]")).to_have_value("75")
    expect(page.locator("input[name=declarer][value='1']")).to_be_checked()
    expect(page.locator(".scoreboard tbody tr")).to_have_count(1)
    screenshot(page, "least-score-error")

    play_round(page, "Bo", {0: 9, 1: 5, 2: 4})  # Bo fails: 20 + 1 = 21 → 29, out at 25
    expect(page.get_by_role("heading", name="Round 3")).to_be_visible()
    expect_totals(page, ["0", "29", "13"])
    expect(page.locator("#entry")).to_contain_text("out")
    expect(page.locator("input[name=hand-1]")).to_have_count(0)
    expect(page.locator(".standings li").last).to_contain_text("Bo out")

    play_round(page, "Chen", {0: 14, 2: 3})
    play_round(page, "Ann", {0: 6, 2: 18})
    # Ann types her card; Chen taps his in the picker, where they are then taken for Ann.
    fill_round(page, "Chen", {0: "9C", 2: ["AS", "AD"]})
    expect(page.locator("details:has(input[name=cards-2]) .ls-picked")).to_have_text("A♠ A♦ = 2")
    expect(page.locator("input[name=cards-0][value=AS]")).to_be_disabled()
    expect(page.locator("input[name=cards-0][value=AS]")).to_have_class("ls-elsewhere")
    expect(page.locator("#preview")).to_contain_text("Chen declared: the declaration stands")
    screenshot(page, "least-score-picker")
    save(page, "Save round")
    expect_totals(page, ["18", "29", "25"])
    play_round(page, "Ann", {0: 4, 2: 10})  # Chen 31: out, Ann is the last one in
    expect(page.locator(".banner")).to_contain_text("Ann won")
    expect(page.locator("#entry")).to_have_count(0)
    expect_totals(page, ["18", "29", "31"])
    screenshot(page, "least-score-finished")

    # Editing round 1 recomputes everything after it.
    page.get_by_role("link", name="1", exact=True).click()
    page.locator("input[name=hand-2]").fill("14")
    save(page, "Save changes")
    expect_totals(page, ["18", "29", "25"])  # Chen scored 7, not 13: at 25, still in
    expect(page.locator(".banner")).to_have_count(0)
    expect(page.get_by_role("heading", name="Round 7")).to_be_visible()
