"""Two app servers (gunicorn, as `make run` starts one) on one PostgreSQL database, with phones
on each: what one table does through one server, the other's phones see and keep, and the
limits per address count once for both. Run when DATABASE_URL names a PostgreSQL database."""

import csv
import io
import json
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.server import Phone, Server, database, new_sheet

pytestmark = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
    reason="DATABASE_URL is not a PostgreSQL database",
)

LIVE_DELAY = 3  # seconds between two live checks of a phone (POLL_MS in static/app.js)
NEW_MATCHES = 10  # the limit per address the servers are given (RATE_NEW_MATCHES)
STRANGER = {"X-Forwarded-For": "203.0.113.7"}  # one address, for the limit alone


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """Two servers on one fresh PostgreSQL database, sharing their secret key (one data folder)."""
    data_dir = tmp_path_factory.mktemp("two-servers")
    with database("postgres") as url:
        pair = [Server(data_dir, database_url=url, workers=2) for _ in range(2)]
        for server in pair:
            server.env.update(RATE_NEW_MATCHES=f"{NEW_MATCHES}/h", BEHIND_PROXY="1")
            server.start()
        try:
            yield pair
        finally:
            for server in pair:
                server.stop()


def phone_at(server, path):
    """A phone on server that opened path."""
    phone = Phone(server.url)
    assert phone.get(path) == 200
    return phone


def live_link(phone):
    """The live check the phone's page asks every few seconds (with the version it shows)."""
    return re.search(r'data-live hx-get="([^"]+)"', phone.page).group(1).replace("&amp;", "&")


def live_news(phone, seconds):
    """The first live check answer that is not "nothing new" within seconds, else None."""
    link, deadline = live_link(phone), time.monotonic() + seconds
    while time.monotonic() < deadline:
        with phone.opener.open(phone.base_url + link, timeout=10) as answer:
            if answer.status == 200:
                return answer.read().decode()
        time.sleep(0.2)
    return None


def points(i):
    """The points of save number i: its own, so each stored round names the save it was."""
    return {"points-0": str(i), "points-1": str(-i), "points-2": "1", "points-3": "-1"}


def stored(server, match_url):
    """The live rounds' points, and the totals the engine adds up (the CSV export's last row)."""
    phone = Phone(server.url)
    phone.get(match_url + "export.json")
    rounds = [r["points"] for r in json.loads(phone.page)["rounds"]]
    phone.get(match_url + "export.csv")
    totals = list(csv.reader(io.StringIO(phone.page.lstrip("\ufeff"))))[-1][1:]
    return rounds, [int(total) for total in totals]


def test_a_round_saved_on_one_server_reaches_the_phones_on_the_other_within_the_live_delay(
    servers,
):
    first, second = servers
    scorer, match_url = new_sheet(first)
    scorer.get(match_url + "share/")
    watch_url = re.search(r'href="https?://[^/"]+(/w/[^/"]+/)"', scorer.page).group(1)
    other_scorer, watcher = phone_at(second, match_url), phone_at(second, watch_url)
    status, _page, _location = scorer.post(match_url + "rounds/", points(417))
    assert status == 302
    for phone in (other_scorer, watcher):
        news = live_news(phone, LIVE_DELAY)
        assert news is not None and "417" in news and "-417" in news


def test_parallel_saves_through_both_servers_never_pass_the_hands_limit_nor_lose_one(servers):
    phone, match_url = new_sheet(servers[0], hands="30")
    phones = [phone_at(servers[k % 2], match_url) for k in range(12)]

    def save(i):
        return phones[i % 12].post(match_url + "rounds/", points(i))[0], i

    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(save, range(1, 61)))
    saved = sorted(i for status, i in answers if status in (200, 302))
    assert all(status in (200, 302, 422) for status, _i in answers)
    rounds, totals = stored(servers[1], match_url)
    assert len(saved) == 30 and sorted(int(r[0]) for r in rounds) == saved
    assert totals == [sum(saved), -sum(saved), 30, -30]


def test_parallel_changes_and_deletes_through_both_servers_all_land(servers):
    phone, match_url = new_sheet(servers[0])
    for i in range(1, 21):
        assert phone.post(match_url + "rounds/", points(i))[0] == 302
    phones = [phone_at(servers[k % 2], match_url) for k in range(10)]

    def delete(number):
        return phones[number % 10].post(match_url + f"rounds/{number}/delete/", {})[0]

    def change(number):
        return phones[number % 10].post(match_url + f"rounds/{number}/", points(100 + number))[0]

    with ThreadPoolExecutor(10) as pool:
        deletes = [pool.submit(delete, number) for number in range(1, 6)]
        changes = [pool.submit(change, number) for number in range(6, 16)]
        assert all(job.result() == 302 for job in deletes + changes)
    rounds, totals = stored(servers[0], match_url)
    expected = [100 + number for number in range(6, 16)] + list(range(16, 21))
    assert [int(r[0]) for r in rounds] == expected
    assert totals == [sum(expected), -sum(expected), 15, -15]


def test_the_limit_of_new_matches_counts_the_starts_through_both_servers(servers):
    phones = [phone_at(servers[k % 2], "/new/sheet/") for k in range(24)]
    form = {"player_0": "Ann", "player_1": "Bo"}

    def start(k):
        return phones[k % 24].post("/new/sheet/", form, headers=STRANGER)[0]

    with ThreadPoolExecutor(24) as pool:
        answers = list(pool.map(start, range(48)))
    assert sorted(set(answers)) == [302, 429]
    assert answers.count(302) == NEW_MATCHES  # every start counted once, whichever server
