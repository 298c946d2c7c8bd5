"""A consistent copy of the whole database, written while the server runs, and bringing one back:
SQLite's online backup for the embedded default, pg_dump's custom format for PostgreSQL.

What goes wrong is a Refused with one sentence for the organiser; nothing is half written.
"""

import os
import sqlite3
import subprocess
import tempfile
from contextlib import closing, contextmanager
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from games.models import Match, Table

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


def restore(path, replace=False):
    """Replace the whole database with the copy at path, migrated to this version of the app;
    return (the file keeping what the database held before, or None; matches; tables)."""
    path = Path(path)
    with database_trouble():
        check_backup(path)
        kept = None
        matches, tables = held()
        if matches or tables:
            if not replace:
                raise Refused(
                    f"This database already holds {counted(matches, 'match', 'matches')} and "
                    f"{counted(tables, 'table', 'tables')}: restoring {path} would replace them. "
                    "Run again with --replace to replace them (they are kept in a backup first)."
                )
            kept = write(Path(settings.DATA_DIR))[0]
        if connection.vendor == "sqlite":
            restore_sqlite(path)
        else:
            restore_postgres(path)
        connection.close()
        call_command("migrate", interactive=False, verbosity=0)
        return kept, *held()


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


def restore_sqlite(path):
    """Copy the backup over the SQLite database in one write."""
    live = Path(connection.settings_dict["NAME"])
    connection.close()
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as backup:
        with closing(sqlite3.connect(live, timeout=20)) as database:
            backup.backup(database)


def restore_postgres(path):
    """In one transaction: drop the app's tables and function, then run the dump's statements
    (pg_restore's script, run by psql); any error leaves the database as it was."""
    present = set(connection.introspection.table_names())
    app_tables = [*connection.introspection.django_table_names(), "django_migrations"]
    dropped = ", ".join(map(connection.ops.quote_name, sorted(present.intersection(app_tables))))
    dropping = [f"--command=DROP TABLE {dropped} CASCADE"] if dropped else []
    # The function the triggers of migration 0011 call (a dump holding it creates it anew).
    dropping.append("--command=DROP FUNCTION IF EXISTS games_live_notify() CASCADE")
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "restore.sql"
        run(["pg_restore", "--no-owner", "--no-privileges", f"--file={script}", str(path)])
        run(
            ["psql", "--no-psqlrc", "--quiet", "--single-transaction", "--set=ON_ERROR_STOP=1"]
            + [*dropping, f"--file={script}"]
        )


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
        said = next((line for line in lines if "error:" in line.lower()), lines[-1])
        raise Failed(f"{command[0]}: {said.strip()}")
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
