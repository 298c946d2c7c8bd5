"""Reading the environment variables the app and gunicorn are configured by."""

import os

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
