"""Shared fixtures: a phone-size Chromium page driven by Playwright against the live server."""

import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the test thread only reads the
# database between browser steps, so Django's async guard can be relaxed for the tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


def phone_in(browser, live_server, language="en", scheme="light", **size):
    """A new phone at 390 x 844 (or size: viewport=...) in language and scheme (light, dark)."""
    context = browser.new_context(
        base_url=live_server.url,
        locale=language,
        color_scheme=scheme,
        **{**PHONE, **size},
    )
    context.set_default_timeout(15_000)
    return context.new_page()


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test starts with nothing memoised."""
    from tests.views import nothing_kept

    nothing_kept()


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the default language: a request in Spanish leaves the thread in it."""
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def phones_put_away(request):
    """A browser test's phones are closed with it: none goes on asking the live server (and
    the worker's caches) through the tests after it."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


@pytest.fixture(scope="session")
def browser():
    """Playwright's own Chromium when it is installed, else Debian's (tests/browser.py)."""
    from playwright.sync_api import sync_playwright

    from tests.browser import pick

    with sync_playwright() as playwright:
        executable = pick(playwright.chromium.executable_path)
        if executable is None:
            pytest.fail("Chromium is missing: make test fetches it (scripts/test-tools)")
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser, live_server):
    """A new phone (browser context) at 390 x 844; fails the test on any CSP violation."""
    context = browser.new_context(base_url=live_server.url, **PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    refused = []
    page.on(
        "console",
        lambda message: (
            refused.append(f"{message.text} {message.location}")
            if "Content Security Policy" in message.text
            else None
        ),
    )
    yield page
    context.close()
    assert refused == [], "the page broke its Content-Security-Policy"


@pytest.fixture
def phones(browser, live_server):
    """Two phones (browser contexts of their own) at 390 x 844 on the live server."""
    contexts = [browser.new_context(base_url=live_server.url, **PHONE) for _ in range(2)]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def screenshot(page, name):
    """Keep a screenshot of the page for people to look at (test-artifacts/, ignored by git)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def shots(page, name):
    """Screenshots of the page in the light scheme and the dark one."""
    screenshot(page, name)
    page.emulate_media(color_scheme="dark")
    screenshot(page, f"{name}-dark")
    page.emulate_media(color_scheme="light")
