"""A match opened by a plain-HTTP LAN address (what `make run` prints): the browser gives no
service worker and no screen wake lock there, so the screen says what is true for the players,
in their words: without a network the phone keeps scoring while the page stays open, and a
reload needs the network; it stays said while offline. What the organiser should do about it
(serve over HTTPS) is said where the organiser looks: the address `make run` prints
(tests/test_address.py), never on the table's screen.

The phone opens the test server by a name other than localhost (mapped to 127.0.0.1 inside
Chromium), which the browser treats as it treats http://192.168.1.5: not a secure context.
"""

import pytest
from playwright.sync_api import expect

from tests.conftest import CHROMIUM_ARGS, PHONE, shots
from tests.test_browser_offline import (
    OFFLINE_MARKS,
    browser_executable,
    fill_round,
    match,  # noqa: F401 (a fixture)
    ready,
    save_round,
)

pytestmark = OFFLINE_MARKS
LAN_NAME = "table.test"
PAGE_ONLY = (
    "Keep this page open: without a network it keeps scoring, but a reload needs the network."
)


@pytest.fixture
def lan_phone(browser, live_server):
    """A phone that opens the test server as http://table.test:PORT/, a LAN-like address."""
    lan = browser.browser_type.launch(
        executable_path=browser_executable(browser),
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"],
    )
    context = lan.new_context(
        base_url=live_server.url.replace("localhost", LAN_NAME).replace("127.0.0.1", LAN_NAME),
        **PHONE,
    )
    context.set_default_timeout(10_000)
    yield context.new_page()
    lan.close()


def test_over_plain_http_the_screen_says_the_page_must_stay_open(lan_phone, match):  # noqa: F811
    page = lan_phone
    page.goto(f"/m/{match.public_id}/", wait_until="commit")
    line = page.locator("[data-offline-ready]")
    expect(line).to_have_text("Getting ready to score without a network…")
    assert page.evaluate("window.isSecureContext") is False
    ready(page)
    expect(line).to_have_text(PAGE_ONLY)
    expect(line).to_be_visible()
    expect(page.get_by_role("button", name="Keep screen on")).to_be_hidden()
    assert "HTTPS" not in page.locator("body").inner_text()  # the organiser's word, not theirs
    shots(page, "plain-http-ready-line")
    # What the line says is true: with the page open, a round is scored with no network, and
    # it stays said while the network is gone.
    page.context.set_offline(True)
    fill_round(page, 0, [7, 15, 20])
    save_round(page, 1)
    note = page.locator("[data-offline-note]")
    expect(note).to_contain_text("Offline: the scores are worked out on this phone.")
    expect(note).to_contain_text(PAGE_ONLY)
    expect(note).to_contain_text("1 round waiting to be sent")
    expect(page.locator(".scoreboard tfoot td")).to_have_count(3)
    shots(page, "plain-http-offline-note")
    assert "make https" not in page.content()


def test_over_plain_http_the_share_page_says_it_in_the_players_words(lan_phone, match):  # noqa: F811
    page = lan_phone
    page.goto(f"/m/{match.public_id}/share/")
    note = page.locator("[data-insecure-note]")
    expect(note).to_have_text(
        "On this address, keep the match's page open on each phone: without a network it keeps "
        "scoring, but a reload needs the network."
    )
    assert "HTTPS" not in page.locator("body").inner_text()


def test_over_a_secure_address_keep_screen_on_is_offered_and_the_line_says_more(phone, match):  # noqa: F811
    page = phone
    page.goto(f"/m/{match.public_id}/")
    assert page.evaluate("window.isSecureContext") is True
    expect(page.get_by_role("button", name="Keep screen on")).to_be_visible()
    ready(page)
    expect(page.locator("[data-offline-ready]")).to_have_text(
        "This phone can keep scoring without a network."
    )
