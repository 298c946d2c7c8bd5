"""Settings from the environment: a bad value stops the start, HTTPS passes the deploy checks."""

import subprocess
import sys

import pytest

pytestmark = pytest.mark.django_db


def test_a_bad_setting_stops_the_start_with_a_clear_message():
    run = subprocess.run(
        [sys.executable, "manage.py", "check"],
        capture_output=True,
        text=True,
        env={"DEBUG": "maybe", "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode != 0
    assert "DEBUG must be 1/true/yes/on or 0/false/no/off, not 'maybe'" in run.stderr


def test_the_https_setup_passes_the_deployment_checks():
    env = {
        "HTTPS": "1",
        "ALLOWED_HOSTS": "scores.example.org",
        "PATH": "/usr/bin:/bin",
        "SECRET_KEY": "x" * 60 + "a-long-random-looking-secret-key-for-the-test-only",
    }
    run = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert run.returncode == 0, run.stderr
