"""Undo after a save, in a browser: one tap takes the round back out on the server and on a
second phone within the live delay; the offer goes after 10 s."""

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.conftest import PHONE
from tests.table import save
from tests.test_browser_live_table import fill_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match():
    return Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"], options={})


@pytest.fixture
def phones(browser, live_server):
    contexts = [browser.new_context(base_url=live_server.url, **PHONE) for _ in range(2)]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def test_undo_takes_the_round_out_here_on_the_server_and_on_the_other_phone(phones, match):
    first, second = phones
    for page in phones:
        page.goto(f"/m/{match.public_id}/")
    for declarer, hands in ((0, [7, 15, 20]), (1, [9, 4, 30])):
        fill_round(first, declarer, hands)
        save(first)
    undo = first.locator("[data-undo]")
    expect(undo).to_contain_text("Round 2 saved")
    expect(second.locator(".scoreboard tbody tr")).to_have_count(2, timeout=15_000)
    expect(second.locator("[data-undo]")).to_have_count(0)  # the saving phone's alone

    undo.get_by_role("button", name="Undo").click()
    expect(first.locator(".scoreboard tbody tr")).to_have_count(1)
    expect(first.locator("[data-round-heading]")).to_have_text("Round 2")
    expect(undo).to_have_count(0)
    assert match.live_rounds().count() == 1
    expect(second.locator(".scoreboard tbody tr")).to_have_count(1, timeout=6_000)


def test_the_undo_offer_goes_after_10_seconds(phones, match):
    page = phones[0]
    page.clock.install()
    page.goto(f"/m/{match.public_id}/")
    fill_round(page, 0, [7, 15, 20])
    save(page)
    expect(page.locator("[data-undo]")).to_be_visible()
    page.clock.run_for(9_000)
    expect(page.locator("[data-undo]")).to_be_visible()
    page.clock.run_for(1_500)
    expect(page.locator("[data-undo]")).to_have_count(0)
