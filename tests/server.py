"""Run the real app under gunicorn for tests that need several worker processes."""

import http.cookiejar
import os
import re
import signal as signals
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
POSTGRES = "postgres://postgres@127.0.0.1:5432/"


def postgres_listening():
    try:
        socket.create_connection(("127.0.0.1", 5432), timeout=1).close()
        return True
    except OSError:
        return False


# The databases a server test runs against: SQLite always, PostgreSQL where one listens.
DATABASES = [
    "sqlite",
    pytest.param(
        "postgres",
        marks=pytest.mark.skipif(
            not postgres_listening(), reason="no PostgreSQL on 127.0.0.1:5432"
        ),
    ),
]


@contextmanager
def database(kind):
    """A fresh, empty database URL of kind "sqlite" or "postgres" (dropped afterwards)."""
    if kind == "sqlite":
        yield None
        return
    import psycopg

    name = f"scorekeeper_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(POSTGRES + "postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield POSTGRES + name
    finally:
        with psycopg.connect(POSTGRES + "postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """gunicorn serving the project on 127.0.0.1 with its own data folder and database."""

    def __init__(self, data_dir, database_url=None, workers=4, root=ROOT):
        """root: the project's folder (another tree of it, say, for a benchmark's "before")."""
        self.root = root
        self.env = {**os.environ, "DATA_DIR": str(data_dir), "DEBUG": "0"}
        self.env.pop("DATABASE_URL", None)
        if database_url:
            self.env["DATABASE_URL"] = database_url
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.process = None
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=root,
            env=self.env,
            check=True,
        )

    def start(self):
        gunicorn = Path(sys.executable).with_name("gunicorn")
        self.process = subprocess.Popen(
            [
                str(gunicorn),
                "-c",
                "scorekeeper/gunicorn_conf.py",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(self.workers),
                "--log-level",
                "warning",
                "--access-logfile",
                "/dev/null",
            ],
            cwd=self.root,
            env=self.env,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=2)
                return self
            except OSError:  # not listening yet, or still booting its workers
                time.sleep(0.2)
        raise RuntimeError("gunicorn did not start")

    def workers_pids(self):
        """The worker processes of the gunicorn master."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()] if children.exists() else []

    def stop(self, signal=None):
        if self.process and self.process.poll() is None:
            if signal is None:
                self.process.terminate()
            else:
                self.process.send_signal(signal)
            self.process.wait(timeout=30)


def wait_gone(pids, seconds=10):
    """Wait for processes to exit; what is still running after seconds is killed."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in pids):
        time.sleep(0.1)
    for pid in pids:
        try:
            os.kill(pid, signals.SIGKILL)
        except ProcessLookupError:
            pass


class Phone:
    """A browser-like client: keeps cookies and posts forms with their CSRF token."""

    def __init__(self, base_url):
        self.base_url = base_url
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )
        self.page = ""

    def get(self, path):
        with self.opener.open(self.base_url + path, timeout=30) as response:
            self.page = response.read().decode()
            return response.status

    def post(self, path, form, headers=None):
        """Post form with this page's CSRF token; return (status, body, location)."""
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', self.page).group(1)
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **form}).encode()
        request = urllib.request.Request(self.base_url + path, data=data, headers=headers or {})
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode(), response.headers.get("Location")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(), error.headers.get("Location")


@contextmanager
def slow_sockets(port, count=150, every=5.0):
    """count connections to the server, each sending a request line and then one more header
    line every `every` seconds, never the blank line that ends the headers (slowloris)."""
    sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
    for sock in sockets:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    stop = threading.Event()

    def trickle():
        while not stop.wait(every):
            for number, sock in enumerate(sockets):
                try:
                    sock.sendall(b"X-Slow-%d: a\r\n" % number)
                except OSError:  # the server closed it: that is its right
                    pass

    trickling = threading.Thread(target=trickle)
    trickling.start()
    try:
        yield sockets
    finally:
        stop.set()
        trickling.join()
        for sock in sockets:
            sock.close()


def collect_static(data_dir, root=ROOT):
    """Gather the static files into STATIC_ROOT, as `make run` does: whitenoise serves them."""
    env = {**os.environ, "DATA_DIR": str(data_dir)}
    command = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
    subprocess.run(command, cwd=root, env=env, check=True)


@contextmanager
def slow_readers(port, path, count=150, every=1.0, size=1024):
    """count connections each asking for path (a large static file), then reading size bytes
    of the answer every `every` seconds through a small receive window (a very slow link).
    Yields the number of bytes each has read so far."""
    sockets = []
    for _ in range(count):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % path.encode())
        sock.setblocking(False)
        sockets.append(sock)
    received = [0] * count
    stop = threading.Event()

    def read_slowly():
        while not stop.wait(every):
            for number, sock in enumerate(sockets):
                try:
                    received[number] += len(sock.recv(size))
                except OSError:  # nothing arrived yet, or the server closed it
                    pass

    reading = threading.Thread(target=read_slowly)
    reading.start()
    try:
        yield received
    finally:
        stop.set()
        reading.join()
        for sock in sockets:
            sock.close()


def new_least_score(server, **options):
    """A phone that started a three-player Least Score match; returns (phone, match path)."""
    phone = Phone(server.url)
    phone.get("/new/least_score/")
    form = {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen", **options}
    status, _body, location = phone.post("/new/least_score/", form)
    assert status == 302
    phone.get(location)
    return phone, location


def new_sheet(server, players=("Ann", "Bo", "Chen", "Dee"), **options):
    """A phone that started a score sheet (with no option it never ends by itself); returns
    (phone, match path)."""
    phone = Phone(server.url)
    phone.get("/new/sheet/")
    form = {**{f"player_{seat}": name for seat, name in enumerate(players)}, **options}
    status, _body, location = phone.post("/new/sheet/", form)
    assert status == 302
    phone.get(location)
    return phone, location


def save_sheet(phone, match_path, version, points=(5, -5, 0, 0)):
    """The phone saves a round of a four-player score sheet drawn at version (a plain form)."""
    form = {"version": str(version), **{f"points-{k}": str(p) for k, p in enumerate(points)}}
    status, _body, _location = phone.post(match_path + "rounds/", form)
    assert status == 302, status


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Listener:
    """A phone's live stream (games/stream.py), read from a socket: the answer's status and
    headers, then each message (an event's lines, or a comment) as it comes."""

    def __init__(self, port, path, headers=None, timeout=15):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: text/event-stream"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.reader = self.sock.makefile("rb")
        self.status = int(self.reader.readline().split()[1])
        self.headers = {}
        while (line := self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self.pending = b""

    def message(self):
        """The next message (its text, without the blank line that ends it), or None once the
        answer has ended."""
        while b"\n\n" not in self.pending:
            size = int(self.reader.readline().strip() or b"0", 16)  # a chunk of the answer
            if size == 0:
                return None
            self.pending += self.reader.read(size)
            self.reader.readline()
        message, _, self.pending = self.pending.partition(b"\n\n")
        return message.decode()

    def event(self):
        """The next event's text (comments skipped), or None once the answer has ended."""
        while (message := self.message()) is not None:
            if not message.startswith(":"):
                return message
        return None

    def close(self):
        self.reader.close()
        self.sock.close()


def watch_path(phone, match_path):
    """The watch link of the match whose score link phone opened (from its share page)."""
    phone.get(match_path + "share/")
    return re.search(r'href="(?:https?://[^/"]+)?(/w/[^/"]+/)"', phone.page).group(1)


class Relay:
    """A network between a phone and the server (a TCP relay on its own port, its address
    url): drop_streams() cuts every live stream through it and refuses the next ones until
    mend(); with hold=True it passes a live stream's answer only once it has ended (a proxy
    that buffers)."""

    def __init__(self, port, hold=False):
        self.target, self.hold = port, hold
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.streams, self.dropping, self.lock = set(), False, threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                phone, _address = self.listener.accept()
            except OSError:
                return  # closed
            server = socket.create_connection(("127.0.0.1", self.target))
            link = {"phone": phone, "server": server, "stream": False}
            threading.Thread(target=self.up, args=(link,), daemon=True).start()
            threading.Thread(target=self.down, args=(link,), daemon=True).start()

    def up(self, link):
        """What the phone sends, to the server; a live stream asked for is marked (or cut)."""
        try:
            while data := link["phone"].recv(65536):
                if re.search(rb"GET /[^ ]*/stream ", data):
                    link["stream"] = True
                    with self.lock:
                        self.streams.add(link["phone"])
                        if self.dropping:
                            break
                link["server"].sendall(data)
        except OSError:
            pass
        self.close(link)

    def down(self, link):
        """What the server sends, to the phone (held back on a stream when hold)."""
        held = []
        try:
            while data := link["server"].recv(65536):
                if self.hold and link["stream"]:
                    held.append(data)
                else:
                    link["phone"].sendall(data)
            link["phone"].sendall(b"".join(held))
        except OSError:
            pass
        self.close(link)

    def close(self, link):
        with self.lock:
            self.streams.discard(link["phone"])
        for sock in (link["phone"], link["server"]):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def drop_streams(self):
        """Cut every live stream through the relay; refuse the next ones until mend()."""
        with self.lock:
            self.dropping = True
            cut = list(self.streams)
        for phone in cut:
            try:
                phone.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def mend(self):
        self.dropping = False

    def stop(self):
        self.listener.close()
