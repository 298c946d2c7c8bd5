"""Rounds without a browser: entering, previewing, editing, deleting, closing; forms post
and redirect, bad input never saves."""

import json
import re

import pytest
from django.urls import reverse

from games import memo, screen
from games.models import Match, Round
from tests.html import visible
from tests.views import new_least_score, nothing_kept, post_round, refuses

pytestmark = pytest.mark.django_db


def test_a_round_posts_and_redirects_without_javascript(client):
    match = new_least_score(client)
    response = post_round(client, match, 0, 7, 15, 20)
    assert response.status_code == 302
    assert Round.objects.get().entry == {"declarer": 0, "hands": [7, 15, 20]}
    page = visible(client.get(response.url).content.decode())
    assert "Ann declared: the declaration stands" in page


def test_with_htmx_the_round_swaps_in_the_match_body(client):
    match = new_least_score(client)
    response = post_round(client, match, 0, 7, 15, 20, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<div id="match-body"')
    assert "Round 2" in page


@pytest.mark.parametrize(
    "hands, message, seat",
    [
        (["7", "abc", "20"], "Bo's hand total must be a whole number from 1 to 50", 1),
        (["7", "", "20"], "Bo's hand is missing", 1),
        (["7", "15", "99"], "Chen's hand total must be a whole number from 1 to 50", 2),
    ],
)
def test_a_bad_round_is_refused_with_the_typed_values_kept(client, hands, message, seat):
    match = new_least_score(client)
    response = post_round(client, match, 0, *hands)
    page = response.content.decode()
    assert response.status_code == 422
    assert message in visible(page)
    for typed in hands:
        assert f'value="{typed}"' in page
    # the player's hand is marked, and only that one
    marked = re.findall(r'<input id="hand-(\d)"[^>]*aria-invalid="true"', page)
    assert marked == [str(seat)]
    assert not Round.objects.exists()


def refused_because(response):
    """Why a save was refused, as the answer says it as data: its HX-Trigger header's
    saveRefused event, which a phone sending rounds kept offline reads (not the HTML)."""
    assert response.status_code == 422
    message = json.loads(response["HX-Trigger"])["saveRefused"]["message"]
    assert message in visible(response.content.decode())
    return message


def test_a_refused_restore_says_why_as_data_too(client):
    """The History page refusing a restore says why as a change refused does (a phone sends
    the restores it kept offline to the same URL)."""
    match = new_least_score(client, threshold="25")
    post_round(client, match, 0, 7, 15, 20)
    post_round(client, match, 1, 9, 5, 4)
    match.delete_round(1)
    post_round(client, match, 2, 14, 12, 3)
    response = client.post(reverse("round_restore", args=[match.public_id, 1]))
    assert refused_because(response) == (
        "This round cannot be restored: round 3: Bo is out and has no hand"
    )
    assert Round.objects.get(number=1).deleted is not None


def test_a_refused_save_says_why_as_data_too(client):
    match = new_least_score(client)
    assert refused_because(post_round(client, match, 0, 7, "", 20)) == "Bo's hand is missing"
    form = {"declarer": "0", "hand-0": "7", "hand-1": "15", "hand-2": "20", "entry_key": "k1"}
    url = reverse("round_create", args=[match.public_id])
    saved = client.post(url, form)
    assert saved.status_code == 302 and "HX-Trigger" not in saved
    assert refused_because(client.post(url, {**form, "hand-1": "16"})).startswith(
        "Round 1 was already saved from this form, with other values."
    )
    client.post(reverse("match_close", args=[match.public_id]))
    closed = post_round(client, match, 0, 7, 15, 20)
    assert refused_because(closed) == "The match is closed: reopen it to add a round."


def test_cards_picked_and_typed_for_a_hand_are_counted_and_kept_when_refused(client):
    match = new_least_score(client)
    url = reverse("round_create", args=[match.public_id])
    form = {
        "declarer": "2",
        "hand-0": "9",
        "hand-1": "12",
        "cards-2": ["AS", "3H"],
        "cardtext-2": "as",
    }
    page = client.post(url, form).content.decode()
    assert "Chen's hand holds A♠ twice" in visible(page)
    # The picked cards are ticked again, the repeated one is back in the text box.
    assert re.search(r'name="cards-2" value="AS"[^>]*checked', page)
    assert re.search(r'name="cards-2" value="3H"[^>]*checked', page)
    assert not re.search(r'name="cards-2" value="2H"[^>]*checked', page)
    assert re.search(r'name="cardtext-2"[^>]*value="as"', page)
    form["cardtext-2"] = "X9"
    page = client.post(url, form).content.decode()
    assert "in Chen's hand, X9 is not a card" in visible(page)
    assert re.search(r'name="cardtext-2"[^>]*value="X9"', page)
    form["cardtext-2"] = "A♦"
    assert client.post(url, form).status_code == 302
    assert Round.objects.get().entry["hands"][2] == ["AS", "3H", "A♦"]


def test_a_round_of_picked_cards_opens_for_editing_with_its_cards_ticked(client):
    match = new_least_score(client)
    form = {
        "declarer": "0",
        "cards-0": ["2D", "AC"],
        "cardtext-0": "AH",
        "hand-1": "9",
        "hand-2": "12",
    }
    assert client.post(reverse("round_create", args=[match.public_id]), form).status_code == 302
    page = client.get(reverse("round_edit", args=[match.public_id, 1])).content.decode()
    ticked = re.findall(r'name="cards-0" value="(\w+)"[^>]*checked', page)
    assert sorted(ticked) == ["2D", "AC", "AH"]
    assert "A♥ A♣ 2♦ = 4" in page
    assert not re.findall(r'name="cards-[12]" value="\w+"[^>]*checked', page)


def test_editing_a_round_recomputes_the_totals(client):
    match = new_least_score(client)
    post_round(client, match, 0, 7, 15, 20)
    post_round(client, match, 1, 9, 5, 4)
    first = Round.objects.get(number=1)
    url = reverse("round_edit", args=[match.public_id, first.number])
    assert (
        client.post(
            url, {"declarer": "0", "hand-0": "7", "hand-1": "10", "hand-2": "20"}
        ).status_code
        == 302
    )
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    # Round 1 now gives Bo 3 (not 8); round 2 his failed declaration 20 + 1.
    assert '<td class="">24</td>' in page or ">24<" in page


def test_scoreboard_rows_kept_from_earlier_versions_are_the_ones_drawn_afresh(client):
    """Each row is drawn once while its figures stay; an edit or a delete changes the rows
    after it, and they are drawn again (as with nothing kept), for the scorer and a watcher."""
    match = new_least_score(client, threshold="1000")
    pages = [reverse("match", args=[match.public_id]), reverse("watch", args=[match.watch_id])]

    def body(page):
        return client.get(page).content.decode().split("<tbody>")[1].split("</tbody>")[0]

    def rows():
        drawn = [body(page) for page in pages]
        nothing_kept()
        assert drawn == [body(page) for page in pages]
        return [re.findall(r'<small><bdi dir="ltr">(\d+)</bdi></small>', rows) for rows in drawn]

    for hands in ((7, 15, 20), (9, 5, 4), (14, 3, 3)):
        post_round(client, match, 0, *hands)
        rows()
    edited = {"declarer": "0", "hand-0": "7", "hand-1": "10", "hand-2": "20"}
    client.post(reverse("round_edit", args=[match.public_id, 1]), edited)
    client.post(reverse("round_delete", args=[match.public_id, 2]))
    scorer, watcher = rows()
    assert scorer == watcher == ["0", "3", "13", "31", "3", "13"]


def test_a_row_kept_for_one_match_is_never_drawn_in_another(client):
    """Two matches with the same rounds: each scoreboard's rows edit its own match's rounds."""
    first = new_least_score(client)
    second = Match.objects.create(game=first.game, players=first.players, options=first.options)
    for match in (first, second):
        post_round(client, match, 0, 7, 15, 20)
    for match in (first, second):
        page = client.get(reverse("match", args=[match.public_id])).content.decode()
        rows = page.split("<tbody>")[1].split("</tbody>")[0]
        assert re.findall(r'href="([^"]+)"', rows) == [
            reverse("round_edit", args=[match.public_id, 1])
        ]


def test_an_edit_that_breaks_a_later_round_is_refused(client):
    match = new_least_score(client, threshold="25")
    post_round(client, match, 0, 7, 15, 20)
    post_round(client, match, 1, 9, 5, 4)  # Bo fails: 8 + 21 = 29, out
    post_round(client, match, 2, 14, "", 3)
    second = Round.objects.get(number=2)
    url = reverse("round_edit", args=[match.public_id, second.number])
    edit = {"declarer": "1", "hand-0": "9", "hand-1": "3", "hand-2": "4"}  # Bo now stays in
    response = client.post(url, edit)
    assert response.status_code == 422
    assert "round 3: Bo's hand is missing" in visible(response.content.decode())
    assert Round.objects.get(number=2).entry["hands"] == [9, 5, 4]


def test_deleting_a_round_recomputes_and_refuses_when_later_rounds_break(client):
    match = new_least_score(client, threshold="25")
    post_round(client, match, 0, 7, 15, 20)
    post_round(client, match, 1, 9, 5, 4)
    post_round(client, match, 2, 14, "", 3)
    refused = client.post(reverse("round_delete", args=[match.public_id, 2]))
    assert refused.status_code == 422
    assert Round.objects.count() == 3
    assert client.post(reverse("round_delete", args=[match.public_id, 3])).status_code == 302
    assert list(Round.objects.filter(deleted=None).values_list("number", flat=True)) == [1, 2]


def test_a_refused_change_or_delete_says_why_as_data_too(client):
    """A phone sending the changes it kept offline reads why the server refused one."""
    match = new_least_score(client, threshold="25")
    post_round(client, match, 0, 7, 15, 20)
    post_round(client, match, 1, 9, 5, 4)
    post_round(client, match, 2, 14, "", 3)
    edit = {"declarer": "1", "hand-0": "9", "hand-1": "3", "hand-2": "4", "version": "3"}
    changed = client.post(reverse("round_edit", args=[match.public_id, 2]), edit)
    assert refused_because(changed) == "round 3: Bo's hand is missing"
    deleted = client.post(reverse("round_delete", args=[match.public_id, 2]), {"version": "3"})
    assert refused_because(deleted) == "This round cannot be deleted: round 2: Bo's hand is missing"
    moved = client.post(reverse("round_delete", args=[match.public_id, 3]), {"version": "2"})
    assert refused_because(moved).startswith("The match was just changed from another phone")
    assert "HX-Trigger" not in client.get(reverse("round_edit", args=[match.public_id, 2]))


def test_closing_by_hand_names_the_winner_and_hides_the_form(client):
    match = new_least_score(client)
    post_round(client, match, 0, 7, 15, 20)
    client.post(reverse("match_close", args=[match.public_id]))
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert "Ann won" in visible(page)
    assert 'id="entry"' not in page
    client.post(reverse("match_close", args=[match.public_id]), {"closed": "0"})
    assert 'id="entry"' in client.get(reverse("match", args=[match.public_id])).content.decode()


def test_a_round_after_the_end_is_refused(client):
    match = new_least_score(client, threshold="25", end='"first_out"')
    post_round(client, match, 1, 9, 5, 4)  # Bo fails: 21 ... not out yet
    post_round(client, match, 1, 9, 5, 4)  # Bo 42: out, the match ends
    response = post_round(client, match, 0, 1, "", 3)
    assert response.status_code == 422
    assert "the match is already finished" in visible(response.content.decode())


def test_a_closed_match_takes_no_round_until_it_is_reopened(client):
    match = new_least_score(client)
    client.post(reverse("match_close", args=[match.public_id]))
    response = post_round(client, match, 0, 7, 15, 20)
    assert response.status_code == 422
    assert "The match is closed: reopen it to add a round." in response.content.decode()
    assert not Round.objects.exists()


def test_the_preview_scores_the_typed_round_and_saves_nothing(client):
    match = new_least_score(client)
    url = reverse("round_preview", args=[match.public_id])
    stands = client.post(url, {"declarer": "0", "hand-0": "7", "hand-1": "15", "hand-2": "20"})
    assert "Ann declared: the declaration stands" in visible(stands.content.decode())
    assert "Bo +8" in visible(stands.content.decode())
    fails = client.post(url, {"declarer": "1", "hand-0": "3", "hand-1": "5", "hand-2": "9"})
    assert "Bo declared: the declaration fails" in visible(fails.content.decode())
    typo = client.post(url, {"declarer": "0", "hand-0": "7", "hand-1": "x", "hand-2": "20"})
    assert "Bo's hand total must be a whole number from 1 to 50" in visible(typo.content.decode())
    assert not Round.objects.exists()


def test_a_kept_board_stays_as_drawn_through_previews_and_saves(client):
    """The server keeps the match's board as it is, not a copy: a preview and a save play
    their round on a fork of its table. The kept board stays the one drawn from the stored
    rounds of the match's version, through previews, saves, and a form sent again (refused,
    after its round was played on a fork) (round 2 puts Bo out)."""
    match = new_least_score(client, threshold="25")

    def as_drawn(board):
        """Everything in a board, down to the table's and each phrase's attributes."""
        return json.dumps(
            board, sort_keys=True, default=lambda v: sorted(v) if isinstance(v, set) else vars(v)
        )

    def kept_board():
        """The kept board, checked against one drawn afresh from the stored rounds."""
        match.refresh_from_db()
        version, board = memo.BOARDS[match.public_id]
        assert version == match.version
        numbers = [r.number for r in match.live_rounds()]
        assert as_drawn(board) == as_drawn(
            screen.board(match.document(), numbers, max(numbers, default=0))
        )
        return board

    create = reverse("round_create", args=[match.public_id])
    for declarer, *hands in ((0, 7, 15, 20), (1, 9, 5, 4), (2, 14, "", 3)):
        form = {"declarer": str(declarer), "version": str(match.version)}
        form.update({f"hand-{seat}": str(hand) for seat, hand in enumerate(hands)})
        client.get(reverse("match", args=[match.public_id]))
        client.post(reverse("round_preview", args=[match.public_id]), form)
        kept_board()
        client.post(create, form, HTTP_HX_REQUEST="true")
        saved_version = match.version + 1
        kept_board()
        client.post(create, form, HTTP_HX_REQUEST="true")  # the same form again: refused
        kept_board()
        assert match.version == saved_version
    assert kept_board()["table"].out == {1: 2}


@pytest.mark.parametrize("change", ["a round saved", "a round deleted", "the match closed"])
def test_a_board_is_kept_as_the_version_its_rounds_were_read_at(client, change):
    """A phone's request read the match, then another phone changed it before the rounds were
    read: the board is drawn and kept as the new version, never as the one before it."""
    match = new_least_score(client, threshold="1000")
    post_round(client, match, 0, 7, 15, 20)
    read_before = Match.objects.get()
    if change == "a round saved":
        post_round(client, match, 1, 9, 5, 4)
    elif change == "a round deleted":
        client.post(reverse("round_delete", args=[match.public_id, 1]))
    else:
        client.post(reverse("match_close", args=[match.public_id]), {"closed": "1"})
    memo.BOARDS.pop(match.public_id, None)  # a worker that has not drawn this version
    drawn = memo.board(read_before)
    now = Match.objects.get()
    assert (read_before.version, read_before.closed) == (now.version, now.closed)
    assert memo.BOARDS[match.public_id][0] == now.version
    assert [row["number"] for row in drawn["rows"]] == [r.number for r in now.live_rounds()]
    assert drawn["result"]["finished"] == now.closed


@pytest.mark.parametrize(
    "method, name, args, allowed",
    [
        ("get", "round_create", [], ["POST"]),
        ("get", "round_preview", [], ["POST"]),
        ("put", "round_edit", [1], ["GET", "POST"]),
        ("get", "round_delete", [1], ["POST"]),
        ("get", "round_restore", [1], ["POST"]),
        ("get", "match_close", [], ["POST"]),
        ("post", "history", [], ["GET"]),
    ],
)
def test_a_wrong_method_is_refused(client, method, name, args, allowed):
    match = new_least_score(client)
    post_round(client, match, 0, 7, 15, 20)
    assert refuses(client, method, reverse(name, args=[match.public_id, *args]), allowed)
    assert Round.objects.count() == 1


def test_a_board_kept_is_never_replaced_by_an_older_versions(client):
    """A request that read the match before another phone's save draws the older version's
    board; it does not push out the newer one already kept."""
    match = new_least_score(client)
    newer, older, latest = (
        {"rows": [seen], "deleted": []} for seen in ("newer", "older", "latest")
    )
    memo.keep(match.public_id, 5, newer)
    memo.keep(match.public_id, 4, older)
    assert memo.BOARDS[match.public_id] == (5, newer)
    memo.keep(match.public_id, 6, latest)
    assert memo.BOARDS[match.public_id] == (6, latest)


def test_the_run_fast_form_follows_the_deal_and_asks_the_bombs_played_when_the_others_pay(client):
    form = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen", "deal": "16", "bomb": '"pay"'}
    assert client.post(reverse("new_match", args=["sanming"]), form).status_code == 302
    match = Match.objects.get()
    url = reverse("match", args=[match.public_id])
    page = client.get(url).content.decode()
    assert re.findall(r'name="cards_left-1" value="(\d+)"', page) == [str(n) for n in range(1, 17)]
    assert "bombed-" not in page
    assert re.findall(r'name="bombs-(\d)"', page) == ["0", "1", "2"]
    entry = {"winner": "0", "cards_left-1": "16", "cards_left-2": "3", "bombs-0": "1"}
    response = client.post(reverse("round_create", args=[match.public_id]), entry)
    assert response.status_code == 302
    assert Round.objects.get().entry == {
        "winner": 0,
        "cards_left": [None, 16, 3],
        "bombs": [1, 0, 0],
    }
    page = visible(client.get(url).content.decode())
    assert "Bo: 16 cards, never played ×2 = 32" in page
    assert "Ann's bomb: Bo and Chen pay 10 each" in page


def test_the_plain_run_fast_form_offers_17_cards_and_times_bombed(client):
    form = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen"}
    assert client.post(reverse("new_match", args=["sanming"]), form).status_code == 302
    page = client.get(reverse("match", args=[Match.objects.get().public_id])).content.decode()
    assert re.findall(r'name="cards_left-1" value="(\d+)"', page)[-1] == "17"
    assert re.findall(r'name="bombed-(\d)"', page) == ["0", "1", "2"]
    assert "bombs-" not in page


def test_a_finished_run_fast_match_says_how_losers_paying_the_winner_settles(client):
    form = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen", "settle": '"winner"'}
    form |= {"bomb": '"pay"', "target": "10"}
    assert client.post(reverse("new_match", args=["sanming"]), form).status_code == 302
    match = Match.objects.get()
    entry = {"winner": "0", "cards_left-1": "1", "cards_left-2": "12", "bombs-2": "1"}
    assert client.post(reverse("round_create", args=[match.public_id]), entry).status_code == 302
    page = visible(client.get(reverse("match", args=[match.public_id])).content.decode())
    assert "In every hand the losers paid the winner their points: there is no kid rule." in page
    assert "Each player's bomb payments are added to their result." in page
    assert "kid: zeroed" not in page and "so there is no kid" not in page
