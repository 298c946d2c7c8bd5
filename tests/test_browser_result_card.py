"""The result card: "Share the result" on an ended match (and on its evening's series) makes a
PNG at a phone's width, light, with the standings (the winner marked) and who pays whom, in the
reader's language; the phone's share sheet gets it where the browser shares files, else it is
downloaded. The share page copies each link, and centres its QR codes."""

import json
import struct
import zlib
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.models import Match, Round
from tests.conftest import PHONE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXAMPLES = Path(__file__).parent / "examples"
WIDTH = 780  # 390 CSS px, drawn at twice that
LEAD = (0xFF, 0xF3, 0xC4)  # the winner's band (static/result_card.js)
ACCENT = (0x0B, 0x6E, 0x4F)  # the star and the word "winner"


def played(name, players=None):
    """A match of tests/examples/<name>.match.json, its rounds stored (players renamed)."""
    document = json.loads((EXAMPLES / f"{name}.match.json").read_text(encoding="utf-8"))
    match = Match.objects.create(
        game=document["game"], players=players or document["players"], options=document["options"]
    )
    for number, entry in enumerate(document["rounds"], 1):
        Round.objects.create(match=match, number=number, entry=entry)
    return match


@pytest.fixture
def finished():
    """Sanming of three hands, ended at the target: Ann wins, Chen pays Ann 1280 and Bo 560."""
    return played("sanming-one-kid")


@pytest.fixture
def phone_in(browser, live_server):
    """phone_in(language, init_script=None): a phone whose browser asks for pages in language
    (downloads kept); each fails the test on any CSP violation."""
    contexts, refused = [], []

    def open_phone(language, init_script=None):
        context = browser.new_context(
            base_url=live_server.url,
            locale=language,
            extra_http_headers={"Accept-Language": language},
            accept_downloads=True,
            **PHONE,
        )
        context.set_default_timeout(10_000)
        if init_script:
            context.add_init_script(init_script)
        contexts.append(context)
        page = context.new_page()
        page.on(
            "console",
            lambda message: (
                refused.append(message.text) if "Content Security Policy" in message.text else None
            ),
        )
        return page

    yield open_phone
    for context in contexts:
        context.close()
    assert refused == [], "the page broke its Content-Security-Policy"


def plain(text):
    """text without the Unicode isolates around its names and numbers."""
    return "".join(c for c in text if c not in "\u2066\u2067\u2068\u2069")


def card_data(page, index=0):
    """The card a button draws: the JSON the server embedded beside it."""
    text = page.locator("[data-result-card] script").nth(index).text_content()
    return json.loads(text)


def downloaded(page, index=0):
    """Tap the index-th "Share" button of the page; (the file's name, its bytes)."""
    with page.expect_download() as download:
        page.locator("[data-result-card] button").nth(index).click()
    path = download.value.path()
    return download.value.suggested_filename, Path(path).read_bytes()


def pixels(png):
    """(width, height, rows of (r, g, b) pixels) of an 8-bit RGBA PNG, as Chromium writes one."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height, depth, colour = struct.unpack(">IIBB", png[16:26])
    assert png[12:16] == b"IHDR" and (depth, colour) == (8, 6), (depth, colour)
    data, at = b"", 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        if png[at + 4 : at + 8] == b"IDAT":
            data += png[at + 8 : at + 8 + length]
        at += 12 + length
    raw, stride, rows, above = zlib.decompress(data), width * 4, [], bytes(width * 4)
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for k in range(stride):
            left = line[k - 4] if k >= 4 else 0
            up, corner = above[k], above[k - 4] if k >= 4 else 0
            if kind == 1:
                line[k] = (line[k] + left) & 255
            elif kind == 2:
                line[k] = (line[k] + up) & 255
            elif kind == 3:
                line[k] = (line[k] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                near = min((abs(p - left), left), (abs(p - up), up), (abs(p - corner), corner))
                line[k] = (line[k] + near[1]) & 255
        above = bytes(line)
        rows.append([tuple(line[k : k + 3]) for k in range(0, stride, 4)])
    return width, height, rows


def where(rows, colour):
    """The (x, y) of each pixel of exactly this colour."""
    return [(x, y) for y, row in enumerate(rows) for x, pixel in enumerate(row) if pixel == colour]


def looked_at(png, name):
    """Keep the card for people to look at (test-artifacts/)."""
    folder = Path(__file__).resolve().parent.parent / "test-artifacts"
    folder.mkdir(exist_ok=True)
    (folder / name).write_bytes(png)


def test_an_ended_match_downloads_its_card_at_a_phones_width(phone_in, finished):
    page = phone_in("en")
    page.goto(f"/m/{finished.public_id}/")
    button = page.get_by_role("button", name="Share the result")
    expect(button).to_be_visible()
    card = card_data(page)
    assert card["title"] == "Sanming run-fast"
    standings = [
        (s["place"], plain(s["name"]), plain(s["total"]), s["winner"]) for s in card["standings"]
    ]
    assert standings == [
        ("1", "Ann", "3", True),
        ("2", "Bo", "24", False),
        ("3", "Chen", "104", False),
    ]
    assert card["payments"][0]["heading"] == "Who pays whom, in beans"
    assert "the kid rule counted Ann as 0" in plain(card["payments"][0]["why"])
    assert [plain(line) for line in card["payments"][0]["lines"]] == [
        "Chen pays Ann 1280",
        "Chen pays Bo 560",
    ]

    name, png = downloaded(page)
    looked_at(png, "result-card-en.png")
    assert name == f"sanming-{finished.created:%Y-%m-%d}.png"
    width, height, rows = pixels(png)
    assert width == WIDTH and 600 < height < 2000
    # Light, not blank: a white card with dark writing on it, and the winner's band.
    assert rows[height // 2][2] == (255, 255, 255)
    assert sum(1 for row in rows for pixel in row if max(pixel) < 80) > 2000
    band = where(rows, LEAD)
    assert band, "the winner is not marked"
    # The star and "winner" in the band start the line: on the left, left to right.
    top = min(y for _x, y in band)
    marks = [(x, y) for x, y in where(rows, ACCENT) if top <= y]
    assert marks and max(x for x, _y in marks) < WIDTH // 2


def test_in_persian_the_card_is_drawn_right_to_left(phone_in):
    match = played("sanming-one-kid", ["آنا", "بهرام", "陈静"])
    page = phone_in("fa")
    page.goto(f"/m/{match.public_id}/")
    card = card_data(page)
    assert card["payments"][0]["heading"] == "چه کسی به چه کسی می‌پردازد (ژتون)"
    assert plain(card["payments"][0]["lines"][0]) == "陈静 به آنا 1280 می‌پردازد"
    _name, png = downloaded(page)
    looked_at(png, "result-card-fa.png")
    width, height, rows = pixels(png)
    band = where(rows, LEAD)
    top = min(y for _x, y in band)
    marks = [(x, y) for x, y in where(rows, ACCENT) if top <= y]
    # The star and "winner" start the line at the right.
    assert marks and min(x for x, _y in marks) > WIDTH // 2


def test_in_chinese_the_card_says_who_pays_whom_in_chinese(phone_in, finished):
    page = phone_in("zh-Hans")
    page.goto(f"/m/{finished.public_id}/")
    expect(page.get_by_role("button", name="分享结果")).to_be_visible()
    card = card_data(page)
    assert card["title"] == "三明跑得快"
    assert card["payments"][0]["heading"] == "谁付给谁（豆）"
    assert card["payments"][0]["lines"][0].startswith("\u2068Chen\u2069")
    _name, png = downloaded(page)
    looked_at(png, "result-card-zh.png")
    assert pixels(png)[0] == WIDTH


SHARE_STUB = """
window.shared = [];
Object.defineProperty(navigator, "canShare", {value: (data) => Boolean(data.files)});
Object.defineProperty(navigator, "share", {value: async (data) => {
  for (const file of data.files) {
    const bytes = Array.from(new Uint8Array(await file.arrayBuffer()));
    window.shared.push({name: file.name, type: file.type, bytes: bytes});
  }
}});
"""


def test_where_the_browser_shares_files_the_share_sheet_gets_the_png(phone_in, finished):
    page = phone_in("en", SHARE_STUB)
    downloads = []
    page.on("download", lambda download: downloads.append(download))
    page.goto(f"/m/{finished.public_id}/")
    page.get_by_role("button", name="Share the result").click()
    page.wait_for_function("window.shared.length === 1")
    shared = page.evaluate("window.shared")[0]
    assert shared["name"].endswith(".png") and shared["type"] == "image/png"
    width, _height, rows = pixels(bytes(shared["bytes"]))
    assert width == WIDTH and where(rows, LEAD)
    assert downloads == []  # shared, not downloaded as well


def test_a_series_shares_the_evenings_settlement(phone_in):
    first = played("sheet-mahjong-stake")
    first.set_closed(True)
    second = first.rematch()
    Round.objects.create(match=second, number=1, entry={"points": [-8, 24, -8, -8]})
    second.refresh_from_db()
    second.set_closed(True)
    page = phone_in("en")
    page.goto(f"/m/{second.public_id}/")
    button = page.get_by_role("button", name="Share the evening's result")
    expect(button).to_be_visible()
    card = card_data(page, 1)
    assert card["note"] == "Settlement of 2 finished matches"
    assert card["payments"][0]["heading"] == "Who pays whom, in money"
    assert [s["winner"] for s in card["standings"]] == [True, False, False, False]
    screenshot(page, "result-card-series")
    name, png = downloaded(page, 1)
    assert name.endswith("-series.png")
    assert pixels(png)[0] == WIDTH


def test_a_watching_phone_gets_the_button_when_the_match_ends(phone_in):
    match = played("sheet-mahjong-stake")
    page = phone_in("en")
    page.goto(f"/w/{match.watch_id}/")
    expect(page.locator("[data-result-card]")).to_have_count(0)
    match.set_closed(True)  # closed on the scoring phone: the live check swaps the result in
    expect(page.get_by_role("button", name="Share the result")).to_be_visible(timeout=15_000)
    name, png = downloaded(page)
    assert name.endswith(".png") and pixels(png)[0] == WIDTH


def test_the_share_page_copies_each_link_and_centres_its_codes(phone_in, live_server, finished):
    page = phone_in("en")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"/m/{finished.public_id}/share/")
    sections = page.locator("section.share")
    expect(sections).to_have_count(2)
    for k in range(2):
        section, code = sections.nth(k).bounding_box(), sections.nth(k).locator(".qr svg")
        box = code.bounding_box()
        middle = section["x"] + section["width"] / 2
        assert abs(box["x"] + box["width"] / 2 - middle) < 2 and box["width"] >= 200
    watch = sections.nth(1)
    watch.get_by_role("button", name="Copy").click()
    expect(watch.get_by_role("status")).to_have_text("Copied.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"{live_server.url}/w/{finished.watch_id}/"
    score = sections.nth(0)
    score.get_by_role("button", name="Copy").click()
    expect(score.get_by_role("status")).to_have_text("Copied.")
    expect(watch.get_by_role("status")).to_have_text("")
    assert (
        page.evaluate("navigator.clipboard.readText()")
        == f"{live_server.url}/m/{finished.public_id}/"
    )
    screenshot(page, "share-copied")


def test_with_no_clipboard_the_link_is_selected_to_copy(phone_in, live_server, finished):
    no_clipboard = 'Object.defineProperty(navigator, "clipboard", {value: undefined});'
    page = phone_in("en", no_clipboard)
    page.goto(f"/m/{finished.public_id}/share/")
    watch = page.locator("section.share").nth(1)
    watch.get_by_role("button", name="Copy").click()
    expect(watch.get_by_role("status")).to_have_text("Selected: copy it with your phone.")
    selected = page.evaluate("window.getSelection().toString()")
    assert selected == f"{live_server.url}/w/{finished.watch_id}/"
