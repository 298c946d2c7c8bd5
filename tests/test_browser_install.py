"""The app can be put on a phone's home screen: Chromium finds nothing in the way, and iOS gets
its own icon."""

import pytest

from games.models import Match
from tests.browser import pick
from tests.conftest import CHROMIUM_ARGS, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def own_phone(browser, live_server, tmp_path):
    """A phone with a profile of its own: Chromium never installs from an incognito one, which
    every other browser test uses."""
    chromium = browser.browser_type
    context = chromium.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=pick(chromium.executable_path),
        args=CHROMIUM_ARGS,
        base_url=live_server.url,
        **PHONE,
    )
    yield context.pages[0] if context.pages else context.new_page()
    context.close()


def installability_errors(page):
    """What Chromium says stands in the way of installing the page (CDP)."""
    session = page.context.new_cdp_session(page)
    return session.send("Page.getInstallabilityErrors")["installabilityErrors"]


def test_the_home_page_and_a_match_page_can_be_installed(own_phone):
    match = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    for path in ("/", f"/m/{match.public_id}/"):
        own_phone.goto(path)
        own_phone.wait_for_load_state("networkidle")
        assert installability_errors(own_phone) == [], path
    touch_icon = own_phone.locator('link[rel="apple-touch-icon"]').get_attribute("href")
    assert png_size(own_phone, touch_icon) == (180, 180)
    manifest = own_phone.locator('link[rel="manifest"]').get_attribute("href")
    icons = own_phone.request.get(manifest).json()["icons"]
    pngs = {icon["sizes"]: icon["src"] for icon in icons if icon["type"] == "image/png"}
    assert {size: png_size(own_phone, src) for size, src in pngs.items()} == {
        "192x192": (192, 192),
        "512x512": (512, 512),
    }


def png_size(page, url):
    """(width, height) of the PNG at url, as its header says."""
    answer = page.request.get(url)
    assert answer.ok and answer.headers["content-type"] == "image/png"
    header = answer.body()[16:24]
    return int.from_bytes(header[:4], "big"), int.from_bytes(header[4:], "big")
