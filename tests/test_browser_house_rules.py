"""Tables that play house rules, on a phone: a Yaniv evening (an Asaf, a declaration over the
limit, an exact-total reset), a 16-card run-fast paying the bomber and settling with the winner
only, a Gongzhu match ending at +1000. Each is played through the screens and checked against
its worked example (tests/examples/NAME.result.json)."""

import json
from itertools import accumulate
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot
from tests.table import save, type_players
from tests.test_browser_gongzhu import play_hand
from tests.test_browser_least_score import fill_round, play_round
from tests.test_browser_sanming import fill_hand, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXAMPLES = Path(__file__).resolve().parent / "examples"
YANIV = (
    "By default then: Out past this total: 200; When the declarer ties the lowest hand: the "
    "declarer fails; Added to a failed declarer: 30; Declare only with a hand of at most: 7."
)


def example(name):
    """The worked example's match and result documents."""
    read = lambda kind: json.loads((EXAMPLES / f"{name}.{kind}.json").read_text("utf-8"))  # noqa: E731
    return read("match"), read("result")


def running_totals(result):
    """The totals row after each round of a result, as the scoreboard shows them."""
    points = [r["points"] for r in result["rounds"]]
    return [
        [str(t) for t in row]
        for row in accumulate(points, lambda a, b: [x + y for x, y in zip(a, b)])
    ]


def new_match(page, game, players, house, options=None):
    """From the home screen: the players, options typed, house rules chosen (a list by its
    label, a box ticked by True, else typed); not started yet."""
    page.goto("/")
    page.get_by_role("link", name=game).click()
    type_players(page, players)
    if options:
        page.get_by_text("Options", exact=True).click()
        for name, value in options.items():
            page.locator(f"input[name={name}]").fill(str(value))
    page.get_by_text("House rules").click()
    for name, value in house.items():
        field = page.locator(f"[name={name}]")
        if value is True:
            field.check()
        elif field.evaluate("field => field.tagName") == "SELECT":
            field.select_option(label=value)
        else:
            field.fill(str(value))


def start(page):
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()


def expect_totals(page, totals):
    expect(page.locator(".scoreboard tfoot td")).to_have_text(totals, use_inner_text=True)


def expect_rule(page, name, words):
    """The match's "Rules and options" block says words for the option labelled name."""
    rules = page.locator("details.rules")
    expect(
        rules.locator("dt", has_text=name).locator("xpath=following-sibling::dd[1]")
    ).to_have_text(words)


def test_a_yaniv_evening_with_an_asaf_and_a_declaration_over_the_limit(phone):
    page = phone
    match, result = example("least-score-yaniv")
    new_match(page, "Least Score", match["players"], {"scoring": "The Yaniv way"})
    # Before Start, the form says what Yaniv moves; back to the difference, it says nothing.
    expect(page.locator("#id_scoring_moves")).to_have_text(YANIV)
    expect(page.locator("input[name=threshold]")).to_have_attribute("placeholder", "200")
    expect(page.locator("input[name=declare_max]")).to_have_attribute("placeholder", "7")
    screenshot(page, "house-least-score-yaniv-form")
    page.locator("select[name=scoring]").select_option(label="The difference to the declarer")
    expect(page.locator("#id_scoring_moves")).to_be_hidden()
    expect(page.locator("input[name=threshold]")).to_have_attribute("placeholder", "100")
    expect(page.locator("select[name=tie] option").first).to_have_text(
        "Default: the declarer wins."
    )
    page.locator("select[name=scoring]").select_option(label="The Yaniv way")
    expect(page.locator("select[name=tie] option").first).to_have_text(
        "Default: the declarer fails."
    )
    start(page)
    expect(page.locator(".status")).to_contain_text("Declare with a hand total of 7 or less.")

    # Ann declares with 8, above Yaniv's 7: refused in words naming her, nothing saved.
    play_round(page, "Ann", {0: 8, 1: 12, 2: 15, 3: 9})
    expect(page.locator("#entry .error")).to_contain_text(
        "Ann declared with 8; a declaration needs a hand total of at most 7"
    )
    expect(page.locator("input[name=hand-0]")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()  # nothing saved

    # The example's rounds: an Asaf (Chen lower), a declaration that stands, an Asaf on a tie.
    breakdowns = [
        "Asaf: Chen had 3, lower than Ann's 5 → Ann 5 + 30",
        "Chen declared: the declaration stands",
        "Asaf: Ann had 5, as low as Bo's 5 → Bo 5 + 30",
    ]
    for entry, totals, said in zip(match["rounds"], running_totals(result), breakdowns):
        fill_round(page, match["players"][entry["declarer"]], dict(enumerate(entry["hands"])))
        expect(page.locator("#preview")).to_contain_text(said)
        save(page)
        expect_totals(page, totals)
        expect(page.locator(".breakdown")).to_contain_text(said)
        if said.startswith("Asaf: Chen"):
            screenshot(page, "house-least-score-asaf")
    expect_totals(page, [str(t) for t in result["totals"]])
    expect_rule(page, "How a hand scores", "The Yaniv way")
    expect_rule(page, "Declare only with a hand of at most", "7")


def test_an_exact_total_typed_as_pairs_resets_200_to_150(phone):
    page = phone
    match, result = example("least-score-exact-200-to-150")
    house = {"scoring": "The Yaniv way", "exact_totals": "Custom"}
    new_match(page, "Least Score", match["players"], house)
    typed = page.locator("input[name=exact_totals_custom]")
    page.locator("select[name=exact_totals]").select_option(label="Halve on every fifty")
    expect(typed).to_be_hidden()  # the pairs are typed only for "custom"
    page.locator("select[name=exact_totals]").select_option(label="Custom")
    typed.fill("200 → 250")
    page.get_by_role("button", name="Start").click()
    expect(page.locator(".field:has(select[name=exact_totals]) .error")).to_contain_text(
        "Type pairs such as 200 → 150, 100 → 50"
    )
    expect(typed).to_have_value("200 → 250")
    typed.fill("۲۰۰ → ۱۵۰")  # a Persian keyboard's digits read as any others
    start(page)

    for entry, totals in zip(match["rounds"], running_totals(result)):
        play_round(page, match["players"][entry["declarer"]], dict(enumerate(entry["hands"])))
        expect_totals(page, totals)
    # Ann scored 50 from 150: she landed on 200, which takes her back to 150.
    expect(page.locator(".breakdown")).to_contain_text("Ann landed on 200 → 150")
    expect_totals(page, [str(t) for t in result["totals"]])
    expect_rule(
        page, "Totals that change when landed on exactly", "Exactly 200 back to 150"
    )  # the pairs are a preset's


def test_a_16_card_run_fast_pays_the_bomber_and_settles_with_the_winner(phone):
    page = phone
    match, result = example("sanming-bomb-pay-20-winner")
    house = {
        "deal": "16",
        "bomb": "Is paid by the others",
        "bomb_points": 20,
        "settle": "In every hand, the losers pay its winner",
    }
    new_match(page, "Sanming run-fast", match["players"], house)
    expect(page.locator("#id_deal_moves")).to_have_text(
        "By default then: Points for the cards left: one a card."
    )
    expect(page.locator("select[name=card_points] option").first).to_have_text(
        "Default: one a card."
    )
    screenshot(page, "house-sanming-form")
    start(page)
    # 16 cards dealt: a loser has 1 to 16 left; the bombs each player played, no times bombed.
    expect(page.locator("input[name=cards_left-1]")).to_have_count(16)
    expect(page.locator("input[name^=bombed-]")).to_have_count(0)

    payments = ["Chen's bomb: Ann and Bo pay 20 each", "Ann's bomb: Bo and Chen pay 20 each"]
    for entry, totals, said in zip(match["rounds"], running_totals(result), payments):
        winner = entry["winner"]
        cards = {s: c for s, c in enumerate(entry["cards_left"]) if s != winner}
        fill_hand(page, match["players"][winner], cards)
        for seat, bombs in enumerate(entry["bombs"]):
            tap(page, f"One bomb more for {match['players'][seat]}", bombs)
        save(page)
        expect_totals(page, totals)
        expect(page.locator(".breakdown")).to_contain_text(said)
    screenshot(page, "house-sanming-bomb-pay")

    page.locator("summary", has_text="Close the match now").click()
    page.get_by_role("button", name="Yes, close the match").click()
    expect(page.locator(".kid-rule")).to_contain_text(
        "In every hand the losers paid the winner their points: there is no kid rule."
    )
    expect(page.locator(".kid-rule")).to_contain_text(
        "Each player's bomb payments are added to their result."
    )
    settlement = result["settlement"]
    rows = page.locator(".settlement tbody tr td:first-of-type")
    expect(rows).to_have_text([f"{r:+d}" for r in settlement["results"]], use_inner_text=True)
    expect(page.locator(".transfers li")).to_have_text(
        [f"{t['from']} pays {t['to']} {t['amount']}" for t in settlement["transfers"]],
        use_inner_text=True,
    )
    expect_rule(page, "Who pays whom at the end", "In every hand, the losers pay its winner")


def test_a_gongzhu_match_ends_when_a_raw_total_reaches_plus_1000(phone):
    page = phone
    match, result = example("gongzhu-ceiling-1000")
    options = {"stake": match["options"]["stake"]}
    new_match(page, "Gongzhu", match["players"], {"ceiling": 1000}, options)
    start(page)
    # Each hand: Ann the sheep and the transformer, Bo the pig, Chen the four honours, Dee the
    # rest of the hearts: raw 200, -100, -140, -60.
    taken = {"Ann": "JD 10C", "Bo": "QS", "Chen": "AH KH QH JH"}
    for number, totals in enumerate(running_totals(result), 1):
        if number == 5:
            expect(page.locator(".status")).to_contain_text(
                "It also ends at +1000; highest now 800 (Ann)."
            )
        play_hand(page, [], taken, rest="Dee")
        expect_totals(page, totals)
    expect(page.locator(".banner")).to_contain_text("Ann won")
    expect(page.locator(".result-more")).to_contain_text(
        "Ann reached the ceiling of +1000: the match ends there."
    )
    expect(page.locator("#entry")).to_have_count(0)
    amounts = [f"{a:+.2f}" for a in result["settlement"]["amounts"]]
    rows = page.locator(".settlement tbody tr td:last-of-type")
    expect(rows).to_have_text(amounts, use_inner_text=True)
    expect(page.locator(".transfers li")).to_have_text(
        [
            f"{t['from']} pays {t['to']} {t['amount']:.2f}"
            for t in result["settlement"]["transfers"]
        ],
        use_inner_text=True,
    )
    expect_rule(page, "Also end at plus this many card points", "1000")
    screenshot(page, "house-gongzhu-ceiling")
