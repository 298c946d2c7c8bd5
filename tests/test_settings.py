"""Settings from the environment: a bad value stops the start, HTTPS passes the deploy checks."""

import subprocess
import sys

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "name, value, said",
    [
        ("DEBUG", "maybe", "DEBUG must be 1/true/yes/on or 0/false/no/off, not 'maybe'"),
        ("RATE_NEW_MATCHES", "lots", "RATE_NEW_MATCHES must be a count per s, m, h or d"),
        ("RATE_IMPORTS", "10/week", "RATE_IMPORTS must be a count per s, m, h or d"),
        ("MIN_FREE_MB", "-5", "MIN_FREE_MB must be a whole number, not '-5'"),
    ],
)
def test_a_bad_setting_stops_the_start_with_a_clear_message(name, value, said):
    run = subprocess.run(
        [sys.executable, "manage.py", "check"],
        capture_output=True,
        text=True,
        env={name: value, "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode != 0
    assert said in run.stderr


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
