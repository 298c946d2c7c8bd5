"""A server open to strangers: creating is limited per client address and by free disk space,
no byte of a request reaches the database as a 500, /healthz really writes, and no shared cache
may keep a page that holds a score link."""

import json
import urllib.error
import urllib.request

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Heartbeat, Match
from tests.server import DATABASES, Server, database, new_least_score

pytestmark = pytest.mark.django_db

PLAYERS = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen"}
DOCUMENT = json.dumps({"game": "least_score", "players": ["Ann", "Bo", "Chen"], "rounds": []})
ROUND = {"declarer": "0", "hand-0": "7", "hand-1": "15", "hand-2": "20"}


def phone(address, **headers):
    return Client(REMOTE_ADDR=address, **headers)


def start(client):
    return client.post(reverse("new_match", args=["least_score"]), PLAYERS)


# ---- limits per client address


def test_creating_beyond_the_limit_is_a_429_saying_when_and_another_address_is_not(settings):
    settings.RATE_NEW_MATCHES = "3/h"
    flooding = phone("203.0.113.7", HTTP_ACCEPT_LANGUAGE="es")
    assert [start(flooding).status_code for _ in range(3)] == [302, 302, 302]
    refused = start(flooding)
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 3600
    page = refused.content.decode()
    # the wait in the reader's words: minutes, or "1 hora" when the hour's window has just begun
    assert 'lang="es"' in page and ("minuto" in page or "1\xa0hora" in page)
    assert Match.objects.count() == 3
    assert start(phone("198.51.100.2")).status_code == 302


def test_saves_and_pages_of_existing_matches_are_never_limited(settings):
    settings.RATE_NEW_MATCHES = "1/h"
    table = phone("203.0.113.7")
    match_url = start(table)["Location"]
    assert start(table).status_code == 429
    for _ in range(3):
        assert table.post(match_url + "rounds/", ROUND).status_code == 302
        assert table.get(match_url).status_code == 200
    assert Match.objects.get().rounds.count() == 3


def test_imports_are_limited_too(settings):
    settings.RATE_IMPORTS = "2/h"
    client = phone("203.0.113.7")
    answers = [client.post(reverse("import_match"), {"document": DOCUMENT}) for _ in range(3)]
    assert [a.status_code for a in answers] == [302, 302, 429]
    assert phone("198.51.100.2").get(reverse("import_match")).status_code == 200


@pytest.mark.parametrize("behind_proxy, limited", [(True, True), (False, False)])
def test_x_forwarded_for_counts_only_behind_a_proxy(settings, behind_proxy, limited):
    """Behind a proxy the address is the last one in the header (the one the proxy added);
    what a client writes before it changes nothing. Without a proxy the header is ignored."""
    settings.RATE_NEW_MATCHES, settings.BEHIND_PROXY = "1/h", behind_proxy
    start(phone("127.0.0.1", HTTP_X_FORWARDED_FOR="1.1.1.1, 203.0.113.7"))
    second = start(phone("127.0.0.2", HTTP_X_FORWARDED_FOR="2.2.2.2, 203.0.113.7"))
    assert second.status_code == (429 if limited else 302)


def test_a_nearly_full_disk_refuses_new_matches_while_saves_go_on(settings):
    match_url = start(Client())["Location"]
    settings.MIN_FREE_BYTES = 2**62
    refused = start(Client())
    assert refused.status_code == 507
    assert "short of disk space" in refused.content.decode()
    assert Client().post(reverse("import_match"), {"document": DOCUMENT}).status_code == 507
    assert Client().post(match_url + "rounds/", ROUND).status_code == 302
    assert Match.objects.count() == 1


# ---- /healthz


def test_healthz_writes_a_row_that_changes_each_call(client):
    assert client.get("/healthz").status_code == 200
    first = Heartbeat.objects.get().at
    assert client.get("/healthz").status_code == 200
    assert Heartbeat.objects.get().at > first


# ---- control characters, on SQLite and PostgreSQL


@pytest.mark.parametrize("kind", DATABASES)
def test_nul_and_control_characters_are_refused_before_the_database(tmp_path, kind):
    with database(kind) as url:
        server = Server(tmp_path, url, workers=1).start()
        try:
            table, match_url = new_least_score(server)
            paths = ["/m/%00/", "/w/%00/", "/live/%00/", "/m/a%00b/offline.json", "/m/%01/"]
            for path in paths:
                with pytest.raises(urllib.error.HTTPError) as refused:
                    urllib.request.urlopen(server.url + path, timeout=30)
                assert 400 <= refused.value.code < 500, path
            posts = [
                (match_url + "rounds/", {**ROUND, "entry_key": "ab\x00cd"}),
                (match_url + "rounds/", {**ROUND, "hand-0": "7\x00"}),
                ("/new/least_score/", {**PLAYERS, "player_0": "A\x00nn"}),
                ("/import/", {"document": DOCUMENT.replace("Ann", "A\\u0000nn")}),
            ]
            for path, form in posts:
                status, _page, _location = table.post(path, form)
                assert 400 <= status < 500, (path, form)
            table.get(match_url)
            assert table.post(match_url + "rounds/", ROUND)[0] == 302  # the server is fine
        finally:
            server.stop()


# ---- caching


def test_no_shared_cache_may_keep_a_page_with_a_score_link_or_this_phones_data(client):
    match_url = start(client)["Location"]
    client.post(match_url + "rounds/", ROUND)
    match = Match.objects.get()
    paths = [
        "/",
        "/matches/",
        match_url,
        match_url + "live/",
        match_url + "share/",
        match_url + "history/",
        match_url + "rounds/1/",
        match_url + "export.json",
        match_url + "export.csv",
        match_url + "offline.json",
        f"/w/{match.watch_id}/",
        f"/live/{match.watch_id}/",
    ]
    for path in paths:
        control = client.get(path)["Cache-Control"]
        assert "private" in control and "no-store" in control, path
    created = start(client)
    assert "no-store" in created["Cache-Control"]  # its Location is a score link
    assert client.get("/sw.js")["Cache-Control"] == "no-cache"  # a view that says its own


def test_the_language_form_brings_back_the_path_alone(client):
    match_url = start(client)["Location"]
    page = client.get(match_url + "?rounds=all&from=elsewhere").content.decode()
    assert f'name="next" value="{match_url}"' in page
