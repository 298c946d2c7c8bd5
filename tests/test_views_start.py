"""Home and starting a match: the form, its messages, what is stored."""

import json

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
            "option 'Totals halved when landing exactly on' cannot be [50, 75]",
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


# A score link as a phone makes it (static/offline/start.js): 18 random bytes in URL-safe base64.
PHONE_LINK = "Q2xhc3NpY2FsLXNjb3Jlcy0x"
STARTED = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen", "threshold": "100"}


def start_offline(client, public_id=PHONE_LINK, **form):
    return client.post(
        reverse("new_match", args=["least_score"]), {**STARTED, "public_id": public_id, **form}
    )


def test_a_match_started_on_a_phone_takes_the_score_link_it_made(client):
    response = start_offline(client)
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("match", args=[PHONE_LINK])
    assert match.public_id == PHONE_LINK
    assert len(match.watch_id) == 24 and match.watch_id != PHONE_LINK
    assert (match.players, match.options) == (["Ann", "Bo", "Chen"], {"threshold": 100})
    assert client.get(reverse("watch", args=[match.watch_id])).status_code == 200


@pytest.mark.parametrize(
    "public_id", ["short", PHONE_LINK + "x", PHONE_LINK[:-1] + "=", PHONE_LINK[:-1] + "/"]
)
def test_a_malformed_score_link_is_refused_at_its_field(client, public_id):
    response = start_offline(client, public_id)
    assert response.status_code == 422
    message = "A score link made on a phone is 24 letters, digits, - or _."
    assert message in visible(response.content.decode())
    assert message in response["HX-Trigger"]
    assert not Match.objects.exists()


def test_a_score_link_another_match_has_is_refused(client):
    start_offline(client)
    response = start_offline(client, player_2="Dee")
    assert response.status_code == 409
    message = "Another match has this score link already."
    assert message in visible(response.content.decode())
    assert json.loads(response["HX-Trigger"]) == {"startRefused": {"message": message}}
    assert Match.objects.get().players == ["Ann", "Bo", "Chen"]


def test_a_watch_link_is_never_taken_as_a_score_link(client):
    watched = Match.objects.create(game="least_score", players=["Ann", "Bo"])
    watched.watch_id = PHONE_LINK
    watched.save()
    assert start_offline(client).status_code == 409
    assert Match.objects.count() == 1


def test_the_same_start_sent_again_is_answered_with_the_match_it_made(client):
    """The phone's first answer was lost: the same link, game, players and options again (the
    match's rounds go by their entry keys, so they may have landed meanwhile)."""
    start_offline(client)
    match = Match.objects.get()
    match.add_round({"declarer": 0, "hands": [7, 15, 20]}, "first")
    response = start_offline(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("match", args=[PHONE_LINK])
    assert Match.objects.count() == 1 and match.rounds.count() == 1


def test_an_offline_start_the_rules_refuse_says_why_as_data(client):
    response = start_offline(client, player_1="Ann")
    assert response.status_code == 422
    assert (
        "two players are called Ann"
        in json.loads(response["HX-Trigger"])["startRefused"]["message"]
    )
    assert not Match.objects.exists()
