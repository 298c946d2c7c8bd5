"""An HTTP fuzzer: at least 10,000 requests of every method, content type, charset and body
shape against every URL of the app; no answer may be a server error (500 or above).

The requests are drawn from a seeded generator (the same run every time; FUZZ_SEED picks
another, FUZZ_REQUESTS another count). It runs on the database the settings name: SQLite, and
PostgreSQL in .ci/run's second pass (DATABASE_URL), which refuses NUL where SQLite stores it.
"""

import json
import os
import random
from collections import Counter

import pytest
from django.test import Client
from django.test.client import BOUNDARY, encode_multipart

from games.models import Match, Table
from games.records import store
from tests.server import DATABASES, Server, database, new_least_score
from tests.test_attack_findings import ENDED, WITH_LONE, at_once

pytestmark = pytest.mark.django_db

REQUESTS = int(os.environ.get("FUZZ_REQUESTS", "10000"))
SEED = int(os.environ.get("FUZZ_SEED", "1"))
METHODS = ["GET"] * 8 + ["POST"] * 9 + ["PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
FIELDS = [
    "declarer",
    "hand-0",
    "hand-1",
    "cards-0",
    "typed-0",
    "captured-0",
    "captured-3",
    "exposed",
    "winner",
    "cards_left-1",
    "bombed-1",
    "bidder",
    "bid",
    "high",
    "low",
    "jack",
    "game",
    "game_points-0",
    "taken-0",
    "bullheads-0",
    "version",
    "round",
    "entry_key",
    "player_0",
    "player_1",
    "player_2",
    "player_3",
    "threshold",
    "halve_on",
    "bean_rate",
    "stake",
    "target",
    "limit",
    "decks",
    "end",
    "hands",
    "document",
    "closed",
    "q",
    "language",
    "next",
    "csrfmiddlewaretoken",
    "payer",
    "payee",
    "amount",
    "unit",
    "link",
    "name",
    "people",
    "add_people",
    "evenings",
    "seat",
    "late_start",
    "confirm",
    "change",
    "shown",
    "said",
]
VALUES = [
    "",
    "0",
    "1",
    "2",
    "-1",
    "17",
    "99999999999999999999",
    "²",
    "٣",
    "1e400",
    "NaN",
    "Infinity",
    "1,5",
    "0.1",
    "9" * 5000,
    "QS",
    "10H",
    "AH KH",
    "JD,10C",
    "true",
    "null",
    "[]",
    "{}",
    "\x00",
    "a\u200bb",
    "\u202eevil",
    "<script>alert(1)</script>",
    "ann",
    "'; DROP TABLE games_match; --",
    "x" * 10_000,
    "../../etc/passwd",
    "%00",
    "\r\n",
    '{"game": "least_score", "players": ["A", "B", "C"]}',
    "[" * 3000,
    "é" * 50,
    *(json.dumps(document) for document in WITH_LONE.values()),  # "\\ud800": half a character
]
MANY_FIELDS = "&".join(["a=1"] * 1200)  # over Django's 1,000
CHARSETS = [
    "",
    "; charset=utf-8",
    "; charset=latin-1",
    "; charset=utf-16",
    "; charset=bogus",
    '; charset=""',
    "; charset=utf-8; charset=latin-1",
]


MADE_UP = ["nosuchmatch", "x" * 300, "%F0%9F%82%A1", "..", "0", "%00", "a%00b", "%1F"]
TABLE_TAILS = [
    "",
    "playing",
    "new/gongzhu/",
    "new/sanming/",
    "new/nosuchgame/",
    "take/",
    "share/",
    "pay/",
    "table.json",
    "table.csv",
    "paid/1/delete/",
    "paid/1/restore/",
    "paid/2/delete/",
    "paid/99/restore/",
    "people/1/",
    "people/2/vs/1/",
    "people/0/",
    "people/1/vs/99999999999999999999999/",
    "matches/",
    "matches/?page=2&person=1&person=2&game=sheet:",
    "matches/?page=99999999999999999999&person=-1&game=%FF",
]


def urls(matches, tables):
    """Every route of the app, with live, watch and made-up tokens and round numbers, and every
    route of a table with its score and watch links and made-up ones."""
    tokens = [m.public_id for m in matches] + [m.watch_id for m in matches] + MADE_UP
    table_tokens = [t.public_id for t in tables] + [t.watch_id for t in tables] + MADE_UP
    paths = ["/tables/new/"]
    for token in table_tokens:
        paths += [f"/{kind}/{token}/{tail}" for kind in ("t", "tw") for tail in TABLE_TAILS]
    paths += [
        "/",
        "/healthz",
        "/matches/",
        "/matches/?q=",
        "/import/",
        "/i18n/setlang/",
        "/new/least_score/",
        "/new/gongzhu/",
        "/new/six_nimmt/",
        "/new/smear/",
        "/new/sanming/",
        "/new/nosuchgame/",
        "/static/app.css",
        "/nowhere",
        "/sw.js",
        "/offline/manifest.json",
        "/offline/app-0000.zip",
        "/offline/x-y.zip",
    ]
    for token in tokens:
        paths += [f"/w/{token}/", f"/live/{token}/", f"/m/{token}/", f"/m/{token}/live/"]
        paths += [
            f"/m/{token}/{tail}"
            for tail in (
                "share/",
                "history/",
                "rounds/",
                "preview/",
                "close/",
                "rematch/",
                "export.json",
                "offline.json",
                "export.csv",
                "rounds/1/",
                "rounds/2/",
                "rounds/99/",
                "rounds/0/",
                "rounds/1/delete/",
                "rounds/2/restore/",
                "rounds/1/restore/",
                "join/",
                "leave/",
                "?said=1",
            )
        ]
    return paths


def query(rng):
    if rng.random() < 0.02:
        return "?" + MANY_FIELDS
    pairs = [
        (
            rng.choice(["v", "rounds", "score", "q", "z", "next", "evenings"]),
            rng.choice(VALUES)[:200],
        )
        for _ in range(rng.randint(0, 3))
    ]
    return "?" + "&".join(f"{k}={v}" for k, v in pairs) if pairs else ""


def form(rng):
    chosen = {}
    for name in rng.sample(FIELDS, rng.randint(0, 8)):
        many = rng.random() < 0.2
        chosen[name] = [rng.choice(VALUES) for _ in range(3)] if many else rng.choice(VALUES)
    return chosen


def body(rng, fields):
    """(content type, bytes): a form, multipart (sound or broken), JSON, text or nothing."""
    kind = rng.choice(
        ["form", "form", "multipart", "broken-multipart", "json", "text", "none", "bytes", "many"]
    )
    if kind == "many":
        return "application/x-www-form-urlencoded" + rng.choice(CHARSETS), MANY_FIELDS.encode()
    if kind == "form":
        text = "&".join(
            f"{k}={v}" for k, vs in fields.items() for v in (vs if isinstance(vs, list) else [vs])
        )
        encoding = rng.choice(["utf-8", "latin-1", "utf-16"])
        data = text.encode(encoding, errors="replace")
        return "application/x-www-form-urlencoded" + rng.choice(CHARSETS), data
    if kind == "multipart":
        data = encode_multipart(BOUNDARY, fields)
        return f"multipart/form-data; boundary={BOUNDARY}" + rng.choice(CHARSETS), data
    if kind == "broken-multipart":
        data = encode_multipart(BOUNDARY, fields)
        cut = data[: rng.randint(0, len(data))] + rng.choice([b"", b"\r\n--", b"\xff\xfe"])
        boundary = rng.choice([BOUNDARY, "", "other", '"' * 3, "x" * 100])
        return f"multipart/form-data; boundary={boundary}" + rng.choice(CHARSETS), cut
    if kind == "json":
        return "application/json" + rng.choice(CHARSETS), json.dumps(fields).encode()
    if kind == "text":
        return "text/plain", rng.choice(VALUES).encode("utf-8", errors="replace")
    if kind == "bytes":
        return rng.choice(["application/octet-stream", "", "x/y"]), rng.randbytes(64)
    return "", b""


def headers(rng):
    chosen = {}
    if rng.random() < 0.4:
        chosen["HTTP_HX_REQUEST"] = rng.choice(["true", "false", ""])
    if rng.random() < 0.3:
        chosen["HTTP_ACCEPT_LANGUAGE"] = rng.choice(["fa", "zh-hans", "es", "mn", "xx", "*", ""])
    if rng.random() < 0.1:
        chosen["CONTENT_LENGTH"] = rng.choice(["-1", "abc", "99999999999"])
    return chosen


@pytest.fixture
def matches():
    """One match of each game with rounds, one finished with a rematch, one with a deleted round,
    and one ended in each way a match of each game ends."""
    least = Match.objects.create(
        game="least_score",
        players=["Ann", "Bo", "Chen"],
        options={"threshold": 25, "end": "first_out"},
    )
    for entry in ({"declarer": 0, "hands": [7, 15, 20]}, {"declarer": 1, "hands": [30, 2, 9]}):
        least.add_round(entry, "")
    rematch = least.rematch()
    six = Match.objects.create(game="six_nimmt", players=["Ann", "Bo", "Chen"])
    six.add_round({"bullheads": [3, 5, 7]}, "k1")
    six.add_round({"bullheads": [2, 5, 7]}, "k2")
    six.delete_round(2)
    others = [
        Match.objects.create(game=game, players=players)
        for game, players in (
            ("gongzhu", ["Ann", "Bo", "Chen", "Dee"]),
            ("smear", ["Ann", "Bo", "Chen", "Dee"]),
            ("sanming", ["Ann", "Bo", "Chen"]),
        )
    ]
    return [least, rematch, six, *others, *map(store, ENDED.values())]


@pytest.fixture
def tables(matches):
    """A table holding matches and payments (one deleted), one holding only a payment (F1),
    and one with a match in play."""
    regulars = Table.objects.create(name="Thursday", people=["Ann", "Bo", "Chen", "Dee"])
    for match in matches[-3:]:
        regulars.take_match(match, adding=True)
    regulars.pay("Ann", "Bo", 5, "money")
    regulars.set_payment_deleted(regulars.pay("Bo", "Chen", 300, "beans").pk, True)
    paid_only = Table.objects.create(name="Paid only", people=["Ann", "Bo"])
    paid_only.pay("Ann", "Bo", 5, "money")
    playing = Table.objects.create(name="Playing", people=["Ann", "Bo", "Chen"])
    playing.start_match("sanming", ["Ann", "Bo", "Chen"], {})
    return [regulars, paid_only, playing]


def test_no_request_gets_a_server_error(matches, tables, capsys):
    rng = random.Random(SEED)
    paths = urls(matches, tables)
    client = Client(raise_request_exception=False)
    statuses, failures = Counter(), []
    for _ in range(REQUESTS):
        method, path = rng.choice(METHODS), rng.choice(paths) + query(rng)
        content_type, data = body(rng, form(rng))
        response = client.generic(method, path, data, content_type=content_type, **headers(rng))
        statuses[response.status_code] += 1
        if response.status_code >= 500:
            failures.append((method, path, content_type, data[:200]))
    with capsys.disabled():
        print(f"\nHTTP fuzzer: {REQUESTS} requests, answers {dict(sorted(statuses.items()))}")
    assert failures == []
    assert sum(statuses.values()) == REQUESTS >= 10_000 or "FUZZ_REQUESTS" in os.environ


CHANGES = [
    ("rounds/2/delete/", {}),
    ("rounds/2/restore/", {}),
    ("rounds/3/delete/", {"version": "3"}),
    ("rounds/3/restore/", {}),
    ("close/", {}),
    ("close/", {"closed": "0"}),
    ("rounds/2/", {"declarer": "0", "hand-0": "1", "hand-1": "9", "hand-2": "9"}),
    ("rounds/", {"declarer": "1", "hand-0": "9", "hand-1": "2", "hand-2": "9"}),
]


@pytest.mark.parametrize("kind", DATABASES)
def test_no_changes_at_once_get_a_server_error(kind, tmp_path):
    """Bursts of eight phones deleting, restoring, closing, reopening, changing and saving one
    match's rounds at the same moment (drawn from the seed), through gunicorn: no 500."""
    rng = random.Random(SEED)
    with database(kind) as url:
        server = Server(tmp_path, url).start()
        try:
            phone, match_path = new_least_score(server)
            for hands in ([7, 15, 20], [3, 9, 12], [5, 6, 8]):
                form = {"declarer": "0", **{f"hand-{s}": str(h) for s, h in enumerate(hands)}}
                assert phone.post(match_path + "rounds/", form)[0] == 302
            statuses = Counter()
            for _burst in range(6):
                burst = [rng.choice(CHANGES) for _ in range(8)]
                posts = [(match_path + tail, form) for tail, form in burst]
                statuses.update(at_once(server, match_path + "history/", posts))
        finally:
            server.stop()
    assert set(statuses) <= {302, 404, 409, 422}, statuses
