"""HTTPS in one step (scripts/https, `make https`): Caddy with its own certificate authority in
front of the app (BEHIND_PROXY=1), and a phone that trusts the authority's root: the service
worker registers, and a match reopens and scores with no network through it; what the screens
say of it (getting ready, then ready; History's count offline; what was sent) is true there.

The script runs as a table would run it, with ports and a data folder of its own; the phone opens
it by a LAN name (scores.test, mapped to 127.0.0.1 inside Chromium) and trusts the root the way
Chromium on Linux trusts a root a person installed: in the NSS database of its home folder
(`certutil`, from Debian's libnss3-tools, which scripts/test-tools installs). Skipped, saying why,
only where Caddy cannot be installed.
"""

import http.client
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from tests.conftest import CHROMIUM_ARGS, PHONE, screenshot
from tests.server import ROOT, free_port
from tests.table import type_players
from tests.test_browser_offline import (
    OFFLINE_MARKS,
    browser_executable,
    fill_round,
    ready,
    save_round,
    wait_until_kept,
)

pytestmark = OFFLINE_MARKS
HOST = "scores.test"
SCRIPT = ROOT / "scripts" / "https"


@pytest.fixture(scope="module")
def caddy():
    """Caddy, installed by the script itself when missing (as root, with apt)."""
    done = subprocess.run([SCRIPT, "--install"], capture_output=True, text=True)
    if done.returncode:
        pytest.skip(f"Caddy cannot be installed here: {done.stderr.strip()}")


def answers(port):
    """True when something answers HTTP on 127.0.0.1:port (whatever its status)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", "/")
        connection.getresponse().read()
        return True
    except OSError:
        return False
    finally:
        connection.close()


@pytest.fixture
def table(caddy, tmp_path):
    """scripts/https serving the app as https://scores.test:HTTPS_PORT/ (its data in tmp_path)."""
    ports = {name: str(free_port()) for name in ("PORT", "HTTPS_PORT", "HTTP_PORT")}
    env = {**os.environ, **ports, "DATA_DIR": str(tmp_path / "data"), "HOSTS": HOST}
    env["WORKERS"] = "1"
    for name in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "HTTPS", "ALLOWED_HOSTS"):
        env.pop(name, None)  # the real settings, as `make https` runs them
    log = open(tmp_path / "https.log", "w")
    venv = Path(sys.executable).parent.parent
    command = [SCRIPT, str(venv)]
    script = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    served = SimpleNamespace(
        url=f"https://{HOST}:{ports['HTTPS_PORT']}",
        http_port=ports["HTTP_PORT"],
        root_cert=tmp_path / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt",
        database=tmp_path / "data" / "db.sqlite3",
    )
    try:
        deadline = time.monotonic() + 60
        while not (answers(ports["PORT"]) and answers(ports["HTTP_PORT"])):
            if script.poll() is not None or time.monotonic() > deadline:
                pytest.fail("scripts/https did not start:\n" + (tmp_path / "https.log").read_text())
            time.sleep(0.3)
        yield served
    finally:
        script.terminate()  # its trap stops Caddy and the app
        try:
            script.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(script.pid, signal.SIGKILL)
        log.close()
    assert not answers(ports["PORT"]) and not answers(ports["HTTP_PORT"]), "left running"


@pytest.fixture
def trusting_phone(browser, table, tmp_path):
    """A phone whose Chromium trusts the table's root certificate (installed in its NSS db)."""
    if shutil.which("certutil") is None:
        pytest.fail("certutil is missing: make test-tools installs it (Debian's libnss3-tools)")
    home = tmp_path / "home"
    nssdb = f"sql:{home}/.pki/nssdb"
    (home / ".pki" / "nssdb").mkdir(parents=True)
    subprocess.run(["certutil", "-d", nssdb, "-N", "--empty-password"], check=True)
    add = ["certutil", "-d", nssdb, "-A", "-t", "C,,", "-n", "table", "-i", str(table.root_cert)]
    subprocess.run(add, check=True)
    phone = browser.browser_type.launch(
        executable_path=browser_executable(browser),
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"],
        env={**os.environ, "HOME": str(home)},
    )
    context = phone.new_context(base_url=table.url, **PHONE)
    context.set_default_timeout(10_000)
    yield context.new_page()
    phone.close()


def rounds_on_server(table):
    with sqlite3.connect(table.database) as database:
        return database.execute("SELECT count(*) FROM games_round").fetchone()[0]


def test_a_phone_downloads_the_root_certificate_over_plain_http_in_one_tap(table):
    with urllib.request.urlopen(f"http://127.0.0.1:{table.http_port}/root.crt") as answer:
        assert answer.headers["Content-Type"] == "application/x-x509-ca-cert"
        assert answer.read() == table.root_cert.read_bytes()
    assert b"BEGIN CERTIFICATE" in table.root_cert.read_bytes()


def test_over_caddys_https_a_match_reopens_and_scores_with_no_network(trusting_phone, table):
    page = trusting_phone
    page.goto("/new/least_score/")
    type_players(page, ["Ann", "Bo", "Chen"])
    page.get_by_role("button", name="Start").click()  # a form posted through Caddy
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    line = page.locator("[data-offline-ready]")
    expect(line).to_have_text("Getting ready to score without a network…")  # never silence
    worker = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    assert worker == f"{table.url}/sw.js?module"  # Chromium has Background Sync
    ready(page)
    expect(line).to_have_text("This phone can keep scoring without a network.")
    expect(page.get_by_role("button", name="Keep screen on")).to_be_visible()
    fill_round(page, 0, [7, 15, 20])
    save_round(page, 1)
    assert rounds_on_server(table) == 1
    wait_until_kept(page, 1)

    page.context.set_offline(True)
    page.reload()  # answered by the service worker, from a copy perhaps kept before round 1:
    ready(page)  # once warm, the engine draws the match as this phone keeps it
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    fill_round(page, 1, [9, 5, 4])
    save_round(page, 2)
    expect(page.locator("[data-offline-note]")).to_contain_text("1 round waiting to be sent")
    screenshot(page, "https-offline-round")
    assert rounds_on_server(table) == 1

    # History's copy was kept when the match was new: its row says the rounds this phone has.
    page.goto("/matches/")
    row = page.locator("a.match-link").first
    expect(row).to_contain_text("2 rounds, in play")
    expect(row).to_contain_text("1 round waiting to be sent")
    screenshot(page, "https-offline-history")

    page.context.set_offline(False)  # History sends it, and says what went
    status = page.locator("[data-waiting-status]")
    expect(status).to_have_text("Sent to the server: 1 round of Least Score", timeout=20_000)
    expect(row).to_contain_text("2 rounds, in play")
    assert rounds_on_server(table) == 2


def test_caddy_passes_a_live_stream_on_as_it_comes(trusting_phone, table):
    """Caddy's reverse_proxy sends an answer of type text/event-stream on as it comes (it
    flushes such an answer at once, whatever its flush_interval): the stream's first message
    reaches the page at once, and the next as soon as another page saves, through the service
    worker's page too (which leaves the stream alone)."""
    page = trusting_phone
    page.goto("/new/least_score/")
    type_players(page, ["Ann", "Bo", "Chen"])
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    ready(page)  # the service worker controls the page
    expect(page.locator("html[data-streaming]")).to_have_count(1)
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    other = page.context.new_page()
    other.goto(page.url)
    fill_round(other, 0, [7, 15, 20])
    save_round(other, 1)
    expect(page.locator("#live[data-version='1']")).to_have_count(1)
    assert len([url for url in asked if "/live/?v=" in url]) == 1, asked  # told, not polled
    expect(page.locator("html[data-streaming]")).to_have_count(1)
