"""A table keeps a score sheet on a phone: a Hearts evening to 100 with a negative typed through
the sign toggle, an edit and a second phone watching; a zero-sum mahjong sheet with a stake,
rounds balanced in one tap, and a rematch whose series settlement adds both sheets."""

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.conftest import PHONE, screenshot
from tests.table import save, type_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bo", "Chen", "Dee"]


def start_sheet(page, win="high", zero_sum=False, **typed):
    """From the home screen: the sheet, four players, its options, start."""
    page.goto("/")
    page.get_by_role("link", name="Score sheet (any game)").click()
    type_players(page, PLAYERS)
    page.get_by_text("Options").click()
    page.locator("select[name=win]").select_option(value=f'"{win}"')
    page.locator("input[name=zero_sum]").set_checked(zero_sum)
    for name, value in typed.items():
        page.locator(f"input[name={name}]").fill(str(value))
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()


def type_points(page, seat, points):
    """Tap a player's field and type; a negative is the sign toggle, then the digits: two taps
    (the toggle puts the cursor in the field). Returns the taps used."""
    if points < 0:
        page.locator(f".field:has(#points-{seat}) [data-sign]").click()
    else:
        page.locator(f"#points-{seat}").click()
    page.keyboard.type(str(abs(points)))
    return 1


def play(page, points):
    """Type a round and save it; returns the taps besides the digits."""
    taps = sum(type_points(page, seat, p) for seat, p in enumerate(points) if p is not None)
    if None in points:
        page.get_by_role("button", name="Balance the round").click()
        taps += 1
    save(page)
    return taps + 1


def expect_totals(page, totals):
    expect(page.locator(".scoreboard tfoot td")).to_have_text([str(t) for t in totals])


def test_a_hearts_evening_to_100_with_a_negative_an_edit_and_a_phone_watching(
    phone, browser, live_server
):
    page = phone
    start_sheet(page, win="low", title="Hearts", target=100)
    expect(page.locator(".status")).to_contain_text("Hearts: the lowest total wins")
    watcher = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    watcher.goto(f"/w/{Match.objects.get().watch_id}/")

    assert play(page, [26, 0, 0, 0]) == 5
    # Shooting the moon, house rule: Ann scores -26, typed with the sign toggle.
    type_points(page, 0, -26)
    expect(page.locator("#points-0")).to_have_value("-26")
    for seat, points in enumerate([5, 8, 13], 1):
        type_points(page, seat, points)
    expect(page.locator("#preview")).to_contain_text("This round: Ann -26, Bo +5, Chen +8, Dee +13")
    screenshot(page, "sheet-hearts-entry")
    save(page)
    expect_totals(page, [0, 5, 8, 13])
    expect(watcher.locator(".scoreboard tfoot td")).to_have_text(
        ["0", "5", "8", "13"], timeout=15_000
    )

    # The sign toggle flips back, and a field left empty is refused naming the player.
    type_points(page, 0, -3)
    page.locator(".field:has(#points-0) [data-sign]").click()
    expect(page.locator("#points-0")).to_have_value("3")
    save(page)
    expect(page.locator("#entry .error")).to_contain_text("Bo's points are missing")
    expect(page.locator("#points-0")).to_have_value("3")

    # Round 1 was 20 2 4 0, not 26 0 0 0.
    page.get_by_role("link", name="1", exact=True).click()
    for seat, points in enumerate([20, 2, 4, 0]):
        page.locator(f"#points-{seat}").fill(str(points))
    save(page, "Save changes")
    expect_totals(page, [-6, 7, 12, 13])
    expect(page.locator("#points-0")).to_have_value("3")  # the next round as it was left typed
    page.locator("#points-0").fill("")

    for points in ([0, 26, 0, 0], [3, 20, 2, 1], [0, 26, 0, 0], [5, 21, 0, 0]):
        play(page, points)
    expect_totals(page, [2, 100, 14, 14])
    expect(page.locator(".banner")).to_contain_text("Ann won")
    expect(page.locator(".result-more")).to_contain_text("Hearts")
    expect(watcher.locator(".banner")).to_contain_text("Ann won", timeout=15_000)
    screenshot(page, "sheet-hearts-finished")
    watcher.context.close()

    page.get_by_role("button", name="Rematch").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    expect(page.locator(".status")).to_contain_text("Hearts: the lowest total wins")


def test_a_zero_sum_mahjong_sheet_balanced_in_one_tap_and_settled_with_its_rematch(phone):
    page = phone
    start_sheet(page, zero_sum=True, title="Mahjong", stake="0.5", hands=2)
    type_points(page, 0, 24)
    type_points(page, 1, -8)
    type_points(page, 2, -8)
    expect(page.locator("[data-left]")).to_have_text("still -8 to place")
    screenshot(page, "sheet-mahjong-entry")
    page.get_by_role("button", name="Balance the round").click()
    expect(page.locator("#points-3")).to_have_value("-8")
    expect(page.locator("[data-left]")).to_have_text("The round adds up to 0.")
    expect(page.get_by_role("button", name="Balance the round")).to_be_disabled()
    save(page)
    expect_totals(page, [24, -8, -8, -8])

    # Bo wins 48, typed by the balance: four players, five taps besides the digits.
    assert play(page, [-16, None, -16, -16]) == 5
    expect_totals(page, [8, 40, -24, -24])
    expect(page.locator(".banner")).to_contain_text("Bo won")
    settlement = page.locator(".settlement")
    for payment in ("Chen pays Bo 12", "Dee pays Bo 8", "Dee pays Ann 4"):
        expect(settlement).to_contain_text(payment)
    screenshot(page, "sheet-mahjong-settled")

    page.get_by_role("button", name="Rematch").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    play(page, [-4, 12, -4, None])
    play(page, [0, 0, 0, None])
    expect_totals(page, [-4, 12, -4, -4])
    # amounts 4 20 -12 -12, then -2 6 -2 -2: together 2 26 -14 -14, the one settlement shown
    series = page.locator(".series-settlement")
    expect(series).to_contain_text("Settlement of 2 finished matches")
    for payment in ("Chen pays Bo 14", "Dee pays Bo 12", "Dee pays Ann 2"):
        expect(series).to_contain_text(payment)
    expect(page.locator(".settlement")).to_have_count(1)
    screenshot(page, "sheet-mahjong-series")


def test_the_rest_scored_0_fills_only_the_blank_fields_in_one_tap(phone):
    page = phone
    start_sheet(page, win="low")
    type_points(page, 0, 20)
    type_points(page, 2, 6)
    save(page)
    expect(page.locator("#entry .error")).to_be_visible()  # a blank is never guessed
    assert not Match.objects.get().live_rounds().exists()
    page.get_by_role("button", name="The rest scored 0").click()
    for seat, value in enumerate(["20", "0", "6", "0"]):
        expect(page.locator(f"#points-{seat}")).to_have_value(value)
    expect(page.get_by_role("button", name="The rest scored 0")).to_be_disabled()
    save(page)
    expect_totals(page, [20, 0, 6, 0])
