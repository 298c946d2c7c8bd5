"""The running-totals chart: its figures read back from the SVG on the match page."""

import html
import json
import random
import re
from itertools import accumulate
from pathlib import Path

import pytest
from django.urls import reverse

from games import rules
from games.chart import LABEL_GAP, chart, cut
from games.models import Match, Round
from games.rules.gongzhu import SCORING
from games.templatetags.records import chart_svg
from tests.html import visible

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).parent / "examples"


def stored(document):
    """A match with the document's rounds, as the table would have entered them."""
    match = Match.objects.create(
        game=document["game"], players=document["players"], options=document.get("options", {})
    )
    for number, entry in enumerate(document["rounds"], 1):
        Round.objects.create(match=match, number=number, entry=entry)
    return match


def gongzhu_evening(hands=40, seed=8):
    """A Gongzhu match of many hands, each scoring card dealt to a random player."""
    deal = random.Random(seed)
    rounds = []
    for _ in range(hands):
        captured = [[], [], [], []]
        for card in SCORING:
            captured[deal.randrange(4)].append(card)
        rounds.append({"captured": captured, "exposed": []})
    return {
        "game": "gongzhu",
        "players": ["Ann", "Bo", "Chen", "Dee"],
        "options": {"end": "hands", "hands": hands},
        "rounds": rounds,
    }


def drawn_lines(page):
    """{player: [values]} from the chart's data attributes."""
    found = re.findall(r'data-player="([^"]*)" data-values="([^"]*)"', page)
    return {html.unescape(name): [float(v) for v in values.split()] for name, values in found}


def drawn_points(page):
    """{player: [(x, y), ...]} from the chart's polylines (the first point is the start at 0)."""
    found = re.findall(
        r'data-player="([^"]*)"[^>]*>\s*<title>[^<]*</title>\s*'
        r'<polyline points="([^"]*)"',
        page,
    )
    return {
        html.unescape(name): [tuple(map(float, p.split(","))) for p in points.split()]
        for name, points in found
    }


def ticks(page):
    """{value: y} of the value axis."""
    return {
        int(v): float(y)
        for y, v in re.findall(
            r'<text class="tick" x="[^"]*" y="([^"]*)">'
            r"(-?\d+)</text>",
            page,
        )
    }


def test_a_40_round_gongzhu_chart_draws_every_running_total(client):
    document = gongzhu_evening()
    match = stored(document)
    result = rules.score(document)
    running = {
        name: list(accumulate(r["points"][seat] for r in result["rounds"]))
        for seat, name in enumerate(result["players"])
    }
    assert result["finished"] and len(result["rounds"]) == 40

    page = client.get(reverse("match", args=[match.public_id])).content.decode()

    assert drawn_lines(page) == running
    assert [line[-1] for line in running.values()] == result["totals"]
    # The polylines are the same figures on the value axis' scale, from 0 before round 1.
    scale = ticks(page)
    (v0, y0), (v1, y1) = sorted(scale.items())[:2]
    per_point = (y1 - y0) / (v1 - v0)
    for name, points in drawn_points(page).items():
        assert len(points) == 41
        assert [x for x, _y in points] == sorted(x for x, _y in points)
        for (_x, y), value in zip(points, [0, *running[name]]):
            assert y == pytest.approx(y0 + (value - v0) * per_point, abs=0.1)


def test_names_in_the_chart_are_escaped(client):
    document = gongzhu_evening(hands=2)
    document["players"][1] = '<script>alert("Bo")</script>'
    page = client.get(reverse("match", args=[stored(document).public_id])).content.decode()
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&quot;Bo&quot;)&lt;/script&gt;" in page
    assert '<script>alert("Bo")</script>' in drawn_lines(page)


def test_the_chart_shows_from_the_second_round(client):
    document = gongzhu_evening(hands=2)
    document["rounds"] = document["rounds"][:1]
    page = client.get(reverse("match", args=[stored(document).public_id])).content.decode()
    assert 'class="chart"' not in page


@pytest.mark.parametrize(
    "example, mark, label",
    [
        ("six-nimmt-to-66", "66", "limit 66"),
        ("least-score-declarations", "100", "threshold 100"),
    ],
)
def test_the_game_marks_its_limit_on_the_chart(client, example, mark, label):
    document = json.loads((EXAMPLES / f"{example}.match.json").read_text(encoding="utf-8"))
    page = client.get(reverse("match", args=[stored(document).public_id])).content.decode()
    assert f'data-mark="{mark}"' in page
    assert label in visible(page)


def test_one_game_per_hand_6_nimmt_has_no_limit_line():
    document = json.loads((EXAMPLES / "six-nimmt-one-hand-games.match.json").read_text("utf-8"))
    game, table, _closed = rules.replay(document)
    assert game.chart_marks(table) == []


def test_ten_names_at_the_same_height_are_spread_apart_inside_the_chart():
    result = {
        "players": [f"Player {k}" for k in range(10)],
        "rounds": [{"points": [5] * 10}, {"points": [3] * 10}],
    }
    drawing = chart(result)
    heights = sorted(line["label_y"] for line in drawing["lines"])
    assert all(b - a >= LABEL_GAP - 0.1 for a, b in zip(heights, heights[1:]))
    assert drawing["top"] <= heights[0] and heights[-1] <= drawing["bottom"]
    assert len({line["colour"] for line in drawing["lines"]}) == 10


def test_long_names_are_cut_wide_characters_counting_double():
    assert cut("Ann") == "Ann"
    assert cut("Bartholomew Smith") == "Bartholome…"
    assert cut("欧阳娜娜娜娜娜娜") == "欧阳娜娜娜…"


def test_a_limit_far_beyond_every_total_is_named_at_the_edge_not_drawn():
    """Totals under 50 and a threshold of 200: the lines keep the chart's height, and the
    threshold is named at the top edge, pointing up."""
    document = json.loads((EXAMPLES / "least-score-yaniv.match.json").read_text("utf-8"))
    game, table, _closed = rules.replay(document)
    drawing = chart(rules.outcome(game, table, False), game.chart_marks(table))
    assert drawing["marks"] == []
    assert [(m["value"], m["above"]) for m in drawing["beyond"]] == [(200, True)]
    assert max(tick["value"] for tick in drawing["ticks"]) <= 60
    page = chart_svg(drawing, "chart")
    assert '<text class="beyond" data-mark="200"' in page and "↑ threshold 200" in page


def test_a_limit_within_reach_is_drawn_across_the_chart():
    document = json.loads((EXAMPLES / "six-nimmt-to-66.match.json").read_text("utf-8"))
    game, table, _closed = rules.replay(document)
    drawing = chart(rules.outcome(game, table, False), game.chart_marks(table))
    assert [m["value"] for m in drawing["marks"]] == [66] and drawing["beyond"] == []
