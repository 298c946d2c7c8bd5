"""History: a deleted round says, beside Restore, what it brings back in the game's words (the
breakdown the round showed where it stood), or why it cannot come back."""

import html
import re

import pytest
from django.urls import reverse

from games.models import Match
from tests.html import ISOLATES
from tests.views import new_least_score, post_round

pytestmark = pytest.mark.django_db


def deleted_section(client, match):
    """The History page's text from the deleted round's heading to its Restore button."""
    page = client.get(reverse("history", args=[match.public_id])).content.decode()
    page = re.sub(r"</?(li|p|ul|h2|div)\b[^>]*>", " ", page)  # a line each, apart
    page = html.unescape(re.sub(r"<[^>]+>", "", page)).translate(ISOLATES)
    start = page.index("Deleted round")
    return " ".join(page[start : page.index("Restore this round", start)].split())


def test_a_deleted_round_says_what_restore_brings_back(client):
    match = new_least_score(client)
    post_round(client, match, 0, 7, 15, 20)
    post_round(client, match, 1, 9, 5, 4)
    match.delete_round(2)
    said = deleted_section(client, match)
    assert said.startswith("Deleted round, after round 1")
    assert "What Restore brings back: Bo declared: the declaration fails Bo +21" in said


def test_a_deleted_round_is_scored_where_it_stood_not_at_the_end(client):
    match = new_least_score(client)
    post_round(client, match, 0, 7, 15, 20)
    post_round(client, match, 1, 9, 5, 4)
    match.delete_round(1)
    said = deleted_section(client, match)
    # Played first again: Ann's 7 against the others, not after Bo's round.
    assert said.startswith("Deleted round, before round 1")
    assert "Ann declared: the declaration stands Bo +8 Chen +13" in said


def test_a_deleted_round_that_cannot_come_back_says_why_instead(client):
    match = new_least_score(client, threshold="25")
    post_round(client, match, 0, 7, 15, 20)
    post_round(client, match, 1, 9, 5, 4)
    match.delete_round(1)
    post_round(client, match, 2, 14, 12, 3)
    said = deleted_section(client, match)
    assert "What Restore brings back" not in said
    assert "This round cannot be restored: round 3: Bo is out and has no hand" in said


@pytest.mark.parametrize(
    "game, players, entries, words",
    [
        (
            "gongzhu",
            ["Ann", "Bo", "Chen", "Dee"],
            [{"captured": [["QS"], ["JD"], ["10C"], ["AH", "KH", "QH", "JH", "10H", "9H", "8H",
                                                    "7H", "6H", "5H", "4H", "3H", "2H"]]}],
            "all red 200 = 200; after evening out 183 ×12 = 2196",
        ),
        ("sheet", ["Ann", "Bo"], [{"points": [3, -2]}], "This round: Ann +3, Bo -2"),
        (
            "sanming",
            ["Ann", "Bo", "Chen"],
            [{"winner": 0, "cards_left": [None, 6, 11]}],
            "Ann went out first: 0",
        ),
    ],
)  # fmt: skip
def test_every_game_says_it_in_its_own_words(client, game, players, entries, words):
    match = Match.start(game, players, {})
    for entry in entries:
        match.add_round(entry)
    match.delete_round(1)
    assert words in deleted_section(client, match)
