"""A public server meets clients that send slowly or never finish, and bodies of any size:
none of them may keep a table's phones waiting or make a worker read more than the limit."""

import http.client
import time
import urllib.error
import urllib.request

import pytest

from games.offline import PYODIDE_VERSION, runtime_ready
from tests.server import Server, collect_static, new_least_score, slow_readers, slow_sockets

WASM = f"/static/offline/pyodide/{PYODIDE_VERSION}/pyodide.asm.wasm"

ROUND = {"declarer": "0", "hand-0": "7", "hand-1": "15", "hand-2": "20"}


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path, workers=2).start()
    yield running
    running.stop()


def test_150_slow_sockets_leave_the_home_page_and_a_save_answering(server):
    table, match_url = new_least_score(server)
    with slow_sockets(server.port, count=150, every=1):
        with urllib.request.urlopen(server.url + "/", timeout=10) as home:
            assert home.status == 200 and b"Scorekeeper" in home.read()
        status, _page, location = table.post(match_url + "rounds/", ROUND)
        assert status == 302 and location == match_url
        assert table.get(match_url) == 200 and "Round 2" in table.page


@pytest.fixture
def static_server(tmp_path):
    if not runtime_ready():
        pytest.skip("no offline runtime (make offline-runtime)")
    collect_static(tmp_path)
    running = Server(tmp_path, workers=2).start()
    yield running
    running.stop()


def test_150_slow_readers_of_the_offline_runtime_leave_the_home_page_and_a_save_answering(
    static_server,
):
    table, match_url = new_least_score(static_server)
    with slow_readers(static_server.port, WASM, count=150) as received:
        deadline = time.monotonic() + 10
        while not all(received) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert all(received)  # every reader is being sent the runtime at once
        with urllib.request.urlopen(static_server.url + "/", timeout=10) as home:
            assert home.status == 200 and b"Scorekeeper" in home.read()
        status, _page, location = table.post(match_url + "rounds/", ROUND)
        assert status == 302 and location == match_url
        assert table.get(match_url) == 200 and "Round 2" in table.page
        assert all(count < 2**20 for count in received)  # and none is near its end


def head(server, path, headers):
    request = urllib.request.Request(server.url + path, method="HEAD", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers
    except urllib.error.HTTPError as answer:
        return answer.code, answer.headers


def test_static_files_keep_their_security_and_cache_headers(static_server):
    status, headers = head(static_server, WASM, {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Type"] == "application/wasm"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "immutable" in headers["Cache-Control"] and headers["Content-Encoding"] == "gzip"
    etag = headers["ETag"]
    assert head(static_server, WASM, {"If-None-Match": etag})[0] == 304
    status, headers = head(static_server, WASM, {"Range": "bytes=0-3"})
    assert status == 206 and headers["Content-Range"].startswith("bytes 0-3/")
    assert head(static_server, "/static/no-such-file.js", {})[0] == 404


def raw_post(server, path, headers, body=b""):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.putrequest("POST", path)
    for name, value in headers.items():
        connection.putheader(name, value)
    connection.endheaders(body)
    answer = connection.getresponse()
    return answer.status, answer.read().decode()


def test_a_body_declared_over_the_limit_is_refused_in_words_without_being_read(server):
    # 3 MB declared, 10 bytes sent: the answer comes at once, as the page for a too-large body.
    status, page = raw_post(server, "/import/", {"Content-Length": str(3 * 2**20)}, b"document=x")
    assert status == 413 and "too large" in page


def test_a_body_of_no_declared_length_is_refused(server):
    headers = {"Transfer-Encoding": "chunked", "Content-Type": "application/x-www-form-urlencoded"}
    status, page = raw_post(server, "/import/", headers, b"4\r\nab=c\r\n0\r\n\r\n")
    assert status == 411 and "Content-Length" in page
