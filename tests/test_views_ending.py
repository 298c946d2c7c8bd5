"""An ended match says why it ended, in the table's words; one closed by hand does not."""

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from games.models import Match, Round
from tests.html import visible

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).parent / "examples"


def example(name):
    return json.loads((EXAMPLES / f"{name}.match.json").read_text(encoding="utf-8"))


def stored(document, **fields):
    """A match holding the document's rounds, as the table would have entered them."""
    match = Match.objects.create(
        game=document["game"],
        players=document["players"],
        options=document.get("options", {}),
        **fields,
    )
    for number, entry in enumerate(document["rounds"], 1):
        Round.objects.create(match=match, number=number, entry=entry)
    return match


def banner(client, match, language="en"):
    """The lines of the ended match's banner (its heading, then each paragraph), as read."""
    url = reverse("match", args=[match.public_id])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    found = re.search(r'<section class="banner done".*?</section>', page, re.S)
    assert found, "the match page shows no ended-match banner"
    lines = re.findall(r"<(?:h2|p)\b.*?</(?:h2|p)>", found[0], re.S)
    return [" ".join(visible(line).split()) for line in lines]


@pytest.mark.parametrize(
    "name, why",
    [
        ("six-nimmt-to-66", ["Bo reached 66"]),
        ("six-nimmt-fixed-hands", ["All 3 hands are played"]),
        ("six-nimmt-one-hand-games", ["All 2 hands are played"]),
        ("sanming-bomb-pay", ["Ann reached 100"]),
        ("sheet-hearts-to-50", ["Ann reached 50"]),
        ("sheet-rummy-three-hands", ["All 3 hands are played"]),
        ("smear-both-reach", ["Ann and Chen reached 15", "Bo and Dee reached 15"]),
        ("gongzhu-match-to-floor", ["Ann reached -1000 in card points"]),
        ("gongzhu-ceiling", ["Ann reached +300 in card points"]),
        ("least-score-to-the-end", ["Only Ann is left in"]),
        ("least-score-yaniv-all-out", ["Everyone left went out in the same round"]),
    ],
)
def test_an_ended_match_says_why_it_ended_under_who_won(client, name, why):
    lines = banner(client, stored(example(name)))
    assert lines[1 : 1 + len(why)] == why
    assert "Closed by hand." not in lines


def test_every_name_that_reached_the_end_is_listed(client):
    document = {
        "game": "sheet",
        "players": ["Ann", "Bo", "Chen"],
        "options": {"target": 50},
        "rounds": [{"points": [30, 20, 5]}, {"points": [25, 30, 5]}],
    }
    assert banner(client, stored(document))[1] == "Ann, Bo reached 50"


@pytest.mark.parametrize("name, played", [("sheet-hearts-to-50", 1), ("six-nimmt-to-66", None)])
def test_a_match_closed_by_hand_says_so_and_no_reason(client, name, played):
    """Closed after its first round, or after the game's own end: the close is what is said."""
    document = example(name)
    lines = banner(client, stored({**document, "rounds": document["rounds"][:played]}, closed=True))
    assert lines[1] == "Closed by hand."
    assert not any("reached" in line for line in lines)


def test_the_reason_is_in_the_readers_language(client):
    lines = banner(client, stored(example("smear-both-reach")), language="es")
    assert "Ann y Chen llegaron a 15" in lines
