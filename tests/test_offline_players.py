"""Players who come and go on a phone with no network (static/offline/phone.py seats): the join
and leave forms drawn and checked there with the server's forms, checks and words, and the
match drawn with them, among the rounds entered there, as the server draws it once they are
all sent."""

import json
import re

import pytest

from games.models import Match
from tests.html import visible
from tests.players import played_at_the_table
from tests.test_examples import EXAMPLES, load
from tests.test_offline import CSRF, KEY, at_version, bundles, normal, on_the_phone, server_body
from tests.test_offline import state_of as server_state

__all__ = ["bundles"]  # the fixture, shared with tests/test_offline.py

pytestmark = pytest.mark.django_db


def sheet_before_eve(client):
    """The worked score sheet (players_sheet) as the server has it before Eve sits down: rounds
    1 and 2 of Ann, Bo and Chen; its offline state."""
    document = load(EXAMPLES / "players_sheet.match.json")
    match = Match.objects.create(
        game="sheet", players=["Ann", "Bo", "Chen"], options=document["options"]
    )
    for number, entry in enumerate(document["rounds"][:2], 1):
        match.add_round({"points": entry["points"][:3]}, f"k{number}")
    return document, server_state(client, match)


def asked(state, **more):
    return {"state": state, "csrf": CSRF, "entry_key": KEY, "language": "en", **more}


JOIN = [
    ["name", " Eve "],
    ["seat", "3"],
    ["late_start", "average"],
    ["version", "2"],
    ["entry_key", KEY],
]


def test_the_join_form_on_the_phone_says_the_figure_before_it_is_confirmed(client, bundles):
    _document, state = sheet_before_eve(client)
    drawn, confirming, joined, refused = on_the_phone(
        bundles,
        [
            ("seats", asked(state, kind="join")),
            ("seats", asked(state, kind="join", form=JOIN)),
            ("seats", asked(state, kind="join", form=[*JOIN, ["confirm", "1"]])),
            (
                "seats",
                asked(state, kind="join", form=[["name", "ann"], *JOIN[1:], ["confirm", "1"]]),
            ),
        ],
    )
    assert "At the average total: 7" in visible(drawn["html"])
    assert "data-offline-back" in drawn["html"]
    assert "Eve starts at 7, the average total." in visible(confirming["html"])
    assert "change" not in confirming
    assert joined["change"] == {"kind": "join", "name": "Eve", "seat": 3, "late_start": "average"}
    assert "Eve joined: plays from round 3, starting at 7." in visible(joined["said"])
    assert "Eve joined: plays from round 3, starting at 7." in visible(joined["html"])
    assert "change" not in refused
    assert "two players are called ann" in visible(refused["html"])


def test_a_join_and_a_leave_among_rounds_entered_on_the_phone_draw_as_the_server_draws_them(
    client, bundles
):
    """Eve joins after round 2 (at the average), rounds 3 and 4 are entered, Bo leaves after
    round 4, round 5 is entered: all on the phone; the screen is the server's once sent."""
    document, state = sheet_before_eve(client)
    join = {"kind": "join", "name": "Eve", "seat": 3, "late_start": "average", "after": 0}
    leave = {"kind": "leave", "name": "Bo", "after": 2}
    rounds = document["rounds"][2:]
    full = played_at_the_table({**document, "closed": False})
    state = {**state, "public_id": full.public_id}
    body, leaving = on_the_phone(
        bundles,
        [
            ("body", asked(state, pending=rounds, changes=[join, leave])),
            (
                "seats",
                asked(
                    state, kind="leave", pending=rounds[:2], changes=[join], form=[["name", "bo"]]
                ),
            ),
        ],
    )
    expected = at_version(server_body(full, "en"), state["version"])
    assert normal(body["html"]) == normal(expected)
    assert leaving["change"] == {"kind": "leave", "name": "Bo"}
    assert "Bo left after round 4, with 23." in visible(leaving["said"])


def test_a_leave_that_leaves_one_player_is_refused_on_the_phone_as_on_the_server(client, bundles):
    match = Match.objects.create(game="sheet", players=["Ann", "Bo"])
    match.add_round({"points": [1, 2]}, "k1")
    state = server_state(client, match)
    drawn, refused = on_the_phone(
        bundles,
        [
            ("seats", asked(state, kind="leave")),
            ("seats", asked(state, kind="leave", form=[["name", "Bo"]])),
        ],
    )
    assert re.search(r'name="name" value="Bo"', drawn["html"])
    assert "if Bo leaves, nobody is left to play with: close the match instead" in visible(
        refused["html"]
    )
    assert "change" not in refused


def test_the_phones_join_sent_to_the_server_joins_once(client, bundles):
    """What the phone keeps of a join is the server's join form, confirmed: posted (twice, a
    lost answer) it seats the player once."""
    _document, state = sheet_before_eve(client)
    match = Match.objects.get()
    form = {name: value for name, value in JOIN} | {"confirm": "1", "entry_key": "phone-key"}
    url = f"/m/{match.public_id}/join/"
    assert client.post(url, {**form, "version": str(state["version"])}).status_code == 302
    assert client.post(url, {**form, "version": str(state["version"] + 1)}).status_code == 302
    match.refresh_from_db()
    assert match.players == ["Ann", "Bo", "Chen", "Eve"]
    assert json.loads(json.dumps(match.joined)) == {"Eve": 3}
