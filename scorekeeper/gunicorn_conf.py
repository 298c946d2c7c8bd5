"""gunicorn's settings for `make run`, from the same environment variables as the app.

uvicorn's workers (scorekeeper/asgi.py): each reads its connections on an event loop and hands
Django's WSGI application only whole requests, on THREADS threads, and sends static files itself,
so a client that sends its request slowly, never finishes it, or reads a large file slowly,
holds a socket and nothing else (bench/slow_clients); so does a phone's open live stream.
"""

import gc
import os
import resource

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
wsgi_app = "scorekeeper.asgi:application"
workers = int(os.environ.get("WORKERS", "3"))
worker_class = "scorekeeper.worker.Worker"  # uvicorn's, its graceful stop bounded
keepalive = 5
timeout = 30
accesslog = "-"
# uvicorn would put X-Forwarded-For's first address in REMOTE_ADDR for a peer in this list
# (gunicorn's default: the loopback address), so a client on this machine, or a proxy's client
# writing the header itself, could name any address. The app reads the proxy's headers itself,
# only with BEHIND_PROXY=1: X-Forwarded-For's last address (scorekeeper/limits.py) and
# X-Forwarded-Proto (SECURE_PROXY_SSL_HEADER).
forwarded_allow_ips = ""


def post_fork(server, worker):
    """Each open live stream is a socket: a worker may hold as many open files as the system
    lets it (its soft limit is often 1024), and holds streams for half of them at most
    (games/stream.py)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def post_worker_init(worker):
    """The app is loaded: what it holds lives as long as the worker, so the garbage collector's
    full passes are spared walking it (frozen, they walk what requests keep: a full pass went
    from 14 ms to 0.2 ms of a paused worker, as measured in bench/profile's process)."""
    gc.collect()
    gc.freeze()
