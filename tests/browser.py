"""Which Chromium the browser tests drive: Playwright's own build when it is installed (and
starts), else Debian's /usr/bin/chromium. `python -m tests.browser` prints the one found, or
exits with status 1 when there is none (scripts/test-tools uses it)."""

import subprocess
import sys

DEBIAN = "/usr/bin/chromium"


def starts(path):
    """True when path is a browser that runs here (present, and its libraries too)."""
    try:
        done = subprocess.run([path, "--version"], capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def pick(bundled):
    """Playwright's bundled Chromium (executable_path) if it starts, else Debian's, else None."""
    return next((path for path in (bundled, DEBIAN) if path and starts(path)), None)


def bundled_path():
    """Where Playwright keeps its own Chromium (whether or not it is installed)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        return playwright.chromium.executable_path


if __name__ == "__main__":
    found = pick(bundled_path())
    if found is None:
        sys.exit(1)
    print(found)
