"""A table plays Gongzhu on a phone by tapping cards: exposures, the rest button, the floor,
the stake settlement; and a hand refused by the engine when saved without JavaScript.

Values (games/rules/gongzhu.py): Q♠ -100, J♦ +100, A♥ -50, K♥ -40, Q♥ -30, J♥ -20,
10♥-5♥ -10, 4♥-2♥ 0; an exposed card doubles its effect; 10♣ doubles its taker's other cards
(alone 25 × 2). Points: (4·raw − S)/3 rounded, × 12. The match ends at a raw total of -1000.
"""

import pytest
from playwright.sync_api import expect

from games import rules
from tests.conftest import PHONE, screenshot
from tests.table import save, start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bo", "Chen", "Dee"]


def card(page, code):
    return page.locator(f".gz-face[data-field=owner-{code}]")


def play_hand(page, exposed, taken, rest):
    """Tick the exposures, give each player the cards they took, the rest to rest, save."""
    for code in exposed:
        page.locator(".gz-expose", has_text=pretty(code)).click()
    for name, codes in taken.items():
        page.locator(".gz-seat", has_text=name).click()
        for code in codes.split():
            card(page, code).click()
    expect(page.get_by_role("button", name="Give every card an owner to save")).to_be_disabled()
    page.locator(".gz-seat", has_text=rest).click()
    page.get_by_role("button", name=f"The rest to {rest}").click()
    expect(page.get_by_text("Every scoring card has an owner.")).to_be_visible()
    expect(page.get_by_text("Still unassigned:")).to_be_hidden()
    save(page, "Save round")


def pretty(code):
    return code[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[code[-1]]


def expect_totals(page, totals):
    """The scoreboard's totals row reads totals (retrying while htmx settles the new round)."""
    expect(page.locator(".scoreboard tfoot td")).to_have_text(totals, use_inner_text=True)


def stored_match():
    from games.models import Match

    return Match.objects.get().document()


def test_a_table_plays_three_hands_to_the_floor(phone):
    page = phone
    start_match(page, "Gongzhu", PLAYERS, stake=0.01)

    # Hand 1, Q♠ and A♥ exposed. Ann Q♠ A♥ K♥: -100×2 + (-90)×2 = -380. Bo ten hearts
    # (-30 -20 -50 0): -100×2 = -200. Chen 0. Dee J♦ 10♣ 5♥: (100 - 10×2)×2 = 160.
    # S = -420: Ann -1100/3 → -367, Bo -380/3 → -127, Chen 140, Dee 1060/3 → 353; ×12.
    card(page, "KH").click()  # Ann is chosen first; a card tapped again is given back
    expect(card(page, "KH")).to_contain_text("Ann")
    card(page, "KH").click()
    expect(card(page, "KH")).not_to_contain_text("Ann")
    play_hand(page, ["QS", "AH"], {"Ann": "QS AH KH", "Dee": "10C JD 5H"}, rest="Bo")
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_totals(page, ["-4404", "-1524", "1680", "4236"])
    expect(page.locator(".breakdown")).to_contain_text(
        "Dee took J♦ 10♣ 5♥: sheep 100, hearts -10 ×2 (A♥ exposed), transformer ×2 = 160"
    )
    expect(page.locator(".status")).to_contain_text("Ann took the pig and leads the next hand.")

    # Hand 2, J♦ exposed. Ann 10♣ alone: 25×2 = 50. Bo Q♠ A♥ K♥: -100 - 90 = -190.
    # Chen J♦: 200. Dee the other eleven hearts: -110. S = -50: Ann 250/3 → 83,
    # Bo -710/3 → -237, Chen 850/3 → 283, Dee -390/3 = -130; ×12: 996 -2844 3396 -1560.
    play_hand(page, ["JD"], {"Ann": "10C", "Bo": "QS AH KH", "Chen": "JD"}, rest="Dee")
    expect_totals(page, ["-3408", "-4368", "5076", "2676"])
    expect(page.locator(".status")).to_contain_text("lowest now -390 (Bo)")
    screenshot(page, "gongzhu-round-3")

    # Hand 3, Q♠ and A♥ exposed. Bo Q♠ A♥ K♥ Q♥ 10♣: (-200 - 120×2)×2 = -880: raw total
    # -1270, past the floor. Ann J♦ 100; Chen the other ten hearts (-20 -60)×2 = -160; Dee 0.
    # S = -940: Ann 1340/3 → 447, Bo -2580/3 = -860, Chen 100, Dee 940/3 → 313; ×12.
    play_hand(page, ["QS", "AH"], {"Bo": "QS AH KH QH 10C", "Ann": "JD"}, rest="Chen")
    expect_totals(page, ["1956", "-14688", "6276", "6432"])
    expect(page.locator(".banner")).to_contain_text("Dee won")
    expect(page.locator(".result-more")).to_contain_text("Bo: card points -1270")
    expect(page.locator("#entry")).to_have_count(0)

    # Stake 0.01 a point: 19.56, -146.88, 62.76, 64.32; Bo pays the biggest creditor first,
    # and the 0.24 the rounded points lack stays unsettled.
    settlement = page.locator(".settlement")
    expect(settlement).to_contain_text("-146.88")
    expect(settlement.locator(".transfers li")).to_have_text(
        ["Bo pays Dee 64.32", "Bo pays Chen 62.76", "Bo pays Ann 19.56"], use_inner_text=True
    )
    expect(settlement).to_contain_text("Rounding leaves 0.24 owed to nobody.")
    result = rules.score(stored_match())
    assert result["totals"] == [1956, -14688, 6276, 6432]
    assert result["raw_totals"] == [-230, -1270, 40, 50]
    assert result["settlement"]["remainder"] == -0.24
    screenshot(page, "gongzhu-finished")

    # Editing hand 1 shows it as it was entered.
    page.get_by_role("link", name="1", exact=True).click()
    expect(card(page, "QS")).to_contain_text("Ann")
    expect(card(page, "5H")).to_contain_text("Dee")
    expect(page.locator("input[name=exposed][value=AH]")).to_be_checked()
    expect(page.locator("input[name=exposed][value=JD]")).not_to_be_checked()
    expect(page.get_by_role("button", name="Save changes")).to_be_enabled()


def test_without_javascript_a_hand_missing_cards_is_refused_and_kept(browser, live_server):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False, **PHONE)
    page = context.new_page()
    start_match(page, "Gongzhu", PLAYERS)
    page.locator(".gz-expose", has_text="A♥").click()
    page.locator("label.gz-pick:has(input[name=owner-QS][value='2'])").click()
    page.locator("label.gz-pick:has(input[name=owner-JD][value='1'])").click()
    page.get_by_role("button", name="Save round").click()

    expect(page.locator("#entry .error")).to_contain_text("still to place: 10♣, A♥, K♥")
    expect(page.locator("input[name=owner-QS][value='2']")).to_be_checked()
    expect(page.locator("input[name=owner-JD][value='1']")).to_be_checked()
    expect(page.locator("input[name=exposed][value=AH]")).to_be_checked()
    expect(page.locator(".gz-left")).to_contain_text("Still unassigned: 10♣ A♥")
    expect(page.locator(".scoreboard tbody tr td.muted")).to_have_count(1)  # no rounds yet
    screenshot(page, "gongzhu-refused")

    # The rest to Dee: Chen Q♠ -100, Bo J♦ 100, Dee 10♣ and every heart, A♥ exposed:
    # all red 200×2 = 400, ×2 = 800. S = 800: Ann -800/3 → -267, Bo -400/3 → -133,
    # Chen -1200/3 = -400, Dee 2400/3 = 800; ×12.
    page.get_by_role("button", name="The rest to Dee").click()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_totals(page, ["-3204", "-1596", "-4800", "9600"])
    assert rules.score(stored_match())["totals"] == [-3204, -1596, -4800, 9600]
    context.close()
