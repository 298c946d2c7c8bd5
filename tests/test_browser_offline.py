"""Scoring with no network: a phone that has opened a match keeps scoring it offline with the
same engine (games/rules/ under Pyodide), keeps its rounds through a restart, and sends them
once when the network is back; another phone's rounds meanwhile are shown, never guessed at.

The offline runtime is fetched by `make` (scripts/fetch-pyodide, which needs npm): without it
these tests are skipped, saying so.
"""

import json
import re
import threading
import time

import pytest
from django.db import OperationalError
from django.urls import reverse
from playwright.sync_api import expect

from games import rules, views
from games.models import Match, Round
from games.offline import runtime_ready
from tests.browser import pick
from tests.conftest import CHROMIUM_ARGS, PHONE, screenshot, shots

# Every offline browser test's marks: without the runtime they are skipped, saying why.
OFFLINE_MARKS = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not runtime_ready(),
        reason="the offline runtime (Pyodide) is not fetched: `make offline-runtime` needs npm",
    ),
]
pytestmark = OFFLINE_MARKS
READY_MS = 90_000  # Pyodide's first start on a slow, shared machine


@pytest.fixture
def match():
    return Match.objects.create(
        game="least_score", players=["Ann", "Bo", "Chen"], options={"threshold": 100}
    )


def browser_executable(browser):
    """The Chromium the session's browser runs (tests/browser.py picks it)."""
    return pick(browser.browser_type.executable_path)


def ready(page):
    """Wait until the phone can score with no network (engine warm, state and page kept)."""
    expect(page.locator("html[data-offline=ready]")).to_have_count(1, timeout=READY_MS)


# How many rounds the phone keeps of the match on its screen (its base in IndexedDB, kept.js).
KEPT_ROUNDS = """() => new Promise((resolve, reject) => {
  const publicId = location.pathname.split("/")[2];
  const opened = indexedDB.open("scorekeeper-offline");
  opened.onerror = () => reject(opened.error);
  opened.onsuccess = () => {
    const asked = opened.result.transaction("bases").objectStore("bases").get(publicId);
    asked.onsuccess = () => {
      opened.result.close();
      resolve(asked.result ? asked.result.document.rounds.length : 0);
    };
  };
})"""


def wait_until_kept(page, rounds):
    """Wait until the phone keeps the match with this many rounds (a save's answer is kept a
    moment after it is drawn: a reload at once may find the phone's state before it)."""
    page.wait_for_function(f"({KEPT_ROUNDS})().then((kept) => kept === {rounds})")


def rounds_stored(count, seconds=30, **where):
    """Wait until the server holds count rounds (of where): whether it did. The test's reads
    share SQLite's in-memory cache with the server's writes: one that meets a write going on
    ("database table is locked") is tried again."""
    for _ in range(seconds * 5):
        try:
            if Round.objects.filter(**where).count() == count:
                return True
        except OperationalError:
            pass
        time.sleep(0.2)
    return False


def fill_round(page, declarer, hands):
    page.locator(f"input[name=declarer][value='{declarer}']").check()
    for seat, hand in enumerate(hands):
        page.locator(f"input[name=hand-{seat}]").fill(str(hand))


def save_round(page, number):
    """Tap Save round and wait for the next round's form (saved online or on the phone)."""
    page.get_by_role("button", name="Save round").click()
    expect(page.get_by_role("heading", name=f"Round {number + 1}")).to_be_visible()


def totals(page):
    return page.locator(".scoreboard tfoot td").all_inner_texts()


def server_totals(match):
    match.refresh_from_db()
    return [str(t) for t in rules.score(match.document())["totals"]]


HANDS = [(0, [7, 15, 20]), (1, [9, 5, 4]), (2, [14, 12, 3])]


def test_a_match_reopened_offline_scores_three_rounds_and_sends_them_once(phone, match):
    page = phone
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    ready(page)
    for number, (declarer, hands) in enumerate(HANDS, 1):
        fill_round(page, declarer, hands)
        save_round(page, number)
    shown = totals(page)
    expect(page.locator("[data-offline-note]")).to_contain_text("3 rounds waiting to be sent")
    expect(page.locator("[data-offline-note]")).to_contain_text("Offline")
    expect(page.locator(".breakdown")).to_contain_text("Chen declared")
    screenshot(page, "offline-three-rounds")
    assert Round.objects.count() == 0

    page.context.set_offline(False)
    expect(page.locator("[data-offline-note]")).to_be_hidden(timeout=20_000)
    expect(page.locator(".scoreboard tbody tr")).to_have_count(3)
    assert Round.objects.count() == 3
    assert [r.entry for r in Round.objects.order_by("number")] == [
        {"declarer": d, "hands": h} for d, h in HANDS
    ]
    assert server_totals(match) == shown
    assert totals(page) == shown
    assert page.locator(".scoreboard tr.waiting").count() == 0


def test_rounds_saved_online_then_one_offline_follow_on_without_a_question(phone, match):
    """A save's answer tells the phone only the round it added: the phone's state follows the
    answers without asking the server for it, and a round entered offline just after them
    follows on and is sent with no question."""
    page = phone
    asked = []
    page.on(
        "request",
        lambda request: asked.append(request.url) if "offline.json" in request.url else None,
    )
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    for number, (declarer, hands) in enumerate(HANDS[:2], 1):
        fill_round(page, declarer, hands)
        save_round(page, number)
    page.context.set_offline(True)
    fill_round(page, *HANDS[2])
    save_round(page, 3)
    expect(page.locator("[data-offline-note]")).to_contain_text("1 round waiting to be sent")
    expect(page.locator(".scoreboard tbody tr")).to_have_count(3)
    assert asked == []
    page.context.set_offline(False)
    expect(page.locator("[data-offline-note]")).to_be_hidden(timeout=20_000)
    expect(page.locator("[data-offline-conflict]")).to_be_hidden()
    assert [r.entry for r in Round.objects.order_by("number")] == [
        {"declarer": d, "hands": h} for d, h in HANDS
    ]
    assert totals(page) == server_totals(match)


def test_the_engine_warming_up_never_draws_over_a_newer_screen_and_what_was_typed(phone, match):
    """The phone's engine, once warm, redraws a screen older than the state it keeps; a live
    update that moved the typed form on (its state not fetched yet) is newer, and stays."""
    page = phone
    page.route("**/offline.json", lambda route: route.abort())  # the state stays the page's
    page.goto(f"/m/{match.public_id}/")
    fill_round(page, 1, [9, 5, 4])
    match.add_round({"declarer": 0, "hands": [7, 15, 20]}, "another-phone")
    moved = page.locator("[data-moved-note]")
    expect(moved).to_contain_text("now for round 2", timeout=15_000)
    ready(page)
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(moved).to_be_visible()
    expect(page.locator("input[name=hand-0]")).to_have_value("9")
    expect(page.locator(".scoreboard tbody tr")).to_have_count(1)


def a_round_meanwhile(browser, live_server, match, hands):
    """Phone A scores these rounds offline while phone B enters round 1 (Chen declares): A and B."""
    a = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    b = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    a.goto(f"/m/{match.public_id}/")
    ready(a)
    a.context.set_offline(True)
    for number, (declarer, hand) in enumerate(hands, 1):
        fill_round(a, declarer, hand)
        save_round(a, number)
    expect(a.locator("[data-offline-note]")).to_contain_text(
        f"{len(hands)} round{'s' if len(hands) > 1 else ''} waiting to be sent"
    )
    b.goto(f"/m/{match.public_id}/")
    fill_round(b, 2, [10, 12, 3])
    save_round(b, 1)
    return a, b


def test_another_phones_round_meanwhile_is_shown_and_the_scorer_chooses(
    browser, live_server, match
):
    """Phone A scores two rounds offline while phone B enters round 1: back online, A is told in
    words, adds its first round as round 2 and drops its second; nothing is guessed."""
    a, b = a_round_meanwhile(browser, live_server, match, HANDS[:2])
    assert Round.objects.count() == 1

    a.context.set_offline(False)
    panel = a.locator("[data-offline-conflict]")
    expect(panel).to_contain_text(
        "While you were offline, another phone entered round 1.", timeout=20_000
    )
    expect(panel).to_contain_text("Your round 1:")
    expect(panel).to_contain_text("Ann declared")  # what this phone's round 1 was
    expect(a.locator(".breakdown")).to_contain_text("Chen declared")  # and the other phone's
    expect(a.locator("#entry")).to_be_hidden()
    screenshot(a, "offline-conflict")
    assert Round.objects.count() == 1

    panel.get_by_role("button", name="Add it as round 2").click()
    expect(panel).to_contain_text("Your round 2:")
    expect(panel.get_by_role("button", name="Add it as round 3")).to_be_visible()
    assert [r.entry["declarer"] for r in Round.objects.order_by("number")] == [2, 0]

    panel.get_by_role("button", name="Drop it").click()
    expect(panel).to_be_hidden()
    expect(a.locator("[data-offline-note]")).to_be_hidden()
    expect(a.locator(".scoreboard tbody tr")).to_have_count(2)
    assert [r.entry["declarer"] for r in Round.objects.order_by("number")] == [2, 0]
    assert totals(a) == server_totals(match)
    expect(a.get_by_role("heading", name="Round 3")).to_be_visible()
    a.context.close()
    b.context.close()


def test_the_question_is_asked_over_the_servers_screen_when_its_first_fetch_fails(
    browser, live_server, match
):
    """Back online, the first fetch of the match screen fails (a network coming back in fits):
    the question is asked over the server's screen, with the other phone's round, never over
    the copy the phone kept from before."""
    a, b = a_round_meanwhile(browser, live_server, match, HANDS[:1])
    failed = []

    def fail_the_first(route):
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.abort("internetdisconnected")

    a.context.route(f"**/m/{match.public_id}/", fail_the_first)
    a.context.set_offline(False)
    panel = a.locator("[data-offline-conflict]")
    expect(panel).to_contain_text("another phone entered round 1.", timeout=20_000)
    expect(a.locator(".breakdown")).to_contain_text("Chen declared")
    assert failed
    a.context.close()
    b.context.close()


# No network at all for a browser launched with these: every request, the service worker's too
# from its first moment, goes to a proxy that is not there (loopback included).
NO_NETWORK = ["--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>"]


def test_rounds_entered_offline_survive_closing_the_browser(browser, live_server, match, tmp_path):
    """A persistent profile (the phone's browser) closed while offline and opened again offline:
    the rounds still wait, then go when the browser is opened with the network back."""

    def open_phone(offline):
        context = browser.browser_type.launch_persistent_context(
            tmp_path / "profile",
            executable_path=browser_executable(browser),
            args=[*CHROMIUM_ARGS, *(NO_NETWORK if offline else [])],
            base_url=live_server.url,
            offline=offline,
            **PHONE,
        )
        context.set_default_timeout(10_000)
        return context, context.pages[0] if context.pages else context.new_page()

    context, page = open_phone(offline=False)
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    context.set_offline(True)
    for number, (declarer, hands) in enumerate(HANDS[:2], 1):
        fill_round(page, declarer, hands)
        save_round(page, number)
    shown = totals(page)
    context.close()

    context, page = open_phone(offline=True)
    page.goto(f"/m/{match.public_id}/")
    expect(page.locator("[data-offline-note]")).to_contain_text("2 rounds waiting to be sent")
    expect(page.get_by_role("heading", name="Round 3")).to_be_visible()
    assert totals(page) == shown
    assert Round.objects.count() == 0
    context.close()

    context, page = open_phone(offline=False)
    page.goto(f"/m/{match.public_id}/")
    assert rounds_stored(2)  # sent by the page or the service worker, whichever comes first
    expect(page.locator("[data-offline-note]")).to_be_hidden(timeout=20_000)
    page.wait_for_timeout(2000)  # and nothing more
    assert Round.objects.count() == 2
    assert server_totals(match) == shown == totals(page)
    context.close()


def test_a_watching_phone_keeps_the_last_scoreboard_and_catches_up(browser, live_server, match):
    watcher = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    watcher.goto(f"/w/{match.watch_id}/")
    expect(watcher.locator(".scoreboard")).to_contain_text("No rounds yet")
    watcher.context.set_offline(True)
    note = watcher.locator("[data-offline-note]")
    expect(note).to_have_text(re.compile(r"Offline: the scoreboard as of \d\d:\d\d"), timeout=8000)
    screenshot(watcher, "offline-watcher")
    Match.objects.get(pk=match.pk).add_round({"declarer": 0, "hands": [7, 15, 20]}, "k1")
    watcher.context.set_offline(False)
    expect(watcher.locator(".scoreboard tfoot")).to_contain_text("13", timeout=8000)
    expect(note).to_be_hidden()
    watcher.context.close()


def test_a_persian_phone_offline_writes_its_clock_in_the_digits_of_the_scores(
    browser, live_server, match
):
    watcher = browser.new_context(base_url=live_server.url, locale="fa-IR", **PHONE).new_page()
    watcher.goto(f"/w/{match.watch_id}/")
    watcher.context.set_offline(True)
    note = watcher.locator("[data-offline-note]")
    expect(note).to_have_text(re.compile(r"[0-9]{2}:[0-9]{2}"), timeout=8000)
    assert not re.search("[۰-۹]", note.inner_text())
    watcher.context.close()


def test_the_engine_in_the_browser_gives_the_servers_result_for_every_worked_example(phone, match):
    from tests.test_examples import INVALID, MATCHES, expected_result, load

    page = phone
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    texts = [path.read_text(encoding="utf-8") for path in [*MATCHES, *INVALID]]
    # The page's own engine: a module is one instance per page, so this import is the page's.
    answers = page.evaluate(
        """async (texts) => {
          const { call } = await import("/static/offline/engine.js");
          return Promise.all(texts.map((text) => call("score", text)));
        }""",
        texts,
    )
    results = [json.loads(answer) for answer in answers]
    assert results[: len(MATCHES)] == [expected_result(path) for path in MATCHES]
    assert results[len(MATCHES) :] == [{"error": load(path)["error"]} for path in INVALID]


def test_the_runtime_loads_only_once_the_page_has_loaded(phone, match):
    """The first load stays small: Pyodide and the bundles are fetched after the load event."""
    page = phone
    fetched = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(f"/m/{match.public_id}/", wait_until="load")
    at_load = list(fetched)
    ready(page)
    assert not [url for url in at_load if "/offline/pyodide/" in url or url.endswith(".zip")]
    assert [url for url in fetched if url.endswith("pyodide.asm.wasm")]


def test_a_save_that_meets_a_dead_server_is_scored_on_the_phone_and_sent_later(phone, match):
    """The phone believes it is online, but the save cannot reach the server: the engine takes
    the round at once, and it is sent once the server answers saves again."""
    page = phone
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    # The phone's requests (the page's and the service worker's) meet a dead server.
    page.context.route("**/rounds/", lambda route: route.abort("connectionrefused"))
    fill_round(page, 0, [7, 15, 20])
    save_round(page, 1)
    expect(page.locator("[data-offline-note]")).to_contain_text("1 round waiting to be sent")
    expect(page.locator("[data-not-saved]")).to_be_hidden()
    assert Round.objects.count() == 0
    page.context.unroute("**/rounds/")
    expect(page.locator("[data-offline-note]")).to_be_hidden(timeout=30_000)
    assert [r.entry for r in Round.objects.all()] == [{"declarer": 0, "hands": [7, 15, 20]}]


def test_a_page_the_service_worker_answers_from_its_copy_says_as_of_when(phone, match, monkeypatch):
    """Another phone saved, and the server is slow: the service worker gives up on it and shows
    the copy it kept, which says it is the scoreboard as of then, never as current; when the
    server answers, the screen is the server's and the note goes."""
    page = phone
    page.goto(f"/m/{match.public_id}/")
    ready(page)  # the service worker has kept the page
    match.add_round({"declarer": 0, "hands": [7, 15, 20]}, "another-phone")
    answer = threading.Event()

    def slow(view):
        def waiting(*args, **kwargs):
            answer.wait(30)
            return view(*args, **kwargs)

        return waiting

    monkeypatch.setattr(views, "drawn_page", slow(views.drawn_page))  # the page
    monkeypatch.setattr(views, "live_news", slow(views.live_news))  # the live check
    try:
        page.reload(timeout=30_000)  # the service worker waits 5 s for the server
        note = page.locator("[data-offline-note]")
        expect(note).to_have_text(re.compile(r"^Offline: the scoreboard as of \d\d:\d\d$"))
        expect(page.locator(".scoreboard")).to_contain_text("No rounds yet")
        screenshot(page, "offline-kept-page")
    finally:
        answer.set()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible(timeout=20_000)
    expect(page.locator(".scoreboard tfoot")).to_contain_text("13")
    expect(note).to_be_hidden()


def test_a_round_the_server_holds_with_other_values_is_asked_about(phone, match):
    """A round saved offline whose entry key the server already holds, with other values (its
    first answer lost, then changed from another phone): never taken as sent, but asked about
    in words, as another phone's round is."""
    page = phone
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    page.context.set_offline(True)
    fill_round(page, 0, [7, 15, 20])
    key = page.locator("#entry input[name=entry_key]").input_value()
    save_round(page, 1)
    note = page.locator("[data-offline-note]")
    expect(note).to_contain_text("1 round waiting to be sent")
    match.add_round({"declarer": 1, "hands": [9, 5, 4]}, key)

    page.context.set_offline(False)
    panel = page.locator("[data-offline-conflict]")
    expect(panel).to_contain_text(
        "The server already has round 1 from this phone, with other values.", timeout=20_000
    )
    expect(panel).to_contain_text("Your round 1:")
    expect(panel).to_contain_text("Ann declared")  # what this phone typed
    assert Round.objects.count() == 1
    panel.get_by_role("button", name="Add it as round 2").click()
    expect(panel).to_be_hidden()
    expect(note).to_be_hidden(timeout=20_000)
    assert [r.entry for r in Round.objects.order_by("number")] == [
        {"declarer": 1, "hands": [9, 5, 4]},
        {"declarer": 0, "hands": [7, 15, 20]},
    ]
    assert totals(page) == server_totals(match)


def test_after_the_last_round_is_deleted_the_engine_in_the_browser_numbers_as_the_server(
    phone, match
):
    """phone.py under Pyodide, as the page runs it: the round after a deleted last round is
    linked under the number the server then stores it at (a number is never used twice)."""
    match.add_round({"declarer": 0, "hands": [7, 15, 20]}, "first")
    match.add_round({"declarer": 1, "hands": [9, 5, 4]}, "second")
    match.delete_round(2)
    page = phone
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    entry = {"declarer": 2, "hands": [9, 8, 3]}
    drawn = page.evaluate(
        """async ([stateUrl, entry]) => {
          const { call } = await import("/static/offline/engine.js");
          const state = await (await fetch(stateUrl)).json();
          const request = { state, pending: [entry], csrf: "token", entry_key: "key" };
          return JSON.parse(await call("body", JSON.stringify(request))).html;
        }""",
        [reverse("offline_state", args=[match.public_id]), entry],
    )
    assert match.add_round(entry, "third").number == 3
    assert f'href="/m/{match.public_id}/rounds/3/"' in drawn
    assert f'href="/m/{match.public_id}/rounds/2/"' not in drawn  # restored, not linked


def test_from_the_first_paint_the_screen_says_where_the_phone_stands_offline(phone, match):
    """A quiet line below the match says, from the first paint (drawn by the server), that the
    phone is getting ready to score with no network, and once it can (the same moment as
    data-offline=ready) that it can: the entry form stays where it was. Offline, the note says
    more."""
    page = phone
    page.goto(f"/m/{match.public_id}/", wait_until="commit")
    line = page.locator("[data-offline-ready]")
    expect(line).to_have_text("Getting ready to score without a network…")
    expect(line).to_be_visible()
    shots(page, "offline-getting-ready-line")
    form = page.locator("#entry").bounding_box()
    ready(page)
    expect(line).to_have_text("This phone can keep scoring without a network.")
    expect(line).to_be_visible()
    assert page.locator("#entry").bounding_box() == form
    shots(page, "offline-ready-line")
    page.context.set_offline(True)
    expect(line).to_be_hidden()
    page.context.set_offline(False)
    expect(line).to_be_visible()


def test_a_phone_that_cannot_run_the_engine_is_told_so_from_the_start(phone, match):
    """A browser without WebAssembly never scores offline: the line says so, never that it is
    getting ready for ever."""
    page = phone
    page.add_init_script("delete window.WebAssembly;")
    page.goto(f"/m/{match.public_id}/")
    line = page.locator("[data-offline-ready]")
    expect(line).to_have_text("This phone cannot keep scoring without a network.", timeout=30_000)
    expect(page.locator("html[data-offline=ready]")).to_have_count(0)


def test_offline_the_live_check_waits_and_asks_again_at_once_when_the_network_is_back(phone, match):
    """With no network the phone does not ask the server for news every 3 s (each failed ask
    is three errors in the browser's console); the network back, it asks at once."""
    page = phone
    errors, asked = [], []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.on(
        "request", lambda request: asked.append(request.url) if "/live/" in request.url else None
    )
    page.clock.install()  # the page's timers, run 20 s ahead below
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    page.context.set_offline(True)
    # A check already on its way when the network went fails once: counted from after it.
    expect(page.locator("[data-live].htmx-request")).to_have_count(0)
    errors.clear()
    page.clock.run_for(20_000)
    assert len(errors) <= 2, errors
    # The clock stopped: no timer asks any more, only the network coming back can.
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    checks = len(asked)
    with page.expect_response(lambda response: "/live/" in response.url):
        page.context.set_offline(False)
    assert len(asked) == checks + 1


def test_rounds_saved_while_the_engine_warms_up_are_kept_and_the_form_takes_the_next(phone, match):
    """Reopened with no network, the engine needs a few seconds to start (here its manifest is
    held until both rounds are saved): each round saved meanwhile is kept on the phone at once
    and shows as a waiting row, the form is free for the next round at once, and what is typed
    in it stays while the engine works the kept rounds out; back online they reach the server
    once."""
    page = phone
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    page.add_init_script(
        """const fetched = window.fetch;
        let release;
        window.engineHeld = new Promise((resolve) => { release = resolve; });
        window.releaseEngine = () => release();
        window.fetch = (input, init) => String(input).endsWith("/offline/manifest.json")
          ? window.engineHeld.then(() => fetched(input, init)) : fetched(input, init);"""
    )
    page.context.set_offline(True)
    page.reload()
    working = page.locator("#entry [data-working]")
    for number, (declarer, hands) in enumerate(HANDS[:2], 1):
        fill_round(page, declarer, hands)
        page.get_by_role("button", name="Save round").click()
        expect(page.get_by_role("heading", name=f"Round {number + 1}")).to_be_visible()
        expect(working).to_have_text("Round kept on this phone: working out the scores…")
        expect(page.locator("input[name=hand-0]")).to_have_value("")
    expect(page.locator("[data-offline-note]")).to_contain_text("2 rounds waiting to be sent")
    kept_rows = page.locator(".scoreboard tbody tr.waiting th")
    expect(kept_rows).to_have_text(["1", "2"])
    assert not page.locator("input[name=hand-0]").evaluate("(input) => input.closest('[inert]')")
    page.locator("input[name=hand-0]").fill("11")  # round 3, typed while the engine starts
    screenshot(page, "offline-working-it-out")

    page.evaluate("window.releaseEngine()")
    expect(working).to_be_hidden(timeout=READY_MS)
    expect(page.get_by_role("heading", name="Round 3")).to_be_visible()
    expect(page.locator("input[name=hand-0]")).to_have_value("11")
    entries = [{"declarer": d, "hands": h} for d, h in HANDS[:2]]
    assert totals(page) == [str(t) for t in rules.score(match.document(entries))["totals"]]
    assert Round.objects.count() == 0

    page.context.set_offline(False)
    expect(page.locator("[data-offline-note]")).to_be_hidden(timeout=20_000)
    assert [r.entry for r in Round.objects.order_by("number")] == entries
    assert totals(page) == server_totals(match)


def test_a_round_kept_before_the_engine_started_is_sent_as_typed_when_the_network_comes_first(
    phone, match
):
    """The network comes back before the engine has worked out a round kept meanwhile (here
    it never starts: the page's ask for the offline manifest is held): the round is sent as
    typed, once, with no question."""
    page = phone
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    page.add_init_script(
        """const fetched = window.fetch;
        window.fetch = (input, init) => String(input).endsWith("/offline/manifest.json")
          ? new Promise(() => {}) : fetched(input, init);"""
    )
    page.context.set_offline(True)
    page.reload()
    fill_round(page, *HANDS[0])
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#entry [data-working]")).to_be_visible()
    expect(page.locator("[data-offline-note]")).to_contain_text("1 round waiting to be sent")

    page.context.set_offline(False)
    expect(page.locator("[data-offline-note]")).to_be_hidden(timeout=20_000)
    declarer, hands = HANDS[0]
    assert [r.entry for r in Round.objects.all()] == [{"declarer": declarer, "hands": hands}]
    # The server's screen, drawn once the round is sent (the note may go a moment before).
    expect(page.locator(".scoreboard tfoot td")).to_have_text(server_totals(match))
    expect(page.locator(".scoreboard tbody tr[data-kept-row]")).to_have_count(0)
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(page.locator("[data-offline-conflict]")).to_be_hidden()
