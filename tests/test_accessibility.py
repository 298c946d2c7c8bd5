"""axe-core finds no WCAG 2.2 AA violation on any screen, in English and Persian, light and dark."""

import json
from pathlib import Path

import pytest
from django.urls import reverse

from games import rules
from games.models import Match, Table
from games.records import store
from tests.conftest import PHONE
from tests.players import played_at_the_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXAMPLES = Path(__file__).resolve().parent / "examples"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# A match in play for each game (its page shows the entry form), and finished ones that settle.
IN_PLAY = [
    "least-score-declarations",
    "gongzhu-pairs",
    "smear-hands",
    "sanming-two-kids",
    "six-nimmt-cards",
    "sheet-mahjong-stake",
]
FINISHED = ["gongzhu-match-to-floor", "sanming-one-kid", "sheet-hearts-to-50"]
GAMES = ["least_score", "gongzhu", "smear", "sanming", "six_nimmt", "sheet"]


def stored(example, in_play=False):
    """The example as a stored match; in_play: without its last round if that one ends it."""
    document = json.loads((EXAMPLES / f"{example}.match.json").read_text(encoding="utf-8"))
    if in_play and rules.score(document)["finished"]:
        document["rounds"] = document["rounds"][:-1]
    match = Match.objects.create(
        game=document["game"], players=document["players"], options=document.get("options", {})
    )
    for number, entry in enumerate(document["rounds"], 1):
        match.rounds.create(number=number, entry=entry)
    return match


def screens():
    """(name, path) of every screen: home, new match per game, each match and its pages."""
    paths = [("home", reverse("home"))]
    paths += [(f"new {slug}", reverse("new_match", args=[slug])) for slug in GAMES]
    for example in IN_PLAY:
        match = stored(example, in_play=True)
        paths += [
            (f"match {example}", reverse("match", args=[match.public_id])),
            (f"round edit {example}", reverse("round_edit", args=[match.public_id, 1])),
        ]
    for example in FINISHED:
        match = stored(example)
        paths.append((f"finished {example}", reverse("match", args=[match.public_id])))
    paths += [
        ("watch", reverse("watch", args=[match.watch_id])),
        ("share", reverse("share", args=[match.public_id])),
        ("history", reverse("history", args=[match.public_id])),
        ("records", reverse("matches") + "?q=Ann"),
        ("import", reverse("import_match")),
        ("names and options", reverse("match_setup", args=[match.public_id])),
    ]
    return paths + table_screens() + players_screens()


def players_screens():
    """(name, path) of the screens of players who come and go: a sheet Eve joined and Bo left
    (said back, with "–" cells and "left after round 4"), its join and leave pages, its
    History; a table of five's new Gongzhu match (who sits out)."""
    document = json.loads((EXAMPLES / "players_sheet.match.json").read_text(encoding="utf-8"))
    match = played_at_the_table({**document, "closed": False})
    said = match.setup_changes.order_by("pk").last().pk
    five = Table.objects.create(name="Five", people=["Ann", "Bo", "Chen", "Dee", "Eve"])
    return [
        ("players match", reverse("match", args=[match.public_id]) + f"?said={said}"),
        ("someone joins", reverse("match_join", args=[match.public_id])),
        ("someone leaves", reverse("match_leave", args=[match.public_id])),
        ("players history", reverse("history", args=[match.public_id])),
        ("who sits out", reverse("table_new_match", args=[five.public_id, "gongzhu"])),
    ]


def table_screens():
    """(name, path) of a table's screens: made, its page and watch page with balances and a
    match in play, its new match, its names, a person's page, two head to head, every match."""
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen", "Dee"])
    for example in FINISHED[:2]:
        table.take_match(store(json.loads((EXAMPLES / f"{example}.match.json").read_text())))
    table.start_match("sanming", ["Ann", "Bo", "Chen"], {})
    table.pay("Dee", "Ann", 5, "money")
    return [
        ("new table", reverse("new_table")),
        ("table", reverse("table", args=[table.public_id])),
        ("table watch", reverse("table_watch", args=[table.watch_id])),
        ("table new match", reverse("table_new_match", args=[table.public_id, "gongzhu"])),
        ("names of the table", reverse("table_setup", args=[table.public_id])),
        ("a person's page", reverse("table_person", args=[table.public_id, 1])),
        ("two head to head", reverse("table_watch_pair", args=[table.watch_id, 1, 2])),
        ("every match", reverse("table_matches", args=[table.public_id])),
    ]


@pytest.mark.parametrize("language", ["en", "fa"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_screen_breaks_a_wcag_22_aa_rule(browser, live_server, language, scheme):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    context = browser.new_context(
        base_url=live_server.url,
        color_scheme=scheme,
        locale=language,
        extra_http_headers={"Accept-Language": language},
        **PHONE,
    )
    page = context.new_page()
    found = {}
    for name, path in screens():
        page.goto(path)
        page.wait_for_load_state("networkidle")
        results = axe.run(page, options={"runOnly": {"type": "tag", "values": TAGS}})
        for violation in results.response["violations"]:
            nodes = [node["target"] for node in violation["nodes"]][:3]
            found.setdefault(name, []).append(f"{violation['id']}: {nodes}")
    context.close()
    assert found == {}
