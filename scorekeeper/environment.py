"""Reading the environment variables the app and gunicorn are configured by."""

import os
import re

from django.core.exceptions import ImproperlyConfigured


def env_flag(name, default=False):
    """A yes/no environment variable; anything unrecognised is an error, not a silent no."""
    value = os.environ.get(name, "").strip().lower()
    if value == "":
        return default
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be 1/true/yes/on or 0/false/no/off, not {value!r}")


def env_list(name, default):
    """A comma-separated environment variable as a list of its non-blank items."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_rate(name, default):
    """A rate such as "100/h": a count per s, m, h or d (scorekeeper/limits.py)."""
    value = os.environ.get(name, default).strip()
    if not re.fullmatch(r"[0-9]+/[smhd]", value):
        raise ImproperlyConfigured(
            f"{name} must be a count per s, m, h or d (say 100/h), not {value!r}"
        )
    return value


def env_int(name, default):
    """A whole number of 0 or more."""
    value = os.environ.get(name, str(default)).strip()
    if not value.isascii() or not value.isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}")
    return int(value)
