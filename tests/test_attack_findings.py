"""What an attack found answering 500, each found request replayed: every answer is now a
refusal in words (4xx), never a server error."""

import json
import threading
import urllib.error
import urllib.request

import pytest
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart

from games.models import Match
from tests import test_rules_gongzhu as gongzhu
from tests import test_rules_least_score as least_score
from tests import test_rules_sanming as sanming
from tests import test_rules_sheet as sheet
from tests import test_rules_six_nimmt as six_nimmt
from tests import test_rules_smear as smear
from tests.html import visible
from tests.server import DATABASES, Phone, Server, database, new_least_score
from tests.test_views_start import PHONE_LINK, start_offline

pytestmark = pytest.mark.django_db

# A next round of any game: each game reads its own fields of it.
ANY_ROUND = {
    "declarer": "0",
    **{f"hand-{s}": str(s + 1) for s in range(4)},
    **{f"points-{s}": "5" for s in range(4)},
    **{f"bullheads-{s}": "3" for s in range(4)},
    "winner": "0",
    **{f"cards_left-{s}": "0" if s == 0 else "4" for s in range(3)},
    "bidder": "0",
    "bid": "2",
    "high": "0",
    "low": "1",
    "rest": "3",
}
# Every way a match ends, in every game: the document, imported, takes no round after it.
ENDED = {
    "least score, one player left": least_score.match(
        least_score.declare(0, 1, 30, 30), threshold=25
    ),
    "least score, one left after two rounds": least_score.match(
        least_score.declare(0, 1, 30, 9), least_score.declare(0, 1, None, 21), threshold=25
    ),
    "least score, first out": least_score.match(
        least_score.declare(0, 2, 30, 5), threshold=25, end="first_out"
    ),
    "gongzhu, floor": gongzhu.match(gongzhu.PLAIN, gongzhu.PLAIN, floor=240),
    "gongzhu, ceiling": gongzhu.match(gongzhu.PLAIN, gongzhu.PLAIN, ceiling=140),
    "gongzhu, hands played": gongzhu.match(gongzhu.PLAIN, gongzhu.PLAIN, end="hands", hands=2),
    "6 nimmt, 66 reached": six_nimmt.hands(2, [10, 5], [10, 5], limit=20),
    "6 nimmt, one game per hand": six_nimmt.hands(2, [3, 5], [6, 2], end="hand", hands=2),
    "6 nimmt, hands played": six_nimmt.hands(
        3, [40, 3, 5], [30, 12, 6], [7, 4, 11], end="hands", hands=3
    ),
    "sanming, target reached": sanming.match(sanming.hand(0, [0, 17, 12], [0, 1, 0])),
    "sheet, target reached": sheet.match((30, 0, 0, 0), target=25),
    "sheet, rounds played": sheet.match((1, 0, 0, 0), hands=1),
    "smear, a team won": smear.match(*smear.FOURTEEN_THIRTEEN, smear.hand(1, 2, 1, 1, 0, 0)),
    **{
        f"{name}, closed by hand": {**document, "closed": True}
        for name, document in {
            "least score": least_score.match(least_score.declare(0, 1, 5, 9)),
            "gongzhu": gongzhu.match(gongzhu.PLAIN),
            "6 nimmt": six_nimmt.hands(3, [20, 10, 10]),
            "sanming": sanming.match(sanming.hand(0, [0, 3, 4])),
            "sheet": sheet.match((1, 0, 0, 0)),
            "smear": smear.match(smear.hand(0, 2, 0, 0, 0, 0)),
        }.items()
    },
}


def imported(client, document):
    """The score path of a match document imported as a phone would."""
    client.get("/import/")
    response = client.post("/import/", {"document": json.dumps(document)})
    assert response.status_code == 302, visible(response.content.decode())
    return response["Location"]


@pytest.mark.parametrize("document", ENDED.values(), ids=ENDED.keys())
def test_a_save_after_every_kind_of_end_is_refused_in_words(client, document):
    match_path = imported(client, document)
    ended = "The match is closed" if document["closed"] else "the match is already finished"
    for form in (ANY_ROUND, {}, {"declarer": "0", "hand-0": "1", "hand-1": "2", "hand-2": "3"}):
        response = client.post(match_path + "rounds/", form)
        assert response.status_code == 422
        assert ended in visible(response.content.decode())
        preview = client.post(match_path + "preview/", form)
        assert preview.status_code == 200
        assert ended in visible(preview.content.decode())


def at_once(server, page, posts):
    """Each (path, form) posted by its own phone (which opened page first), all at one moment;
    their statuses in order."""
    phones = [Phone(server.url) for _ in posts]
    for phone in phones:
        phone.get(page)
    start = threading.Barrier(len(posts))
    statuses = [None] * len(posts)

    def post(k):
        start.wait()
        statuses[k] = phones[k].post(*posts[k])[0]

    threads = [threading.Thread(target=post, args=(k,)) for k in range(len(posts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return statuses


@pytest.mark.parametrize("kind", DATABASES)
def test_deletes_restores_and_closes_of_one_round_at_once_are_answered_without_an_error(
    kind, tmp_path
):
    """Phones tapping Delete (no version posted), then Restore, then Close, then Reopen on one
    round or match at the same moment: one of each is done, the others are told, none fails."""
    with database(kind) as url:
        server = Server(tmp_path, url).start()
        try:
            phone, match_path = new_least_score(server)
            for hands in ([7, 15, 20], [3, 9, 12], [5, 6, 8]):
                form = {"declarer": "0", **{f"hand-{s}": str(h) for s, h in enumerate(hands)}}
                assert phone.post(match_path + "rounds/", form)[0] == 302
            round_2 = f"{match_path}rounds/2/"
            deletes = sorted(at_once(server, match_path, [(round_2 + "delete/", {})] * 8))
            restores = at_once(server, match_path + "history/", [(round_2 + "restore/", {})] * 8)
            restores.sort()
            closes = at_once(server, match_path, [(match_path + "close/", {})] * 8)
            reopens = at_once(server, match_path, [(match_path + "close/", {"closed": "0"})] * 8)
            mixed = at_once(
                server,
                match_path,
                [(round_2 + "delete/", {}), (match_path + "close/", {})] * 4,
            )
            phone.get(match_path + "history/")
        finally:
            server.stop()
    mixed_deletes = sorted(mixed[::2])
    for one_done in (deletes, mixed_deletes):
        assert one_done[0] == 302 and set(one_done[1:]) <= {404, 422}, one_done
    assert restores == [302] + [404] * 7
    assert closes == reopens == [302] * 8 and mixed[1::2] == [302] * 4
    assert visible(phone.page).count("Restore this round") == 1


MANY_FIELDS = "&".join(["a=1"] * 1200)
FORM = "application/x-www-form-urlencoded"


def answered(server, path, body=None, content_type=None):
    """(status, Content-Type, page) of a request to server from a phone set to Spanish."""
    headers = {"Accept-Language": "es", **({"Content-Type": content_type} if content_type else {})}
    request = urllib.request.Request(server.url + path, data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


@pytest.mark.parametrize("kind", DATABASES)
def test_more_than_a_thousand_fields_are_refused_in_the_readers_words(kind, tmp_path):
    """Over 1,000 fields in the query or the body, with or without a charset named: a 400 page
    in the reader's language (a charset had Django read the query before any middleware)."""
    many_parts = encode_multipart(BOUNDARY, {f"a{k}": "1" for k in range(1200)})
    requests = [
        (path, body, content_type)
        for content_type in (f"{FORM}; charset=utf-8", FORM, "text/plain; charset=latin-1", None)
        for path, body in (("/?" + MANY_FIELDS, None), ("/import/?" + MANY_FIELDS, b"a=1"))
    ]
    requests += [
        ("/import/", MANY_FIELDS.encode(), f"{FORM}; charset=utf-8"),
        ("/import/", MANY_FIELDS.encode(), FORM),
        ("/import/", many_parts, MULTIPART_CONTENT),
    ]
    with database(kind) as url:
        server = Server(tmp_path, url, workers=1).start()
        try:
            answers = [answered(server, *request) for request in requests]
        finally:
            server.stop()
    for request, (status, content_type, page) in zip(requests, answers):
        assert (status, content_type) == (400, "text/html; charset=utf-8"), request
        assert "Scorekeeper no pudo leer esta petición." in visible(page), request


LONE = "\ud800"  # half of a pair: no character, and no page can hold it
LEAST = least_score.match(least_score.declare(0, 1, 3, 5), threshold=25)
WITH_LONE = {
    "title": {**LEAST, "title": LONE},
    "a field's name": {**LEAST, LONE: 1},
    "game": {**LEAST, "game": LONE},
    "player": {**LEAST, "players": ["Ann", "B" + LONE, "Chen"]},
    "option's name": {**LEAST, "options": {LONE: 1}},
    "option": {**LEAST, "options": {"end": LONE}},
    "option's list": {**LEAST, "options": {"halve_on": [LONE]}},
    "round's field": {**LEAST, "rounds": [{LONE: 0}]},
    "declarer": {**LEAST, "rounds": [least_score.declare(LONE, 1, 3, 5)]},
    "hand": {**LEAST, "rounds": [least_score.declare(0, 1, LONE, 5)]},
    "card": {**LEAST, "rounds": [least_score.declare(0, 1, [LONE], 5)]},
    "round": {**LEAST, "rounds": [LONE]},
    "closed": {**LEAST, "closed": LONE},
    "the document": LONE,
    "a sheet's points": sheet.match((LONE, 1, 0, 0)),
}


@pytest.mark.parametrize("document", WITH_LONE.values(), ids=WITH_LONE.keys())
def test_an_import_with_a_lone_surrogate_anywhere_is_refused_in_words(client, document):
    client.get("/import/")
    text = json.dumps(document)
    assert "\\ud800" in text
    response = client.post("/import/", {"document": text})
    assert response.status_code == 422
    refusal = "This is not a match document: it holds a broken character."
    assert refusal in visible(response.content.decode())


@pytest.mark.parametrize("end", ["\n", "\r\n", " ", "\t"])
def test_a_score_link_made_on_a_phone_is_matched_whole(client, end):
    """A link with a line break after it is a bad link, never stored 25 characters long."""
    response = start_offline(client, PHONE_LINK + end)
    assert response.status_code == 422
    message = "A score link made on a phone is 24 letters, digits, - or _."
    assert message in visible(response.content.decode())
    assert not Match.objects.exists()
