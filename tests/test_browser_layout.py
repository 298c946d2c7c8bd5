"""Nothing makes a screen wider than the phone: 40-letter names without a space, ten players.
Names and signed numbers keep their place in a right-to-left sentence; lists, money and a
rounding remainder read the reader's way."""

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils.html import strip_tags
from playwright.sync_api import expect

from games import rules
from games.models import Match
from tests.conftest import PHONE, screenshot
from tests.table import save, start_match, type_players

pytestmark = pytest.mark.django_db(transaction=True)

WIDTH = PHONE["viewport"]["width"]
LONG = "olfeschlegelsteinhausenbergerdorffvorald"  # 40 letters with the first one below
EXAMPLES = Path(__file__).resolve().parent / "examples"


def names(count):
    """count different 40-letter names, none with a space."""
    return [chr(ord("A") + seat) + LONG[1:] for seat in range(count)]


def width(page):
    return page.evaluate("document.documentElement.scrollWidth")


def pick(page, field, value):
    """Tap the label of the radio (or checkbox) field=value."""
    page.locator(f"label:has(> input[name='{field}'][value='{value}'])").first.click()


def close(page):
    """Close the match by hand (asked once: the summary opens the question)."""
    page.locator("summary", has_text="Close the match now").click()
    page.get_by_role("button", name="Yes, close the match").click()


def least_score(page, players, number):
    pick(page, "declarer", number % len(players))
    for seat in range(len(players)):
        page.locator(f"input[name=hand-{seat}]").fill(str(5 + seat * 3))


def gongzhu(page, players, number):
    seat = number % 4
    page.locator(".gz-seat").nth(seat).click()
    page.locator(f"button[name=rest][value='{seat}']").click()


def smear(page, players, number):
    pick(page, "bidder", number % 4)
    pick(page, "bid", 2)
    for point in ("high", "low", "jack", "game"):
        pick(page, point, number % 2)


def sanming(page, players, number):
    winner = number % 3
    pick(page, "winner", winner)
    for seat in range(3):
        if seat != winner:
            pick(page, f"cards_left-{seat}", 5 + seat)


def six_nimmt(page, players, number):
    page.locator("label.pill:has(input[name=mode][value=bullheads])").click()
    for seat in range(len(players)):
        page.locator(f"input[name=bullheads-{seat}]").fill(str(8 + (seat + number) % 5))


GAMES = [
    ("Least Score", "least_score", 4, least_score, {}),
    ("Gongzhu", "gongzhu", 4, gongzhu, {"stake": "0.07"}),
    ("Four Point Smear", "smear", 4, smear, {}),
    ("Sanming run-fast", "sanming", 3, sanming, {"bean_rate": "0.35"}),
    ("6 nimmt!", "six_nimmt", 10, six_nimmt, {}),
]


@pytest.mark.browser
@pytest.mark.parametrize("game, slug, count, play, options", GAMES, ids=[g[1] for g in GAMES])
def test_long_names_and_ten_players_never_widen_a_screen(phone, game, slug, count, play, options):
    page, players, widths = phone, names(count), {}
    start_match(page, game, players, **options)
    for number in range(2):
        play(page, players, number)
        save(page)
        expect(page.get_by_role("heading", name=f"Round {number + 2}")).to_be_visible()
    widths["match"] = width(page)
    match_url = page.url

    # The scoreboard: each name whole in its title; the round column in view however far the
    # board is scrolled; a hint when it scrolls at all.
    board = page.locator(".scoreboard")
    header = board.locator("thead .name")
    expect(header).to_have_count(count)
    expect(header.first).to_have_attribute("title", players[0])
    if count > 5:
        expect(board).to_have_class("scoreboard scrolls")
        expect(board.locator(".scroll-hint")).to_be_visible()
        board.evaluate("board => { board.scrollLeft = board.scrollWidth; }")
        expect(board).to_have_class("scoreboard scrolls scrolled-end")
        first = board.locator("tbody th[scope=row]").first.bounding_box()
        assert first["x"] >= 0 and first["x"] + first["width"] <= WIDTH
    screenshot(page, f"layout-{slug}-match")

    page.get_by_role("link", name="Share").click()
    page.wait_for_url("**/share/")
    widths["share"] = width(page)
    page.goto(match_url)
    page.get_by_role("link", name="History").click()
    page.wait_for_url("**/history/")
    widths["history"] = width(page)
    page.goto(match_url)
    page.locator(".scoreboard tbody th a").first.click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    widths["round edit"] = width(page)
    screenshot(page, f"layout-{slug}-edit")

    page.goto(reverse("new_match", args=[slug]))
    type_players(page, players)
    widths["new match"] = width(page)

    page.goto(match_url)
    close(page)
    expect(page.locator(".banner")).to_be_visible()
    if options:  # a game that pays out shows its settlement, with the amounts in cents
        expect(page.locator(".settlement")).to_be_visible()
        expect(page.locator(".settlement tbody td").nth(1)).to_contain_text(".")
    widths["finished"] = width(page)
    screenshot(page, f"layout-{slug}-finished")

    assert widths == {screen: min(w, WIDTH) for screen, w in widths.items()}, widths


@pytest.mark.browser
def test_a_series_settlement_with_long_names_fits(phone):
    page = phone
    start_match(page, "Gongzhu", names(4), stake="0.07")
    gongzhu(page, None, 0)
    save(page)
    close(page)
    page.get_by_role("button", name="Rematch").click()
    gongzhu(page, None, 1)
    save(page)
    close(page)
    expect(page.locator(".series-settlement table")).to_be_visible()
    assert width(page) <= WIDTH
    assert page.evaluate("document.querySelector('.series-settlement').scrollWidth") <= WIDTH


def stored(example, players=None, **options):
    document = json.loads((EXAMPLES / f"{example}.match.json").read_text(encoding="utf-8"))
    match = Match.objects.create(
        game=document["game"],
        players=players or document["players"],
        options={**document.get("options", {}), **options},
    )
    for number, entry in enumerate(document["rounds"], 1):
        match.rounds.create(number=number, entry=entry)
    return match


RTL_PLAYERS = ["زهرا", "עברית", "Ann", "خوک"]
# Each signed number on the Persian screen, and whether its minus (or plus) is drawn left of its
# digits, as a left-to-right number is read in a right-to-left sentence.
SIGNS_IN_PLACE = """() => [...document.querySelectorAll('bdi[dir=ltr]')]
  .filter(b => /^[-+]\\d/.test(b.textContent))
  .map(b => { const t = b.firstChild, r = document.createRange(), x = [];
    for (const i of [0, 1]) {
      r.setStart(t, i); r.setEnd(t, i + 1); x.push(r.getBoundingClientRect().left);
    }
    return [b.textContent, x[0] < x[1]]; })"""


@pytest.mark.browser
def test_in_persian_a_sign_stays_in_front_of_its_number(browser, live_server):
    match = stored("gongzhu-match-to-floor", RTL_PLAYERS)
    context = browser.new_context(
        base_url=live_server.url, locale="fa", extra_http_headers={"Accept-Language": "fa"}, **PHONE
    )
    page = context.new_page()
    page.goto(reverse("match", args=[match.public_id]))
    signs = page.evaluate(SIGNS_IN_PLACE)
    assert any(text == "-100" for text, _ in signs)  # the pig's value in the breakdown
    assert signs and all(in_front for _text, in_front in signs), signs
    # "زهرا به Ann 81.96 می‌پردازد": each name and the amount its own isolate.
    transfer = page.locator(".transfers li").first
    expect(transfer.locator("bdi")).to_have_count(3)
    screenshot(page, "layout-persian-settlement")
    context.close()


@pytest.mark.browser
@pytest.mark.parametrize(
    "game, name, entry",
    [
        ("sanming", "محمدرضا شجریان‌پور اصفهانی", {"winner": 1, "cards_left": [4, None, 6]}),
        (
            "gongzhu",
            "Bartholomew Fitzgerald",
            {"captured": [["QS"], ["JD"], ["10C"], [f"{r}H" for r in "AKQJ98765432"] + ["10H"]]},
        ),
    ],
)
def test_a_long_name_keeps_its_distance_to_the_end_beside_it(
    browser, live_server, game, name, entry
):
    others = ["Bo", "陈静"] if game == "sanming" else ["Bo", "陈静", "Dee"]
    match = Match.start(game, [name, *others], {})
    match.add_round(entry)
    context = browser.new_context(
        base_url=live_server.url, locale="fa", extra_http_headers={"Accept-Language": "fa"}, **PHONE
    )
    page = context.new_page()
    page.goto(reverse("match", args=[match.public_id]))
    row = page.locator(".standings li", has_text=name)
    names, to_go = row.locator(".name").bounding_box(), row.locator(".to-go").bounding_box()
    assert names["height"] > 30  # the name takes two lines ...
    assert abs(to_go["y"] - names["y"]) < 8  # ... and its distance stays beside the first
    assert max(to_go["x"] + to_go["width"], names["x"] + names["width"]) <= 390
    screenshot(page, f"layout-persian-long-name-{game}")
    context.close()


def test_every_name_and_signed_number_lands_isolated(client):
    match = stored("least-score-declarations", ["زهرا", "עברית", "Ann"])
    page = client.get(reverse("match", args=[match.public_id]), HTTP_ACCEPT_LANGUAGE="fa")
    html = page.content.decode()
    assert "<bdi>زهرا</bdi>" in html and "<bdi>עברית</bdi>" in html
    assert '<bdi dir="ltr">+' in html or '<bdi dir="ltr">-' in html
    english = client.get(reverse("match", args=[match.public_id]), HTTP_ACCEPT_LANGUAGE="en")
    assert "<bdi>زهرا</bdi>" in english.content.decode()


@pytest.mark.parametrize("language, separator", [("zh-hans", "、"), ("fa", "، "), ("es", ", ")])
def test_names_are_listed_with_the_languages_separator(client, language, separator):
    match = stored("smear-both-reach")
    client.post(reverse("match_close", args=[match.public_id]))  # two partners win together
    html = client.get(reverse("match", args=[match.public_id]), HTTP_ACCEPT_LANGUAGE=language)
    banner = html.content.decode().split('class="banner')[1].split("</h2>")[0]
    assert re.search(f"<bdi>[^<]+</bdi>{separator}<bdi>[^<]+</bdi>", banner), banner


def test_money_with_cents_shows_two_decimals_and_the_remainder_reads_naturally(client):
    # Stake 0.05 a point: -846.6 shows as -846.60, 306 as 306.00 (one amount has cents, so all
    # show them), and the -0.60 the rounded points leave is said the way round it is.
    match = stored("gongzhu-match-to-floor", ["Ann", "Bo", "Chen", "Dee"], stake=0.05)
    settlement = rules.score(match.document())["settlement"]
    assert settlement["amounts"] == [-846.6, 130.2, 409.8, 306] and settlement["remainder"] == -0.6
    url = reverse("match", args=[match.public_id])
    text = strip_tags(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    for amount in ("-846.60", "+130.20", "+409.80", "+306.00"):
        assert amount in text
    assert "Ann pays Dee 306.00" in text
    assert "Rounding leaves 0.60 owed to nobody." in text
    spanish = strip_tags(client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode())
    assert "-846,60" in spanish and "Ann paga 306,00 a Dee" in spanish
