"""The server itself: idle sockets do not stall it, its files are the owner's alone, a data
folder it cannot write stops the start in one line, /healthz tells the truth, error pages are
its own, and HTTPS without named hosts does not start."""

import gc
import logging
import os
import socket
import stat
import subprocess
import sys
import time
import urllib.request

import pytest
from django.db import DatabaseError
from django.test import Client

from games.models import Match
from tests.server import ROOT, Phone, Server

pytestmark = pytest.mark.django_db


def manage(args, data_dir, **env):
    command = [sys.executable, "manage.py", *args]
    environment = {"PATH": os.environ["PATH"], "DATA_DIR": str(data_dir), **env}
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True)


def timed_get(url):
    started = time.monotonic()
    with urllib.request.urlopen(url, timeout=10) as response:
        response.read()
        return response.status, time.monotonic() - started


def test_twelve_idle_sockets_do_not_stall_the_server(tmp_path):
    server = Server(tmp_path, workers=3).start()
    idle = []
    try:
        for _ in range(12):
            idle.append(socket.create_connection(("127.0.0.1", server.port)))
        half_sent = socket.create_connection(("127.0.0.1", server.port))
        half_sent.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the end
        idle.append(half_sent)
        time.sleep(0.5)
        for path in ("/", "/healthz", "/", "/healthz"):
            status, seconds = timed_get(server.url + path)
            assert status == 200 and seconds < 1, (path, seconds)
    finally:
        for sock in idle:
            sock.close()
        server.stop()


def test_start_makes_the_key_and_the_database_readable_by_the_owner_only(tmp_path):
    data = tmp_path / "data"
    result = manage(["migrate", "--noinput", "-v0"], data)
    assert result.returncode == 0, result.stderr
    for name in ("secret_key", "db.sqlite3"):
        assert stat.S_IMODE((data / name).stat().st_mode) == 0o600, name
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    key = (data / "secret_key").read_text()
    assert manage(["check"], data).returncode == 0
    assert (data / "secret_key").read_text() == key  # made once, never rewritten


def test_importing_the_settings_makes_no_file(tmp_path):
    data = tmp_path / "never-made"
    code = "import scorekeeper.settings"
    env = {"PATH": os.environ["PATH"], "DATA_DIR": str(data), "SECRET_KEY": "x" * 60}
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True)
    assert not data.exists()


def test_a_data_folder_that_cannot_be_written_stops_the_start_in_one_line(tmp_path):
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    result = manage(["migrate", "--noinput", "-v0"], blocked / "data")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot be written" in lines[0], result.stderr


def test_healthz_fails_when_the_database_cannot_take_a_write(client, monkeypatch):
    assert client.get("/healthz").status_code == 200

    def refuse(*args, **kwargs):
        raise DatabaseError("attempt to write a readonly database")

    monkeypatch.setattr("django.db.backends.utils.CursorWrapper.execute", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503


def test_a_save_on_a_full_disk_keeps_the_entry_and_says_why(client, monkeypatch):
    match = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])

    def disk_full(self, *args, **kwargs):
        raise DatabaseError("database or disk is full")

    monkeypatch.setattr(Match, "add_round", disk_full)
    form = {"declarer": "0", "hand-0": "7", "hand-1": "15", "hand-2": "20"}
    response = client.post(f"/m/{match.public_id}/rounds/", form)
    page = response.content.decode()
    assert response.status_code == 422
    assert "could not write it just now" in page and 'value="15"' in page
    assert match.rounds.count() == 0


def test_https_without_named_hosts_does_not_start(tmp_path):
    result = manage(["check"], tmp_path, HTTPS="1", SECRET_KEY="k" * 60)
    assert result.returncode != 0
    assert "ALLOWED_HOSTS" in result.stderr


@pytest.mark.parametrize("behind_proxy", [False, True])
def test_x_forwarded_proto_is_believed_only_behind_a_proxy(tmp_path, behind_proxy):
    """From 127.0.0.1, as a proxy on the same machine would connect: the share page's links
    say https only when BEHIND_PROXY=1, never because a client wrote the header."""
    server = Server(tmp_path, workers=1)
    server.env["BEHIND_PROXY"] = "1" if behind_proxy else "0"
    server.start()
    try:
        phone = Phone(server.url)
        phone.get("/new/least_score/")
        players = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen"}
        match = phone.post("/new/least_score/", players)[2]
        request = urllib.request.Request(
            f"{server.url}{match}share/", headers={"X-Forwarded-Proto": "https"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            page = response.read().decode()
    finally:
        server.stop()
    scheme = "https" if behind_proxy else "http"
    assert f"{scheme}://127.0.0.1:{server.port}{match}" in page


@pytest.mark.parametrize(
    "path, status, language, said",
    [
        ("/nowhere/", 404, "en", "There is no such page."),
        ("/m/nosuchmatch/", 404, "es", "No existe esa partida."),
        ("/new/nosuchgame/", 404, "en", "There is no such game."),
    ],
)
def test_error_pages_are_the_apps_own_and_translated(path, status, language, said):
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(path)
    page = response.content.decode()
    assert response.status_code == status
    assert said in page and 'href="/"' in page and 'lang="' + language in page


def test_a_refused_csrf_check_gets_the_apps_page(client):
    response = Client(enforce_csrf_checks=True).post("/new/least_score/", {"player_0": "A"})
    assert response.status_code == 403
    assert "open too long" in response.content.decode()


def test_a_403_is_logged_in_one_line_without_a_trace(caplog, settings):
    match = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    with caplog.at_level(logging.WARNING, logger="django.request"):
        Client().get(f"/m/{match.watch_id}/history/")
    record = next(r for r in caplog.records if r.status_code == 403)
    # Django hands the log its trace; the console handler's filter dropped it on the way.
    assert record.exc_info is None and record.exc_text is None
    assert "no_client_traces" in settings.LOGGING["handlers"]["console"]["filters"]


def test_any_other_write_on_a_full_disk_is_a_503_with_a_sentence(monkeypatch):
    from django.db import OperationalError

    def disk_full(*args, **kwargs):
        raise OperationalError("database or disk is full")

    monkeypatch.setattr(Match.objects, "create", disk_full)
    response = Client(raise_request_exception=False).post(
        "/new/least_score/", {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen"}
    )
    assert response.status_code == 503
    assert "Nothing was saved" in response.content.decode()


def test_each_worker_freezes_what_the_loaded_app_holds():
    """gunicorn calls post_worker_init once the app is loaded: the objects alive then are moved
    out of the garbage collector's full passes, which otherwise paused a worker for 14 ms."""
    from gunicorn.config import Config

    from scorekeeper import gunicorn_conf

    config = Config()
    for name, value in vars(gunicorn_conf).items():
        if name in config.settings:  # as gunicorn reads its config file
            config.set(name, value)
    try:
        config.post_worker_init(None)
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()
