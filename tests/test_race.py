"""Many phones post the same round at once to gunicorn with several workers: one round is stored."""

import json
import re
import threading

import pytest

from bench.matches import gongzhu_hand
from games import rules
from tests.html import visible
from tests.server import DATABASES, Phone, Server, database, new_least_score

PHONES = 12


def post_at_once(server, match_path, forms):
    """Each phone opens the match, then all post their form at the same moment."""
    phones = [Phone(server.url) for _ in forms]
    for phone in phones:
        phone.get(match_path)
    start = threading.Barrier(len(phones))
    answers = [None] * len(phones)

    def save(k):
        start.wait()
        answers[k] = phones[k].post(match_path + "rounds/", forms[k])

    threads = [threading.Thread(target=save, args=(k,)) for k in range(len(phones))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


@pytest.mark.parametrize("kind", DATABASES)
def test_many_phones_saving_round_1_at_once_store_exactly_one(kind, tmp_path):
    with database(kind) as url:
        server = Server(tmp_path, url).start()
        try:
            _phone, match_path = new_least_score(server)
            forms = [
                {
                    "declarer": "0",
                    "hand-0": "7",
                    "hand-1": str(10 + k),
                    "hand-2": "20",
                    "version": "0",
                    "round": "1",
                    "entry_key": f"phone-{k}",
                }
                for k in range(PHONES)
            ]
            answers = post_at_once(server, match_path, forms)
            watcher = Phone(server.url)
            watcher.get(match_path)
        finally:
            server.stop()
    statuses = sorted(status for status, _body, _location in answers)
    assert statuses == [302] + [422] * (PHONES - 1)
    for status, body, _location in answers:
        if status == 422:
            assert "Round 1 was just entered from another phone." in body
    assert watcher.page.count('title="Edit this round"') == 1


@pytest.mark.parametrize("kind", DATABASES)
def test_copies_of_one_save_posted_at_once_without_a_version_store_one_round(kind, tmp_path):
    """A retried save racing its own first copy (no version field): stored once, and every
    copy is told it was saved, never that another phone entered the round."""
    with database(kind) as url:
        server = Server(tmp_path, url).start()
        try:
            _phone, match_path = new_least_score(server)
            form = {"declarer": "0", "hand-0": "7", "hand-1": "15", "hand-2": "20"}
            for burst in range(5):
                answers = post_at_once(
                    server, match_path, [{**form, "entry_key": f"key-{burst}"}] * PHONES
                )
                assert [status for status, _b, _l in answers] == [302] * PHONES
            watcher = Phone(server.url)
            watcher.get(match_path)
        finally:
            server.stop()
    assert watcher.page.count('title="Edit this round"') == 5


GONGZHU_HAND = {"owner-QS": "0", "owner-JD": "1", "owner-10C": "2", "rest": "3"}


def imported_gongzhu(server, played, **options):
    """A Gongzhu match of played hands, imported as a phone would; its score path."""
    document = {
        "game": "gongzhu",
        "players": ["Ann", "Bo", "Chen", "Dee"],
        "options": {"end": "open", **options},
        "rounds": [gongzhu_hand(k) for k in range(played)],
    }
    phone = Phone(server.url)
    phone.get("/import/")
    status, _body, location = phone.post("/import/", {"document": json.dumps(document)})
    assert status == 302, _body[:300]
    return location


def stored_hands(server, match_path):
    """The hands the server holds now (its JSON export), after checking every page of the match
    answers: the score page, the watch page, the live check, History and the CSV export."""
    phone = Phone(server.url)
    for page in ("", "history/", "export.csv", "live/?v=0"):
        assert phone.get(match_path + page) == 200, page
    watch = re.search(r'href="https?://[^/"]+(/w/[^/"]+/)"', share_page(server, match_path))[1]
    assert phone.get(watch) == 200
    assert phone.get(watch.replace("/w/", "/live/") + "?v=0") == 200
    phone.get(match_path + "export.json")
    return json.loads(phone.page)["rounds"]


def share_page(server, match_path):
    phone = Phone(server.url)
    phone.get(match_path + "share/")
    return phone.page


def saves_without_a_version(count):
    """count forms saving the same hand, each from its own phone's form: no version named."""
    return [{**GONGZHU_HAND, "entry_key": f"phone-{k}"} for k in range(count)]


@pytest.mark.parametrize("kind", DATABASES)
def test_saves_at_once_without_a_version_never_pass_the_most_rounds(kind, tmp_path):
    """20 phones save into a match one round short of the most a match holds: one is stored."""
    with database(kind) as url:
        server = Server(tmp_path, url).start()
        try:
            match_path = imported_gongzhu(server, rules.MAX_ROUNDS - 1)
            answers = post_at_once(server, match_path, saves_without_a_version(20))
            hands = stored_hands(server, match_path)
        finally:
            server.stop()
    assert sorted(status for status, _b, _l in answers) == [302] + [422] * 19
    assert len(hands) == rules.MAX_ROUNDS


@pytest.mark.parametrize("kind", DATABASES)
def test_saves_at_once_without_a_version_never_pass_the_end(kind, tmp_path):
    """20 phones save the last hand of a five-hand match at once: one is stored."""
    with database(kind) as url:
        server = Server(tmp_path, url).start()
        try:
            match_path = imported_gongzhu(server, 4, end="hands", hands=5)
            answers = post_at_once(server, match_path, saves_without_a_version(20))
            hands = stored_hands(server, match_path)
        finally:
            server.stop()
    assert sorted(status for status, _b, _l in answers) == [302] + [422] * 19
    assert len(hands) == 5


@pytest.mark.parametrize("kind", DATABASES)
def test_two_saves_at_once_never_pass_the_most_rounds_deleted_ones_included(kind, tmp_path):
    """Two phones save into a match one stored round short of the most, two of its rounds
    deleted (a restore can then never pass the most): one is stored, the other refused in words."""
    with database(kind) as url:
        server = Server(tmp_path, url).start()
        try:
            match_path = imported_gongzhu(server, rules.MAX_ROUNDS - 1)
            phone = Phone(server.url)
            phone.get(match_path)
            for number in (1, 2):
                assert phone.post(f"{match_path}rounds/{number}/delete/", {})[0] == 302
            answers = post_at_once(server, match_path, saves_without_a_version(2))
            hands = stored_hands(server, match_path)
        finally:
            server.stop()
    assert sorted(status for status, _b, _l in answers) == [302, 422]
    refused = visible(next(body for status, body, _l in answers if status == 422))
    assert f"keeps at most {rules.MAX_ROUNDS} rounds, deleted ones included" in refused
    assert len(hands) == rules.MAX_ROUNDS - 2
