"""Starting a match with no network: a phone that has used the app once opens the new-match
form offline, starts the match there (its score link made on the phone), scores it, and the
server gets it once, with its rounds once, when the network is back.
(Skipped, saying so, without the offline runtime: tests/test_browser_offline.py.)
"""

import re

from playwright.sync_api import expect

from games import rules
from games.models import Match
from tests.conftest import shots
from tests.table import type_players
from tests.test_browser_offline import (
    HANDS,
    OFFLINE_MARKS,
    fill_round,
    ready,
    save_round,
    totals,
)

pytestmark = OFFLINE_MARKS


def used_once(page):
    """The phone opens a match online until it can score with no network: the app is kept."""
    used = Match.objects.create(game="least_score", players=["Xi", "Yu"])
    page.goto(f"/m/{used.public_id}/")
    ready(page)
    return used


def fill_start(page, players):
    """With no network, the new-match form from the home page, filled and sent."""
    page.context.set_offline(True)
    page.goto("/")
    page.locator("a[href='/new/least_score/']").click()
    type_players(page, players)
    page.get_by_role("button", name="Start").click()


def start_offline(page, players):
    """A match started with no network: its score link, made on the phone."""
    fill_start(page, players)
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible(timeout=90_000)
    return re.fullmatch(r".*/m/([A-Za-z0-9_-]{24})/", page.url)[1]


def test_a_match_started_offline_reaches_the_server_once_with_its_rounds(phone):
    page = phone
    used = used_once(page)
    public_id = start_offline(page, ["Ann", "Bo", "Chen"])
    ready(page)
    for number, (declarer, hands) in enumerate(HANDS, 1):
        fill_round(page, declarer, hands)
        save_round(page, number)
    shown = totals(page)
    note = page.locator("[data-offline-note]")
    expect(note).to_contain_text("3 rounds waiting to be sent")
    needs = page.locator("[data-needs-network]")
    expect(needs).to_have_text(  # closing it works here: on the phone
        "Share, history, names and options and export need the network: this match "
        "reaches the server when the phone is back online."
    )
    expect(page.get_by_role("link", name="Share")).to_be_hidden()
    expect(page.get_by_role("link", name="Names and options")).to_be_hidden()
    expect(page.get_by_text("Close the match now", exact=True)).to_be_visible()
    shots(page, "offline-start-three-rounds")
    assert Match.objects.count() == 1

    page.context.set_offline(False)
    expect(note).to_be_hidden(timeout=30_000)
    expect(page.locator("#offline-state")).to_have_count(1)  # the server's page of the match
    match = Match.objects.exclude(pk=used.pk).get()
    assert match.public_id == public_id
    assert match.players == ["Ann", "Bo", "Chen"]
    entries = [{"declarer": d, "hands": h} for d, h in HANDS]
    assert [r.entry for r in match.rounds.order_by("number")] == entries
    assert [str(t) for t in rules.score(match.document())["totals"]] == shown == totals(page)

    page.get_by_role("link", name="Share").click()
    page.locator(f".share a[href$='/w/{match.watch_id}/']").click()
    expect(page.locator(".scoreboard tbody tr")).to_have_count(3)
    assert page.locator(".scoreboard tfoot td").all_inner_texts() == shown
    assert Match.objects.count() == 2


# On a match page only, the offline manifest is never answered: its engine never starts.
NO_ENGINE_ON_MATCH_PAGES = """if (location.pathname.startsWith("/m/")) {
  const fetched = window.fetch;
  window.fetch = (input, init) => String(input).endsWith("/offline/manifest.json")
    ? new Promise(() => {}) : fetched(input, init);
}"""


def test_offline_start_shows_round_1_drawn_by_the_engine_warm_on_the_new_match_page(phone):
    """With no network the new-match page warms the engine while the form is filled in, and it
    draws the new match: the match page shows that drawing at once, before (here: without) its
    own engine; a round saved meanwhile is kept and the form takes the next."""
    page = phone
    used_once(page)
    page.add_init_script(NO_ENGINE_ON_MATCH_PAGES)
    page.context.set_offline(True)
    page.goto("/new/least_score/")
    ready(page)  # the engine, warm before Start
    type_players(page, ["Ann", "Bo", "Chen"])
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    assert re.fullmatch(r".*/m/[A-Za-z0-9_-]{24}/", page.url)
    expect(page.locator("html[data-offline=ready]")).to_have_count(0)  # its own engine: not yet
    expect(page.locator("[data-offline-ready]")).to_be_hidden()  # offline: the note says it
    fill_round(page, *HANDS[0])
    page.get_by_role("button", name="Save round").click()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(page.locator("#entry [data-working]")).to_be_visible()
    expect(page.locator("[data-offline-note]")).to_contain_text("1 round waiting to be sent")
    shots(page, "offline-start-drawn-at-once")


def test_a_form_the_rules_refuse_offline_is_drawn_again_with_why(phone):
    """Checked on the phone by the server's own form: the same message, what was typed kept."""
    page = phone
    used_once(page)
    fill_start(page, ["Ann", "Ann"])
    expect(page.locator("#new-match")).to_contain_text("two players are called Ann", timeout=90_000)
    expect(page.locator("input[name=player_1]")).to_have_value("Ann")
    assert page.url.endswith("/new/least_score/")
    shots(page, "offline-start-refused-form")
    page.locator("input[name=player_1]").fill("Bo")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible(timeout=30_000)
    assert Match.objects.count() == 1

    page.goto("/m/AAAAAAAAAAAAAAAAAAAAAAAA/")  # a score link this phone does not keep
    expect(page.locator("[data-offline-note]")).to_have_text(
        "Offline: this phone does not keep this match."
    )
    shots(page, "offline-start-not-kept")


def test_a_start_the_server_refuses_is_told_to_the_scorer_and_kept(phone):
    """Another match has the link by the time the phone is back (it never happens by chance):
    the scorer is told why in the server's words, and the match stays on the phone."""
    page = phone
    used_once(page)
    public_id = start_offline(page, ["Ann", "Bo"])
    ready(page)
    fill_round(page, 0, [7, 15])
    save_round(page, 1)
    Match.objects.create(public_id=public_id, game="least_score", players=["Xi", "Yu"])
    page.context.set_offline(False)
    panel = page.locator("[data-offline-conflict]")
    expect(panel).to_contain_text(
        "The server did not start this match, which this phone started with no network:",
        timeout=30_000,
    )
    expect(panel).to_contain_text("Another match has this score link already.")
    expect(page.locator("[data-offline-note]")).to_contain_text("1 round waiting to be sent")
    shots(page, "offline-start-refused-by-the-server")
    Match.objects.filter(public_id=public_id).delete()
    panel.get_by_role("button", name="Try again").click()
    expect(page.locator("#offline-state")).to_have_count(1, timeout=30_000)
    assert Match.objects.get(public_id=public_id).rounds.count() == 1


def test_a_start_the_network_fails_is_made_on_the_phone_and_sent_later(phone):
    """The phone believes it is online, but the form cannot reach the server: the match is
    started on the phone under the link it made, and on the server once it answers again."""
    page = phone
    used_once(page)
    posted = []

    def refuse(route):
        if route.request.method != "POST":
            return route.continue_()
        posted.append(route.request.post_data)
        return route.abort("connectionrefused")

    page.context.route("**/new/least_score/", refuse)  # the page's and the service worker's
    page.goto("/new/least_score/")
    page.locator("input[name=player_0]").fill("Ann")
    page.locator("input[name=player_1]").fill("Bo")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible(timeout=90_000)
    public_id = re.fullmatch(r".*/m/([A-Za-z0-9_-]{24})/", page.url)[1]
    assert f"public_id={public_id}" in posted[0]
    assert Match.objects.count() == 1

    page.context.unroute("**/new/least_score/")
    expect(page.locator("#offline-state")).to_have_count(1, timeout=30_000)
    assert Match.objects.get(public_id=public_id).players == ["Ann", "Bo"]


def test_online_the_form_starts_the_match_on_the_server_under_the_phones_link(phone):
    page = phone
    used_once(page)
    page.goto("/new/least_score/")
    page.locator("input[name=player_0]").fill("Ann")
    page.locator("input[name=player_1]").fill("Bo")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#offline-state")).to_have_count(1)
    public_id = re.fullmatch(r".*/m/([A-Za-z0-9_-]{24})/", page.url)[1]
    assert Match.objects.get(public_id=public_id).players == ["Ann", "Bo"]
    assert Match.objects.count() == 2


def test_home_and_history_list_a_match_started_offline(phone):
    """With no network, the kept home and History pages list the match started on the phone,
    saying it is not on the server yet; its link opens it. Back online, Home sends it and no
    longer says it waits."""
    page = phone
    used_once(page)
    public_id = start_offline(page, ["Ann", "Bo"])
    for path in ("/", "/matches/"):
        page.goto(path)
        kept = page.locator(f".kept-matches a[href='/m/{public_id}/']")
        expect(kept).to_contain_text("Least Score")
        expect(kept).to_contain_text("Ann, Bo")
        expect(kept).to_contain_text("Started on this phone: it reaches the server when")
    shots(page, "offline-history-kept")
    page.locator(f".kept-matches a[href='/m/{public_id}/']").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible(timeout=90_000)

    page.goto("/")
    kept = page.locator(f".kept-matches a[href='/m/{public_id}/']")
    expect(kept).to_contain_text("Started on this phone")
    page.context.set_offline(False)
    expect(kept).to_contain_text("On the server · 0 rounds, in play", timeout=30_000)
    expect(kept).not_to_contain_text("Started on this phone")
    status = page.locator("[data-waiting-status]")
    expect(status).to_have_text(
        "Sent to the server: the match of Least Score started on this phone"
    )
    expect(status).not_to_contain_text("Offline")  # answered
    assert Match.objects.get(public_id=public_id).players == ["Ann", "Bo"]
    shots(page, "offline-home-started-sent")
