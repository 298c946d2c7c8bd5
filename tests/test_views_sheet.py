"""The score sheet through the generic screens: new match with its options, a round saved,
refused and edited, preview, watch link, rematch with the series settlement, export and import."""

import re

import pytest
from django.urls import reverse

from games.models import Match, Round
from tests.html import visible

pytestmark = pytest.mark.django_db

PLAYERS = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen", "player_3": "Dee"}


def new_sheet(client, **options):
    response = client.post(reverse("new_match", args=["sheet"]), {**PLAYERS, **options})
    assert response.status_code == 302
    return Match.objects.latest("created")


def post_points(client, match, *points, url=None):
    form = {f"points-{seat}": str(p) for seat, p in enumerate(points)}
    return client.post(url or reverse("round_create", args=[match.public_id]), form)


def page_of(client, match):
    return client.get(reverse("match", args=[match.public_id])).content.decode()


def test_home_lists_the_sheet_after_the_five_games(client):
    page = visible(client.get(reverse("home")).content.decode())
    assert page.index("Sanming") < page.index("Score sheet (any game)")
    assert "2–20 players" in page


def test_the_new_match_form_draws_every_option_and_keeps_the_title_as_typed(client):
    page = client.get(reverse("new_match", args=["sheet"])).content.decode()
    for name in ("title", "win", "target", "hands", "zero_sum", "stake"):
        assert f'name="{name}"' in page
    match = new_sheet(client, title="  Hearts  ", win='"low"', target="100")
    assert match.options == {"title": "Hearts", "win": "low", "target": 100, "zero_sum": False}


@pytest.mark.parametrize(
    "options, field, message",
    [
        (
            {"stake": "1"},
            "stake",
            "Used only with “Every round adds up to 0” ticked: tick it, or put this back to its "
            "default.",
        ),
        ({"title": "x" * 41}, "title", "at most 40 characters"),
        ({"target": "0"}, "target", "greater than or equal to 1"),
    ],
)
def test_a_bad_option_is_refused_next_to_its_field(client, options, field, message):
    response = client.post(reverse("new_match", args=["sheet"]), {**PLAYERS, **options})
    page = response.content.decode()
    assert response.status_code == 200 and not Match.objects.exists()
    row = re.search(
        rf'<div class="field"[^>]*>(?:(?!<div class="field").)*name="{field}".*?</div>', page, re.S
    )
    assert message in visible(row[0])


def test_a_round_with_a_negative_typed_is_saved_and_totalled(client):
    match = new_sheet(client, zero_sum="on", stake="0.5")
    response = post_points(client, match, 24, -8, "-8", " -8 ")
    assert response.status_code == 302
    assert Round.objects.get().entry == {"points": [24, -8, -8, -8]}
    page = visible(page_of(client, match))
    assert "This round: Ann +24, Bo -8, Chen -8, Dee -8" in page
    assert "Round 2 next; close the match to stop" in page


@pytest.mark.parametrize(
    "points, message",
    [
        ((24, -8, -8, ""), "Dee's points are missing"),
        (
            (24, "-8x", -8, -8),
            "Bo's points must be a whole number from -1000000 to 1000000",
        ),
        ((24, -8, -8, -7), "the points add up to 1, not 0"),
    ],
)
def test_a_refused_round_names_the_player_and_keeps_what_was_typed(client, points, message):
    match = new_sheet(client, zero_sum="on")
    response = post_points(client, match, *points)
    page = response.content.decode()
    assert response.status_code == 422
    assert message in visible(page)
    for seat, typed in enumerate(points):
        assert re.search(rf'name="points-{seat}"[^>]*value="{str(typed).strip()}"', page, re.S)
    assert not Round.objects.exists()


def test_the_preview_says_what_the_round_would_score(client):
    match = new_sheet(client)
    url = reverse("round_preview", args=[match.public_id])
    page = visible(
        client.post(
            url, {"points-0": "3", "points-1": "0", "points-2": "-2", "points-3": "5"}
        ).content.decode()
    )
    assert "This round: Ann +3, Chen -2, Dee +5" in page
    assert not Round.objects.exists()


def test_an_edit_recomputes_the_end_of_a_hearts_evening(client):
    match = new_sheet(client, title="Hearts", win='"low"', target="50")
    for points in ((26, 0, 0, 0), (10, 8, 4, 4), (14, 2, 6, 4)):
        post_points(client, match, *points)
    page = visible(page_of(client, match))
    assert "Dee won" in page and "Hearts" in page
    url = reverse("round_edit", args=[match.public_id, Round.objects.order_by("number")[0].number])
    assert 'value="26"' in client.get(url).content.decode()
    assert post_points(client, match, 0, 26, 0, 0, url=url).status_code == 302
    page = visible(page_of(client, match))
    assert "Dee won" not in page
    assert "Highest total 36 (Bo): 14 short of 50." in page
    assert "Hearts: the lowest total wins" in page


def test_a_zero_sum_rematch_adds_both_sheets_payouts_to_the_series(client):
    match = new_sheet(client, zero_sum="on", stake="0.5", hands="1")
    post_points(client, match, 24, -8, -8, -8)
    response = client.post(reverse("rematch", args=[match.public_id]))
    rematch = Match.objects.get(public_id=response.url.split("/")[2])
    assert rematch.options == match.options
    post_points(client, rematch, -16, 48, -16, -16)
    page = visible(page_of(client, rematch))
    # amounts 12 -4 -4 -4, then -8 24 -8 -8: together 4 20 -12 -12
    series = page[page.index("Settlement of 2 finished matches") :]
    for payment in ("Chen pays Bo 12", "Dee pays Bo 8", "Dee pays Ann 4"):
        assert payment in series


def test_the_watch_link_and_export_import_carry_the_sheet(client):
    match = new_sheet(client, title="Rummy", target="500")
    post_points(client, match, 120, 45, -10, 0)
    post_points(client, match, -20, 90, 85, 0)
    watched = visible(client.get(reverse("watch", args=[match.watch_id])).content.decode())
    assert "Rummy: the highest total wins" in watched and "Save round" not in watched
    exported = client.get(reverse("export_json", args=[match.public_id])).content.decode()
    response = client.post(reverse("import_match"), {"document": exported})
    assert response.status_code == 302
    copy = Match.objects.latest("created")
    assert copy.public_id != match.public_id and copy.options == match.options
    assert [r.entry for r in copy.live_rounds()] == [r.entry for r in match.live_rounds()]


def test_the_field_of_the_player_a_refusal_names_is_marked(client):
    match = new_sheet(client)
    page = post_points(client, match, 5, "", 3, 1).content.decode()
    assert "Bo's points are missing" in visible(page)
    marked = re.findall(r'name="points-(\d)"[^>]*aria-invalid="true"', page, re.S)
    assert marked == ["1"]
