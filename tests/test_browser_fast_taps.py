"""Every tap counts: ten taps 80 ms apart on a stepper or on cards are ten in the form."""

import pytest
from playwright.sync_api import expect

from tests.table import start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap_fast(page, buttons):
    """A finger on each of buttons (locators) in turn, 80 ms apart."""
    for button in buttons:
        button.tap()
        page.wait_for_timeout(80)


def test_ten_fast_taps_on_a_sanming_bomb_stepper_count_ten(phone):
    start_match(phone, "Sanming run-fast", ["Ann", "Bo", "Chen"])
    plus = phone.locator(".stepper:has(input[name=bombed-1]) .step[data-step='1']")
    tap_fast(phone, [plus] * 10)
    expect(phone.locator("input[name=bombed-1]")).to_have_value("10")


def test_ten_fast_taps_on_gongzhu_cards_give_all_ten(phone):
    start_match(phone, "Gongzhu", ["Ann", "Bo", "Chen", "Dee"])
    faces = phone.locator(".gz-face")
    tap_fast(phone, [faces.nth(k) for k in range(10)])
    expect(phone.locator(".gz-card.gz-mine")).to_have_count(10)
    expect(phone.locator(".gz-cards input[value='0']:checked")).to_have_count(10)


def test_ten_fast_taps_on_six_nimmt_cards_take_all_ten(phone):
    start_match(phone, "6 nimmt!", ["Ann", "Bo", "Chen", "Dee"])
    phone.locator(".sn-who", has_text="Ann").tap()
    cards = [phone.locator(f"label:has(> input[name=taken-0][value='{n}'])") for n in range(1, 11)]
    tap_fast(phone, cards)
    expect(phone.locator("input[name=taken-0]:checked")).to_have_count(10)


def test_no_double_tap_zoom_on_what_is_tapped(phone):
    start_match(phone, "6 nimmt!", ["Ann", "Bo", "Chen", "Dee"])
    for tapped in (".sn-who", ".sn-pad label", "#entry [type=submit]"):
        touch = phone.locator(tapped).first.evaluate("e => getComputedStyle(e).touchAction")
        assert touch == "manipulation", tapped
