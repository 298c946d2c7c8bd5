"""The app's settings for the test run: a throwaway data folder and secret key.

The real settings never create files on import (manage.py and the WSGI entry point do, at
start), so the tests give them what a start would.
"""

import os
import tempfile

# A data folder of each test process's own (pytest-xdist's workers too); a server a test starts
# with its own DATA_DIR, or one set by hand, keeps it.
whose = os.environ.get("PYTEST_XDIST_WORKER", "main")
if os.environ.get("TESTS_DATA_DIR_OF", whose) != whose or "DATA_DIR" not in os.environ:
    os.environ["DATA_DIR"] = tempfile.mkdtemp(prefix=f"scorekeeper-tests-{whose}-")
    os.environ["TESTS_DATA_DIR_OF"] = whose
os.environ.setdefault("SECRET_KEY", "tests-only-" + "x" * 50)
# The suite starts far more matches from one address than a table; tests of the limits set theirs.
os.environ.setdefault("RATE_NEW_MATCHES", "100000/h")
os.environ.setdefault("RATE_IMPORTS", "100000/h")

from scorekeeper.settings import *  # noqa: E402,F403
