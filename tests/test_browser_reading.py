"""Issue 49, points 5 to 8 on a phone (390 x 844): numbers read right in Persian, Chinese says
比赛 for a match and 局 for a hand, English says each thing as a player would, and a table's
money shows its currency."""

import json

import pytest
from playwright.sync_api import expect

from games.models import Table
from games.records import store
from tests.conftest import PHONE, phone_in, shots
from tests.test_accessibility import EXAMPLES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PEOPLE = ["Ann", "Bo", "Chen", "Dee"]
# Every minus beside a number on the page, as laid out: is it left of its first digit?
MINUS_LEFT_OF_DIGIT = """() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const found = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.parentElement.checkVisibility()) continue;
    for (const m of node.data.matchAll(/-(?=\\d)/g)) {
      const at = (start) => { const r = document.createRange(); r.setStart(node, start);
        r.setEnd(node, start + 1); return r.getBoundingClientRect(); };
      const minus = at(m.index), digit = at(m.index + 1);
      if (minus.width && digit.width) found.push([node.data, minus.left < digit.left]);
    }
  }
  return found;
}"""


def money_table(currency=""):
    """Thursday Gongzhu: an ended Gongzhu match at a stake, a payment, a match in play."""
    table = Table.objects.create(name="Thursday Gongzhu", people=PEOPLE, currency=currency)
    document = json.loads((EXAMPLES / "gongzhu-match-to-floor.match.json").read_text())
    ended = store(document)
    table.take_match(ended)
    table.pay("Dee", "Ann", 5, "money")
    return table, ended


def test_numbers_keep_their_sign_in_front_and_one_digit_system_in_persian(browser, live_server):
    table, ended = money_table("تومان")
    page = phone_in(browser, live_server, "fa")
    for path in (f"/m/{ended.public_id}/", f"/t/{table.public_id}/", f"/w/{ended.watch_id}/"):
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        signs = page.evaluate(MINUS_LEFT_OF_DIGIT)
        assert signs, path  # the page shows negative numbers
        assert [text for text, left in signs if not left] == [], path
        text = page.locator("body").inner_text()
        assert not any("\u06f0" <= c <= "\u06f9" for c in text), path  # Latin digits only
    page.goto(f"/m/{ended.public_id}/")
    total = page.locator(".standings .total").last
    assert total.inner_text().startswith("-")
    shots(page, "reading-fa-numbers")


def test_chinese_says_bi_sai_for_a_match_and_ju_for_a_hand(browser, live_server):
    table, ended = money_table()
    page = phone_in(browser, live_server, "zh-hans")
    page.goto(f"/t/{table.public_id}/")
    expect(page.get_by_role("heading", name="开始一场比赛")).to_be_visible()
    body = page.locator("body").inner_text()
    assert "加入已打完的比赛" in body and "开一局" not in body and "一局" not in body
    shots(page, "reading-zh-table")
    page.goto(f"/m/{ended.public_id}/")
    body = page.locator("body").inner_text()
    assert "第 " not in body and "。 " not in body  # 第3局, never 第 3 局; no space after 。
    page.goto("/new/sheet/")
    page.locator("details.options summary").first.click()
    help_text = page.locator("body").inner_text()
    assert "。 " not in help_text and "默认" in help_text
    shots(page, "reading-zh-new-sheet")


# The space a reader sees between "Back to" and the table's name, and the one between "Back"
# and "to", in px.
SPACES = """(button) => {
  const text = document.createTreeWalker(button, NodeFilter.SHOW_TEXT).nextNode();
  const at = (start) => { const r = document.createRange(); r.setStart(text, start);
    r.setEnd(text, start + 1); return r.getBoundingClientRect(); };
  const name = button.querySelector("bdi").getBoundingClientRect();
  return [name.left - at(6).right, at(5).left - at(3).right];
}"""


def test_english_says_each_thing_as_a_player_would(browser, live_server):
    page = phone_in(browser, live_server, "en")
    _table, ended = money_table()
    page.goto(f"/m/{ended.public_id}/")
    back = page.locator(".match-regulars .button")
    expect(back).to_have_text("Back to Thursday Gongzhu")
    before_name, between_words = back.evaluate(SPACES)
    assert abs(before_name - between_words) < 1  # one space, never two
    fresh = store({"game": "least_score", "players": PEOPLE[:3], "rounds": []})
    page.goto(f"/m/{fresh.public_id}/")
    expect(page.locator(".standings")).to_contain_text("100 to go")
    assert "to go to" not in page.locator(".standings").inner_text()
    # the table's words in a refusal: the option that caused it, in a sentence
    document = json.loads((EXAMPLES / "least-score-to-the-end.match.json").read_text())
    played = store(document)
    page.goto(f"/m/{played.public_id}/setup/")
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    page.locator("[name=threshold]").fill("50")
    page.get_by_role("button", name="Save").first.click()
    expect(page.locator(".error").first).to_have_text(
        "Changing “Out past this total” does not fit round 3: Bo's hand is missing."
    )
    shots(page, "reading-en-refusal")
    # a score sheet: the next round under a "Round" heading is a round
    sheet = store({"game": "sheet", "players": PEOPLE, "options": {"hands": 5}, "rounds": []})
    sheet.rounds.create(number=1, entry={"points": [3, 1, -2, -2]})
    page.goto(f"/m/{sheet.public_id}/")
    expect(page.locator(".status")).to_contain_text("Round 2 of 5 next")
    expect(page.locator(".status li").first).to_have_text("The highest total wins")


@pytest.mark.parametrize("language, usual", [("en", "$"), ("fa", "تومان"), ("zh-hans", "¥")])
def test_a_tables_currency_is_chosen_once_and_shown_with_its_money(
    browser, live_server, language, usual
):
    table, ended = money_table()
    page = phone_in(browser, live_server, language)
    page.goto(f"/t/{table.public_id}/setup/")
    picks = page.locator(".currency-picks button")
    expect(picks.first).to_have_text(usual)  # the language's usual currency offered first
    page.locator(".currency-picks button", has_text="€").click()
    page.wait_for_url(f"**/t/{table.public_id}/")
    expect(page.locator(".table-balance").first).to_contain_text("€")
    shots(page, f"reading-{language}-currency-table")
    page.goto(f"/m/{ended.public_id}/")
    expect(page.locator(".settlement")).to_contain_text("€")
    shots(page, f"reading-{language}-currency-match")
    page.set_viewport_size({"width": 1920, "height": 1080})  # the TV board
    page.goto(f"/w/{ended.watch_id}/")
    expect(page.locator(".settlement")).to_contain_text("€")
    page.set_viewport_size(PHONE["viewport"])
    page.goto(f"/t/{table.public_id}/setup/")
    expect(page.locator("input[name=currency]")).to_have_value("€")
    shots(page, f"reading-{language}-currency-setup")
