"""Live in a blink: phones and a TV follow a match, and a table, through their live streams
(games/stream.py), served by the real stack (gunicorn's uvicorn workers, tests/server.py). A
page whose stream is open asks nothing by itself: a save reaches it as one live check asked
when its stream says the version. Where the stream is cut, held back or refused, the live check
keeps the page live, and the stream comes back; offline, neither runs.

How fast is bench/live's to say (a test asserts no time: the machine runs other tests too);
each test prints how long its pages took to show the save."""

import re
import time
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from games.runtime import runtime_ready
from tests.conftest import PHONE, screenshot
from tests.server import (
    DATABASES,
    Listener,
    Phone,
    Relay,
    Server,
    collect_static,
    database,
    new_sheet,
    save_sheet,
    watch_path,
)
from tests.table import save
from tests.test_browser_offline import ready

pytestmark = pytest.mark.browser
TV = {"viewport": {"width": 1920, "height": 1080}}
# Each page keeps the time its live part was last drawn anew (static/app.js's live check), and
# the time the answer to its last save arrived.
SHOWN_AT = """document.addEventListener("htmx:afterSwap", (event) => {
  if (["live", "table-live"].includes(event.detail.elt.id)) window.shownAt = Date.now();
});
document.addEventListener("htmx:afterRequest", (event) => {
  if (event.detail.requestConfig.verb === "post") window.savedAt = Date.now();
});"""
# Every message each live stream of the page says, as the page hears it.
HEARD = """window.heard = [];
window.EventSource = class extends window.EventSource {
  constructor(...args) {
    super(...args);
    for (const type of ["message", "version"]) {
      this.addEventListener(type, (event) => window.heard.push([type, event.data]));
    }
  }
};"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("streams")
    collect_static(data_dir)
    served = Server(data_dir, workers=2).start()
    yield served
    served.stop()


@pytest.fixture(scope="module", params=DATABASES)
def any_server(request, tmp_path_factory):
    """A server on SQLite, then one on PostgreSQL (where one listens)."""
    data_dir = tmp_path_factory.mktemp("streams")
    collect_static(data_dir)
    with database(request.param) as url:
        served = Server(data_dir, database_url=url, workers=2).start()
        yield served
        served.stop()


@pytest.fixture
def pages(browser, request):
    """open(path, base=server.url, size=PHONE, init=""): a new phone (or TV) on path, with a
    script of its own (init) run before the page's."""
    contexts = []

    def open_page(path, base=None, size=PHONE, init=""):
        base = base or request.getfixturevalue("server").url
        context = browser.new_context(base_url=base, **size)
        context.set_default_timeout(15_000)
        context.add_init_script(SHOWN_AT + init)
        contexts.append(context)
        page = context.new_page()
        page.goto(path)
        return page

    yield open_page
    for context in contexts:
        context.close()


def streaming(page, timeout=15_000):
    expect(page.locator("html[data-streaming]")).to_have_count(1, timeout=timeout)


def settled(page):
    """Once what a page does once is done: its service worker took over, and the page has kept
    a copy of itself (static/offline/offline.js)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_timeout(2_000)


def asked(page):
    """The paths the page asks for from now on."""
    paths = []
    page.on("request", lambda request: paths.append(urlsplit(request.url).path))
    return paths


def live_checks(paths):
    """The live checks among paths: a score link's /m/<id>/live/, a watch link's /live/<id>/."""
    return [path for path in paths if path.endswith("/live/") or path.startswith("/live/")]


def shown_after(pages, saved):
    """How long after saved (ms since the epoch) each page drew the save."""
    return [page.evaluate("window.shownAt") - saved for page in pages]


def test_three_phones_and_a_tv_see_a_save_through_their_streams(pages, any_server):
    phone, match = new_sheet(any_server)
    watch = watch_path(phone, match)
    base = any_server.url
    scorer = pages(match, base)
    others = [pages(match, base), pages(watch, base), pages(watch, base, TV)]
    for page in [scorer, *others]:
        streaming(page)
    asks = [asked(page) for page in others]
    for seat, points in enumerate([30, -10, -10, -10]):
        scorer.locator(f"#points-{seat}").fill(str(points))
    save(scorer)
    saved = scorer.evaluate("window.savedAt")
    for page in others:
        expect(page.locator("#live[data-version='1']")).to_have_count(1)
        expect(page.locator(".standings li").first).to_contain_text("Ann")
    expect(others[0].get_by_role("heading", name="Round 2")).to_be_visible()  # its form too
    print("shown after the save (ms):", shown_after(others, saved))
    for page, paths in zip(others, asks):
        assert len(live_checks(paths)) == 1, paths  # asked once, when its stream said so
        expect(page.locator("html[data-streaming]")).to_have_count(1)
    screenshot(others[2], "stream-tv-after-a-save")


def test_an_idle_page_asks_nothing_while_its_stream_is_open(pages, server):
    phone, match = new_sheet(server)
    page = pages(watch_path(phone, match))
    streaming(page)
    settled(page)
    paths = asked(page)
    page.wait_for_timeout(7_000)  # two of the live check's periods without a stream
    assert paths == []


def seen(page, state):
    """The page is hidden (a phone asleep, a tab behind others) or seen again."""
    page.evaluate(
        """(state) => {
            Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        state,
    )


def test_a_hidden_page_closes_its_stream_and_catches_up_once_seen_again(pages, server):
    phone, match = new_sheet(server)
    page = pages(watch_path(phone, match))
    streaming(page)
    settled(page)
    seen(page, "hidden")
    expect(page.locator("html[data-streaming]")).to_have_count(0)
    paths = asked(page)
    phone.get(match)
    save_sheet(phone, match, 0)
    page.wait_for_timeout(4_000)  # more than the live check's period: nothing asked meanwhile
    assert paths == []
    seen(page, "visible")
    expect(page.locator("#live[data-version='1']")).to_have_count(1)
    streaming(page)


def test_a_table_page_and_its_tv_board_follow_the_table_through_their_streams(pages, server):
    phone = Phone(server.url)
    phone.get("/tables/new/")
    _status, _body, table = phone.post(
        "/tables/new/", {"name": "Thursday", "people": "Ann\nBo\nChen\nDee"}
    )
    phone.get(table)
    table_watch = re.search(r'href="(?:https?://[^/"]+)?(/tw/[^/"]+/)"', phone.page).group(1)
    phone.get(table + "new/sheet/")
    seats = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen", "player_3": "Dee"}
    _status, _body, match = phone.post(table + "new/sheet/", seats)
    board = pages(table_watch, size=TV)
    regular = pages(table)
    for page in (board, regular):
        streaming(page)
    expect(board.locator(".table-board #live")).to_have_count(1)  # the match in play
    phone.get(match)
    save_sheet(phone, match, 0, (30, -10, -10, -10))
    saved = int(time.time() * 1000)
    expect(board.locator(".table-board #live[data-version='1']")).to_have_count(1)
    expect(board.locator(".table-board .standings li").first).to_contain_text("Ann")
    expect(regular.locator(".table-in-play")).to_contain_text("1 round, in play")
    print("shown after the save (ms):", shown_after([board, regular], saved))
    screenshot(regular, "stream-table-after-a-save")


def test_a_stream_cut_by_the_network_falls_back_to_the_live_check_and_comes_back(pages, server):
    phone, match = new_sheet(server)
    relay = Relay(server.port)
    page = pages(watch_path(phone, match), base=relay.url)
    streaming(page)
    relay.drop_streams()  # the open stream is cut, and the next ones too
    expect(page.locator("html[data-streaming]")).to_have_count(0)
    paths = asked(page)
    phone.get(match)
    save_sheet(phone, match, 0)
    expect(page.locator("#live[data-version='1']")).to_have_count(1)
    assert live_checks(paths), "the live check kept the page live"
    relay.mend()
    streaming(page, timeout=30_000)  # back on its stream
    paths.clear()
    phone.get(match)
    save_sheet(phone, match, 1)
    expect(page.locator("#live[data-version='2']")).to_have_count(1)
    assert len(live_checks(paths)) == 1
    relay.stop()


def test_a_proxy_that_holds_the_stream_back_leaves_the_page_on_the_live_check(pages, server):
    phone, match = new_sheet(server)
    relay = Relay(server.port, hold=True)
    page = pages(watch_path(phone, match), base=relay.url)
    phone.get(match)
    save_sheet(phone, match, 0)
    expect(page.locator("#live[data-version='1']")).to_have_count(1)
    expect(page.locator("html[data-streaming]")).to_have_count(0)
    relay.stop()


def test_a_watch_links_stream_tells_its_page_nothing_the_page_does_not_show(pages, server):
    phone, match = new_sheet(server)
    score_link = match.split("/")[2]
    page = pages(watch_path(phone, match), init=HEARD)
    paths = asked(page)
    streaming(page)
    shown = [page.locator("#live").get_attribute("data-version")]
    for version in (1, 2):
        phone.get(match)
        save_sheet(phone, match, version - 1)
        expect(page.locator(f"#live[data-version='{version}']")).to_have_count(1)
        shown.append(page.locator("#live").get_attribute("data-version"))
    # what the stream said: the versions the page shows in its live check, and nothing else
    assert (
        page.evaluate("window.heard")
        == [["version", v] for v in shown]
        == [
            ["version", "0"],
            ["version", "1"],
            ["version", "2"],
        ]
    )
    assert all(score_link not in path for path in paths)
    assert score_link not in page.content()


@pytest.mark.skipif(not runtime_ready(), reason="the offline runtime (Pyodide) is not fetched")
def test_offline_no_stream_runs_and_nothing_is_said_in_the_console(pages, server):
    phone, match = new_sheet(server)
    page = pages(match)
    ready(page)  # the phone can score with no network
    errors = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    streaming(page)
    page.context.set_offline(True)
    expect(page.locator("html[data-streaming]")).to_have_count(0)
    paths = asked(page)
    page.wait_for_timeout(7_000)  # two of the live check's periods
    assert [path for path in paths if path.endswith("/stream")] == live_checks(paths) == []
    assert errors == []
    with page.expect_response(lambda response: response.url.endswith("/live/?v=0")):
        page.context.set_offline(False)  # the network back: asked at once, and the stream opens
    streaming(page)
    assert errors == []


@pytest.fixture(scope="module")
def crowded(tmp_path_factory):
    """A server whose one worker holds two streams of one address at most."""
    data_dir = tmp_path_factory.mktemp("crowded")
    collect_static(data_dir)
    served = Server(data_dir, workers=1)
    served.env["STREAMS_PER_ADDRESS"] = "2"
    served.start()
    yield served
    served.stop()


def test_a_page_beyond_the_stream_limit_stays_live_through_the_live_check(pages, crowded):
    phone, match = new_sheet(crowded)
    watch = watch_path(phone, match)
    held = [Listener(crowded.port, watch + "stream") for _ in range(2)]
    assert [listener.status for listener in held] == [200, 200]
    page = pages(watch, base=crowded.url)
    paths = asked(page)
    phone.get(match)
    save_sheet(phone, match, 0)
    expect(page.locator("#live[data-version='1']")).to_have_count(1)
    expect(page.locator("html[data-streaming]")).to_have_count(0)
    assert live_checks(paths)
    for listener in held:
        listener.close()
