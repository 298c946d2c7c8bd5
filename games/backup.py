"""A consistent copy of the whole database, written while the server runs, and bringing one back:
SQLite's online backup for the embedded default, pg_dump's custom format for PostgreSQL.

What goes wrong is a Refused with one sentence for the organiser; nothing is half written.
"""

import fcntl
import os
import sqlite3
import subprocess
from contextlib import closing, contextmanager
from pathlib import Path

import psycopg
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import DatabaseError, connection, connections, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone
from psycopg.conninfo import make_conninfo

from games.models import Match, Payment, Round, Table
from scorekeeper.startup import SERVING

SQLITE_START = b"SQLite format 3\x00"
POSTGRES_START = b"PGDMP"
ENGINES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
SETTING = {
    "sqlite": "without DATABASE_URL",
    "postgresql": "with DATABASE_URL set to a PostgreSQL one",
}


class Refused(Exception):
    """Why a backup or a restore was not done, in one sentence; nothing was changed."""


class Failed(Refused):
    """A PostgreSQL tool ran and refused (its error line says why)."""


# ---- writing a copy


def write(path):
    """Copy the whole database into a new file at path (or, for a folder, a dated file in it);
    return (the file, its matches, its tables)."""
    target = new_file(Path(path))
    partial = target.with_name(f".{target.name}.partial")
    try:
        with database_trouble():
            counts = (
                copy_sqlite(partial) if connection.vendor == "sqlite" else dump_postgres(partial)
            )
        os.replace(partial, target)
    except OSError as error:
        raise Refused(f"{target} could not be written: {error.strerror or error}.") from None
    finally:
        partial.unlink(missing_ok=True)
    return target, *counts


def new_file(path):
    """The file a copy goes to: path, or a dated name in it when it is a folder; never one that
    exists."""
    if path.is_dir():
        path = path / f"scorekeeper-{timezone.localtime():%Y-%m-%d-%H%M%S}.backup"
    if path.exists():
        raise Refused(
            f"{path} already exists: name a new file, or a folder to get a dated file in."
        )
    if not path.parent.is_dir():
        raise Refused(f"There is no folder {path.parent}.")
    return path


def copy_sqlite(target):
    """The SQLite database copied page by page in one read (writers go on meanwhile) into target,
    a single file; return (matches, tables) in the copy."""
    live = Path(connection.settings_dict["NAME"])
    if not live.is_file():
        raise Refused(f"There is no database at {live} yet: nothing to back up.")
    with closing(sqlite3.connect(target)) as copy:
        with closing(sqlite3.connect(f"{live.as_uri()}?mode=rw", uri=True, timeout=20)) as source:
            source.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")  # the copy is one file, no -wal beside it
        return tuple(
            copy.execute(f"SELECT count(*) FROM {model._meta.db_table}").fetchone()[0]
            for model in (Match, Table)
        )


def dump_postgres(target):
    """pg_dump's custom format of the database into target, taken from the snapshot the matches
    and tables are counted in; return (matches, tables)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        cursor.execute("SELECT pg_export_snapshot()")
        snapshot = cursor.fetchone()[0]
        counts = Match.objects.count(), Table.objects.count()
        run(["pg_dump", "--format=custom", f"--snapshot={snapshot}", f"--file={target}"])
    return counts


# ---- bringing one back

# The one copy of what a restore replaced, in the data folder (the next restore replaces it).
KEPT = "scorekeeper-before-restore.backup"
STAGING = "restoring"  # the alias of the database a copy is brought back into and checked in
SERVING_NOW = "a server is running on this data: stop it, run restore, then start the server again."


def restore(path, replace=False):
    """Bring back the copy at path in place of the whole database: checked whole, restored
    beside the database (a new file, or a new PostgreSQL database), migrated to this version of
    the app and checked again, and only then switched in; refused while a server runs on the
    data. Return (the file keeping what the database held before, or None; what the copy
    holds: {"matches", "tables", "rounds", "payments"})."""
    path = Path(path)
    with database_trouble(), alone():
        check_backup(path)
        matches, tables = held()
        if (matches or tables) and not replace:
            raise Refused(
                f"This database already holds {counted(matches, 'match', 'matches')} and "
                f"{counted(tables, 'table', 'tables')}: restoring {path} would replace them. "
                "Run again with --replace to replace them (they are kept in a backup first)."
            )
        stage = SQLiteStage() if connection.vendor == "sqlite" else PostgresStage()
        try:
            holds = stage.bring_back(path)
            kept = keep() if matches or tables else None
            stage.switch()
        finally:
            stage.drop()
        return kept, holds


@contextmanager
def alone():
    """Refuse while a server runs on the data: one holds the data folder's serving lock
    (scorekeeper/startup.py), or, on PostgreSQL, is connected to the database. The lock is held
    here until the restore is done: a server starting meanwhile waits for it."""
    with open(Path(settings.DATA_DIR) / SERVING, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Refused(SERVING_NOW) from None
        if connection.vendor == "postgresql" and others_connected():
            raise Refused(SERVING_NOW)
        yield


def others_connected():
    """Whether any other session is connected to this PostgreSQL database."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0] > 0


def keep():
    """Write what the database holds now into the data folder's one kept copy (replacing the
    copy an earlier restore kept, once this one is whole); return its path."""
    kept = Path(settings.DATA_DIR) / KEPT
    fresh = kept.with_name(f".{KEPT}.new")
    fresh.unlink(missing_ok=True)
    write(fresh)
    os.replace(fresh, kept)
    return kept


class Stage:
    """A database beside this one that a copy is brought back into and checked in, under the
    alias STAGING, before it is switched in."""

    def bring_back(self, path):
        """Put the copy at path in the staged database, migrate it and check it whole; return
        what it holds (Refused, naming path, when it is not a whole Scorekeeper backup)."""
        try:
            self.fill(path)
            connections.settings[STAGING] = {**connection.settings_dict, "NAME": self.name}
            staged = connections[STAGING]
            refuse_unknown_migrations(staged)
            call_command("migrate", database=STAGING, interactive=False, verbosity=0)
            refuse_unless_whole(staged)
            return holds(STAGING)
        except (Failed, DatabaseError, sqlite3.Error) as error:
            said = str(error).strip().splitlines() or [type(error).__name__]
            raise Refused(f"{path} is not a whole Scorekeeper backup: {said[0]}") from None
        except NotWhole as why:
            raise Refused(f"{path} is not a whole Scorekeeper backup: {why}") from None
        finally:
            if STAGING in connections.settings:
                connections[STAGING].close()

    def drop(self):
        """Remove what is left of the staged database (nothing, once switched in)."""
        connections.settings.pop(STAGING, None)


class NotWhole(Exception):
    """What a staged copy lacks, in a few words."""


def refuse_unknown_migrations(staged):
    """NotWhole for a copy with no record of its migrations (no backup of Scorekeeper's) or
    with one this version does not know (written by a newer one)."""
    loader = MigrationLoader(staged)
    applied = set(loader.applied_migrations)
    if not any(app == "games" for app, _name in applied):
        raise NotWhole("it holds no record of the app's migrations")
    unknown = sorted(applied - set(loader.disk_migrations))
    if unknown:
        raise NotWhole(
            f"it was written by a newer Scorekeeper (migration {'.'.join(unknown[0])}): "
            "update this one first"
        )


def refuse_unless_whole(staged):
    """NotWhole unless the migrated copy has every table and column the app's models expect,
    no migration left to run, and (SQLite) passes its integrity and foreign key checks."""
    executor = MigrationExecutor(staged)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        raise NotWhole("its migrations did not all run")
    with staged.cursor() as cursor:
        tables = set(staged.introspection.table_names(cursor))
        for model in apps.get_models():
            table = model._meta.db_table
            if table not in tables:
                raise NotWhole(f"it has no table {table}")
            columns = {c.name for c in staged.introspection.get_table_description(cursor, table)}
            missing = {f.column for f in model._meta.local_concrete_fields} - columns
            if missing:
                raise NotWhole(f"its table {table} has no column {sorted(missing)[0]}")
        if staged.vendor == "sqlite":
            if cursor.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise NotWhole("it fails SQLite's integrity check")
            if cursor.execute("PRAGMA foreign_key_check").fetchone() is not None:
                raise NotWhole("a row of it points to one that is not there")


def holds(alias):
    """What the database under alias holds: {"matches", "tables", "rounds", "payments"}."""
    return {
        "matches": Match.objects.using(alias).count(),
        "tables": Table.objects.using(alias).count(),
        "rounds": Round.objects.using(alias).filter(deleted=None).count(),
        "payments": Payment.objects.using(alias).filter(deleted=None).count(),
    }


class SQLiteStage(Stage):
    """A new file beside the database file, moved over it in one rename."""

    def __init__(self):
        self.live = Path(connection.settings_dict["NAME"])
        self.name = str(self.live.with_name(f".{self.live.name}.restoring"))
        self.remove(Path(self.name))

    def fill(self, path):
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as backup:
            with closing(sqlite3.connect(self.name)) as staged:
                backup.backup(staged)

    def switch(self):
        """Move the staged file over the database, each as one file (no write-ahead log beside
        it): nothing opens the database meanwhile (no server runs, this one closed)."""
        connection.close()
        with closing(sqlite3.connect(self.name)) as staged:
            staged.execute("PRAGMA journal_mode=DELETE")
        if self.live.exists():
            with closing(sqlite3.connect(self.live)) as live:
                live.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.remove(self.live, file=False)
        os.replace(self.name, self.live)

    def drop(self):
        super().drop()
        self.remove(Path(self.name))

    @staticmethod
    def remove(path, file=True):
        """Remove the database file at path (file) and its write-ahead log and shared memory."""
        for suffix in ("", "-wal", "-shm", "-journal")[0 if file else 1 :]:
            Path(f"{path}{suffix}").unlink(missing_ok=True)


class PostgresStage(Stage):
    """A new database beside this one (its name and _restoring), renamed to this one's name."""

    def __init__(self):
        self.live = connection.settings_dict["NAME"]
        self.name = f"{self.live}_restoring"
        maintain(f"DROP DATABASE IF EXISTS {quoted(self.name)}")
        maintain(f"CREATE DATABASE {quoted(self.name)} TEMPLATE template0")

    def fill(self, path):
        run(
            ["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error"]
            + ["--single-transaction", f"--dbname={self.name}", str(path)]
        )

    def switch(self):
        """Rename this database aside and the staged one to its name, then drop the old one;
        refused, with nothing changed, when a session connected meanwhile."""
        connection.close()
        replaced = f"{self.live}_replaced"
        maintain(f"DROP DATABASE IF EXISTS {quoted(replaced)}")
        try:
            maintain(f"ALTER DATABASE {quoted(self.live)} RENAME TO {quoted(replaced)}")
        except psycopg.Error:
            raise Refused(SERVING_NOW) from None
        try:
            maintain(f"ALTER DATABASE {quoted(self.name)} RENAME TO {quoted(self.live)}")
        except psycopg.Error:
            maintain(f"ALTER DATABASE {quoted(replaced)} RENAME TO {quoted(self.live)}")
            raise
        maintain(f"DROP DATABASE {quoted(replaced)}")

    def drop(self):
        super().drop()
        maintain(f"DROP DATABASE IF EXISTS {quoted(self.name)}")


def quoted(name):
    return connection.ops.quote_name(name)


def maintain(statement):
    """Run statement on the server's maintenance database (postgres), not on this one: a
    database is made, renamed and dropped from another."""
    database = connection.settings_dict
    info = make_conninfo(
        host=database["HOST"] or None,
        port=database["PORT"] or None,
        user=database["USER"] or None,
        password=database["PASSWORD"] or None,
        dbname="postgres",
        sslmode=database["OPTIONS"].get("sslmode"),
    )
    with psycopg.connect(info, autocommit=True) as admin:
        admin.execute(statement)


def check_backup(path):
    """Refuse a file that is not a whole backup of this server's kind of database."""
    try:
        with open(path, "rb") as backup:
            start = backup.read(len(SQLITE_START))
    except FileNotFoundError:
        raise Refused(f"There is no file {path}.") from None
    except IsADirectoryError:
        raise Refused(f"{path} is a folder: name the backup file in it.") from None
    except OSError as error:
        raise Refused(f"{path} cannot be read: {error.strerror or error}.") from None
    kinds = {"sqlite": start == SQLITE_START, "postgresql": start.startswith(POSTGRES_START)}
    kind = next((kind for kind, found in kinds.items() if found), None)
    if kind is not None and kind != connection.vendor:
        raise Refused(
            f"{path} is a copy of a {ENGINES[kind]} database and this server uses "
            f"{ENGINES[connection.vendor]}: run restore {SETTING[kind]}."
        )
    whole = sqlite_holds_matches(path) if kind == "sqlite" else dump_holds_matches(path)
    if kind is None or not whole:
        raise Refused(f"{path} is not a Scorekeeper backup (manage.py backup writes them).")


def sqlite_holds_matches(path):
    """True when the SQLite file at path is whole and has the matches' table."""
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as backup:
            whole = backup.execute("PRAGMA quick_check").fetchone() == ("ok",)
            named = backup.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                [Match._meta.db_table],
            ).fetchone()
            return whole and named is not None
    except sqlite3.DatabaseError:
        return False


def dump_holds_matches(path):
    """True when pg_restore reads the dump at path and lists the matches' table in it."""
    try:
        listing = run(["pg_restore", "--list", str(path)])
    except Failed:
        return False
    return f" TABLE public {Match._meta.db_table} " in listing


def held():
    """(matches, tables) the database holds now; (0, 0) before its first migrate."""
    if Match._meta.db_table not in connection.introspection.table_names():
        return 0, 0
    return Match.objects.count(), Table.objects.count()


# ---- the tools


@contextmanager
def database_trouble():
    """A database that cannot be reached, read or written, as a Refused with its first line."""
    try:
        yield
    except (DatabaseError, sqlite3.Error) as error:
        said = str(error).strip().splitlines() or [type(error).__name__]
        raise Refused(f"The database answered: {said[0]}") from None


def run(command):
    """Run a PostgreSQL tool with this server's connection settings and return what it printed;
    refuse with its error line."""
    try:
        done = subprocess.run(command, env=libpq_environment(), capture_output=True, text=True)
    except FileNotFoundError:
        raise Refused(
            f"{command[0]} is not installed: install PostgreSQL's client tools "
            "(Debian: apt-get install postgresql-client)."
        ) from None
    if done.returncode:
        lines = done.stderr.strip().splitlines() or ["it failed"]
        said = next((line for line in lines if "error:" in line.lower()), lines[-1]).strip()
        raise Failed(said if said.startswith(f"{command[0]}:") else f"{command[0]}: {said}")
    return done.stdout


def libpq_environment():
    """This server's database settings as the variables PostgreSQL's tools read."""
    database = connection.settings_dict
    variables = {
        "PGHOST": database["HOST"],
        "PGPORT": database["PORT"],
        "PGUSER": database["USER"],
        "PGPASSWORD": database["PASSWORD"],
        "PGDATABASE": database["NAME"],
        "PGSSLMODE": database["OPTIONS"].get("sslmode"),
    }
    return {**os.environ, **{name: str(value) for name, value in variables.items() if value}}


def counted(number, one, many):
    """The number with its noun: 1 match, 3 matches."""
    return f"{number} {one if number == 1 else many}"
