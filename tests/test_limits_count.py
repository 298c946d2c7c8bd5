"""The limits per client address count every request: a burst from many connections at once
gets the limit and no more, the count outlasts quiet minutes within its window, a rematch is a
new match, and X-Forwarded-For names the client only behind a proxy (BEHIND_PROXY=1)."""

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Match
from scorekeeper.models import Tally
from tests.server import DATABASES, Phone, Server, database

pytestmark = pytest.mark.django_db

PLAYERS = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen"}


def start(client):
    return client.post(reverse("new_match", args=["least_score"]), PLAYERS)


def clock_at(monkeypatch, text):
    """Set the server's clock to text (UTC); returns a function that moves it to another."""

    def move(to):
        moment = datetime.fromisoformat(to).replace(tzinfo=UTC)
        monkeypatch.setattr(timezone, "now", lambda: moment)

    move(text)
    return move


def test_the_count_outlasts_quiet_minutes_and_its_window_is_not_extended(settings, monkeypatch):
    settings.RATE_NEW_MATCHES = "3/h"
    move = clock_at(monkeypatch, "2026-12-03 10:05:00")
    table = Client(REMOTE_ADDR="203.0.113.7")
    assert [start(table).status_code for _ in range(3)] == [302, 302, 302]
    move("2026-12-03 10:11:00")  # six quiet minutes
    refused = start(table)
    assert refused.status_code == 429
    assert refused["Retry-After"] == str(49 * 60)  # until 11:00, the hour's end
    move("2026-12-03 10:59:59")  # asking again in the meantime moved nothing
    assert start(table)["Retry-After"] == "1"
    move("2026-12-03 11:00:00")
    assert start(table).status_code == 302
    assert Match.objects.count() == 4
    assert Tally.objects.count() == 1  # the hour that ended is gone


def test_a_rematch_counts_as_a_new_match_and_so_does_a_second_tap(settings):
    settings.RATE_NEW_MATCHES = "2/h"
    table = Client(REMOTE_ADDR="203.0.113.7")
    first = start(table)["Location"]
    url = reverse("rematch", args=[first.strip("/").split("/")[-1]])
    assert table.post(url).status_code == 302
    refused = table.post(url)  # the same rematch, asked again: counted too
    assert refused.status_code == 429
    assert "try again in" in refused.content.decode()
    assert Match.objects.count() == 2
    assert Client(REMOTE_ADDR="198.51.100.2").post(url).status_code == 302


# ---- through the real server (gunicorn, several workers)

LIMIT = 10


def burst(server, clients=24, each=3):
    """clients phones at once, each asking for each new matches and rematches (one of the
    first match, counted like a new one); the statuses of all answers."""
    seed = Phone(server.url)
    seed.get("/new/least_score/")
    _status, _body, first = seed.post("/new/least_score/", PLAYERS)

    def one(number):
        phone = Phone(server.url)
        phone.get("/new/least_score/")
        answers = []
        for k in range(each):
            path = first + "rematch/" if (number + k) % 2 else "/new/least_score/"
            answers.append(phone.post(path, PLAYERS)[0])
        return answers

    with ThreadPoolExecutor(clients) as pool:
        return [status for answers in pool.map(one, range(clients)) for status in answers]


@pytest.mark.parametrize("kind", DATABASES)
def test_24_phones_at_once_get_the_limit_and_no_more(tmp_path, kind):
    """No slack: each request's count is added and read back under the row's write lock."""
    with database(kind) as url:
        server = Server(tmp_path, url, workers=4)
        server.env["RATE_NEW_MATCHES"] = f"{LIMIT}/h"
        server.start()
        try:
            statuses = burst(server)
        finally:
            server.stop()
    assert sorted(set(statuses)) == [302, 429]
    assert statuses.count(302) == LIMIT - 1  # the first match took one


@pytest.mark.parametrize("behind_proxy", [False, True])
def test_x_forwarded_for_names_the_client_only_behind_a_proxy(tmp_path, behind_proxy):
    """From 127.0.0.1, as a proxy on the same machine would connect: without BEHIND_PROXY=1 a
    header written by the client changes nothing; with it, each address counts on its own."""
    server = Server(tmp_path, workers=1)
    server.env.update(RATE_NEW_MATCHES="2/h", BEHIND_PROXY="1" if behind_proxy else "0")
    server.start()
    try:
        phone = Phone(server.url)
        phone.get("/new/least_score/")
        statuses = [
            phone.post("/new/least_score/", PLAYERS, {"X-Forwarded-For": f"203.0.113.{k}"})[0]
            for k in range(4)
        ]
    finally:
        server.stop()
    assert statuses == ([302] * 4 if behind_proxy else [302, 302, 429, 429])
