"""Several phones on one match: watch links, live checks, races, retries and round history."""

import pytest
from django.urls import reverse

from games.models import Match, Round, RoundEvent
from tests.html import visible

pytestmark = pytest.mark.django_db


@pytest.fixture
def match():
    return Match.objects.create(
        game="least_score", players=["Ann", "Bo", "Chen"], options={"threshold": 25}
    )


def post_round(client, match, declarer, hands, **extra):
    form = {"declarer": str(declarer), "version": str(match.version), **extra}
    form.update({f"hand-{seat}": str(hand) for seat, hand in enumerate(hands)})
    response = client.post(reverse("round_create", args=[match.public_id]), form)
    match.refresh_from_db()
    return response


def totals_on_page(client, match):
    page = client.get(reverse("watch", args=[match.watch_id])).content.decode()
    return page.split("<tfoot>")[1].split("</tfoot>")[0]


def test_the_watch_link_shows_the_scoreboard_and_never_a_form(client, match):
    post_round(client, match, 0, [7, 15, 20])
    page = client.get(reverse("watch", args=[match.watch_id])).content.decode()
    assert "Ann declared: the declaration stands" in visible(page)
    assert "<form" not in page.split("<main>")[1]
    assert match.public_id not in page


@pytest.mark.parametrize(
    "name, args",
    [
        ("round_create", []),
        ("round_preview", []),
        ("match_close", []),
        ("round_edit", [1]),
        ("round_delete", [1]),
        ("round_restore", [1]),
    ],
)
def test_every_write_url_refuses_the_watch_token(client, match, name, args):
    post_round(client, match, 0, [7, 15, 20])
    response = client.post(
        reverse(name, args=[match.watch_id, *args]),
        {"declarer": "0", "hand-0": "1", "hand-1": "2", "hand-2": "3"},
    )
    assert response.status_code == 403
    assert Round.objects.count() == 1
    assert not Match.objects.get().closed


def test_score_pages_refuse_the_watch_token_too(client, match):
    for name in ["match", "share", "history"]:
        assert client.get(reverse(name, args=[match.watch_id])).status_code == 403


def test_the_live_check_is_empty_until_something_changes(client, match):
    url = reverse("live", args=[match.watch_id])
    assert client.get(url, {"v": match.version}).status_code == 204
    post_round(client, match, 0, [7, 15, 20])
    changed = client.get(url, {"v": match.version - 1})
    assert changed.status_code == 200
    assert "Ann declared" in visible(changed.content.decode())
    assert f"v={match.version}" in changed.content.decode()
    assert client.get(url, {"v": match.version}).status_code == 204


def test_the_live_check_is_one_query(client, match, django_assert_num_queries):
    with django_assert_num_queries(1):
        client.get(reverse("live", args=[match.watch_id]), {"v": match.version})


@pytest.mark.parametrize("shown", ["", "&rounds=all"])
def test_the_live_check_as_a_phone_asks_it_is_answered_before_the_rest_of_the_stack(
    client, match, shown
):
    """The query the page sends is answered early (before the language is chosen), with
    SecurityMiddleware's headers (an empty 204 draws nothing to frame or script); the same
    check asked otherwise still gets its 204 from the view."""
    for name, token in [("live", match.watch_id), ("score_live", match.public_id)]:
        url = reverse(name, args=[token])
        early = client.get(f"{url}?v={match.version}{shown}")
        assert early.status_code == 204 and "Content-Language" not in early
        assert early["X-Content-Type-Options"] == "nosniff" and not early.content
        late = client.get(f"{url}?{shown[1:]}&v={match.version}")
        assert late.status_code == 204 and "Content-Language" in late


def test_a_save_from_a_stale_form_is_refused_and_keeps_what_was_typed(client, match):
    stale_version = match.version
    post_round(client, match, 0, [7, 15, 20])  # another phone saves round 1
    form = {
        "declarer": "1",
        "version": str(stale_version),
        "round": "1",
        "hand-0": "9",
        "hand-1": "5",
        "hand-2": "4",
    }
    response = client.post(reverse("round_create", args=[match.public_id]), form)
    page = response.content.decode()
    assert response.status_code == 422
    assert "Round 1 was just entered from another phone." in page
    assert 'value="9"' in page and 'value="4"' in page
    assert Round.objects.count() == 1
    # The form now carries the new version: saving again stores it as round 2.
    assert f'name="version" value="{Match.objects.get().version}"' in page


def test_a_retried_save_is_stored_once(client, match):
    first = post_round(client, match, 0, [7, 15, 20], entry_key="key-1")
    retry = client.post(
        reverse("round_create", args=[match.public_id]),
        {
            "declarer": "0",
            "hand-0": "7",
            "hand-1": "15",
            "hand-2": "20",
            "version": "0",
            "entry_key": "key-1",
        },
    )
    assert first.status_code == retry.status_code == 302
    assert Round.objects.count() == 1


@pytest.mark.parametrize("first_copy", ["stored", "stored, then deleted"])
def test_a_copy_of_a_save_that_read_the_match_before_its_twin_landed_shows_the_match_now(
    client, match, monkeypatch, first_copy
):
    """Two copies of one htmx save (a double tap, a resend) race: the second read the match
    before the first stored the round. It is answered as a retry with the scoreboard as it
    is now, and its form is for the round after, never the screen from before the save."""
    before = Match.objects.get()
    form = {"declarer": "0", "hand-0": "7", "hand-1": "15", "hand-2": "20", "version": "0"}
    post_round(client, match, 0, [7, 15, 20], entry_key="key-1")
    if first_copy == "stored, then deleted":
        client.post(reverse("round_delete", args=[match.public_id, 1]), {"version": "1"})
    monkeypatch.setattr("games.views.get_match", lambda public_id: before)
    url = reverse("round_create", args=[match.public_id])
    twin = client.post(url, {**form, "entry_key": "key-1"}, HTTP_HX_REQUEST="true")
    page = twin.content.decode()
    now = Match.objects.get()
    assert twin.status_code == 200 and 'class="error"' not in page
    assert f'name="version" value="{now.version}"' in page
    assert f"v={now.version}" in page
    totals = page.split("<tfoot>")[1].split("</tfoot>")[0]
    assert totals == totals_on_page(client, now)
    assert Round.objects.count() == 1


@pytest.mark.parametrize("then", ["its round ended the match", "the match was closed"])
def test_a_retried_save_is_told_saved_when_the_match_takes_no_more_rounds(client, match, then):
    """The first save landed but its answer was lost; the match then took no more rounds: the
    retry is told it was saved, not refused (nothing is stored twice)."""
    match.options = {"threshold": 25, "end": "first_out"}
    match.save()
    bo_out = then == "its round ended the match"
    form = {
        "declarer": "0",
        "hand-0": "1",
        "hand-1": "30" if bo_out else "3",
        "hand-2": "2",
        "version": "0",
        "entry_key": "key-1",
    }
    url = reverse("round_create", args=[match.public_id])
    assert client.post(url, form).status_code == 302
    if not bo_out:
        client.post(reverse("match_close", args=[match.public_id]), {"closed": "1"})
    retry = client.post(url, form, HTTP_HX_REQUEST="true")
    page = retry.content.decode()
    assert retry.status_code == 200
    assert 'class="error"' not in page
    assert ("Ann won" in visible(page)) if bo_out else ("Closed by hand" in visible(page))
    assert Round.objects.count() == 1


def test_history_records_entering_changing_deleting_and_restoring(client, match):
    post_round(client, match, 0, [7, 15, 20])
    post_round(client, match, 2, [10, 12, 3])
    before = totals_on_page(client, match)
    second = Round.objects.get(number=2)
    client.post(
        reverse("round_edit", args=[match.public_id, 2]),
        {
            "declarer": "2",
            "hand-0": "10",
            "hand-1": "12",
            "hand-2": "4",
            "version": str(match.version),
        },
    )
    match.refresh_from_db()
    client.post(reverse("round_delete", args=[match.public_id, 2]), {"version": str(match.version)})
    assert "+7" not in totals_on_page(client, match)
    history = client.get(reverse("history", args=[match.public_id])).content.decode()
    assert "Restore this round" in history
    client.post(reverse("round_restore", args=[match.public_id, 2]))
    actions = list(second.events.values_list("action", flat=True))
    assert actions == [
        RoundEvent.CREATED,
        RoundEvent.EDITED,
        RoundEvent.DELETED,
        RoundEvent.RESTORED,
    ]
    second.refresh_from_db()
    assert second.deleted is None
    # Round 2 now has Chen at 4: Ann +6, Bo +8, so the totals differ from before the edit...
    assert totals_on_page(client, match) != before
    # ...but deleting and restoring brought back exactly the totals of the edited round.
    assert ">6<" in totals_on_page(client, match) and ">16<" in totals_on_page(client, match)


def test_restoring_a_deleted_round_brings_back_the_same_totals(client, match):
    post_round(client, match, 0, [7, 15, 20])
    post_round(client, match, 2, [10, 12, 3])
    with_both = totals_on_page(client, match)
    client.post(reverse("round_delete", args=[match.public_id, 1]), {"version": str(match.version)})
    assert totals_on_page(client, match) != with_both
    client.post(reverse("round_restore", args=[match.public_id, 1]))
    assert totals_on_page(client, match) == with_both


def test_the_share_page_shows_both_links_as_qr_codes(client, match):
    page = client.get(reverse("share", args=[match.public_id])).content.decode()
    assert page.count("<svg") == 2
    assert f"/m/{match.public_id}/" in page
    assert f"/w/{match.watch_id}/" in page


def test_links_are_long_random_tokens(match):
    other = Match.objects.create(game="least_score", players=["A", "B"])
    for token in [match.public_id, match.watch_id, other.public_id, other.watch_id]:
        assert len(token) >= 24
    assert len({match.public_id, match.watch_id, other.public_id, other.watch_id}) == 4


def test_each_phone_gets_its_own_tokens_on_the_same_drawn_page(match):
    import re

    from django.test import Client

    phones = [Client(enforce_csrf_checks=True) for _ in range(2)]
    pages = [
        phone.get(reverse("match", args=[match.public_id])).content.decode() for phone in phones
    ]
    keys = [re.search(r'name="entry_key" value="([^"]+)"', page).group(1) for page in pages]
    tokens = [
        re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1) for page in pages
    ]
    assert keys[0] != keys[1] and tokens[0] != tokens[1]
    assert "slot" not in pages[0] and "slot" not in pages[1]
    for k, (phone, token) in enumerate(zip(phones, tokens)):
        form = {
            "csrfmiddlewaretoken": token,
            "declarer": "0",
            "hand-0": "1",
            "hand-1": "2",
            "hand-2": "3",
            "entry_key": keys[k],
        }
        assert phone.post(reverse("round_create", args=[match.public_id]), form).status_code == 302
    assert Round.objects.count() == 2


def test_a_corrected_retry_is_not_dropped_in_silence(client, match):
    """The first save landed but its answer was lost; the phone corrected a hand and saved."""
    url = reverse("round_create", args=[match.public_id])
    form = {
        "declarer": "0",
        "hand-0": "7",
        "hand-1": "15",
        "hand-2": "20",
        "entry_key": "lost-answer",
        "version": str(match.version),
    }
    assert client.post(url, form).status_code == 302
    corrected = {**form, "hand-1": "16"}
    assert client.post(url, form).status_code == 302  # the same entry again: simply saved
    asked = client.post(url, corrected)
    page = asked.content.decode()
    assert asked.status_code == 422
    assert "Round 1 was already saved from this form, with other values" in page
    assert 'value="16"' in page and 'name="change" value="1"' in page
    match.refresh_from_db()
    changed = client.post(url, {**corrected, "change": "1", "version": str(match.version)})
    assert changed.status_code == 302
    assert Round.objects.get().entry == {"declarer": 0, "hands": [7, 16, 20]}
    assert [e.action for e in RoundEvent.objects.all()] == ["created", "edited"]


def test_a_change_that_would_end_the_match_early_names_the_round_in_words(client, match):
    match.options = {"threshold": 25, "end": "first_out"}
    match.save()
    post_round(client, match, 0, [7, 15, 20])
    post_round(client, match, 1, [9, 5, 4])
    form = {
        "declarer": "0",
        "hand-0": "1",
        "hand-1": "30",
        "hand-2": "2",
        "version": str(match.version),
    }
    response = client.post(reverse("round_edit", args=[match.public_id, 1]), form)
    assert response.status_code == 422
    assert "this change would end the match before round 2" in response.content.decode()
    assert Round.objects.get(number=1).entry["hands"] == [7, 15, 20]


def test_the_round_page_names_the_game_and_asks_once_before_deleting(client, match):
    post_round(client, match, 0, [7, 15, 20])
    page = client.get(reverse("round_edit", args=[match.public_id, 1])).content.decode()
    assert '<span class="game-name"><bdi>Least Score</bdi></span>' in page
    assert "Change round 1" in page
    assert '<details class="confirm">' in page and "Yes, delete round 1" in page


def test_history_says_what_changed_and_numbers_rounds_as_the_scoreboard(client):
    match = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    for declarer, hands in [(0, [7, 15, 20]), (1, [9, 5, 4]), (2, [8, 6, 3])]:
        assert post_round(client, match, declarer, hands).status_code == 302
    client.post(reverse("round_delete", args=[match.public_id, 1]), {"version": match.version})
    match.refresh_from_db()
    form = {
        "declarer": "0",
        "hand-0": "3",
        "hand-1": "6",
        "hand-2": "4",
        "version": str(match.version),
    }
    edited = client.post(reverse("round_edit", args=[match.public_id, 2]), form)
    assert edited.status_code == 302, edited.context["error"]
    page = visible(client.get(reverse("history", args=[match.public_id])).content.decode())
    assert "Deleted round, before round 1" in page
    # Stored round 2 is the scoreboard's round 1 now that round 1 is deleted.
    first = page.split("Round 1")[1].split("Round 2")[0]
    assert "Who declared: Bo → Ann" in first
    assert "Ann, hand: 9 → 3" in first and "Bo, hand: 5 → 6" in first
    assert "Chen, hand" not in first  # unchanged
    assert "Round entry" not in page
