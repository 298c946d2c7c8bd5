"""A watch link only reads: nothing reachable from it gives away a score link.

Every URL a watching phone can reach (pages, the live check with any parameter, the series
block, the score-link URLs refused) is requested, and every link found in the answers is
followed; the score id of this match and of every match in its series appears in none.
"""

import re
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match, Table

pytestmark = pytest.mark.django_db

HANDS = [{"declarer": 0, "hands": [7, 15, 20]}, {"declarer": 1, "hands": [30, 2, 9]}]
LINK = re.compile(r'(?:href|hx-get|hx-post|action|src)="([^"]+)"')
SCORE_PATHS = [
    "",
    "live/",
    "share/",
    "history/",
    "rounds/",
    "preview/",
    "rounds/1/",
    "rounds/1/delete/",
    "rounds/1/restore/",
    "close/",
    "rematch/",
    "export.json",
    "export.csv",
    "offline.json",
]


def play(match, entries):
    for entry in entries:
        match.add_round(entry, "")


@pytest.fixture
def series():
    """Three matches of one series: two finished, the third in play."""
    first = Match.objects.create(
        game="least_score",
        players=["Ann", "Bo", "Chen"],
        options={"threshold": 25, "end": "first_out"},
    )
    play(first, HANDS)
    second = first.rematch()
    play(second, HANDS)
    third = second.rematch()
    play(third, HANDS[:1])
    return [Match.objects.get(pk=m.pk) for m in (first, second, third)]


def watcher_requests(watch_id):
    """(method, path, data, headers) a watching phone may send, with every parameter tried."""
    queries = ["", "?rounds=all", "?score=1", "?v=x&score=1&rounds=all", "?v=0", "?can_score=1"]
    htmx = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "match-body"}
    for query in queries:
        for headers in ({}, htmx):
            yield "get", f"/w/{watch_id}/{query}", None, headers
            yield "get", f"/live/{watch_id}/{query}", None, headers
    for path in ("/sw.js", "/offline/manifest.json"):  # what a watching phone caches
        yield "get", path, None, {}
    for path in SCORE_PATHS:
        yield "get", f"/m/{watch_id}/{path}", None, {}
        yield "post", f"/m/{watch_id}/{path}", {"declarer": "0", "closed": "1"}, htmx


def answer_text(response):
    return response.content.decode(errors="replace") + " ".join(
        f"{name}: {value}" for name, value in response.items()
    )


def crawl(client, requests, limit=200):
    """Send requests, then GET every same-site link found in the answers; yield the answers."""
    queue, seen = list(requests), set()
    while queue and len(seen) < limit:
        method, path, data, headers = queue.pop(0)
        if (method, path) in seen:
            continue
        seen.add((method, path))
        response = getattr(client, method)(path, data, **headers)
        yield path, response
        for link in LINK.findall(response.content.decode(errors="replace")):
            target = urljoin(path, link.replace("&amp;", "&"))
            if not urlsplit(target).netloc and not target.startswith("/static/"):
                queue.append(("get", target, None, {}))


@pytest.mark.parametrize("watched", [0, 1, 2])
def test_nothing_reachable_from_a_watch_link_holds_a_score_link(series, watched):
    secrets_ = [m.public_id for m in series]
    client = Client()
    answers = list(crawl(client, watcher_requests(series[watched].watch_id)))
    assert len(answers) > 40
    for path, response in answers:
        assert response.status_code < 500, path
        text = answer_text(response)
        for secret in secrets_:
            assert secret not in text, f"{path} gives away a score link"


def test_a_phone_that_scores_a_match_still_learns_nothing_from_its_watch_link(series):
    """A cookie that knows the score link changes nothing in what the watch link draws."""
    client = Client()
    client.get(reverse("match", args=[series[1].public_id]))
    for path in [f"/w/{series[1].watch_id}/?score=1", f"/live/{series[1].watch_id}/?score=1"]:
        assert series[1].public_id not in client.get(path).content.decode()


def test_the_scoring_phone_live_check_keeps_its_round_links(series):
    scorer = Client().get(reverse("score_live", args=[series[2].public_id]))
    assert f"/m/{series[2].public_id}/rounds/1/" in scorer.content.decode()
    watcher = Client().get(reverse("live", args=[series[2].watch_id]))
    assert "/rounds/" not in watcher.content.decode()


def test_the_series_block_links_watch_links_for_a_watcher(series):
    page = Client().get(reverse("watch", args=[series[2].watch_id])).content.decode()
    assert f"/w/{series[0].watch_id}/" in page and f"/w/{series[1].watch_id}/" in page


def test_a_watch_token_under_the_score_path_says_it_is_a_watch_link(series):
    response = Client().get(f"/m/{series[0].watch_id}/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 403
    page = response.content.decode()
    assert "enlace" in page.lower() and 'href="/"' in page


TABLE_PATHS = ["", "new/least_score/", "take/", "pay/", "paid/1/delete/", "paid/1/restore/"]
TABLE_PATHS += ["table.json", "table.csv", "people/1/", "people/1/vs/2/", "matches/"]
# A season's pages, with what their filters take, and what they do not.
SEASON_PATHS = ["people/1/", "people/2/vs/1/", "matches/", "matches/?page=2&person=1&person=2"]
SEASON_PATHS += ["matches/?game=least_score&score=1", "matches/?page=999", "people/1/?can_score=1"]


def table_watcher_requests(watch_id):
    """What a phone holding a table's watch link may send, the table's score paths included."""
    for query in ("", "?rounds=all", "?score=1"):
        yield "get", f"/tw/{watch_id}/{query}", None, {}
    for path in SEASON_PATHS:
        yield "get", f"/tw/{watch_id}/{path}", None, {}
    for path in TABLE_PATHS:
        yield "get", f"/t/{watch_id}/{path}", None, {}
        yield "post", f"/t/{watch_id}/{path}", {"link": "x", "amount": "1", "player_0": "Ann"}, {}


def test_nothing_reachable_from_a_tables_watch_link_holds_a_score_link(series):
    """The table's watch page, every match it links and every link from those: no score link
    of the table or of any of its matches."""
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen"])
    for match in series:
        table.take_match(match)
    table.pay("Ann", "Bo", 5, "money")
    secrets_ = [table.public_id, *(m.public_id for m in series)]
    answers = list(crawl(Client(), table_watcher_requests(table.watch_id)))
    assert len(answers) > 30
    assert any(path.startswith(f"/w/{series[2].watch_id}/") for path, _r in answers)
    reached = {path for path, response in answers if response.status_code == 200}
    assert {f"/tw/{table.watch_id}/{path}" for path in SEASON_PATHS} <= reached
    for path, response in answers:
        assert response.status_code < 500, path
        text = answer_text(response)
        for secret in secrets_:
            assert secret not in text, f"{path} gives away a score link"
