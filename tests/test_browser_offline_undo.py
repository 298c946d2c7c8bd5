"""Undo with no network: a round sent already is deleted once the network is back (kept as a
delete); a round still waiting is dropped and never sent."""

from playwright.sync_api import expect

from games.models import Round
from tests.test_browser_offline import OFFLINE_MARKS, fill_round, match, ready, save_round

pytestmark = OFFLINE_MARKS
ROWS = ".scoreboard tbody th[scope=row]"  # a round each
__all__ = ["match"]  # the fixture


def undo(page, number):
    toast = page.locator("[data-undo]")
    expect(toast).to_contain_text(f"Round {number} is saved.")
    toast.get_by_role("button", name="Undo").click()


def test_undo_offline_deletes_a_sent_round_later_and_drops_a_waiting_one(phone, match):
    page = phone
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    fill_round(page, 0, [7, 15, 20])
    save_round(page, 1)  # sent
    page.context.set_offline(True)
    undo(page, 1)
    expect(page.locator("[data-offline-note]")).to_contain_text("1 change waiting to be sent")
    expect(page.locator(ROWS)).to_have_count(0)

    fill_round(page, 1, [9, 5, 4])
    save_round(page, 1)  # waits
    expect(page.locator("[data-offline-note]")).to_contain_text(
        "1 round and 1 change waiting to be sent"
    )
    undo(page, 1)
    expect(page.locator("[data-offline-note]")).to_contain_text("1 change waiting to be sent")
    expect(page.locator(ROWS)).to_have_count(0)
    fill_round(page, 2, [14, 12, 3])
    save_round(page, 1)

    page.context.set_offline(False)
    expect(page.locator("[data-offline-note]")).to_be_hidden(timeout=20_000)
    expect(page.locator(ROWS)).to_have_count(1)
    assert [
        (r.entry["declarer"], r.deleted is not None) for r in Round.objects.order_by("number")
    ] == [
        (0, True),
        (2, False),
    ]
