"""gunicorn's uvicorn worker (scorekeeper/gunicorn_conf.py), with its graceful stop bounded.

A live stream (games/stream.py) never ends by itself, and uvicorn waits for every open answer
before a worker stops: a restart, a deploy or Ctrl-C would wait for gunicorn's graceful_timeout
(30 s) and then kill the worker. Here what is still open GRACE_SECONDS after the stop began is
cancelled (uvicorn's timeout_graceful_shutdown, one line in its log): each stream then ends its
answer, and the phone's browser opens it again on the server that serves it then. A save, a
page or a live check takes milliseconds: well within the grace.
"""

from uvicorn_worker import UvicornWorker

GRACE_SECONDS = 5


class Worker(UvicornWorker):
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "timeout_graceful_shutdown": GRACE_SECONDS}
