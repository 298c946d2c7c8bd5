"""The app's settings for the test run: a throwaway data folder and secret key.

The real settings never create files on import (manage.py and the WSGI entry point do, at
start), so the tests give them what a start would.
"""

import os
import tempfile

os.environ.setdefault("DATA_DIR", tempfile.mkdtemp(prefix="scorekeeper-tests-"))
if "PYTEST_XDIST_WORKER" in os.environ:  # each test process its own folder
    os.environ["DATA_DIR"] = tempfile.mkdtemp(
        prefix=f"scorekeeper-tests-{os.environ['PYTEST_XDIST_WORKER']}-"
    )
os.environ.setdefault("SECRET_KEY", "tests-only-" + "x" * 50)
# The suite starts far more matches from one address than a table; tests of the limits set theirs.
os.environ.setdefault("RATE_NEW_MATCHES", "100000/h")
os.environ.setdefault("RATE_IMPORTS", "100000/h")

from scorekeeper.settings import *  # noqa: E402,F403
