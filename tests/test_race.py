"""Many phones post the same round at once to gunicorn with several workers: one round is stored."""

import threading

import pytest

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
            assert "round 1 was just entered from another phone" in body
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
