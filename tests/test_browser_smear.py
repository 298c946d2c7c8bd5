"""A table plays Four Point Smear on a phone: bids made and set back, card points, a bad hand."""

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot
from tests.table import save, start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANN_CHEN, BO_DEE = "Ann & Chen", "Bo & Dee"


def tap(page, group, choice):
    """Tap a big radio button in the group with this legend."""
    page.get_by_role("group", name=group, exact=True).locator("label.pill", has_text=choice).click()


def fill_hand(page, bidder, bid, high, low, jack=None, game=None, card_points=None):
    """Tap the bidder, the bid and who won each point (None: nobody), or type the card points."""
    tap(page, "Who won the bid?", bidder)
    tap(page, "Bid", str(bid))
    for point, team in [("High", high), ("Low", low), ("Jack", jack), ("Game", game)]:
        if team or point != "Game" or card_points is None:
            tap(page, point, team or "nobody")
    if card_points:
        page.get_by_text("or type the card points for Game").click()
        page.get_by_role("textbox", name=ANN_CHEN).fill(str(card_points[0]))
        page.get_by_role("textbox", name=BO_DEE).fill(str(card_points[1]))


def expect_totals(page, zero, one):
    """The scoreboard's totals, every player showing their team's (waits for the swap)."""
    expect(page.locator(".scoreboard tfoot td")).to_have_text([zero, one, zero, one])


def test_a_table_plays_smear_to_15(phone):
    page = phone
    start_match(page, "Four Point Smear", ["Ann", "Bo", "Chen", "Dee"])
    expect(page.locator(".status")).to_contain_text("Ann deals next")
    expect(page.get_by_role("group", name="High", exact=True)).to_contain_text(ANN_CHEN)
    expect(page.get_by_role("group", name="High", exact=True)).to_contain_text(BO_DEE)

    # Bo bids 3 and his team wins only High: set back.
    fill_hand(page, "Bo", 3, high=BO_DEE, low=ANN_CHEN, jack=None, game=ANN_CHEN)
    expect(page.locator("#preview")).to_contain_text("Bo and Dee bid 3 but won 1: set back, -3")
    expect(page.locator("#preview")).to_contain_text("Ann and Chen won 2: +2")
    save(page)
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_totals(page, "2", "-3")
    expect(page.locator(".status")).to_contain_text("Bo deals next")
    expect(
        page.get_by_role("group", name="Who won the bid?").locator("label.pill", has_text="Bo")
    ).to_contain_text("dealer")

    # Ann bids 4 and sweeps.
    fill_hand(page, "Ann", 4, ANN_CHEN, ANN_CHEN, ANN_CHEN, ANN_CHEN)
    expect(page.locator("#preview")).to_contain_text("Ann and Chen bid 4 and won 4: +4")
    save(page)
    expect_totals(page, "6", "-3")

    # Card points that cannot be: the message shows, everything typed stays, nothing is saved.
    fill_hand(page, "Dee", 2, BO_DEE, BO_DEE, ANN_CHEN, card_points=(50, 40))
    save(page)
    expect(page.locator("#entry .error")).to_contain_text(
        "the card points must be two whole numbers, 0 or more, adding up to at most 80"
    )
    expect(page.get_by_role("textbox", name=ANN_CHEN)).to_have_value("50")
    expect(page.get_by_role("textbox", name=BO_DEE)).to_have_value("40")
    expect(page.locator("input[name=bidder][value='3']")).to_be_checked()
    expect(page.locator("input[name=bid][value='2']")).to_be_checked()
    expect(page.locator("input[name=high][value='1']")).to_be_checked()
    expect(page.locator("input[name=jack][value='0']")).to_be_checked()
    expect(page.locator("input[name=game]:checked")).to_have_count(0)
    expect(page.locator(".scoreboard tbody tr")).to_have_count(2)
    screenshot(page, "smear-error")

    # Game from the card points instead of a tap: Bo and Dee 45 to 30.
    page.get_by_role("textbox", name=ANN_CHEN).fill("30")
    page.get_by_role("textbox", name=BO_DEE).fill("45")
    expect(page.locator("#preview")).to_contain_text("Bo and Dee bid 2 and won 3: +3")
    save(page)
    expect_totals(page, "7", "0")
    expect(page.locator(".breakdown")).to_contain_text(
        "Card points: Ann and Chen 30, Bo and Dee 45"
    )

    fill_hand(page, "Chen", 4, ANN_CHEN, ANN_CHEN, ANN_CHEN, ANN_CHEN)
    save(page)
    expect(page.locator(".status")).to_contain_text("Ann deals next")
    fill_hand(page, "Ann", 2, ANN_CHEN, BO_DEE, None, ANN_CHEN)
    expect(page.locator("#preview")).to_contain_text("Ann and Chen bid 2 and won 2: +2")
    save(page)
    fill_hand(page, "Bo", 2, BO_DEE, ANN_CHEN, BO_DEE, None)
    save(page)

    # 14 to 3: Ann and Chen's High, Low and Game take them to 17.
    expect_totals(page, "14", "3")
    fill_hand(page, "Chen", 3, ANN_CHEN, ANN_CHEN, BO_DEE, ANN_CHEN)
    save(page)
    expect(page.locator(".banner")).to_contain_text("Ann, Chen won")
    expect(page.locator("#entry")).to_have_count(0)
    expect_totals(page, "17", "4")
    screenshot(page, "smear-finished")
