"""Every pair of writes at one moment, on real servers (gunicorn, four workers): a round, a
setup change, its undo, a table rename, a payment, a match taken in, a rematch (issue 48 M2, M5).
Locks are taken in one order (a table, then its matches by id): no deadlock, no answer of 500 or
above, and what a table adds up is what its matches' rounds replay to."""

import itertools
import json
import re
from decimal import Decimal

import pytest

from games import ledger, rules
from tests.server import DATABASES, Phone, Server, database
from tests.test_attack_findings import at_once

PEOPLE = ["Ann", "Bo", "Chen", "Dee"]
KINDS = ["round", "setup", "undo", "rename", "payment", "take", "rematch"]
TIMES = 3  # each pair of kinds, at once, this many times


class Evening:
    """A table on a test server: one match in play that rounds, setups and undos change, closed
    matches to rematch, matches played elsewhere to take in."""

    def __init__(self, server):
        self.server = server
        self.phone = Phone(server.url)
        self.phone.get("/tables/new/")
        form = {"name": "Thursday", "people": "\n".join(PEOPLE)}
        self.table = self.posted("/tables/new/", form)
        self.playing = self.sheet(self.table + "new/sheet/")
        self.closed = [self.sheet(self.table + "new/sheet/", closed=True) for _ in range(24)]
        self.loose = [self.sheet("/new/sheet/", players=PEOPLE[1:]) for _ in range(10)]
        self.turn = 0

    def posted(self, path, form):
        """Post form from the phone (after opening path's page); the redirect's location."""
        status, body, location = self.phone.post(path, form)
        assert status == 302, body[:500]
        return location

    def sheet(self, start, players=PEOPLE, closed=False):
        """A zero-sum score sheet at a stake of 1 with a round played; closed when asked."""
        self.phone.get(start)
        seats = {f"player_{k}": name for k, name in enumerate(players)}
        match = self.posted(start, {**seats, "zero_sum": "on", "stake": "1"})
        self.phone.get(match)
        self.phone.post(match + "rounds/", points(len(players), 1))
        if closed:
            self.phone.post(match + "close/", {})
        return match

    def names(self, match):
        """The players of a match now (its JSON export)."""
        self.phone.get(match + "export.json")
        return json.loads(self.phone.page)["players"]

    def write(self, kind):
        """(path, form) of one write of kind, drawn from the evening as it stands."""
        self.turn += 1
        if kind == "round":
            return self.playing + "rounds/", points(4, self.turn)
        if kind == "setup":
            seats = {f"player_{k}": name for k, name in enumerate(self.names(self.playing))}
            stake = str(1 + self.turn % 2)
            return self.playing + "setup/", {**seats, "zero_sum": "on", "stake": stake}
        if kind == "undo":
            self.phone.get(self.playing + "history/")
            done = re.findall(r"/setup/(\d+)/undo/", self.phone.page) or ["0"]
            return f"{self.playing}setup/{done[-1]}/undo/", {}
        if kind == "rename":
            self.phone.get(self.table + "setup/")
            first = (
                "Anne"
                if "Ann" in re.findall(r'name="person_0" value="([^"]*)"', self.phone.page)
                else "Ann"
            )
            form = {"name": "Thursday", "added": ""}
            form.update({f"person_{k}": name for k, name in enumerate([first, *PEOPLE[1:]])})
            return self.table + "setup/", form
        if kind == "payment":
            paid = {"payer": "Bo", "payee": "Chen", "amount": "1", "unit": "money"}
            return self.table + "pay/", {**paid, "entry_key": f"pay-{self.turn}"}
        if kind == "take":
            return self.table + "take/", {"link": self.loose.pop()}
        return self.closed.pop() + "rematch/", {}


def points(seats, k):
    """A zero-sum round of a score sheet: seat 0 wins k, seat 1 loses it."""
    return {f"points-{s}": str(k if s == 0 else -k if s == 1 else 0) for s in range(seats)}


def replayed_balances(export):
    """A table's balances summed from its export's rounds, each match replayed by the engine
    (the stored results left aside), and its payments."""
    played = []
    for document in export["matches"]:
        game, table, closed = rules.replay(document)
        played.append(
            {
                "date": document["date"],
                "result": {"game": game.slug, **ledger.kept(game, table, closed)},
            }
        )
    payments = [{**p, "date": None} for p in export["payments"]]
    return ledger.ledger(export["people"], played, payments)["balances"]


@pytest.mark.parametrize("kind", DATABASES)
def test_every_pair_of_writes_at_once_ends_without_an_error_and_adds_up(kind, tmp_path):
    with database(kind) as url:
        server = Server(tmp_path, url).start()
        try:
            evening = Evening(server)
            answers = {}
            for first, second in itertools.combinations_with_replacement(KINDS, 2):
                for _ in range(TIMES if "take" not in (first, second) else 1):
                    writes = [evening.write(first), evening.write(second)]
                    answers.setdefault((first, second), []).append(
                        at_once(server, evening.table, writes)
                    )
            evening.phone.get(evening.table + "table.json")
            export = json.loads(evening.phone.page)
        finally:
            server.stop()
    failed = {pair: s for pair, seen in answers.items() for s in seen if max(s) >= 500}
    assert failed == {}, "a write answered 500 or above (a deadlock is a 503)"
    assert all(
        status in (200, 302, 404, 422) for seen in answers.values() for s in seen for status in s
    )
    balances = {
        unit: {name: Decimal(str(amount)) for name, amount in by_name.items()}
        for unit, by_name in export["balances"].items()
    }
    replayed = {
        unit: {name: Decimal(str(amount)) for name, amount in by_name.items()}
        for unit, by_name in replayed_balances(export).items()
    }
    assert balances == replayed


@pytest.mark.parametrize("kind", DATABASES)
def test_m5_a_match_taken_while_its_setup_renames_a_player_stays_the_tables_people(kind, tmp_path):
    """A lone match taken into a table at the moment its setup renames Chen to Zed: either the
    rename comes first and the take asks about Zed, or the take first and the rename asks about
    Zed; never a table's match with a player who is none of its people."""
    with database(kind) as url:
        server = Server(tmp_path, url).start()
        try:
            evening = Evening(server)
            outcomes = []
            for _ in range(15):
                match = (
                    evening.loose.pop()
                    if evening.loose
                    else evening.sheet("/new/sheet/", players=PEOPLE[1:])
                )
                seats = {f"player_{k}": name for k, name in enumerate(["Bo", "Zed", "Dee"])}
                rename = (match + "setup/", {**seats, "zero_sum": "on", "stake": "1"})
                take = (evening.table + "take/", {"link": match})
                outcomes.append(at_once(server, evening.table, [rename, take]))
            evening.phone.get(evening.table + "table.json")
            export = json.loads(evening.phone.page)
        finally:
            server.stop()
    assert all(max(statuses) < 500 for statuses in outcomes), outcomes
    people = set(export["people"])
    strangers = [m["players"] for m in export["matches"] if not set(m["players"]) <= people]
    assert strangers == []
