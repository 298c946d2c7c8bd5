"""What waits on the phone is sent from any page of the app: three matches scored with no
network reach the server once when the network comes back with only Home open; Home and
History count what waits, say "as of" on a kept copy, and say what was sent. Where the browser
has Background Sync, the service worker sends it with no page of the app open."""

import pytest
from playwright.sync_api import expect

from games.models import Match, Round
from tests.conftest import shots
from tests.test_browser_offline import (
    HANDS,
    OFFLINE_MARKS,
    fill_round,
    ready,
    rounds_stored,
    save_round,
    server_totals,
    wait_until_kept,
)

pytestmark = OFFLINE_MARKS


@pytest.fixture
def matches():
    players = [["Ann", "Bo", "Chen"], ["Dee", "Eli", "Fay"], ["Gus", "Hal", "Ivy"]]
    return [
        Match.objects.create(game="least_score", players=names, options={"threshold": 100})
        for names in players
    ]


def keep(page, matches):
    """Open each match online once, until the phone can score it offline: the phone keeps it."""
    for match in matches:
        page.goto(f"/m/{match.public_id}/")
        ready(page)


def score_offline(page, match, hands):
    """Open the match with no network (the phone keeps it) and save hands there."""
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    for number, (declarer, hand) in enumerate(hands, 1):
        fill_round(page, declarer, hand)
        save_round(page, number)
    return page.locator(".scoreboard tfoot td").all_inner_texts()


def test_three_matches_scored_offline_are_sent_once_from_home(phone, matches):
    page = phone
    keep(page, matches)
    posted = []
    page.context.on(
        "requestfinished", lambda r: posted.append(r.url) if r.method == "POST" else None
    )
    page.context.set_offline(True)
    shown = [score_offline(page, match, HANDS[: k + 1]) for k, match in enumerate(matches)]
    assert Round.objects.count() == 0

    page.goto("/matches/")  # History, from the phone's copy
    status = page.locator("[data-waiting-status]")
    expect(status).to_contain_text("6 rounds of 3 matches waiting to be sent")
    expect(status).to_contain_text("Offline: this list as of")
    row = page.locator("a.match-link", has_text="Gus")
    expect(row).to_contain_text("3 rounds waiting to be sent")
    page.goto("/")
    expect(status).to_contain_text("6 rounds of 3 matches waiting to be sent")
    shots(page, "home-waiting")

    page.context.set_offline(False)  # only Home is open
    expect(status).to_have_text("Sent to the server: 6 rounds of Least Score", timeout=30_000)
    expect(status).not_to_contain_text("waiting")
    expect(status).not_to_contain_text("Offline")  # the server answered
    expect(page.locator("[data-waiting-row]")).to_have_count(0)
    shots(page, "home-sent")
    for match, hands, totals in zip(matches, [HANDS[:1], HANDS[:2], HANDS], shown):
        stored = [r.entry for r in Round.objects.filter(match=match).order_by("number")]
        assert stored == [{"declarer": d, "hands": h} for d, h in hands]
        assert server_totals(match) == totals
    rounds_posted = [url for url in posted if url.endswith("/rounds/")]
    assert len(rounds_posted) == 6  # each round once, by Home or the service worker

    page.reload()  # nothing waits any more: nothing is said, nothing sent again
    expect(page.locator("a.match-link").first).to_be_visible()
    expect(status).to_be_hidden()
    assert Round.objects.count() == 6


def test_a_match_page_sends_what_waits_for_the_phones_other_matches(phone, matches):
    first, second, _third = matches
    page = phone
    keep(page, (first, second))
    page.context.set_offline(True)
    score_offline(page, first, HANDS[:2])
    page.context.set_offline(False)
    page.goto(f"/m/{second.public_id}/")  # another match's page, online
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    assert rounds_stored(2, match=first)  # within the page's retry delay (offline.js)
    page.wait_for_timeout(2000)  # and nothing more
    stored = [r.entry for r in Round.objects.filter(match=first).order_by("number")]
    assert stored == [{"declarer": d, "hands": h} for d, h in HANDS[:2]]
    assert Round.objects.filter(match=second).count() == 0


def sync_registration(page):
    """The page's service worker registration as DevTools sees it (its Application panel): the
    browser fires Background Sync events to a worker it watches as to any other."""
    devtools = page.context.new_cdp_session(page)
    seen = []
    devtools.on(
        "ServiceWorker.workerRegistrationUpdated", lambda e: seen.extend(e["registrations"])
    )
    devtools.send("ServiceWorker.enable")
    for _ in range(50):
        if seen:
            break
        page.wait_for_timeout(100)
    [registration] = seen
    return devtools, registration


def send_now(devtools, registration):
    """The browser fires the sync when it sees the network back; if not yet, as DevTools does."""
    devtools.send(
        "ServiceWorker.dispatchSyncEvent",
        {
            "origin": registration["scopeURL"].rstrip("/"),
            "registrationId": registration["registrationId"],
            "tag": "send-waiting",
            "lastChance": False,
        },
    )


def test_with_no_page_of_the_app_open_the_service_worker_sends_what_waits(phone, matches):
    """Background Sync (Chromium): rounds kept offline, every page of the app left; once the
    browser is online it wakes the service worker, which sends them, each once."""
    match = matches[0]
    page = phone
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    worker = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    assert worker.endswith("/sw.js?module")
    devtools, registration = sync_registration(page)
    posted = []
    page.context.on("requestfinished", lambda r: posted.append(r) if r.method == "POST" else None)
    page.context.set_offline(True)
    shown = score_offline(page, match, HANDS[:2])
    tags = page.evaluate("navigator.serviceWorker.ready.then((r) => r.sync.getTags())")
    assert tags == ["send-waiting"]

    page.goto("about:blank")  # no page of the app open
    page.context.set_offline(False)
    if not rounds_stored(2, seconds=10, match=match):
        send_now(devtools, registration)
    assert rounds_stored(2, match=match)
    page.wait_for_timeout(2000)  # and nothing more
    stored = [r.entry for r in Round.objects.filter(match=match).order_by("number")]
    assert stored == [{"declarer": d, "hands": h} for d, h in HANDS[:2]]
    assert server_totals(match) == shown
    sent = [request for request in posted if request.url.endswith("/rounds/")]
    assert len(sent) == 2
    assert all(request.service_worker for request in sent)  # sent by the service worker

    page.goto("/")  # the next page of the app opened says what went, once
    status = page.locator("[data-waiting-status]")
    expect(status).to_have_text("Sent while the app was closed: 2 rounds of Least Score")
    shots(page, "home-sent-while-closed")
    page.reload()
    expect(page.locator("a.match-link").first).to_be_visible()
    expect(status).to_be_hidden()
    page.goto(f"/m/{match.public_id}/")  # nothing waits: the server's match, as sent
    expect(page.locator(".scoreboard tbody tr")).to_have_count(2)
    expect(page.locator("[data-offline-note]")).to_be_hidden()
    expect(page.locator("[data-sent-note]")).to_be_hidden()


def test_a_match_page_opened_after_the_service_worker_sent_says_what_went(phone, matches):
    """The next page opened is a match's: it says what the service worker sent, once."""
    first, second, _third = matches
    page = phone
    keep(page, (first, second))
    devtools, registration = sync_registration(page)
    page.context.set_offline(True)
    score_offline(page, first, HANDS[:1])
    page.goto("about:blank")
    page.context.set_offline(False)
    if not rounds_stored(1, seconds=10, match=first):
        send_now(devtools, registration)
    assert rounds_stored(1, match=first)
    page.goto(f"/m/{second.public_id}/")
    said = page.locator("[data-sent-note]")
    expect(said).to_have_text("Sent while the app was closed: 1 round of Least Score")
    shots(page, "match-sent-while-closed")
    page.reload()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    expect(said).to_be_hidden()


def test_history_offline_counts_the_rounds_the_server_holds_and_those_waiting(phone, matches):
    """History's copy was kept when the match was new (0 rounds); the phone has seen the
    server's 2 rounds since, and scores 3 offline: offline, History says 5 rounds, 3 of them
    waiting; back online it sends them and says what went, the count still true."""
    match = matches[0]
    page = phone
    page.goto(f"/m/{match.public_id}/")
    ready(page)  # the service worker has kept History, with the match at 0 rounds
    for k, (declarer, hands) in enumerate(HANDS[:2]):
        match.add_round({"declarer": declarer, "hands": hands}, f"another-phone-{k}")
    expect(page.locator(".scoreboard tbody tr")).to_have_count(2, timeout=8_000)  # live
    # The untouched form is drawn anew for round 3 (static/app.js) once the live update came:
    # typed into before that, its taps would be lost under a busy machine's delays.
    match.refresh_from_db()
    expect(page.locator("#entry input[name=version]")).to_have_value(str(match.version))
    wait_until_kept(page, 2)
    page.context.set_offline(True)
    for number, (declarer, hands) in enumerate([HANDS[2], HANDS[0], HANDS[1]], 3):
        fill_round(page, declarer, hands)
        save_round(page, number)
    page.goto("/matches/")
    row = page.locator(f"a.match-link[href='/m/{match.public_id}/']")
    expect(row).to_contain_text("5 rounds, in play")
    expect(row).to_contain_text("3 rounds waiting to be sent")
    expect(row).not_to_contain_text("0 rounds")
    shots(page, "history-offline-counts")

    page.context.set_offline(False)
    status = page.locator("[data-waiting-status]")
    expect(status).to_have_text("Sent to the server: 3 rounds of Least Score", timeout=30_000)
    expect(row).to_contain_text("5 rounds, in play")
    expect(row.locator("[data-waiting-row]")).to_have_count(0)
    assert Round.objects.filter(match=match).count() == 5
