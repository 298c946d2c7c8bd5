"""Every change as safe as a round (issue 48), at 390 x 844: two phones saving one hand, a Names
and options form drawn before another phone's fix."""

import pytest
from playwright.sync_api import expect

from games.models import Match, Round
from tests.conftest import shots
from tests.test_browser_live_table import fill_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match():
    return Match.objects.create(
        game="least_score", players=["Ann", "Bo", "Chen"], options={"threshold": 1000}
    )


def both_save(phones, match, first_hands, second_hands):
    """Both phones type a round; the first saves it, then the second, which heard nothing of
    the first (its live check cut)."""
    first, second = phones
    for page in phones:
        page.goto(f"/m/{match.public_id}/")
    second.route("**/live/**", lambda route: route.abort())
    fill_round(first, 0, first_hands)
    fill_round(second, 0, second_hands)
    first.get_by_role("button", name="Save round").click()
    expect(first.get_by_role("heading", name="Round 2")).to_be_visible()
    second.get_by_role("button", name="Save round").click()


def test_two_phones_saving_one_hand_choose_to_drop_the_second(phones, match):
    both_save(phones, match, [7, 15, 20], [7, 15, 20])
    second = phones[1]
    choice = second.locator("#entry")
    expect(choice.locator(".error")).to_have_text("Round 1 was just entered from another phone.")
    expect(choice.locator(".twins section")).to_have_count(2)
    expect(choice.get_by_role("button", name="Save round")).to_have_count(0)
    shots(second, "two-phones-one-hand")
    second.get_by_role("link", name="Same hand: drop mine").click()
    expect(second.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(second.locator("input[name=hand-1]")).to_have_value("")
    assert Round.objects.count() == 1


def test_two_phones_saving_two_hands_keep_both(phones, match):
    both_save(phones, match, [7, 15, 20], [3, 9, 12])
    second = phones[1]
    expect(second.locator(".twins")).to_contain_text("Bo, hand: 9")
    second.get_by_role("button", name="A different hand: save it as round 2").click()
    expect(second.locator(".scoreboard tbody tr")).to_have_count(2)
    assert [r.entry["hands"] for r in Round.objects.order_by("number")] == [[7, 15, 20], [3, 9, 12]]


def test_a_names_and_options_form_drawn_before_another_phones_fix_is_refused(phones, match):
    first, second = phones
    setup = f"/m/{match.public_id}/setup/"
    for page in phones:
        page.goto(setup)
    second.locator("input[name=player_1]").fill("Eve")
    second.get_by_role("button", name="Save the changes").click()
    expect(second.locator(".scoreboard")).to_contain_text("Eve")
    first.locator("input[name=penalty]").fill("40")
    first.get_by_role("button", name="Save the changes").click()
    notice = first.locator(".stale")
    expect(notice).to_contain_text("Changed on another phone since you opened this page: Bo → Eve")
    expect(notice).to_contain_text("Yours:")
    expect(first.locator("input[name=player_1]")).to_have_value("Eve")
    expect(first.locator("input[name=penalty]")).to_have_value("40")
    shots(first, "stale-names-and-options")
    assert Match.objects.get().players == ["Ann", "Eve", "Chen"]
    first.get_by_role("button", name="Save the changes").click()
    expect(first.locator(".scoreboard")).to_contain_text("Eve")
    match.refresh_from_db()
    assert match.players == ["Ann", "Eve", "Chen"] and match.options["penalty"] == 40


def test_a_named_phone_is_named_in_history(phone, match):
    page = phone
    page.goto(f"/m/{match.public_id}/history/")
    expect(page.locator(".this-phone")).to_contain_text("Changes from here are not signed.")
    page.get_by_role("link", name="Name this phone").click()
    shots(page, "name-this-phone")
    page.get_by_label("Whose phone is this?").fill("Bo")
    page.get_by_role("button", name="Save the name").click()
    expect(page.locator(".this-phone")).to_contain_text("signed “Bo's phone”")
    page.goto(f"/m/{match.public_id}/")
    fill_round(page, 0, [7, 15, 20])
    page.get_by_role("button", name="Save round").click()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    page.goto(f"/m/{match.public_id}/history/")
    expect(page.locator(".history-round")).to_contain_text("entered on Bo's phone")
    shots(page, "history-signed")


def test_a_replaced_score_link_opens_nothing_and_the_phone_holding_it_is_told(phones, match):
    first, second = phones
    second.goto(f"/m/{match.public_id}/")  # the link posted in the wrong chat, open here
    first.goto(f"/m/{match.public_id}/share/")
    first.get_by_text("Replace the score link", exact=True).click()
    first.get_by_role("button", name="Yes, replace it").click()
    expect(first.get_by_role("heading", name="Share this match")).to_be_visible()
    match.refresh_from_db()
    assert match.public_id in first.url
    shots(first, "share-replaced")
    expect(second.locator("main")).to_contain_text(
        "This score link was replaced", timeout=15_000
    )  # told on its next live check
    shots(second, "old-score-link")
