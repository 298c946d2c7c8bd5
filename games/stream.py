"""Live streams: a match page, a table's page and a TV board each open one Server-Sent Events
stream (static/app.js), held here on the worker's event loop before Django's thread pool
(settings.ASGI_MIDDLEWARE, which scorekeeper/asgi.py puts in front of it): an open stream costs
a socket and a few kB, never a thread.

A stream says "version v" at once and whenever its match or table moves on, a comment every
KEEP_ALIVE_SECONDS to keep it open, and nothing else: the page then asks its live check, as it
does without a stream. A watch link's stream says what its page's live check carries (a match's
version, a table's tag: games/live.py). One hub a worker learns what moved for all its streams:
on PostgreSQL from the NOTIFY each change sends in its transaction (a trigger, migration
0014_live_streams) on one LISTEN connection, on SQLite by asking every POLL_SECONDS, in one
query, while a stream is open. Its database work runs on a thread of its own, one query at a
time. A stream the hub does not take (no such link, a Host not allowed, a plain-HTTP request
where HTTPS is required, its limits per worker and per client address reached) goes on to
Django, which answers as the live check does, or 204: the page keeps to its live check.
"""

import asyncio
import collections
import functools
import io
import logging
import re
import resource
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, close_old_connections, connection
from django.urls import Resolver404, resolve

from games import live
from scorekeeper.limits import client_address

CHANNEL = "scorekeeper_live"  # what the trigger of migration 0014 notifies
# Whether migration 0014's trigger is there, and on (without it, a worker asks as on SQLite).
TRIGGERED = "SELECT 1 FROM pg_trigger WHERE tgname = 'games_match_live' AND tgenabled <> 'D'"
PAYLOAD = re.compile(r"([mt])([0-9]{1,18})")  # a NOTIFY's: "m<id>" (a match) or "t<id>"
KINDS = {"m": "match", "t": "table"}
KEEP_ALIVE_SECONDS = 25
POLL_SECONDS = 0.25  # SQLite, or PostgreSQL while its LISTEN connection is down
LISTEN_AGAIN_SECONDS = 5  # how long the hub polls before it tries to LISTEN again
SEND_SECONDS = 10  # a phone that takes no byte of a message for so long is dropped
NAMES = {"match_stream", "watch_stream", "table_stream", "table_watch_stream"}  # games/urls.py
LONGEST_PATH = len("/tw//stream") + 32  # a link has at most 32 characters
HEAD = {
    "type": "http.response.start",
    "status": 200,
    "headers": [
        (b"content-type", b"text/event-stream"),
        (b"cache-control", b"private, no-store"),
        (b"x-content-type-options", b"nosniff"),
        (b"x-accel-buffering", b"no"),  # nginx in front: each message on as it comes
    ],
}
END = {"type": "http.response.body", "body": b""}

logger = logging.getLogger(__name__)


def streams_first(app):
    """Hold the live streams asked of this worker; hand anything else to app."""
    hub = Hub()

    async def streams(scope, receive, send):
        asked = scope["type"] == "http" and scope["method"] == "GET" and stream_of(scope["path"])
        if not asked:
            return await app(scope, receive, send)
        return await hub.serve(asked, scope, receive, send, app)

    return streams


@functools.lru_cache(maxsize=4096)  # of paths of LONGEST_PATH at most: well under 1 MB
def stream_of(path):
    """(kind, link, token) when path is a live stream's, else None: the URLconf decides."""
    if not path.endswith("/stream") or len(path) > LONGEST_PATH:
        return None
    try:
        found = resolve(path)
    except Resolver404:
        return None
    if found.url_name not in NAMES:
        return None
    return found.kwargs["kind"], found.kwargs["link"], found.kwargs["token"]


class Hub:
    """A worker's open streams, by the match or table each follows, and what tells them."""

    def __init__(self):
        self.following = collections.defaultdict(set)  # (kind, id) -> its streams
        self.by_address = collections.Counter()
        self.open = 0
        self.most = min(settings.STREAMS_PER_WORKER, files_allowed() // 2)
        self.notified = 0  # NOTIFYs received: one that came during a stream's lookup is asked
        self.watcher = None
        self.troubled = False  # the last check met a database in trouble
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="live")

    async def serve(self, asked, scope, receive, send, app):
        """Hold one stream until its phone goes, or hand it to app when it is not taken."""
        address = self.room_for(ASGIRequest(scope, io.BytesIO()))
        if address is None:
            return await app(scope, receive, send)
        stream = Stream()
        self.open += 1
        self.by_address[address] += 1
        try:
            notified = self.notified
            found = await self.lookup(asked)
            if found is None:
                return await app(scope, receive, send)
            stream.key = (asked[0], found[0])
            stream.tell(found[1])
            self.follow(stream)
            if self.notified != notified:
                await self.check({stream.key})
            await stream.run(receive, send)
        finally:
            self.open -= 1
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]
            self.unfollow(stream)

    def room_for(self, request):
        """The client's address when the hub takes its stream, else None."""
        try:
            request.get_host()  # a Host not allowed: Django's 400
        except DisallowedHost:
            return None
        if settings.SECURE_SSL_REDIRECT and not request.is_secure():
            return None  # Django's redirect to HTTPS
        address = client_address(request)
        if self.open >= self.most or self.by_address[address] >= settings.STREAMS_PER_ADDRESS:
            return None
        return address

    def follow(self, stream):
        self.following[stream.key].add(stream)
        if self.watcher is None or self.watcher.done():
            self.watcher = asyncio.create_task(self.watch())

    def unfollow(self, stream):
        streams = self.following.get(stream.key)
        if streams is not None:
            streams.discard(stream)
            if not streams:
                del self.following[stream.key]

    async def ask(self, function, *args):
        """function(*args), run on the hub's thread (in_django)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.thread, functools.partial(in_django, function, *args)
        )

    async def lookup(self, asked):
        """(id, version) of the match or table a stream asks for, or None (Django answers)."""
        try:
            return await self.ask(live.opened, *asked)
        except DatabaseError:
            return None

    async def check(self, keys):
        """Tell the streams following keys what their match or table is at now (a database
        in trouble tells them nothing: the next check asks again)."""
        keys = set(keys) & self.following.keys()
        if not keys:
            return
        try:
            now = await self.ask(live.now_at, keys)
        except DatabaseError as error:
            if not self.troubled:  # said once, not four times a second
                logger.warning("live streams: %s", error)
            self.troubled = True
            return
        self.troubled = False
        for key, version in now.items():
            for stream in self.following.get(key, ()):
                stream.tell(version)

    async def watch(self):
        """While a stream is open: learn what moved, and tell the streams following it."""
        while self.following:
            try:
                if connection.vendor == "postgresql":
                    await self.listen()
                else:
                    await self.poll()
            except (psycopg.Error, OSError) as error:
                logger.warning("live streams: %s; the hub asks every %s s", error, POLL_SECONDS)
                await self.poll(until=time.monotonic() + LISTEN_AGAIN_SECONDS)

    async def poll(self, until=float("inf")):
        """Ask every POLL_SECONDS, in one query, what every followed match and table is at."""
        while self.following and time.monotonic() < until:
            await asyncio.sleep(POLL_SECONDS)
            await self.check(self.following.keys())

    async def listen(self):
        """Wait on one LISTEN connection for what moved (payloads "m<id>", "t<id>")."""
        params = connection.get_connection_params()
        params.pop("cursor_factory", None)  # Django's are for its own, synchronous connections
        params.pop("context", None)
        async with await psycopg.AsyncConnection.connect(autocommit=True, **params) as listener:
            await listener.execute(f"LISTEN {CHANNEL}")
            if not await (await listener.execute(TRIGGERED)).fetchone():
                logger.warning("live streams: no trigger sends NOTIFY (manage.py migrate): polling")
                return await self.poll()
            await self.check(self.following.keys())  # what moved before this connection listened
            while self.following:
                notes = listener.notifies(timeout=LISTEN_AGAIN_SECONDS, stop_after=1)
                moved = {note.payload async for note in notes}
                self.notified += len(moved)
                found = [PAYLOAD.fullmatch(payload) for payload in moved]
                await self.check((KINDS[f[1]], int(f[2])) for f in found if f)


def in_django(function, *args):
    """function(*args), between the checks of the thread's connections Django makes around a
    request (one broken, or older than CONN_MAX_AGE, is closed)."""
    close_old_connections()
    try:
        return function(*args)
    finally:
        close_old_connections()


def files_allowed():
    """How many files (sockets included) this process may hold open."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Stream:
    """One phone's open stream: the latest version to tell it, and whether it has gone."""

    def __init__(self):
        self.key = None
        self.latest = self.told = None
        self.woken = asyncio.Event()
        self.gone = False

    def tell(self, version):
        if version != self.latest:
            self.latest = version
            self.woken.set()

    async def run(self, receive, send):
        """Send each new version, and the keep-alive, until the phone goes. A phone that takes
        no more is dropped; when the worker stops (scorekeeper/worker.py) the stream ends, and
        the phone's browser opens it again on the server that serves it then."""
        await send(HEAD)
        waiting = asyncio.create_task(self.wait_gone(receive))
        try:
            while not self.gone:
                message = await self.next_message()
                if message is not None:
                    async with asyncio.timeout(SEND_SECONDS):
                        await send(
                            {"type": "http.response.body", "body": message, "more_body": True}
                        )
            await send(END)
        except asyncio.CancelledError:
            await send(END)
        except TimeoutError:
            logger.info("live streams: a phone that read nothing for %s s dropped", SEND_SECONDS)
        finally:
            waiting.cancel()

    async def next_message(self):
        """The next message: the version, once it moved; a comment when nothing moved for
        KEEP_ALIVE_SECONDS; None when the phone went."""
        try:
            async with asyncio.timeout(KEEP_ALIVE_SECONDS):
                await self.woken.wait()
        except TimeoutError:
            return b": still here\n\n"
        self.woken.clear()
        if self.gone or self.latest == self.told:
            return None
        self.told = self.latest
        return f"event: version\ndata: {self.told}\n\n".encode()

    async def wait_gone(self, receive):
        while (await receive())["type"] != "http.disconnect":
            pass
        self.gone = True
        self.woken.set()
