"""The match page: drawn per version, its latest rounds, unknown links."""

import pytest
from django.urls import reverse

from games.models import Match, Round
from tests.views import new_least_score, post_round, refuses

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
