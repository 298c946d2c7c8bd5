"""A round entered or changed offline and still waiting: its row says why it is marked.
(Skipped, saying so, without the offline runtime: tests/test_browser_offline.py.)
"""

from playwright.sync_api import expect

from tests.test_browser_offline import OFFLINE_MARKS, fill_round, save_round
from tests.test_browser_offline_change import change_round, match, open_offline  # noqa: F401

pytestmark = OFFLINE_MARKS


def test_a_waiting_round_says_it_is_waiting_to_be_sent(phone, match):  # noqa: F811
    """Offline, a changed round and a new one are marked with "Waiting to be sent"; the others
    are not marked."""
    page = phone
    open_offline(page, match)
    change_round(page, 1, 1, [9, 2, 4])
    fill_round(page, 0, [3, 8, 10])
    save_round(page, 4)
    waiting = page.locator(".scoreboard tbody tr.waiting th")
    expect(waiting).to_have_count(2)
    for k in range(2):
        expect(waiting.nth(k)).to_have_attribute("title", "Waiting to be sent")
    expect(page.locator(".scoreboard tbody tr:not(.waiting) th[title]")).to_have_count(0)
