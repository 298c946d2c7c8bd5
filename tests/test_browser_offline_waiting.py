"""A round entered offline can be fixed before it is sent: its number opens its form; changed,
the waiting round takes the new values; deleted, it is dropped; back online the server gets
each remaining round once, as it was last saved, and no change or delete at all."""

import pytest
from playwright.sync_api import expect

from games.models import Match, Round
from tests.conftest import shots
from tests.test_browser_offline import (
    HANDS,
    OFFLINE_MARKS,
    fill_round,
    ready,
    save_round,
    server_totals,
    totals,
)
from tests.test_browser_offline_change import change_round, delete_round

pytestmark = OFFLINE_MARKS
LIVE_DELAY = 8_000  # ms: the live check asks every 3 s, and one may be under way


@pytest.fixture
def match():
    return Match.objects.create(
        game="least_score", players=["Ann", "Bo", "Chen"], options={"threshold": 100}
    )


def test_a_waiting_round_changed_and_one_deleted_before_sending(phone, match):
    page = phone
    posted = []
    page.context.on(
        "requestfinished", lambda r: posted.append(r.url) if r.method == "POST" else None
    )
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    page.context.set_offline(True)
    for number, (declarer, hands) in enumerate(HANDS, 1):
        fill_round(page, declarer, hands)
        save_round(page, number)
    note = page.locator("[data-offline-note]")
    expect(note).to_contain_text("3 rounds waiting to be sent")
    waiting = page.locator(".scoreboard tbody tr.waiting th")
    expect(waiting).to_have_count(3)
    expect(waiting.first).to_have_attribute("title", "Waiting to be sent")

    change_round(page, 2, 2, [6, 1, 2])  # Chen declares instead, with other hands
    expect(note).to_contain_text("3 rounds waiting to be sent")  # replaced, not a change
    delete_round(page, 3)
    expect(note).to_contain_text("2 rounds waiting to be sent")
    expect(page.locator(".scoreboard tbody tr")).to_have_count(2)
    expect(page.locator(".breakdown")).to_contain_text("Chen declared")
    shots(page, "offline-waiting-fixed")
    shown = totals(page)

    page.context.set_offline(False)
    expect(note).to_be_hidden(timeout=20_000)
    stored = [r.entry for r in Round.objects.filter(match=match).order_by("number")]
    assert stored == [
        {"declarer": HANDS[0][0], "hands": HANDS[0][1]},
        {"declarer": 2, "hands": [6, 1, 2]},
    ]
    assert Round.objects.filter(match=match, deleted__isnull=False).count() == 0
    assert server_totals(match) == shown == totals(page)
    assert [url.rsplit("/m/", 1)[1].split("/", 1)[1] for url in posted] == ["rounds/", "rounds/"]


def test_a_phone_whose_round_another_phone_changed_is_told_on_its_next_live_update(phone, match):
    page = phone
    page.goto(f"/m/{match.public_id}/")
    for number, (declarer, hands) in enumerate(HANDS[:2], 1):
        fill_round(page, declarer, hands)
        save_round(page, number)
    told = page.locator("[data-changed-note]")
    change_round(page, 1, 1, [9, 2, 4])  # this phone's own change is not told
    expect(page.get_by_role("heading", name="Round 3")).to_be_visible()

    match.change_round(2, {"declarer": 1, "hands": [30, 1, 20]})  # another phone, say
    expect(told).to_have_text(
        "Round 2 was changed on another phone. See what changed", timeout=LIVE_DELAY
    )
    expect(told.get_by_role("link", name="See what changed")).to_have_attribute(
        "href", f"/m/{match.public_id}/rounds/2/#history"
    )
    shots(page, "round-changed-elsewhere")
    page.reload()  # told once
    expect(page.get_by_role("heading", name="Round 3")).to_be_visible()
    expect(told).to_be_hidden()
