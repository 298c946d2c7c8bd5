"""What a worker keeps in memory has a ceiling that strangers cannot raise: made-up paths are not
kept by the live check's memo, a board weighs its deleted rounds too, and a match stores at most
MAX_ROUNDS rounds, deleted ones included."""

import cachetools
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import live, memo, models
from games.models import Match, Round
from tests.html import visible

pytestmark = pytest.mark.django_db

HAND = {"declarer": "0", "hand-0": "1", "hand-1": "15", "hand-2": "20"}


def least_score():
    return Match.objects.create(
        game="least_score", players=["Ann", "Bo", "Chen"], options={"threshold": 1000}
    )


def test_a_made_up_path_longer_than_any_live_link_is_not_kept():
    live.live_link.cache_clear()
    client = Client()
    for k in range(20):
        assert client.get(f"/live/{k}{'x' * 60_000}/?v=1").status_code == 404
    assert live.live_link.cache_info().currsize == 0
    match = least_score()
    checked = client.get(reverse("score_live", args=[match.public_id]) + f"?v={match.version}")
    assert checked.status_code == 204
    assert live.live_link.cache_info().currsize == 1  # a real live check still is


def test_boards_are_weighed_with_their_deleted_rounds_and_bounded(monkeypatch):
    monkeypatch.setattr(memo, "BOARDS", cachetools.LRUCache(300, getsizeof=memo.rounds_held))
    client = Client()
    for _ in range(5):
        match = least_score()
        Round.objects.bulk_create(
            Round(match=match, number=n, entry={"declarer": 0, "hands": [1, 15, 20]})
            for n in range(1, 102)
        )
        match.rounds.exclude(number=101).update(deleted=timezone.now())
        assert client.get(reverse("match", args=[match.public_id])).status_code == 200
        assert memo.BOARDS[match.public_id][1]["numbers"] == [101]
    assert len(memo.BOARDS) == 2  # 102 each: one live round, 100 deleted, and the board
    assert memo.BOARDS.currsize == 2 * 102


def test_a_save_past_the_rounds_a_match_keeps_deleted_included_is_refused_in_words(monkeypatch):
    monkeypatch.setattr(models, "MAX_ROUNDS", 5)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    match = least_score()
    url = reverse("round_create", args=[match.public_id])
    for number in range(1, 4):
        assert client.post(url, HAND).status_code == 302
        assert client.post(reverse("round_delete", args=[match.public_id, number])).status_code
    assert [client.post(url, HAND).status_code for _ in range(2)] == [302, 302]
    refused = client.post(url, HAND)
    assert refused.status_code == 422
    assert "keeps at most 5 rounds, deleted ones included: start a rematch" in visible(
        refused.content.decode()
    )
    assert match.rounds.count() == 5 and match.live_rounds().count() == 2
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es").post(url, HAND)
    assert "revancha" in visible(spanish.content.decode())
