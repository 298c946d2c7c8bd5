"""A SQLite server whose disk fills up (on a small filesystem made for the test): /healthz and a
save say so (503), and once space is freed both work again within 5 s, on the same workers."""

import os
import re
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from tests.server import Server, new_least_score

RECOVERY_SECONDS = 5


@pytest.fixture
def small_disk(tmp_path):
    """A 16 MB tmpfs mounted for the test; skipped where this machine refuses to mount one."""
    folder = tmp_path / "small"
    folder.mkdir()
    try:
        mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(folder)],
            capture_output=True,
            text=True,
        )
    except FileNotFoundError:
        pytest.skip("no mount command: this machine cannot make a small filesystem")
    if mounted.returncode:
        pytest.skip(f"this machine cannot mount a small filesystem: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], check=True)


def health(server):
    try:
        with urllib.request.urlopen(server.url + "/healthz", timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def fill(path):
    """Write zeros to path until the filesystem has not a byte left."""
    with open(path, "ab", buffering=0) as filler:
        for chunk in (2**16, 2**9, 1):
            try:
                while True:
                    filler.write(b"\0" * chunk)
            except OSError:
                pass


def save(phone, match, k):
    """Post round k of a Least Score match; (status, page)."""
    form = {"declarer": "0", "hand-0": "1", "hand-1": "2", "hand-2": "3", "entry_key": f"k{k}"}
    return phone.post(match + "rounds/", form)[:2]


def until(seconds, check):
    """The seconds it took check() to hold, or None if it did not within seconds."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if check():
            return time.monotonic() - started
        time.sleep(0.1)
    return None


def test_a_full_disk_freed_answers_again_within_5_seconds(small_disk, monkeypatch):
    monkeypatch.setenv("MIN_FREE_MB", "0")  # new matches may start on the small disk
    server = Server(small_disk / "data", workers=2).start()
    try:
        phone, match = new_least_score(server, threshold="1000")
        assert health(server) == 200 and save(phone, match, 0)[0] == 302
        fill(small_disk / "filler")
        assert until(10, lambda: health(server) == 503) is not None, "a full disk is a 503"
        status, page = save(phone, match, 1)
        assert status == 422 and "Not saved" in page, "the save says so, its entry kept"

        os.unlink(small_disk / "filler")
        waited = until(RECOVERY_SECONDS, lambda: health(server) == 200)
        assert waited is not None, f"/healthz still failing {RECOVERY_SECONDS} s after space freed"
        assert [health(server) for _ in range(8)] == [200] * 8
        assert save(phone, match, 1)[0] == 302
        phone.get(match + "?rounds=all")
        assert len(re.findall('title="Edit this round"', phone.page)) == 2
    finally:
        server.stop()
