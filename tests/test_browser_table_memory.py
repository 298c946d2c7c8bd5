"""A table's first evenings on a phone at 390 x 844 (issue 49.1, 49.2, 49.10): a typo fixed in a
table's match is renamed everywhere at the table, said in one line with Undo (in English and in
Persian); the table's next Gongzhu starts from what the last one played for, "as last time";
Gongzhu's first hand saved says why a total is not the card points beside it."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Match, Table
from tests.conftest import phone_in, shots

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PEOPLE = ["Ann", "Bbo", "Chen", "Dee"]
# The line said back after the typo is fixed, in each language the test reads.
RENAMED = {
    "en": "Bbo is now Bo everywhere at this table: in every match and payment.",
    "zh-Hans": "这张桌所有地方的Bbo都已改为Bo：每场比赛和每笔付款。",
    "fa": "⁨Bbo⁩ اکنون در همه‌جای این میز ⁨Bo⁩ است: در هر بازی و هر پرداخت.",
}


def fix_the_typo(page, match):
    """Names and options: Bbo's seat typed Bo, saved, and the first offer taken (a typo)."""
    page.goto(f"/m/{match.public_id}/setup/")
    page.locator("#setup input[name=player_1]").fill("Bo")
    page.locator("#setup button[type=submit]").click()
    offers = page.locator(".table-question button")
    expect(offers).to_have_count(2)
    expect(offers.first).to_have_attribute("name", "typo")  # first: a typo, then someone new
    expect(offers.nth(1)).to_have_attribute("name", "add_people")
    return offers


@pytest.mark.parametrize("language", ["en", "fa", "zh-Hans"])
def test_a_typo_in_a_tables_match_is_fixed_everywhere_said_and_undone(
    browser, live_server, language
):
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    earlier = table.start_match("gongzhu", PEOPLE, {"stake": 0.01})
    match = table.start_match("gongzhu", PEOPLE, {"stake": 0.01})
    table.pay("Bbo", "Ann", 12, "money")
    page = phone_in(browser, live_server, language, "light")  # shots: light, then dark
    page.goto(f"/t/{table.public_id}/")  # this phone holds the table's score link
    offers = fix_the_typo(page, match)
    if language == "en":
        expect(offers.first).to_have_text("Bbo was a typo: call Bbo Bo everywhere at this table")
        expect(offers.nth(1)).to_have_text("Bo is someone new: add to the table")
    shots(page, f"typo-offers-{language}")
    offers.first.click()
    said = page.locator("form.undo [role=status]")
    expect(said).to_have_text(RENAMED[language])
    box = said.bounding_box()
    assert box["y"] + box["height"] <= 844  # where the eye is: on the first screen
    table.refresh_from_db()
    assert table.people == ["Ann", "Bo", "Chen", "Dee"]
    assert table.payments.get().payer == "Bo"
    assert Match.objects.get(pk=earlier.pk).players == ["Ann", "Bo", "Chen", "Dee"]
    shots(page, f"typo-said-{language}")

    page.locator("form.undo button").click()
    expect(said).not_to_have_text(RENAMED[language])  # the Undo said back in its turn: Bbo again
    expect(said).to_contain_text("Bbo")
    table.refresh_from_db()
    assert table.people == PEOPLE and table.payments.get().payer == "Bbo"
    assert [m.players for m in Match.objects.order_by("pk")] == [PEOPLE, PEOPLE]

    fix_the_typo(page, match).first.click()
    expect(page.locator("form.undo [role=status]")).to_be_visible()
    page.goto(f"/t/{table.public_id}/new/gongzhu/")  # the next Gongzhu: Bo, not Bbo
    expect(page.locator("input[name=player_1]")).to_have_value("Bo")
    expect(page.locator("input[name=stake]")).to_have_value("0.01")


@pytest.mark.parametrize("language", ["en", "fa", "zh-Hans"])
def test_a_typo_on_the_tables_new_match_form_is_fixed_everywhere(browser, live_server, language):
    """The form draws Bbo in seat 2; Bo typed there is offered first as Bbo's typo."""
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    table.start_match("gongzhu", PEOPLE, {})
    page = phone_in(browser, live_server, language, "light")
    page.goto(f"/t/{table.public_id}/new/gongzhu/")
    page.locator("input[name=player_1]").fill("Bo")
    page.locator("#new-match button[type=submit]").last.click()
    offers = page.locator(".table-question button")
    expect(offers.first).to_have_attribute("name", "typo")
    expect(offers.nth(1)).to_have_attribute("name", "add_people")
    shots(page, f"new-match-typo-{language}")
    offers.first.click()
    expect(page.locator("form.undo [role=status]")).to_have_text(RENAMED[language])
    assert [m.players for m in Match.objects.order_by("pk")] == [["Ann", "Bo", "Chen", "Dee"]] * 2
    assert Table.objects.get().people == ["Ann", "Bo", "Chen", "Dee"]


def test_a_tables_second_gongzhu_starts_with_the_stake_and_options_of_the_first(phone):
    page = phone
    table = Table.objects.create(name="Thursday", people=PEOPLE)
    page.goto(f"/t/{table.public_id}/")
    page.locator("a[href$='/new/gongzhu/']").first.click()
    expect(page.locator("[data-as-last-time]")).to_have_count(0)
    expect(page.locator("input[name=stake]")).to_have_value("0")
    page.locator("input[name=stake]").fill("0.01")
    page.get_by_text("Options").click()
    page.locator("input[name=multiplier]").fill("10")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    assert Match.objects.get().options["multiplier"] == 10

    page.goto(f"/t/{table.public_id}/")
    page.locator("a[href$='/new/gongzhu/']").first.click()
    note = page.locator("[data-as-last-time]")
    expect(note).to_have_text(
        "As last time: what you play for and the options, from this table's last Gongzhu match."
    )
    expect(page.locator("input[name=stake]")).to_have_value("0.01")
    expect(page.locator("input[name=multiplier]")).to_have_value("10")
    expect(page.locator("input[name=multiplier]")).to_be_visible()  # its Options unfolded
    shots(page, "as-last-time-en")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    second = Match.objects.latest("pk").options
    assert (second["stake"], second["multiplier"]) == (0.01, 10)


def play_first_hand(page):
    """Dee takes Q♠ and J♥ (card points −120), Ann the rest; saved with the card taps."""
    page.locator(".gz-seat[data-seat='3']").click()
    for code in ("QS", "JH"):
        page.locator(f".gz-face[data-field=owner-{code}]").click()
    page.locator(".gz-seat[data-seat='0']").click()
    page.locator(".gz-rest button[value='0']").click()
    with page.expect_response(lambda r: r.request.method == "POST" and "/preview/" not in r.url):
        page.locator("#entry button[data-save]").click()
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


@pytest.mark.parametrize(
    "language, said",
    [
        ("en", "Round 1 is saved. Totals are card points evened out so they add to 0, ×12."),
        ("zh-Hans", "总分是牌分拉平（加起来为 0）后再 ×12。"),
        # the digits as Persian or Latin: one formatting path decides (issue 49.5)
        (
            "fa",
            re.compile("جمع‌ها امتیاز کارت‌هاست، سر به سر شده تا جمعشان صفر شود و ضرب در (12|۱۲)"),
        ),
    ],
)
def test_gongzhus_first_hand_says_why_a_total_is_not_the_card_points(
    browser, live_server, language, said
):
    match = Match.start("gongzhu", ["Ann", "Bo", "Chen", "Dee"], {})
    page = phone_in(browser, live_server, language, "light")
    page.goto(f"/m/{match.public_id}/")
    play_first_hand(page)
    line = page.locator("form.undo [role=status]")
    expect(line).to_contain_text(said)
    box = line.bounding_box()
    assert box["y"] + box["height"] <= 844  # where the eye is after saving
    shots(page, f"gongzhu-why-{language}")
