"""Two phones on one match, and a save that meets a dead network."""

import pytest
from playwright.sync_api import expect

from games.models import Match, Round
from tests.conftest import PHONE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match():
    return Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])


def fill_round(page, declarer, hands):
    page.locator(f"input[name=declarer][value='{declarer}']").check()
    for seat, hand in enumerate(hands):
        page.locator(f"input[name=hand-{seat}]").fill(str(hand))


def test_a_save_cut_off_by_the_network_keeps_the_entry_and_is_stored_once(phone, match):
    page = phone
    page.goto(f"/m/{match.public_id}/")
    fill_round(page, 0, [7, 15, 20])
    page.context.set_offline(True)
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("[data-not-saved]")).to_be_visible()
    expect(page.locator("input[name=hand-1]")).to_have_value("15")
    expect(page.locator("input[name=declarer][value='0']")).to_be_checked()
    screenshot(page, "live-not-saved")
    assert Round.objects.count() == 0

    page.context.set_offline(False)
    page.get_by_role("button", name="Save round").click()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(page.locator("[data-not-saved]")).to_have_count(1)
    assert Round.objects.count() == 1
    assert Round.objects.get().entry == {"declarer": 0, "hands": [7, 15, 20]}


def test_a_retry_after_a_lost_answer_is_not_stored_twice(phone, match):
    """The save reached the server but its answer was lost: the retry finds it stored."""
    page = phone
    page.goto(f"/m/{match.public_id}/")
    fill_round(page, 1, [9, 5, 4])
    state = {"dropped": False}

    def drop_first_answer(route):
        if state["dropped"]:
            return route.continue_()
        state["dropped"] = True
        route.fetch()  # the server stores the round...
        route.abort()  # ...but the phone never hears back

    page.route("**/rounds/", drop_first_answer)
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("[data-not-saved]")).to_be_visible()
    page.get_by_role("button", name="Save round").click()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    assert Round.objects.count() == 1


def test_a_watching_phone_sees_the_round_appear_without_reloading(browser, live_server, match):
    scorer = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    watcher = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    watcher.goto(f"/w/{match.watch_id}/")
    expect(watcher.locator("main form")).to_have_count(0)
    expect(watcher.locator(".scoreboard")).to_contain_text("No rounds yet")

    scorer.goto(f"/m/{match.public_id}/")
    fill_round(scorer, 0, [7, 15, 20])
    scorer.get_by_role("button", name="Save round").click()
    expect(scorer.get_by_role("heading", name="Round 2")).to_be_visible()

    expect(watcher.locator(".scoreboard tfoot")).to_contain_text("13", timeout=8000)
    expect(watcher.locator(".breakdown")).to_contain_text("Ann declared")
    expect(watcher.locator("main form")).to_have_count(0)
    screenshot(watcher, "live-watcher")

    response = watcher.request.post(
        f"/m/{match.watch_id}/rounds/",
        form={"declarer": "0", "hand-0": "1", "hand-1": "2", "hand-2": "3"},
    )
    assert response.status == 403
    assert Round.objects.count() == 1
    scorer.context.close()
    watcher.context.close()


def test_two_scorers_saving_the_same_hand_store_one_round(browser, live_server, match):
    first = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    second = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    for page in (first, second):
        page.goto(f"/m/{match.public_id}/")
    # Both tap Save at the same moment: the second phone hears nothing from the live check first.
    second.route("**/live/**", lambda route: route.abort())
    fill_round(first, 0, [7, 15, 20])
    fill_round(second, 0, [7, 16, 20])
    first.get_by_role("button", name="Save round").click()
    expect(first.get_by_role("heading", name="Round 2")).to_be_visible()
    second.get_by_role("button", name="Save round").click()
    expect(second.locator("#entry .error")).to_contain_text(
        "Round 1 was just entered from another phone."
    )
    expect(second.locator("input[name=hand-1]")).to_have_value("16")
    expect(second.locator(".scoreboard tbody tr")).to_have_count(1)
    screenshot(second, "live-conflict")
    assert Round.objects.count() == 1
    first.context.close()
    second.context.close()
