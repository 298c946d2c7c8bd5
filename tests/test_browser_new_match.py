"""Names remembered: the new-match form shows the seats a table needs with Start on the first
screen, and this phone's recent tables (one tap) and names (chips); without JavaScript every seat
shows and the form still starts the match."""

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.conftest import PHONE
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
