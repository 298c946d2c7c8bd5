"""The match page: drawn per version, its latest rounds, unknown links."""

import json
import re
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse

from games.models import Match, Round
from tests.views import new_least_score, nothing_kept, post_round, refuses

MATCHES = sorted((Path(__file__).parent / "examples").glob("*.match.json"))

pytestmark = pytest.mark.django_db


def test_unknown_match_and_round_are_404(client):
    assert client.get("/m/not-a-match/").status_code == 404
    match = new_least_score(client)
    assert client.get(reverse("round_edit", args=[match.public_id, 9])).status_code == 404


def test_the_match_page_needs_the_same_queries_for_2_and_20_rounds(
    client, django_assert_max_num_queries, django_assert_num_queries
):
    match = new_least_score(client, threshold="1000")
    for _ in range(2):
        post_round(client, match, 0, 1, 15, 20)
    # Drawing the page: its version, the match, its rounds (and the series, when finished).
    with django_assert_max_num_queries(3):
        client.get(reverse("match", args=[match.public_id]))
    for _ in range(18):
        post_round(client, match, 0, 1, 15, 20)
    with django_assert_max_num_queries(3):
        client.get(reverse("match", args=[match.public_id]))
    # Drawn once for this version: a phone opening it again costs one query.
    with django_assert_num_queries(1):
        client.get(reverse("match", args=[match.public_id]))


def test_a_save_from_a_phone_needs_the_same_queries_for_2_and_20_rounds(
    client, django_assert_num_queries
):
    """A save from the match page's form (htmx, naming its version): the match, the write
    (the match and its series read under the write lock, the round and its history, the
    versions moved on, its stored result) in one transaction; the answer is drawn from the
    board the round was played on. PostgreSQL takes the locks in a savepoint, its table's
    first (games/models.py Match.lock): three queries more, whatever the rounds."""
    locking = 0 if connection.vendor == "sqlite" else 3
    match = new_least_score(client, threshold="1000")
    for rounds in (2, 20):
        while Round.objects.count() < rounds - 1:
            post_round(client, match, 0, 1, 15, 20)
        match.refresh_from_db()
        client.get(reverse("match", args=[match.public_id]))  # the phone's page: its board
        with django_assert_num_queries(8 + locking):  # 6, the savepoint of the test's transaction
            saved = post_round(
                client, match, 0, 1, 15, 20, version=match.version, HTTP_HX_REQUEST="true"
            )
        assert saved.status_code == 200 and Round.objects.count() == rounds


def test_a_long_match_shows_its_latest_rounds_and_every_one_on_request(client):
    match = new_least_score(client, threshold="1000")
    Round.objects.bulk_create(
        Round(match=match, number=k + 1, entry={"declarer": 0, "hands": [1, 2, 2]})
        for k in range(45)
    )
    Match.objects.filter(pk=match.pk).update(version=45)
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert page.count('title="Edit this round"') == 30
    assert "15 earlier rounds are not shown." in page
    assert ">45<" in page.split("<tfoot>")[1]  # the totals still count every round
    every = client.get(reverse("match", args=[match.public_id]), {"rounds": "all"}).content.decode()
    assert every.count('title="Edit this round"') == 45


def entry_form(page):
    """The empty entry form of a match page, without what differs per phone or version."""
    form = re.search(r'<form id="entry".*?</form>', page, re.S)
    if form is None:
        return None
    per_phone = r'(name="(?:csrfmiddlewaretoken|entry_key|version)" value=)"[^"]*"'
    return re.sub(per_phone, r"\1", form[0])


@pytest.mark.parametrize("path", MATCHES, ids=lambda path: path.stem)
def test_the_empty_form_kept_from_an_earlier_round_is_the_one_drawn_afresh(client, path):
    """The server keeps one drawing of an empty form per thing it is drawn from: after every
    round of every worked example, the page drawn with what it kept from the earlier rounds has
    the form drawn with nothing kept (who is out in Least Score, the dealer in Smear...)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    if document.get("joined") or document.get("left"):
        return  # tests/test_views_players.py plays these at the table
    match = Match.objects.create(
        game=document["game"], players=document["players"], options=document.get("options") or {}
    )
    url = reverse("match", args=[match.public_id])
    client.get(url)
    for number, entry in enumerate(document["rounds"], 1):
        match.add_round(entry, f"key-{number}")
        kept = entry_form(client.get(url).content.decode())
        nothing_kept()
        assert kept == entry_form(client.get(url).content.decode()), f"after round {number}"


@pytest.mark.parametrize(
    "method, name, token, allowed",
    [
        ("post", "match", "public_id", ["GET"]),
        ("post", "watch", "watch_id", ["GET"]),
        ("post", "live", "watch_id", ["GET"]),
        ("post", "score_live", "public_id", ["GET"]),
        ("post", "share", "public_id", ["GET"]),
    ],
)
def test_a_wrong_method_is_refused(client, method, name, token, allowed):
    match = new_least_score(client)
    assert refuses(client, method, reverse(name, args=[getattr(match, token)]), allowed)


def test_healthz_is_read_only(client):
    assert refuses(client, "post", reverse("healthz"), ["GET"])


def broken_match():
    """A match whose second stored round the engine refuses (a hand total of 90: an old bug or
    a hand-edited database), with a third after it."""
    match = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    for number, hands in enumerate(([7, 15, 20], [3, 90, 20], [4, 9, 12]), 1):
        Round.objects.create(match=match, number=number, entry={"declarer": 0, "hands": hands})
    return match


def test_a_match_holding_a_round_the_engine_refuses_still_opens_everywhere(client):
    match = broken_match()
    for url in (
        reverse("match", args=[match.public_id]),
        reverse("watch", args=[match.watch_id]),
        reverse("live", args=[match.watch_id]),
        reverse("score_live", args=[match.public_id]),
        reverse("history", args=[match.public_id]),
        reverse("export_csv", args=[match.public_id]),
        reverse("export_json", args=[match.public_id]),
        reverse("round_edit", args=[match.public_id, 2]),
        reverse("round_edit", args=[match.public_id, 3]),
        reverse("matches"),
    ):
        assert client.get(url).status_code == 200, url
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert "Round 2 cannot be scored:" in page and "hand total must be" in page
    assert f'href="/m/{match.public_id}/rounds/2/">Change or delete round 2' in page
    assert 'id="entry"' not in page  # no round can follow it until it is mended


def test_the_refused_round_can_be_changed_and_the_match_goes_on(client):
    match = broken_match()
    mended = {"declarer": "0", "hand-0": "3", "hand-1": "9", "hand-2": "20"}
    response = client.post(reverse("round_edit", args=[match.public_id, 2]), mended)
    assert response.status_code == 302
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert "cannot be scored" not in page and 'id="entry"' in page
    assert post_round(client, match, 1, 5, 2, 9).status_code == 302


def test_the_refused_round_can_be_deleted(client):
    match = broken_match()
    response = client.post(reverse("round_delete", args=[match.public_id, 2]))
    assert response.status_code == 302
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert "cannot be scored" not in page and 'id="entry"' in page
