"""Undo after a save: the saving phone alone is offered it; one tap deletes that round (History can
bring it back); a phone that missed another's save meanwhile is refused."""

import pytest
from django.urls import reverse

from games.models import Round
from tests.html import visible
from tests.views import new_least_score, post_round

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def undo_url(match, number):
    return reverse("round_delete", args=[match.public_id, number])


def test_the_saving_phone_alone_is_offered_undo(client):
    match = new_least_score(client)
    post_round(client, match, 0, 7, 15, 20, **HTMX)
    page = post_round(client, match, 1, 9, 4, 30, **HTMX).content.decode()
    assert "Round 2 is saved. Undo" in " ".join(visible(page).split())
    assert f'action="{undo_url(match, 2)}"' in page
    match.refresh_from_db()
    live = client.get(reverse("score_live", args=[match.public_id]), {"v": 0}, **HTMX)
    watched = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert "Undo" not in live.content.decode()
    assert "Undo" not in visible(watched)


def test_undo_deletes_the_round_just_saved_and_history_keeps_it(client):
    match = new_least_score(client)
    post_round(client, match, 0, 7, 15, 20, **HTMX)
    match.refresh_from_db()
    answer = client.post(undo_url(match, 1), {"version": match.version}, **HTMX)
    assert answer.status_code == 200
    assert answer.content.decode().lstrip().startswith('<div id="match-body"')
    # said back in its turn, its own Undo bringing the round back
    assert "Round 1 deleted. Undo" in " ".join(visible(answer.content.decode()).split())
    assert Round.objects.get().deleted is not None
    assert not match.live_rounds().exists()
    history = client.get(reverse("history", args=[match.public_id])).content.decode()
    assert "Restore" in visible(history)


def test_without_javascript_undo_posts_and_redirects(client):
    match = new_least_score(client)
    post_round(client, match, 0, 7, 15, 20)
    match.refresh_from_db()
    answer = client.post(undo_url(match, 1), {"version": match.version})
    assert answer.status_code == 302
    assert not match.live_rounds().exists()


def test_undo_after_another_phone_saved_is_refused_and_deletes_nothing(client):
    match = new_least_score(client)
    post_round(client, match, 0, 7, 15, 20, **HTMX)
    match.refresh_from_db()
    seen = match.version
    post_round(client, match, 1, 9, 4, 30)  # another phone
    answer = client.post(undo_url(match, 1), {"version": seen}, **HTMX)
    assert answer.status_code == 422
    assert match.live_rounds().count() == 2
