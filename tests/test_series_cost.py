"""A series of rematches costs the same however long it grows: a save, a page and a rematch
make as many queries at the 30th match as at the 3rd."""

from importlib import import_module

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import memo
from games.models import Match

pytestmark = pytest.mark.django_db

HAND = {"declarer": "0", "hand-0": "1", "hand-1": "15", "hand-2": "20"}


def chain(length):
    """A series of length matches of Least Score (rematch after rematch); its last match."""
    match = Match.objects.create(
        game="least_score", players=["Ann", "Bo", "Chen"], options={"threshold": 1000}
    )
    for _ in range(length - 1):
        match = match.rematch()
    match.refresh_from_db()  # its version moved on with the series' when it was made
    return match


def queries(action):
    """The status of action()'s answer and how many queries it made."""
    with CaptureQueriesContext(connection) as captured:
        status = action().status_code
    return status, len(captured)


def costs(length):
    """The queries of a save into the series' last match, of its page, and of its rematch."""
    last, client = chain(length), Client()
    memo.forget()
    url = reverse("round_create", args=[last.public_id])
    saved = queries(lambda: client.post(url, {**HAND, "version": str(last.version)}))
    memo.forget()
    page = queries(lambda: client.get(reverse("match", args=[last.public_id])))
    rematch = queries(lambda: client.post(reverse("rematch", args=[last.public_id])))
    return saved, page, rematch


def test_a_save_a_page_and_a_rematch_cost_the_same_at_the_3rd_and_the_30th_match():
    costs(3)  # the first in a test process fills what every process keeps (counted once)
    third = costs(3)
    assert [status for status, _count in third] == [302, 200, 302]
    assert costs(30) == third


def test_the_series_is_every_match_of_the_chain_in_play_order_from_any_of_them():
    first = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    second = first.rematch()
    third = second.rematch()
    for match in (first, second, third):
        assert match.series() == [first, second, third]
    assert Match.objects.create(game="least_score", players=["Ann", "Bo"]).series() != [first]


def test_a_save_in_one_match_of_a_series_moves_on_every_version_of_it():
    """A page shows its series: a change in any of its matches draws it anew."""
    first = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    second = first.rematch()
    alone = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    before = {m.pk: m.version for m in Match.objects.all()}
    first.add_round({"declarer": 0, "hands": [1, 15, 20]})
    after = {m.pk: m.version for m in Match.objects.all()}
    assert after[first.pk] == before[first.pk] + 1 and after[second.pk] == before[second.pk] + 1
    assert after[alone.pk] == before[alone.pk]


def test_the_migration_finds_the_first_match_of_series_stored_before_it():
    first = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    second = first.rematch()
    third = second.rematch()
    other = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"]).rematch()
    Match.objects.update(series_first=None)
    import_module("games.migrations.0006_series_first").fill_series_first(apps, None)
    third.refresh_from_db()
    other.refresh_from_db()
    assert third.series_first == first and other.series_first == other.rematch_of
    assert third.series() == [first, second, third]
