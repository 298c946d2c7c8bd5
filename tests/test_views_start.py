"""Home and starting a match: the form, its messages, what is stored."""

import pytest
from django.urls import reverse

from games.models import Match
from tests.html import visible
from tests.views import new_least_score, refuses

pytestmark = pytest.mark.django_db


def test_home_lists_every_game(client):
    page = client.get("/").content.decode()
    for name in ["Least Score", "Gongzhu", "6 nimmt!", "Smear", "Sanming"]:
        assert name in page


def test_starting_a_match_stores_trimmed_players_and_typed_options(client):
    match = new_least_score(client, threshold="25")
    assert match.players == ["Ann", "Bo", "Chen"]
    assert match.options["threshold"] == 25
    assert len(match.public_id) >= 24


def test_the_match_is_remembered_on_this_phone(client):
    match = new_least_score(client)
    assert match.public_id in client.get("/").content.decode()


@pytest.mark.parametrize(
    "form, message",
    [
        ({"player_0": "Ann", "player_1": "Ann"}, "two players are called Ann"),
        ({"player_0": "Ann"}, "Type a name here: Least Score needs 2 players or more."),
        ({"player_0": "Ann", "player_1": "Bo", "threshold": "5000"}, "less than or equal to 1000"),
        (
            {"player_0": "Ann", "player_1": "Bo", "halve_on": "50, 75"},
            "option 'halve on' cannot be [50, 75]",
        ),
    ],
)
def test_a_bad_new_match_form_says_why_and_keeps_the_names(client, form, message):
    response = client.post(reverse("new_match", args=["least_score"]), form)
    page = response.content.decode()
    assert response.status_code == 200
    assert message in visible(page)
    assert 'value="Ann"' in page
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    "method, name, args, allowed",
    [
        ("post", "home", [], ["GET"]),
        ("put", "new_match", ["least_score"], ["GET", "POST"]),
        ("delete", "new_match", ["least_score"], ["GET", "POST"]),
    ],
)
def test_a_wrong_method_is_refused(client, method, name, args, allowed):
    assert refuses(client, method, reverse(name, args=args), allowed)
