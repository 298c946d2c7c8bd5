"""A public server meets clients that send slowly or never finish, and bodies of any size:
none of them may keep a table's phones waiting or make a worker read more than the limit."""

import http.client
import urllib.request

import pytest

from tests.server import Server, new_least_score, slow_sockets

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
