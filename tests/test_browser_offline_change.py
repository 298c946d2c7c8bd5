"""Changing a match with no network: a past round changed or deleted, and the match closed, on
the phone (its form drawn there, checked by the same engine), sent in order once the network
is back, each once; another phone's change to the same round meanwhile is asked in words.
(Skipped, saying so, without the offline runtime: tests/test_browser_offline.py.)
"""

import pytest
from playwright.sync_api import expect

from games.models import Match, Round, RoundEvent
from tests.conftest import PHONE, shots
from tests.test_browser_offline import (
    HANDS,
    OFFLINE_MARKS,
    fill_round,
    ready,
    save_round,
    server_totals,
    totals,
)

pytestmark = OFFLINE_MARKS


@pytest.fixture
def match():
    """A match with three rounds stored (HANDS)."""
    match = Match.objects.create(
        game="least_score", players=["Ann", "Bo", "Chen"], options={"threshold": 100}
    )
    for k, (declarer, hands) in enumerate(HANDS):
        match.add_round({"declarer": declarer, "hands": hands}, f"key-{k}")
    return match


def open_offline(page, match):
    """The match opened online until the phone can score offline, then the network gone."""
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    page.context.set_offline(True)


def open_round(page, position):
    page.locator(".scoreboard tbody th").get_by_role("link", name=str(position), exact=True).click()
    expect(page.get_by_role("heading", name=f"Change round {position}")).to_be_visible()


def change_round(page, position, declarer, hands):
    open_round(page, position)
    fill_round(page, declarer, hands)
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator(".scoreboard")).to_be_visible()


def delete_round(page, position):
    open_round(page, position)
    page.get_by_text("Delete this round", exact=True).click()
    page.get_by_role("button", name=f"Yes, delete round {position}").click()
    expect(page.locator(".scoreboard")).to_be_visible()


def entries():
    return [r.entry for r in Round.objects.filter(deleted=None).order_by("number")]


def test_a_round_changed_and_one_deleted_offline_reach_the_server_once_in_order(phone, match):
    """Offline, round 1 is changed, round 2 deleted and a new round entered: back online they
    reach the server in that order, each once, even when the change's first answer is lost."""
    page = phone
    posted = []
    # every POST asked, the page's or the service worker's (the one whose answer is lost too)
    page.context.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)

    lost = []

    def lose_the_first_answer(route):
        response = route.fetch()  # the server makes the change...
        if lost:
            route.fulfill(response=response)
        else:
            lost.append(route.request.url)
            route.abort("connectionreset")  # ...and its answer is lost

    open_offline(page, match)
    open_round(page, 1)
    expect(page.get_by_text("The round's history needs the network.")).to_be_visible()
    shots(page, "offline-change-round")
    page.get_by_role("button", name="Save changes").click()  # the same values: nothing refused
    expect(page.locator("[data-offline-note]")).to_contain_text("1 change waiting to be sent")
    change_round(page, 1, 1, [9, 2, 4])
    delete_round(page, 2)
    fill_round(page, 0, [3, 8, 10])
    save_round(page, 3)
    note = page.locator("[data-offline-note]")
    expect(note).to_contain_text("1 round and 3 changes waiting to be sent")
    expect(page.locator(".scoreboard tbody tr")).to_have_count(3)
    expect(page.locator(".scoreboard tbody tr.waiting")).to_have_count(2)
    shots(page, "offline-changed-rounds")
    shown = totals(page)
    assert entries() == [{"declarer": d, "hands": h} for d, h in HANDS]

    page.context.route(f"**/m/{match.public_id}/rounds/1/", lose_the_first_answer)
    page.context.set_offline(False)
    expect(note).to_be_hidden(timeout=30_000)
    assert entries() == [
        {"declarer": 1, "hands": [9, 2, 4]},
        {"declarer": 2, "hands": [14, 12, 3]},
        {"declarer": 0, "hands": [3, 8, 10]},
    ]
    first, second = Round.objects.get(number=1), Round.objects.get(number=2)
    assert [e.action for e in first.events.all()] == ["created", "edited"]
    assert [e.action for e in second.events.all()] == ["created", "deleted"]
    assert RoundEvent.objects.count() == 6
    # The change whose answer was lost is found made when its resend would go: not sent again;
    # nor the first change, which left round 1 as it was.
    sent = [url.split(match.public_id)[1] for url in posted if "/rounds/" in url]
    assert sent == ["/rounds/1/", "/rounds/2/delete/", "/rounds/"]
    assert lost
    assert server_totals(match) == shown == totals(page)
    expect(page.locator(".scoreboard tbody tr")).to_have_count(3)


def test_a_change_to_a_round_another_phone_changed_or_deleted_is_asked_in_words(
    browser, live_server, match
):
    """Offline, phone A changes rounds 1 and 2 while another phone changes round 1 and deletes
    round 2: back online A is told in words, puts its round 1 in place and drops its round 2."""
    a = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    open_offline(a, match)
    change_round(a, 1, 1, [9, 2, 4])
    change_round(a, 2, 2, [1, 1, 3])
    match.change_round(1, {"declarer": 2, "hands": [20, 20, 3]})
    match.delete_round(2)

    a.context.set_offline(False)
    panel = a.locator("[data-offline-conflict]")
    expect(panel).to_contain_text(
        "While you were offline, another phone changed round 1.", timeout=20_000
    )
    expect(panel).to_contain_text("While you were offline, another phone deleted round 2.")
    sides = panel.locator(".side")
    expect(sides.nth(0)).to_contain_text("Round 1 on the server:")
    expect(sides.nth(1)).to_contain_text("Your change to round 1:")
    # Each side says what was typed (who declared, each hand), then what it scores.
    theirs, yours = sides.nth(0).locator("li"), sides.nth(1).locator("li")
    expect(theirs.locator("xpath=self::li[@class='typed']")).to_have_text(
        ["who declared: Chen", "Ann, hand: 20", "Bo, hand: 20", "Chen, hand: 3"]
    )
    expect(yours.locator("xpath=self::li[@class='typed']")).to_have_text(
        ["who declared: Bo", "Ann, hand: 9", "Bo, hand: 2", "Chen, hand: 4"]
    )
    expect(theirs.nth(4)).to_contain_text("Chen declared")  # then what it scores
    expect(yours.nth(4)).to_contain_text("Bo declared")
    shots(a, "offline-change-conflict")
    panel.get_by_role("button", name="Put yours in its place").click()
    expect(panel).to_contain_text("Your change to round 2:")
    expect(panel).not_to_contain_text("While you were offline")  # said once, answered
    expect(panel.locator(".side")).to_have_count(1)  # round 2 is gone from the server
    expect(panel.get_by_role("button", name="Add it as round 3")).to_be_visible()
    assert entries()[0] == {"declarer": 1, "hands": [9, 2, 4]}
    panel.get_by_role("button", name="Drop it").click()
    expect(panel).to_be_hidden()
    expect(a.locator("[data-offline-note]")).to_be_hidden()
    assert entries() == [{"declarer": 1, "hands": [9, 2, 4]}, {"declarer": 2, "hands": [14, 12, 3]}]
    assert totals(a) == server_totals(match)
    a.context.close()


def test_a_match_closed_offline_is_closed_on_the_server(phone, match):
    page = phone
    open_offline(page, match)
    needs = page.locator("[data-needs-network]")
    expect(needs).to_have_text("Share, history, names and options and export need the network.")
    expect(page.get_by_role("link", name="Share")).to_be_hidden()
    page.get_by_text("Close the match now", exact=True).click()
    page.get_by_role("button", name="Yes, close the match").click()
    expect(page.get_by_role("button", name="Reopen the match")).to_be_visible()
    expect(page.locator("#entry")).to_have_count(0)
    expect(page.locator("[data-offline-note]")).to_contain_text("1 change waiting to be sent")
    shots(page, "offline-closed")
    match.refresh_from_db()
    assert not match.closed

    page.context.set_offline(False)
    expect(page.locator("[data-offline-note]")).to_be_hidden(timeout=20_000)
    match.refresh_from_db()
    assert match.closed
    expect(page.get_by_role("button", name="Reopen the match")).to_be_visible()


def test_a_round_deleted_online_is_restored_offline_and_reaches_the_server_once(phone, match):
    """Round 2 deleted online; offline the scorer restores it from under the match (and round 1,
    deleted and restored there, is not sent at all): back online round 2 is live again, once."""
    page = phone
    posted = []
    page.context.on(
        "requestfinished", lambda r: posted.append(r.url) if r.method == "POST" else None
    )
    match.delete_round(2)
    open_offline(page, match)
    deleted = page.locator("[data-offline-deleted]")
    expect(deleted).to_contain_text("Deleted round, after round 1")
    expect(page.locator(".scoreboard tbody tr")).to_have_count(2)
    shots(page, "offline-deleted-rounds")
    deleted.get_by_role("button", name="Restore this round").click()
    note = page.locator("[data-offline-note]")
    expect(note).to_contain_text("1 change waiting to be sent")
    expect(page.locator(".scoreboard tbody tr")).to_have_count(3)
    expect(page.locator(".scoreboard tbody tr.waiting")).to_have_count(1)
    expect(deleted).to_have_count(0)
    delete_round(page, 1)
    expect(deleted).to_contain_text("Deleted round, before round 1")
    deleted.get_by_role("button", name="Restore this round").click()
    expect(page.locator(".scoreboard tbody tr")).to_have_count(3)
    expect(note).to_contain_text("1 change waiting to be sent")
    shown = totals(page)

    page.context.set_offline(False)
    expect(note).to_be_hidden(timeout=20_000)
    assert entries() == [{"declarer": d, "hands": h} for d, h in HANDS]
    assert RoundEvent.objects.filter(action=RoundEvent.RESTORED).count() == 1
    assert [e.action for e in Round.objects.get(number=1).events.all()] == ["created"]
    sent = [url.split(match.public_id)[1] for url in posted if "/rounds/" in url]
    assert sent == ["/rounds/2/restore/"]
    assert server_totals(match) == shown == totals(page)


def test_a_restore_the_match_no_longer_takes_is_refused_in_the_servers_words(phone):
    """Offline, round 1 (deleted online) is restored; meanwhile another phone enters a round
    the match with round 1 cannot have: back online the scorer is told so in the server's
    words, and drops the restore."""
    match = Match.objects.create(
        game="least_score", players=["Ann", "Bo", "Chen"], options={"threshold": 25}
    )
    for k, (declarer, hands) in enumerate(HANDS[:2]):
        match.add_round({"declarer": declarer, "hands": hands}, f"key-{k}")
    match.delete_round(1)
    page = phone
    open_offline(page, match)
    page.locator("[data-offline-deleted]").get_by_role("button", name="Restore this round").click()
    expect(page.locator(".scoreboard tbody tr")).to_have_count(2)
    match.add_round({"declarer": 2, "hands": [14, 12, 3]}, "another-phone")

    page.context.set_offline(False)
    panel = page.locator("[data-offline-conflict]")
    expect(panel).to_contain_text(
        "While you were offline, another phone entered round 2.", timeout=20_000
    )
    expect(panel).to_contain_text("You restored round 1.")
    panel.get_by_role("button", name="Restore it").click()
    expect(panel).to_contain_text(
        "This round cannot be restored: round 3: Bo is out and has no hand"
    )
    shots(page, "offline-restore-refused")
    panel.get_by_role("button", name="Drop it").click()
    expect(panel).to_be_hidden()
    expect(page.locator("[data-offline-note]")).to_be_hidden()
    assert Round.objects.get(number=1).deleted is not None
    assert not RoundEvent.objects.filter(action=RoundEvent.RESTORED).exists()
    assert totals(page) == server_totals(match)


LIVE_DELAY = 8_000  # ms: the live check asks every 3 s, and one may be under way


def test_a_phone_whose_change_another_phones_offline_change_replaced_is_told(
    browser, live_server, match
):
    """Phone A changes round 2 offline while phone B changes it online; back online A puts its
    change in place: B is told on its next live update, in words, with a link to the round's
    history. Neither phone is told of its own change."""
    a = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    b = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    open_offline(a, match)
    change_round(a, 2, 2, [1, 1, 3])
    b.goto(f"/m/{match.public_id}/")
    change_round(b, 2, 0, [5, 6, 7])  # on its own page, online
    expect(b.get_by_role("heading", name="Round 4")).to_be_visible()
    b_totals = totals(b)
    told = b.locator("[data-changed-note]")

    a.context.set_offline(False)
    panel = a.locator("[data-offline-conflict]")
    expect(panel).to_contain_text(
        "While you were offline, another phone changed round 2.", timeout=20_000
    )
    expect(told).to_be_hidden()  # B's own change is never told to B
    panel.get_by_role("button", name="Put yours in its place").click()
    expect(panel).to_be_hidden()
    expect(a.locator("[data-offline-note]")).to_be_hidden(timeout=20_000)  # sent
    assert entries()[1] == {"declarer": 2, "hands": [1, 1, 3]}

    expect(told).to_have_text(
        "Round 2 was changed on another phone. See what changed", timeout=LIVE_DELAY
    )
    expect(b.locator(".scoreboard tfoot td")).not_to_have_text(b_totals)
    shots(b, "offline-replaced-phone-told")
    expect(a.locator("[data-changed-note]")).to_be_hidden()  # A's own change, not told to A
    told.get_by_role("link", name="See what changed").click()
    expect(b.get_by_role("heading", name="Change round 2")).to_be_visible()
    expect(b.locator("#history")).to_contain_text("changed")
    assert b.url.endswith(f"/m/{match.public_id}/rounds/2/#history")
    a.context.close()
    b.context.close()
