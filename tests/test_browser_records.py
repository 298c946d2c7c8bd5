"""Records on a phone: the chart under the scoreboard, export, rematch."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.models import Match, Round
from tests.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXAMPLES = Path(__file__).parent / "examples"


@pytest.fixture
def finished():
    """A finished Sanming match of three hands (the rule book's one-kid example)."""
    document = json.loads((EXAMPLES / "sanming-one-kid.match.json").read_text(encoding="utf-8"))
    match = Match.objects.create(
        game="sanming", players=document["players"], options=document["options"]
    )
    for number, entry in enumerate(document["rounds"], 1):
        Round.objects.create(match=match, number=number, entry=entry)
    return match


def test_the_chart_appears_with_the_second_round(phone):
    page = phone
    match = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    page.goto(f"/m/{match.public_id}/")
    for declarer, hands in [("Ann", [7, 15, 20]), ("Chen", [9, 15, 3])]:
        page.locator("#entry label.pill", has_text=declarer).click()
        for seat, hand in enumerate(hands):
            page.locator(f"input[name=hand-{seat}]").fill(str(hand))
        expect(page.locator(".chart")).to_have_count(0)
        with page.expect_response(lambda r: r.request.method == "POST" and "/rounds/" in r.url):
            page.get_by_role("button", name="Save round").click()
        expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    chart = page.locator(".chart svg")
    expect(chart).to_be_visible()
    expect(chart.locator("[data-player]")).to_have_count(3)
    expect(chart.locator("[data-player='Bo']")).to_have_attribute("data-values", "8 20")
    expect(chart.locator("[data-mark='100']")).to_contain_text("threshold 100")


def test_a_finished_match_charts_exports_and_rematches(phone, finished):
    page = phone
    page.goto(f"/m/{finished.public_id}/")
    chart = page.locator(".chart svg")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for name in ["Ann", "Bo", "Chen"]:
        expect(chart.locator(f"[data-player='{name}'] text.name")).to_have_text(name)
    chart.scroll_into_view_if_needed()
    screenshot(page, "records-chart")

    with page.expect_download() as download:
        page.get_by_role("link", name="Export JSON").click()
    assert download.value.suggested_filename.endswith(".match.json")
    document = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert document["players"] == ["Ann", "Bo", "Chen"] and len(document["rounds"]) == 3

    rematch = page.get_by_role("button", name="Rematch")
    assert rematch.bounding_box()["height"] >= 44
    rematch.click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    again = Match.objects.get(rematch_of=finished)
    assert page.url.endswith(f"/m/{again.public_id}/")
    assert (again.game, again.players, again.options) == (
        "sanming",
        finished.players,
        finished.options,
    )
    series = page.locator(".series")
    expect(series.get_by_role("link", name="Match 1")).to_have_attribute(
        "href", f"/m/{finished.public_id}/"
    )
    expect(series).to_contain_text("Ann won")
    screenshot(page, "records-rematch")
