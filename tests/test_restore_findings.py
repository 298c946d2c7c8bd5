"""A restore that cannot lose data (issue 48 H1, M1, L1), on SQLite and PostgreSQL: the file is
checked whole before anything is touched, restored beside the database and switched in only when
complete, refused while a server runs on the data; one copy of what it replaced is kept, named."""

import sqlite3
import subprocess

import pytest

from tests.server import DATABASES, Server, database
from tests.test_backup import PEOPLE, exports, manage, new_table, refusal

KEPT = "scorekeeper-before-restore.backup"


def evening(server):
    """Thursday's table, its two matches and a payment; (table path, match paths)."""
    return new_table(server)


def dumped(url, sql, target):
    """A backup as manage.py backup would write it, of a database holding what sql makes."""
    with database("postgres") as scratch:
        subprocess.run(["psql", "--quiet", scratch, "-c", sql], check=True, capture_output=True)
        command = ["pg_dump", "--format=custom", f"--file={target}", scratch]
        subprocess.run(command, check=True, capture_output=True)
    return target


def crafted(kind, tmp_path):
    """A file that passes for a backup at a glance: a database holding only an empty matches'
    table."""
    sql = "CREATE TABLE games_match (id integer PRIMARY KEY)"
    if kind == "postgres":
        return dumped(None, sql, tmp_path / "crafted.backup")
    path = tmp_path / "crafted.backup"
    with sqlite3.connect(path) as made:
        made.execute(sql)
    made.close()
    return path


def stopped_with_data(kind, tmp_path, url):
    """A server that played an evening, stopped; (server, its exports)."""
    server = Server(tmp_path / "data", url, workers=2).start()
    try:
        table, matches = evening(server)
        before = exports(server, table, matches)
    finally:
        server.stop()
    return server, (table, matches), before


def same_as(server, paths, before):
    """True when the server, started again, exports what it did before."""
    server.start()
    try:
        return exports(server, *paths) == before
    finally:
        server.stop()


@pytest.mark.parametrize("kind", DATABASES)
def test_h1_a_crafted_file_is_refused_and_the_data_stays(kind, tmp_path):
    with database(kind) as url:
        server, paths, before = stopped_with_data(kind, tmp_path, url)
        file = crafted(kind, tmp_path)
        line = refusal(manage(server, "restore", str(file), "--replace"))
        assert line.startswith(f"Nothing restored: {file} is not a whole Scorekeeper backup: ")
        assert list((tmp_path / "data").glob("*.backup")) == []  # nothing replaced, none kept
        assert same_as(server, paths, before)


@pytest.mark.parametrize("kind", DATABASES)
def test_m1_a_restore_while_a_server_runs_on_the_data_is_refused(kind, tmp_path):
    with database(kind) as url:
        server = Server(tmp_path / "data", url, workers=2).start()
        try:
            paths = evening(server)
            assert manage(server, "backup", str(tmp_path / "copy.backup")).returncode == 0
            before = exports(server, *paths)
            line = refusal(manage(server, "restore", str(tmp_path / "copy.backup"), "--replace"))
            assert line == (
                "Nothing restored: a server is running on this data: stop it, run restore, "
                "then start the server again."
            )
            assert exports(server, *paths) == before
        finally:
            server.stop()
        restored = manage(server, "restore", str(tmp_path / "copy.backup"), "--replace")
        assert restored.returncode == 0, restored.stderr


def newer(path):
    """A copy of the backup at path that a newer Scorekeeper would have written: its migrations
    list one this version does not know."""
    with sqlite3.connect(path) as copy:
        copy.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('games', '9999_from_the_future', '2030-01-01')"
        )
    copy.close()
    return path


@pytest.mark.parametrize("kind", DATABASES)
def test_l1_a_backup_refused_midway_keeps_no_copy_and_says_why_once(kind, tmp_path):
    with database(kind) as url:
        server, paths, before = stopped_with_data(kind, tmp_path, url)
        bad = tmp_path / "bad.backup"
        assert manage(server, "backup", str(bad)).returncode == 0
        if kind == "postgres":
            whole = bad.read_bytes()
            bad.write_bytes(whole[:-200])  # cut short: the list of its contents still reads whole
            listed = subprocess.run(["pg_restore", "--list", str(bad)], capture_output=True)
            assert listed.returncode == 0 and b"TABLE public games_match " in listed.stdout
        else:
            newer(bad)
        for _try in range(3):
            line = refusal(manage(server, "restore", str(bad), "--replace"))
            assert line.startswith(f"Nothing restored: {bad} ")
            assert "pg_restore: pg_restore:" not in line
        assert list((tmp_path / "data").glob("*.backup")) == []
        assert same_as(server, paths, before)


@pytest.mark.parametrize("kind", DATABASES)
def test_a_restore_says_what_it_restored_and_keeps_one_named_copy(kind, tmp_path):
    with database(kind) as url:
        server, paths, before = stopped_with_data(kind, tmp_path, url)
        copy = tmp_path / "copy.backup"
        assert manage(server, "backup", str(copy)).returncode == 0
        for _time in range(2):
            restored = manage(server, "restore", str(copy), "--replace")
            assert restored.returncode == 0, restored.stderr
            kept = tmp_path / "data" / KEPT
            assert restored.stdout.splitlines() == [
                f"What the database held before is kept in {kept}.",
                f"Restored {copy}: 2 matches, 1 table, 0 rounds, 1 payment. Start the server "
                "again.",
            ]
        assert [p.name for p in (tmp_path / "data").glob("*.backup")] == [KEPT]
        assert same_as(server, paths, before)
    assert PEOPLE  # the evening's people, as tests/test_backup.py makes it
