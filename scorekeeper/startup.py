"""What starting the app needs on disk: the data folder and the secret key, made at start
(manage.py, the WSGI entry point), never when the settings are imported.

A data folder that cannot be written stops the start with one line, not a traceback.
"""

import fcntl
import os
import secrets
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
# A file in the data folder each serving process holds a shared lock on for as long as it runs
# (the lock goes with the process, however it ends): `manage.py restore` takes it alone, or
# refuses while a server runs on the data.
SERVING = "serving.lock"
HELD = []  # the open file whose lock this process holds


def data_dir():
    """Where SQLite and the secret key live: DATA_DIR, else ./data."""
    return Path(os.environ.get("DATA_DIR") or BASE_DIR / "data")


def key_file():
    return data_dir() / "secret_key"


def prepare():
    """Make the data folder and the secret key if missing; exit with one line if it cannot."""
    os.umask(0o077)  # the database, its journal and the key are the owner's alone
    folder = data_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not os.environ.get("SECRET_KEY"):
            make_key(key_file())
        probe_writes(folder)
    except OSError as error:
        sys.exit(
            f"Scorekeeper cannot start: the data folder {folder} cannot be written "
            f"({error.strerror or error}). Set DATA_DIR to a folder it can write."
        )


def serving():
    """Hold the shared lock that says a server runs on the data folder."""
    handle = open(data_dir() / SERVING, "a")  # held open, locked, for the process's life
    fcntl.flock(handle, fcntl.LOCK_SH)
    HELD.append(handle)


def make_key(path):
    """Write a new random secret key to path, readable by the owner only, unless it exists."""
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(handle, "w") as out:
        out.write(secrets.token_urlsafe(50))


def probe_writes(folder):
    """Raise OSError unless a small file can be written to folder (read-only or full)."""
    probe = folder / f".write-probe-{os.getpid()}"
    try:
        with open(probe, "wb") as out:
            out.write(b"\0" * 4096)
            out.flush()
            os.fsync(out.fileno())
    finally:
        probe.unlink(missing_ok=True)
