"""Names remembered: the new-match form shows the seats a table needs with Start on the first
screen, and this phone's recent tables (one tap) and names (chips); without JavaScript every seat
shows and the form still starts the match. An option the other choices leave unused (a floor
when the match ends after a number of hands) is hidden and not sent."""

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.conftest import PHONE, screenshot
from tests.table import type_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLE = ["Ann", "Bo", "陈静", "Dee"]


def shown_seats(page):
    return page.locator("input[name^=player_]:visible")


def expect_start_on_first_screen(page):
    start = page.get_by_role("button", name="Start").bounding_box()
    assert start["y"] + start["height"] <= PHONE["viewport"]["height"]


def start(page):
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()


def test_a_recent_table_is_offered_and_used_in_one_tap(phone):
    page = phone
    page.goto("/new/sheet/")
    expect(shown_seats(page)).to_have_count(2)  # the sheet's least table, not its 20 seats
    expect_start_on_first_screen(page)
    type_players(page, TABLE)
    start(page)
    assert Match.objects.get().players == TABLE

    page.goto("/new/six_nimmt/")
    expect(shown_seats(page)).to_have_count(4)  # as many as the last table
    recent = page.get_by_role("button", name="Ann, Bo, 陈静, Dee")
    recent.click()
    for seat, name in enumerate(TABLE):
        expect(page.locator(f"input[name=player_{seat}]")).to_have_value(name)
    expect_start_on_first_screen(page)
    start(page)
    assert Match.objects.latest("created").players == TABLE


def test_recent_names_fill_one_seat_each(phone):
    page = phone
    page.goto("/new/sheet/")
    type_players(page, TABLE)
    start(page)
    page.goto("/new/sheet/")
    page.locator("input[name=player_0]").fill("Eve")
    chips = page.locator("[data-recent-names] .chip")
    expect(chips).to_have_text(TABLE)
    chips.filter(has_text="陈静").click()
    chips.filter(has_text="Bo").click()  # every seat shown is taken: one more seat
    expect(chips).to_have_text(["Ann", "Dee"])
    for seat, name in enumerate(["Eve", "陈静", "Bo"]):
        expect(page.locator(f"input[name=player_{seat}]")).to_have_value(name)


def test_without_javascript_every_seat_shows_and_the_match_starts(browser, live_server):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False, **PHONE)
    page = context.new_page()
    page.goto("/new/sheet/")
    expect(shown_seats(page)).to_have_count(20)
    expect(page.get_by_role("button", name="Add a player")).to_be_hidden()
    type_players(page, ["Ann", "Bo"])
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    context.close()


def test_an_option_the_other_choices_leave_unused_is_hidden_and_not_sent(phone):
    page = phone
    page.goto("/new/gongzhu/")
    type_players(page, TABLE)
    money = page.get_by_label("Money a point")
    expect(money).to_be_visible()  # what the table plays for: asked before the folded options
    page.get_by_text("Options", exact=True).click()
    floor = page.get_by_label("Ends at minus this many card points")
    hands = page.get_by_label("How many hands")
    expect(floor).to_be_visible()
    expect(hands).to_be_hidden()
    page.get_by_text("House rules").click()
    page.get_by_label("Also end at plus this many card points").fill("500")
    page.get_by_label("How the match ends").select_option(label="After a number of hands")
    expect(floor).to_be_hidden()
    expect(page.get_by_label("Also end at plus this many card points")).to_be_hidden()
    hands.fill("8")
    money.fill("0.01")
    screenshot(page, "new-match-gongzhu-hands")
    start(page)
    options = Match.objects.get().options
    assert options["end"] == "hands" and options["hands"] == 8 and options["stake"] == 0.01
    assert "ceiling" not in options  # typed, then hidden: not sent


def test_a_sheet_asks_for_money_once_its_rounds_add_up_to_zero(phone):
    page = phone
    page.goto("/new/sheet/")
    money = page.get_by_label("Money a point")
    expect(money).to_be_hidden()
    page.get_by_label("Every round adds up to 0").check()
    expect(money).to_be_visible()


def test_without_javascript_every_option_shows_and_an_unused_one_is_ignored(browser, live_server):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False, **PHONE)
    page = context.new_page()
    page.goto("/new/gongzhu/")
    page.get_by_text("Options", exact=True).click()
    expect(page.get_by_label("Ends at minus this many card points")).to_be_visible()
    expect(page.get_by_label("How many hands")).to_be_visible()
    type_players(page, TABLE)
    page.get_by_label("How the match ends").select_option(label="After a number of hands")
    page.get_by_label("How many hands").fill("8")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    assert "floor" not in Match.objects.get().options
    context.close()
