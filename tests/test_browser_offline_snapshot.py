"""The engine reopened fast: after its first cold start the phone keeps a memory snapshot of
Python (static/offline/worker.js) and starts from it when the match is reopened; a snapshot that
cannot be loaded is dropped and the engine starts cold, scoring all the same."""

from playwright.sync_api import expect

from tests.test_browser_offline import (
    HANDS,
    OFFLINE_MARKS,
    fill_round,
    match,
    ready,
    save_round,
    server_totals,
    totals,
)

pytestmark = OFFLINE_MARKS
__all__ = ["match"]  # the fixture, shared

# The snapshot kept on the phone (worker.js's cache): its size in bytes, or 0.
KEPT = """async () => {
  const cache = await caches.open('engine-snapshot');
  const [request] = await cache.keys();
  return request ? (await (await cache.match(request)).arrayBuffer()).byteLength : 0;
}"""

# Breaks the kept snapshot past its header (its own description becomes garbage): true once done.
BREAK = """async () => {
  const cache = await caches.open('engine-snapshot');
  for (const request of await cache.keys()) {
    const kept = await cache.match(request);
    if (!kept) continue;
    const broken = new Uint8Array(await kept.arrayBuffer());
    if (broken.length < 1e6) continue;
    broken.fill(7, 64, 4096);
    await cache.put(request, new Response(broken));
    return true;
  }
  return false;
}"""


def measures(page):
    """The names of the steps the page's engine measured (its worker's timeline)."""
    [worker] = [worker for worker in page.workers if worker.url.endswith("/worker.js")]
    return worker.evaluate("performance.getEntriesByType('measure').map((e) => e.name)")


def start_path(page):
    """Which start the page's engine made: 'cold' or 'snapshot' (its worker's measure)."""
    return [name[7:] for name in measures(page) if name.startswith("start: ")]


def wait_until_snapshot_kept(page):
    """Wait until the page's engine says it has kept its snapshot: the cache may list the
    snapshot while it is still being written."""
    for _ in range(600):
        if "snapshot kept" in measures(page):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the engine kept no snapshot within a minute")


def reopen_offline_and_score(page, match):
    """Reopen the match with no network, score the three rounds, send them: the server's totals."""
    page.context.set_offline(True)
    page.reload()
    ready(page)
    for number, (declarer, hands) in enumerate(HANDS, 1):
        fill_round(page, declarer, hands)
        save_round(page, number)
    shown = totals(page)
    page.context.set_offline(False)
    expect(page.locator("[data-offline-note]")).to_be_hidden(timeout=20_000)
    assert server_totals(match) == shown


def test_the_first_visit_keeps_a_snapshot_and_the_reopened_match_starts_from_it(phone, match):
    page = phone
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    assert start_path(page) == ["cold"]
    wait_until_snapshot_kept(page)
    assert page.evaluate(KEPT) > 1e6
    reopen_offline_and_score(page, match)
    assert start_path(page) == ["snapshot"]


def test_a_broken_snapshot_is_dropped_and_the_engine_starts_cold_and_scores(phone, match):
    page = phone
    page.goto(f"/m/{match.public_id}/")
    ready(page)
    wait_until_snapshot_kept(page)
    assert page.evaluate(BREAK)
    reopen_offline_and_score(page, match)
    assert start_path(page) == ["cold"]
    # The broken one is replaced by a good one, made from this cold start.
    page.wait_for_function(f"({KEPT})().then((size) => size > 1e6)", timeout=60_000)
