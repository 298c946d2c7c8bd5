"""Gongzhu's first hand saved says, beside "Round 1 is saved.", why a total is not the card
points shown beside it: evened out (in pairs, team against team), and the multiplier the match
uses (issue 49.10)."""

import pytest
from django.urls import reverse

from games.models import Match
from tests.html import visible

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def save_hand(client, match):
    """A hand: Dee takes Q♠ and J♥ (card points −120), Ann every other scoring card."""
    form = {"owner-QS": "3", "owner-JH": "3", "rest": "0"}
    answer = client.post(reverse("round_create", args=[match.public_id]), form, **HTMX)
    assert answer.status_code == 200
    return " ".join(visible(answer.content.decode()).split())


@pytest.mark.parametrize(
    "options, said",
    [
        ({}, "Totals are card points evened out so they add to 0, ×12."),
        ({"decks": 2}, "Totals are card points evened out so they add to 0."),
        (
            {"mode": "pairs", "multiplier": 5},
            "Totals are each team's card points less the other team's, halved, ×5, the same "
            "for both partners.",
        ),
    ],
)
def test_the_first_hand_says_why_totals_are_not_card_points(client, options, said):
    match = Match.start("gongzhu", ["Ann", "Bo", "Chen", "Dee"], options)
    first = save_hand(client, match)
    assert f"Round 1 is saved. {said} Undo" in first
    second = save_hand(client, match)
    assert "Round 2 is saved." in second and "Totals are" not in second
