"""A second scoring phone keeps up: its form follows the rounds another phone saves, what it
has typed is kept, and a finished match shows it the result and the rematch, not a form."""

import pytest
from playwright.sync_api import expect

from games.models import Match, Round
from tests.conftest import screenshot
from tests.test_browser_live_table import fill_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match():
    return Match.objects.create(
        game="least_score",
        players=["Ann", "Bo", "Chen"],
        options={"threshold": 25, "end": "first_out"},
    )


def save(page):
    page.get_by_role("button", name="Save round").click()


def test_the_second_phone_follows_the_rounds_and_keeps_what_it_typed(phones, match):
    first, second = phones
    for page in phones:
        page.goto(f"/m/{match.public_id}/")

    fill_round(first, 0, [7, 15, 20])
    save(first)
    # Untouched, the second phone's form is drawn afresh for round 2.
    expect(second.locator("[data-round-heading]")).to_have_text("Round 2", timeout=15_000)
    expect(second.locator(".scoreboard tbody tr")).to_have_count(1)

    fill_round(second, 1, [3, 2, 9])  # the second phone starts typing round 2...
    fill_round(first, 2, [4, 6, 1])
    save(first)  # ...while the first phone saves it
    expect(second.locator("[data-round-heading]")).to_have_text("Round 3", timeout=15_000)
    expect(second.locator("[data-moved-note]")).to_contain_text("now for round 3")
    expect(second.locator("input[name=hand-2]")).to_have_value("9")
    screenshot(second, "second-phone-moved")
    expect(second.get_by_role("button", name="Save round")).to_be_hidden()  # a choice instead
    second.get_by_role("button", name="A different hand: save it as round 3").click()
    expect(second.locator(".scoreboard tbody tr")).to_have_count(3)
    assert [r.entry["declarer"] for r in Round.objects.order_by("number")] == [0, 2, 1]


def test_a_match_finished_on_one_phone_offers_the_other_the_rematch(phones, match):
    first, second = phones
    for page in phones:
        page.goto(f"/m/{match.public_id}/")
    fill_round(first, 0, [1, 30, 2])  # Bo goes over 25: the first one out ends the match
    save(first)
    expect(second.get_by_role("button", name="Rematch")).to_be_visible(timeout=15_000)
    expect(second.locator("#entry")).to_have_count(0)
    expect(second.get_by_text("Close the match now")).to_have_count(0)


def test_a_refused_save_brings_its_message_into_view(phones):
    match = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    page = phones[0]
    page.goto(f"/m/{match.public_id}/")
    for number in range(2, 5):
        fill_round(page, 0, [7, 9, 8])
        save(page)
        expect(page.locator("[data-round-heading]")).to_have_text(f"Round {number}")
    fill_round(page, 0, [7, 15, 99])
    page.mouse.wheel(0, -5000)
    save(page)
    expect(page.locator("#entry .error")).to_contain_text("from 1 to 50")
    expect(page.locator("#entry .error")).to_be_in_viewport()
