"""The engine's download, once started, finishes even if the page is left: the service worker
fetches and keeps the runtime and the bundles (static/offline/engine.js asks it, sw.js keeps)."""

import threading

from django.contrib.staticfiles.handlers import StaticFilesHandler

from games import offline
from tests.test_browser_offline import OFFLINE_MARKS, match

pytestmark = OFFLINE_MARKS
__all__ = ["match"]  # the fixture, shared

# The paths of what the service worker keeps of the engine.
KEPT = """async () => {
  const cache = await caches.open('runtime');
  return (await cache.keys()).map((request) => new URL(request.url).pathname);
}"""


def test_the_engines_download_finishes_after_the_page_is_left(phone, match, monkeypatch):
    page = phone
    asked, answer = threading.Event(), threading.Event()
    serve = StaticFilesHandler.serve  # the test server's static files

    def slow(handler, request):
        """The runtime comes slowly: the page is left while it is being fetched."""
        if "/offline/pyodide/" in request.path:
            asked.set()
            answer.wait(30)
        return serve(handler, request)

    monkeypatch.setattr(StaticFilesHandler, "serve", slow)
    try:
        page.goto(f"/m/{match.public_id}/")
        assert asked.wait(60), "the engine's download never started"
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_timeout(500)  # the engine's worker asks for the rest meanwhile
        page.goto("about:blank")  # the page and its engine's worker are gone
    finally:
        answer.set()
    manifest = offline.manifest()
    runtime = ("pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib_compiled.zip")
    wanted = {*manifest["bundles"], *(manifest["runtime"] + name for name in runtime)}
    home = page.context.new_page()
    home.goto("/")
    home.wait_for_function(
        f"({KEPT})().then((kept) => {sorted(wanted)!r}.every((path) => kept.includes(path)))",
        timeout=60_000,
    )
