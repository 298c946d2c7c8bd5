"""Live streams (games/stream.py): what a stream says, to whom, within which limits, and that
every change of a match or a table moves it, on SQLite (where the worker asks) and on
PostgreSQL (where each change sends a NOTIFY in its transaction). Timing is the benchmark's
(bench/live): here each stream is read until it says what it must, however long that takes."""

import asyncio
import concurrent.futures
import re
import threading

import psycopg
import pytest
from django.db import connection, connections, transaction
from django.test import override_settings

from games import live, stream
from games.models import Conflict, Match, Table
from tests.server import (
    DATABASES,
    Listener,
    Phone,
    Server,
    database,
    new_sheet,
    postgres_listening,
    save_sheet,
    watch_path,
)

SHEET = {"game": "sheet", "players": ["Ann", "Bo"], "options": {}}


def run_alone(coroutine):
    """asyncio.run in a thread of its own: Playwright keeps a loop running in the suite's."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def points(a, b):
    return {"points": [a, b]}


# ---- every change moves what the streams say


BOTH, TABLE = {"match", "table"}, {"table"}


def changes(match, table):
    """(what changed, the change, the streams it moves) for each change a phone can make of a
    match of a table, or of the table (its page adds up its matches: every change moves it)."""
    return [
        ("a round saved", lambda: match.add_round(points(1, -1)), BOTH),
        ("a round changed", lambda: match.change_round(1, points(2, -2)), BOTH),
        ("a round deleted", lambda: match.delete_round(1), BOTH),
        ("a round restored", lambda: match.restore_round(1), BOTH),
        ("its options fixed", lambda: match.change_setup(["Ann", "Bo"], {"target": 100}), BOTH),
        ("the match closed", lambda: match.set_closed(True), BOTH),
        ("a rematch made", match.rematch, BOTH),
        ("a person added", lambda: table.add_people(["Dee"]), TABLE),
        ("a payment", lambda: table.pay("Ann", "Bo", 5, "money"), TABLE),
        ("a match started", lambda: table.start_match("sheet", ["Ann", "Dee"], {}), TABLE),
        ("a person renamed", lambda: table.change_setup("Thu", ["Ann", "Bob", "Dee"]), BOTH),
    ]


@pytest.mark.django_db(transaction=True)
def test_every_change_moves_what_the_streams_of_its_match_and_table_say():
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo"])
    match = Match.objects.create(**SHEET, table=table)
    keys = {"match": ("match", match.pk), "table": ("table", table.pk)}
    for what, change, moves in changes(match, table):
        before = live.now_at(keys.values())
        change()
        after = live.now_at(keys.values())
        assert {kind for kind, key in keys.items() if before[key] != after[key]} == moves, what


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="NOTIFY is PostgreSQL's")
def test_on_postgresql_each_change_notifies_once_it_is_committed_and_never_when_refused():
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo"])
    match = Match.objects.create(**SHEET, table=table)
    payloads = {"match": f"m{match.pk}", "table": f"t{table.pk}"}
    params = connection.get_connection_params()
    params.pop("cursor_factory")
    with psycopg.connect(autocommit=True, **params) as listener:
        listener.execute(f"LISTEN {stream.CHANNEL}")

        def heard():
            return {note.payload for note in listener.notifies(timeout=0.5)}

        for what, change, moves in changes(match, table):
            change()
            said = heard()
            assert {kind for kind, payload in payloads.items() if payload in said} == moves, what
        with pytest.raises(Conflict):
            match.add_round(points(1, -1), seen=0)  # drawn before every change above
        with transaction.atomic():
            Table.objects.filter(pk=table.pk).update(version=99)
            transaction.set_rollback(True)
        assert heard() == set()


# ---- the hub of one worker, in this process (SQLite: it asks every POLL_SECONDS)


def scope_for(path, address="198.51.100.7"):
    return {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "client": (address, 5000),
        "server": ("testserver", 80),
        "scheme": "http",
    }


class StreamedPhone:
    """A phone's side of one stream served by the hub: what it was sent, and its going."""

    def __init__(self):
        self.sent = asyncio.Queue()
        self.gone = asyncio.Event()

    async def receive(self):
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message):
        await self.sent.put(message)

    async def said(self):
        """The next message's text (comments included)."""
        message = await asyncio.wait_for(self.sent.get(), 30)
        return message.get("body", b"").decode() if message["type"].endswith("body") else message


async def closed(hub):
    """Once its last stream went: the hub's LISTEN connection (PostgreSQL) and its thread's
    connection closed, so that the test database can be dropped."""
    await asyncio.wait_for(hub.watcher, stream.LISTEN_AGAIN_SECONDS + 1)
    await hub.ask(connections.close_all)


async def handed_on(scope, receive, send):
    """Django's part: a stream the hub does not take (answered 204 by views.no_stream)."""
    await send({"type": "http.response.start", "status": 204, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def serve(hub, path, phone, address="198.51.100.7"):
    asked = stream.stream_of(path)
    return asyncio.create_task(
        hub.serve(asked, scope_for(path, address), phone.receive, phone.send, handed_on)
    )


@pytest.mark.django_db(transaction=True)
def test_a_stream_says_its_version_at_once_then_each_new_one_and_is_asked_for_only_while_open():
    match = Match.objects.create(**SHEET)

    async def table():
        hub = stream.Hub()
        phone = StreamedPhone()
        served = serve(hub, f"/w/{match.watch_id}/stream", phone)
        assert (await phone.said())["status"] == 200
        assert await phone.said() == "event: version\ndata: 0\n\n"
        await hub.ask(match.add_round, points(3, -3))  # its thread: SQLite in memory locks
        assert await phone.said() == "event: version\ndata: 1\n\n"
        assert not hub.watcher.done()
        phone.gone.set()
        await served
        await closed(hub)  # nothing open: nothing asked any more
        assert hub.open == 0 and not hub.following and not hub.by_address

    run_alone(table())


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="NOTIFY is PostgreSQL's")
def test_on_postgresql_without_its_trigger_a_worker_asks_as_on_sqlite():
    """A database not migrated (a backup from before restored, say) sends no NOTIFY: the
    streams are told all the same."""
    match = Match.objects.create(**SHEET)
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_match DISABLE TRIGGER games_match_live")

    async def told_all_the_same():
        hub = stream.Hub()
        phone = StreamedPhone()
        served = serve(hub, f"/w/{match.watch_id}/stream", phone)
        assert (await phone.said())["status"] == 200
        assert await phone.said() == "event: version\ndata: 0\n\n"
        await hub.ask(match.add_round, points(3, -3))
        assert await phone.said() == "event: version\ndata: 1\n\n"
        phone.gone.set()
        await served
        await closed(hub)

    try:
        run_alone(told_all_the_same())
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE games_match ENABLE TRIGGER games_match_live")


@pytest.mark.django_db(transaction=True)
@override_settings(STREAMS_PER_ADDRESS=2, STREAMS_PER_WORKER=3)
def test_streams_beyond_the_limits_per_address_and_per_worker_are_handed_to_the_live_check():
    match = Match.objects.create(**SHEET)
    path = f"/m/{match.public_id}/stream"

    async def crowd():
        hub = stream.Hub()
        phones = [StreamedPhone() for _ in range(5)]
        addresses = ["198.51.100.1", "198.51.100.1", "198.51.100.1", "198.51.100.2", "198.51.100.3"]
        served = [serve(hub, path, p, a) for p, a in zip(phones, addresses)]
        statuses = [(await phone.said())["status"] for phone in phones]
        # the third of one address, and the fourth of the worker, keep to the live check
        assert statuses == [200, 200, 204, 200, 204]
        phones[0].gone.set()
        await served[0]
        again = StreamedPhone()
        served.append(serve(hub, path, again, "198.51.100.1"))
        assert (await again.said())["status"] == 200  # room again once one went
        for phone in [*phones, again]:
            phone.gone.set()
        await asyncio.gather(*served)
        assert hub.open == 0
        await closed(hub)

    run_alone(crowd())


@pytest.mark.django_db(transaction=True)
def test_a_phone_that_reads_nothing_is_dropped_and_never_holds_up_the_others(monkeypatch):
    monkeypatch.setattr(stream, "SEND_SECONDS", 0.5)
    match = Match.objects.create(**SHEET)
    path = f"/w/{match.watch_id}/stream"

    async def stuck_and_reading():
        hub = stream.Hub()
        stuck, reading = StreamedPhone(), StreamedPhone()
        blocked = asyncio.Event()

        async def never_sent(message):
            if message["type"] == "http.response.start":
                return
            await blocked.wait()  # its socket's buffers are full: a send never finishes

        stuck_task = asyncio.create_task(
            hub.serve(stream.stream_of(path), scope_for(path), stuck.receive, never_sent, None)
        )
        served = serve(hub, path, reading)
        assert (await reading.said())["status"] == 200
        assert await reading.said() == "event: version\ndata: 0\n\n"
        await asyncio.wait_for(stuck_task, 5)  # dropped
        await hub.ask(match.add_round, points(1, -1))
        assert await reading.said() == "event: version\ndata: 1\n\n"
        reading.gone.set()
        await served
        assert hub.open == 0
        await closed(hub)

    run_alone(stuck_and_reading())


@pytest.mark.django_db
def test_a_stream_of_a_link_it_is_not_for_is_answered_as_its_live_check(client):
    match = Match.objects.create(**SHEET)
    table = Table.objects.create(name="Thursday", people=["Ann", "Bo"])
    # Django's answer (a server without streams, or their limits reached): keep to the live check
    assert client.get(f"/m/{match.public_id}/stream").status_code == 204
    assert client.get(f"/w/{match.watch_id}/stream").status_code == 204
    assert client.get(f"/t/{table.public_id}/stream").status_code == 204
    assert client.get(f"/tw/{table.watch_id}/stream").status_code == 204
    assert client.get(f"/m/{match.watch_id}/stream").status_code == 403
    assert client.get(f"/t/{table.watch_id}/stream").status_code == 403
    assert client.get(f"/w/{match.public_id}/stream").status_code == 404
    assert client.get(f"/tw/{table.public_id}/stream").status_code == 404
    assert client.get("/w/nothing/stream").status_code == 404


# ---- the real stack: gunicorn's uvicorn workers (tests/server.py)


@pytest.fixture(params=DATABASES)
def server(request, tmp_path):
    with database(request.param) as url:
        served = Server(tmp_path, database_url=url, workers=2)
        served.start()
        try:
            yield served
        finally:
            served.stop()


def test_a_save_reaches_every_open_stream_of_its_match_on_every_worker(server):
    phone, match_path = new_sheet(server)
    watch = watch_path(phone, match_path)
    phone.get(match_path)
    listeners = [Listener(server.port, match_path + "stream") for _ in range(3)]
    listeners += [Listener(server.port, watch + "stream") for _ in range(3)]
    for listener in listeners:
        assert listener.status == 200
        assert listener.headers["content-type"] == "text/event-stream"
        assert listener.event() == "event: version\ndata: 0"
    save_sheet(phone, match_path, 0)
    for listener in listeners:
        assert listener.event() == "event: version\ndata: 1"
        listener.close()


def test_a_watch_links_stream_says_what_its_page_carries_and_nothing_more(server):
    phone, match_path = new_sheet(server)
    watch = watch_path(phone, match_path)
    watcher = Phone(server.url)
    watcher.get(watch)
    listener = Listener(server.port, watch + "stream")
    said = [listener.event()]
    phone.get(match_path)
    save_sheet(phone, match_path, 0)
    said.append(listener.event())
    watcher.get(watch)
    shown = re.findall(r'data-version="(\d+)"', watcher.page)
    assert said == ["event: version\ndata: 0", "event: version\ndata: 1"]
    assert shown == ["1"]  # the page carries the version the stream says, in its live check
    assert match_path.split("/")[2] not in "".join(said)
    listener.close()


def test_a_tables_stream_moves_with_its_payments_and_its_matches_and_says_only_its_pages_tag(
    server,
):
    phone = Phone(server.url)
    phone.get("/tables/new/")
    status, _body, table_path = phone.post(
        "/tables/new/", {"name": "Thursday", "people": "Ann\nBo\nChen\nDee"}
    )
    assert status == 302
    phone.get(table_path)
    watch = re.search(r'href="(?:https?://[^/"]+)?(/tw/[^/"]+/)"', phone.page).group(1)
    watcher = Phone(server.url)
    listener = Listener(server.port, watch + "stream")
    tags = [listener.event()]
    phone.get(table_path + "new/sheet/")
    status, _body, match_path = phone.post(
        table_path + "new/sheet/",
        {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen", "player_3": "Dee"},
    )
    assert status == 302
    tags.append(listener.event())
    phone.get(match_path)
    save_sheet(phone, match_path, 0)
    tags.append(listener.event())
    watcher.get(watch)
    shown = re.search(r'id="table-live" data-version="([0-9a-f]+)"', watcher.page).group(1)
    assert len(set(tags)) == 3 and all(
        re.fullmatch(r"event: version\ndata: [0-9a-f]{16}", t) for t in tags
    )
    assert tags[-1] == f"event: version\ndata: {shown}"
    listener.close()


@pytest.mark.skipif(not postgres_listening(), reason="no PostgreSQL on 127.0.0.1:5432")
def test_two_servers_on_one_postgresql_a_save_on_one_reaches_the_streams_on_the_other(tmp_path):
    with database("postgres") as url:
        pair = [Server(tmp_path, database_url=url, workers=1) for _ in range(2)]
        for served in pair:
            served.start()
        try:
            phone, match_path = new_sheet(pair[0])
            watch = watch_path(phone, match_path)
            listener = Listener(pair[1].port, watch + "stream")
            assert listener.event() == "event: version\ndata: 0"
            phone.get(match_path)
            save_sheet(phone, match_path, 0)
            assert listener.event() == "event: version\ndata: 1"
            listener.close()
        finally:
            for served in pair:
                served.stop()


def test_a_stopping_worker_ends_its_streams_within_its_grace(tmp_path):
    served = Server(tmp_path, workers=1).start()
    phone, match_path = new_sheet(served)
    listener = Listener(served.port, match_path + "stream")
    assert listener.event() == "event: version\ndata: 0"
    ended = threading.Event()

    def read_to_the_end():
        while listener.message() is not None:
            pass
        ended.set()

    threading.Thread(target=read_to_the_end, daemon=True).start()
    served.stop()  # waits for gunicorn, which waits for its worker
    assert ended.wait(5)
    listener.close()
