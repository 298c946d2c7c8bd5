"""A new group's first evening, from an empty phone to the settlement (issue 41): Home, a table
made, two Gongzhu matches at a stake (a name fixed and the stake set after Start), a run-fast
match in beans, a payment, Paid, the table's result card, its TV board; each point a player
meets on the way checked where a test can see it."""

import json
import re

import pytest
from playwright.sync_api import expect

from games.models import Match, Table
from tests.conftest import PHONE, screenshot
from tests.table import save, type_players
from tests.test_browser_gongzhu import play_hand
from tests.test_browser_sanming import fill_hand
from tests.test_browser_standings import NAMES_12, every_name_and_total_on_screen
from tests.test_browser_undo import expect_covers_nothing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The code's words a player never reads as an option's label (issue 41).
CODE_WORDS = {"decks", "mode", "multiplier", "rounding", "end", "floor", "hands", "stake"}


def option_labels(page):
    return [
        text.strip().casefold()
        for text in page.locator("#new-match .options label").all_inner_texts()
        if text.strip()
    ]


def start_gongzhu_from_the_table(page, seat_2):
    """From the table's page: Gongzhu, the table's people in the seats but seat 2 typed as
    seat_2, after a number of hands (2), nothing played for: Start."""
    page.get_by_role("link", name="Gongzhu", exact=True).click()
    labels = option_labels(page)
    assert labels and not set(labels) & CODE_WORDS, labels
    plays_for = page.locator("#new-match .plays-for")
    options = page.locator("#new-match details.options").first
    assert plays_for.bounding_box()["y"] < options.bounding_box()["y"]  # asked first
    expect(plays_for.get_by_label("Money a point")).to_be_visible()
    options.locator("summary").click()
    floor = page.get_by_label("Ends at minus this many card points")
    expect(floor).to_be_visible()
    page.get_by_label("How the match ends").select_option(label="After a number of hands")
    expect(floor).to_be_hidden()  # it does not apply when the match ends after hands
    page.get_by_label("How many hands").fill("2")
    page.locator("input[name=player_1]").fill(seat_2)
    page.get_by_role("button", name="Start").click()


def test_a_new_groups_first_evening(browser, live_server):
    context = browser.new_context(base_url=live_server.url, **PHONE)
    context.set_default_timeout(15_000)
    page = context.new_page()

    # Home on an empty phone: what a table is, in one sentence, and how to make one.
    page.goto("/")
    expect(page.get_by_text("A table is the people you play with every week")).to_be_visible()
    page.get_by_role("link", name="Make a table").click()
    page.get_by_label("Name").fill("Thursday")
    page.get_by_label("People, one a line").fill("Ann\nBo\nChen\nDee")
    page.get_by_role("button", name="Make the table").click()
    table = Table.objects.get()
    screenshot(page, "evening-table-empty")
    expect(page.locator(".table-pay")).to_have_count(0)  # no payment form before a balance

    # Home leads back to the table, first.
    page.goto("/")
    tables = page.locator(".home-tables")
    expect(tables).to_contain_text("Thursday")
    assert tables.bounding_box()["y"] < page.get_by_text("New match").bounding_box()["y"]
    tables.get_by_role("link", name=re.compile("Thursday")).click()

    # Gongzhu 1: Bo typed "Bbo" and added to the table by mistake; nothing played for.
    start_gongzhu_from_the_table(page, "Bbo")
    page.get_by_role("button", name="Bbo is someone new: add to the table").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    way_back = page.locator(".match-regulars a")
    expect(way_back).to_contain_text("Thursday")
    assert way_back.bounding_box()["y"] < 200  # at the top of the match's page
    play_hand(page, [], {"Ann": "QS", "Bbo": "JD"}, rest="Chen")
    expect_covers_nothing(page)  # the Undo line hides nothing a player reads
    expect(page.locator(".undo")).to_contain_text("Round 1 is saved.")

    # Fixed after Start: Bbo is Bo, and the table plays for 0.01 a point.
    page.get_by_role("link", name="Names and options").click()
    page.locator("input[name=player_1]").fill("Bo")
    page.get_by_label("Money a point").fill("0.01")
    page.get_by_role("button", name="Save the changes").click()
    expect(page.locator(".standings")).to_contain_text("Bo")
    expect(page.locator(".standings")).not_to_contain_text("Bbo")
    play_hand(page, [], {"Chen": "QS", "Dee": "JD"}, rest="Ann")
    expect(page.locator(".banner.done")).to_be_visible()
    expect(page.locator(".settlement")).to_contain_text("pays")
    first = Match.objects.get(table=table)
    assert first.players == ["Ann", "Bo", "Chen", "Dee"] and first.options["stake"] == 0.01

    # History: the fix in words, and a deleted round said beside Restore.
    page.get_by_role("link", name="History").click()
    history = page.locator("main")
    expect(history).to_contain_text("Bbo → Bo")
    expect(history).to_contain_text("Money a point: 0 → 0.01")

    # Gongzhu 2, a rematch at the same stake; a round deleted, History says what it held.
    page.get_by_role("link", name="Back to the match").click()
    page.get_by_role("button", name="Rematch").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    play_hand(page, [], {"Dee": "QS", "Ann": "JD"}, rest="Bo")
    page.get_by_title("Edit this round").first.click()
    page.get_by_text("Delete this round").click()
    page.get_by_role("button", name="Yes, delete round 1").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    page.get_by_role("link", name="History").click()
    expect(page.locator(".restores")).to_contain_text("What Restore brings back")
    page.get_by_role("button", name="Restore this round").click()
    play_hand(page, [], {"Bo": "QS", "Chen": "JD"}, rest="Dee")
    expect(page.locator(".banner.done")).to_be_visible()

    # Run-fast for beans, from the table (its way back at the top).
    page.locator(".match-regulars a").click()
    page.get_by_role("link", name="Sanming run-fast").click()
    type_players(page, ["Ann", "Bo", "Chen"])
    page.get_by_role("button", name="Start").click()
    fill_hand(page, "Ann", {1: 6, 2: 11})
    save(page)
    page.get_by_text("Close the match now", exact=True).click()
    page.get_by_role("button", name="Yes, close the match").click()
    expect(page.locator(".banner.done")).to_be_visible()

    # The table: balances in money and beans, a payment in words, Paid.
    page.locator(".match-regulars a").click()
    expect(page.locator(".table-balance")).to_have_count(2)
    page.get_by_text("Record a payment").click()
    pay = page.locator(".table-pay form")
    expect(pay.get_by_label("In")).to_have_value("beans")  # the unit with a balance open
    pay.get_by_label("Who paid").select_option("Bo")
    pay.get_by_label("To whom").select_option("Ann")
    pay.get_by_label("In").select_option("money")
    pay.get_by_label("How much").fill("5")
    pay.get_by_role("button", name="Record the payment").click()
    expect(page.locator(".payments")).to_contain_text("Bo paid Ann 5.00")
    expect(page.locator(".payments")).not_to_contain_text("money")
    beans = page.locator(".table-balance[data-unit=beans] .transfers li").first
    owed = beans.locator("span").first.inner_text()  # "Chen pays Ann 28 beans"
    beans.get_by_role("button").click()
    expect(page.locator(".payments li")).to_have_count(2)
    expect(page.locator(".payments")).to_contain_text(owed.replace(" pays ", " paid "))
    screenshot(page, "evening-table")

    # The table's result card: every person with a balance, in every unit.
    card = json.loads(page.locator(".result-card script[type='application/json']").inner_text())
    on_card = " ".join(
        [
            *(line["name"] for line in card["standings"]),
            *(line for block in card["payments"] for line in block["lines"]),
        ]
    )
    for name in ("Ann", "Bo", "Chen", "Dee"):
        assert name in on_card, name

    # The TV: the table's watch link at 1920 x 1080, on one screen, read across a room.
    shared = page.locator(".copy-link a")
    expect(shared).to_have_text(re.compile(r"^http://[^/]+/tw/[\w-]+/$"))  # the whole address
    watch = shared.get_attribute("href")
    tv = browser.new_context(base_url=live_server.url, viewport={"width": 1920, "height": 1080})
    board = tv.new_page()
    board.goto(watch)
    board.wait_for_load_state("load")
    assert board.evaluate("document.documentElement.scrollHeight") <= 1080
    expect(board.get_by_text("Thursday", exact=True)).to_have_count(1)
    for size in board.locator(".table-balance .transfers li").evaluate_all(
        "rows => rows.map(row => parseFloat(getComputedStyle(row).fontSize))"
    ):
        assert size >= 24
    for row in board.locator(".table-balance li").all():
        box = row.bounding_box()
        assert box["y"] + box["height"] <= 1080
    board.screenshot(path="test-artifacts/evening-tv.png")
    tv.close()

    # Twelve at a score sheet: after the save that ends it, every name and total on one screen.
    sheet = Match.start("sheet", NAMES_12, {"hands": 1})
    page.goto(f"/m/{sheet.public_id}/")
    for seat in range(12):
        page.locator(f"input[name=points-{seat}]").fill(str(seat))
    save(page)
    expect(page.locator(".banner.done")).to_be_visible()
    every_name_and_total_on_screen(page, 12, 844)
    context.close()
