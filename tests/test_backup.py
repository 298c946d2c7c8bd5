"""manage.py backup while phones save rounds, manage.py restore into a fresh server: every match's
and every table's export is the same on both; a refused restore changes nothing."""

import json
import subprocess
import sys
import threading
import urllib.request

import pytest

from tests.server import DATABASES, ROOT, Phone, Server, database, new_least_score

PEOPLE = ["Ann", "Bo", "Chen", "Dee"]


def manage(server, *args, **env):
    """Run manage.py with the server's data folder and database (and env)."""
    command = [sys.executable, "manage.py", *args]
    environment = {**server.env, **env}
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True)


def fetched(server, path):
    with urllib.request.urlopen(server.url + path, timeout=30) as response:
        return response.read().decode()


def new_table(server):
    """A phone that made Thursday's table, started two score sheets at a stake from it and
    recorded a payment; returns (table path, [match paths])."""
    phone = Phone(server.url)
    phone.get("/tables/new/")
    status, _body, table = phone.post(
        "/tables/new/", {"name": "Thursday", "people": "\n".join(PEOPLE)}
    )
    assert status == 302
    matches = []
    for _ in range(2):
        phone.get(table + "new/sheet/")
        form = {f"player_{seat}": name for seat, name in enumerate(PEOPLE)}
        status, _body, match = phone.post(
            table + "new/sheet/", {**form, "zero_sum": "on", "stake": "0.5"}
        )
        assert status == 302
        matches.append(match)
    phone.get(table)
    paid = {"payer": "Bo", "payee": "Ann", "amount": "2.5", "unit": "money", "entry_key": "paid-1"}
    assert phone.post(table + "pay/", paid)[0] == 302
    return table, matches


def round_of(k, sheet):
    """Round k: a score sheet's points adding up to 0, or a Least Score hand."""
    if sheet:
        return {"points-0": str(k), "points-1": str(-k), "points-2": "1", "points-3": "-1"}
    return {"declarer": "0", "hand-0": "1", "hand-1": "2", "hand-2": str(2 + k % 5)}


class Saver:
    """One phone saving rounds into the matches in turn (the table's are score sheets, the others
    Least Score), recording after each save the match's export and its table's: the database
    passes through one known state after another."""

    def __init__(self, server, matches, table, in_table):
        self.server, self.matches, self.table, self.in_table = server, matches, table, in_table
        self.steps = []  # (match, its export, the table's export or None) after each save
        self.refused = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.keep_saving)

    def keep_saving(self):
        phone = Phone(self.server.url)
        phone.get(self.matches[0])  # its CSRF token serves every match
        while not self.stop.is_set():
            match = self.matches[len(self.steps) % len(self.matches)]
            k = len(self.steps)
            form = {**round_of(k, sheet=match in self.in_table), "entry_key": f"k{k}"}
            status, body, _location = phone.post(match + "rounds/", form)
            if status != 302:
                self.refused.append((status, body))
                return
            table = None
            if match in self.in_table:
                table = fetched(self.server, self.table + "table.json")
            self.steps.append((match, fetched(self.server, match + "export.json"), table))

    def state_after(self, saved, first):
        """The exports of every match and of the table once `saved` steps had landed, from
        first (the exports before the first step)."""
        exports = dict(first)
        for match, export, table in self.steps[:saved]:
            exports[match] = export
            if table is not None:
                exports[self.table] = table
        return exports


def exports(server, table, matches):
    """{path: the JSON export} of the table and of each match."""
    found = {match: fetched(server, match + "export.json") for match in matches}
    return {**found, table: fetched(server, table + "table.json")}


def rounds_in(export):
    return len(json.loads(export)["rounds"])


@pytest.mark.parametrize("kind", DATABASES)
def test_a_backup_under_live_saves_restores_every_match_and_table(kind, tmp_path):
    with database(kind) as first_url, database(kind) as second_url:
        first = Server(tmp_path / "first", first_url, workers=2).start()
        second = Server(tmp_path / "second", second_url, workers=2)
        try:
            table, in_table = new_table(first)
            loose = [new_least_score(first, threshold="1000")[1] for _ in range(2)]
            matches = [*in_table, *loose]
            before = exports(first, table, matches)
            saver = Saver(first, matches, table, in_table)
            saver.thread.start()
            while len(saver.steps) < 8 and saver.thread.is_alive():  # saves are landing
                saver.thread.join(0.1)
            landed_before = len(saver.steps)
            written = manage(first, "backup", str(tmp_path / "live.backup"))
            landed_after = len(saver.steps)
            saver.stop.set()
            saver.thread.join(30)
            assert saver.refused == [] and written.returncode == 0, written.stderr
            assert landed_after > landed_before, "saves landed while the backup was written"

            restored = manage(second, "restore", str(tmp_path / "live.backup"))
            assert restored.returncode == 0, restored.stderr
            assert "4 matches, 1 table" in restored.stdout
            second.start()
            now = exports(second, table, matches)
            saved = sum(rounds_in(now[m]) for m in matches) - sum(
                rounds_in(before[m]) for m in matches
            )
            assert landed_before <= saved <= len(saver.steps)
            assert now == saver.state_after(saved, before), "the copy is one moment of the database"

            # Quiet now: a second backup, restored over the second server's matches.
            assert manage(first, "backup", str(tmp_path)).returncode == 0
            [quiet] = tmp_path.glob("scorekeeper-*.backup")
            second.stop()
            refused = manage(second, "restore", str(quiet))
            assert refused.returncode == 2 and "Traceback" not in refused.stderr
            assert refused.stderr.strip().splitlines() == [
                f"Nothing restored: This database already holds 4 matches and 1 table: restoring "
                f"{quiet} would replace them. Run again with --replace to replace them (they are "
                "kept in a backup first)."
            ]
            replaced = manage(second, "restore", str(quiet), "--replace")
            assert replaced.returncode == 0, replaced.stderr
            assert list((tmp_path / "second").glob("scorekeeper-*.backup")), "what it held is kept"
            second.start()
            assert exports(second, table, matches) == exports(first, table, matches)
        finally:
            first.stop()
            second.stop()


def refusal(result):
    """The one line a refused command printed (exit status 2, no traceback)."""
    assert result.returncode == 2 and result.stdout == "", result.stderr
    [line] = result.stderr.strip().splitlines()
    return line


def test_refusals_are_one_line_and_change_nothing(tmp_path):
    server = Server(tmp_path / "data")
    empty = manage(server, "backup", str(tmp_path / "a.backup"), DATA_DIR=str(tmp_path / "empty"))
    assert refusal(empty) == (
        f"Nothing written: There is no database at {tmp_path / 'empty' / 'db.sqlite3'} yet: "
        "nothing to back up."
    )
    unreachable = "postgres://postgres@127.0.0.1:1/none"
    nobody = manage(server, "backup", str(tmp_path / "a.backup"), DATABASE_URL=unreachable)
    assert refusal(nobody).startswith("Nothing written: The database answered: connection failed")
    kept = tmp_path / "kept.backup"
    kept.write_bytes(b"last week's copy")
    assert refusal(manage(server, "backup", str(kept))) == (
        f"Nothing written: {kept} already exists: name a new file, or a folder to get a dated "
        "file in."
    )
    assert kept.read_bytes() == b"last week's copy"
    assert refusal(manage(server, "backup", str(tmp_path / "usb" / "a.backup"))) == (
        f"Nothing written: There is no folder {tmp_path / 'usb'}."
    )
    assert manage(server, "backup", str(tmp_path / "good.backup")).returncode == 0
    cut = tmp_path / "cut.backup"
    cut.write_bytes((tmp_path / "good.backup").read_bytes()[:8192])
    dump = tmp_path / "pg.backup"
    dump.write_bytes(b"PGDMP\x01\x0f\x00")
    said = {
        "none.backup": f"There is no file {tmp_path / 'none.backup'}.",
        "kept.backup": f"{kept} is not a Scorekeeper backup (manage.py backup writes them).",
        "cut.backup": f"{cut} is not a Scorekeeper backup (manage.py backup writes them).",
        "pg.backup": f"{dump} is a copy of a PostgreSQL database and this server uses SQLite: "
        "run restore with DATABASE_URL set to a PostgreSQL one.",
        "": f"{tmp_path} is a folder: name the backup file in it.",
    }
    for name, why in said.items():
        assert (
            refusal(manage(server, "restore", str(tmp_path / name))) == f"Nothing restored: {why}"
        )
    assert list((tmp_path / "data").glob("*.backup")) == []
