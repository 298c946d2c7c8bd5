"""What the table entered, nothing derived: a match, its rounds as typed, and their history."""

import fcntl
import os
import secrets
import threading
from contextlib import contextmanager

from django.db import connection, models, transaction
from django.db.models import F, FilteredRelation, Q

from games import rules

MAX_ROUNDS = rules.MAX_ROUNDS


# SQLite lets one writer in at a time and makes the others sleep and retry with growing sleeps
# (up to 100 ms a try). Writers queue instead: the threads of a worker on a lock, the workers on
# a file lock beside the database, which wakes the next one the moment it is let go.
SQLITE_WRITER = threading.RLock()
LOCK_FILES = {}  # (process id, database file) -> the open lock file


def lock_file(database):
    """This process's own lock file for database (a file opened before a fork would be shared)."""
    key = (os.getpid(), str(database))
    if key not in LOCK_FILES:
        LOCK_FILES[key] = open(f"{database}.writer", "a")  # noqa: SIM115 (kept open)
    return LOCK_FILES[key]


@contextmanager
def sqlite_writer():
    """Hold the write turn of every worker on this machine (held already inside a transaction)."""
    database = connection.settings_dict["NAME"]
    with SQLITE_WRITER:
        if connection.in_atomic_block or connection.creation.is_in_memory_db(database):
            yield
            return
        held = lock_file(database)
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


@contextmanager
def writing():
    """A transaction that changes the match; on SQLite, one writer on the machine at a time."""
    if connection.vendor != "sqlite":
        with transaction.atomic():
            yield
        return
    with sqlite_writer(), transaction.atomic():
        yield


def first_value(sql, *params):
    """The first column of the first row sql finds, or None: a plain query, for the few that
    every phone or save asks, where the ORM spends more time building one than the database
    spends answering it."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return row[0] if row else None


class Conflict(Exception):
    """Another phone changed the match since its form was drawn."""


def new_token():
    """A long random capability token for a link: not guessable, not sequential."""
    return secrets.token_urlsafe(18)


class Match(models.Model):
    # Two capabilities: the score link (public_id) changes the match, the watch link only reads.
    public_id = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    watch_id = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    game = models.CharField(max_length=32)
    players = models.JSONField()
    options = models.JSONField(default=dict, blank=True)
    closed = models.BooleanField(default=False)
    # Bumped by every change, so a phone can ask cheaply "anything new?" and a save can be
    # made conditional on the match being as the form saw it.
    version = models.PositiveIntegerField(default=0)
    # The match this one is a rematch of: a series is the original and its chain of rematches.
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.game}: {', '.join(self.players)}"

    @classmethod
    def version_of(cls, link, token):
        """The version of the match whose link ("public_id" or "watch_id") is token, or None.

        Every phone on a match asks this every few seconds, so it is one plain query: the ORM
        would spend more time building it (and the match) than the database spends answering.
        """
        if link not in ("public_id", "watch_id"):
            raise ValueError(link)
        return first_value(f"SELECT version FROM {cls._meta.db_table} WHERE {link} = %s", token)

    @property
    def rules(self):
        """The game module that scores this match."""
        return rules.GAMES[self.game]

    def series(self):
        """The original match and its chain of rematches, in play order."""
        first = self
        while first.rematch_of_id is not None:
            first = first.rematch_of
        chain = [first]
        while (following := chain[-1].rematches.first()) is not None:
            chain.append(following)
        return chain

    def live_rounds(self):
        """The rounds in play order, without deleted ones."""
        return self.rounds.filter(deleted=None)

    def rounds_now(self):
        """(number, entry) of the live rounds in play order, read in one statement with the
        match's version and closed flag, which are brought to what the rounds were read with:
        a change landing meanwhile is never drawn under the version before it."""
        live = FilteredRelation("rounds", condition=Q(rounds__deleted=None))
        rows = (
            Match.objects.filter(pk=self.pk)
            .annotate(live=live)
            .order_by("live__number")
            .values_list("version", "closed", "live__number", "live__entry")
        )
        stored = []
        for version, closed, number, entry in rows:
            self.version, self.closed = version, closed
            if number is not None:  # a match with no rounds: one row, without a round
                stored.append((number, entry))
        return stored

    def claim_version(self, seen):
        """Move the match to its next version if it is still at seen (None: whatever it is now).

        The other matches of its series move on too: their screens show this one's result.
        Every save asks this, so as version_of, in plain queries.
        """
        moved = f"UPDATE {Match._meta.db_table} SET version = version + 1 WHERE id = %s"
        with connection.cursor() as cursor:
            if seen is None:
                cursor.execute(moved, [self.pk])
            else:
                cursor.execute(moved + " AND version = %s", [self.pk, seen])
            if not cursor.rowcount:
                raise Conflict
        if self.rematch_of_id is not None or self.has_rematch():
            others = [m.pk for m in self.series() if m.pk != self.pk]
            Match.objects.filter(pk__in=others).update(version=F("version") + 1)

    def has_rematch(self):
        """Whether a rematch of this match was started."""
        sql = f"SELECT 1 FROM {Match._meta.db_table} WHERE rematch_of_id = %s LIMIT 1"
        return first_value(sql, self.pk) is not None

    def last_number(self):
        """The highest number of the match's rounds, deleted ones too (0 before the first)."""
        sql = f"SELECT MAX(number) FROM {Round._meta.db_table} WHERE match_id = %s"
        return first_value(sql, self.pk) or 0

    def append_round(self, entry, key, seen):
        """Store entry as the next round, only if the match is still at version seen; its number.

        Raises Conflict when another phone got there first; a key already stored (a retried
        save) raises IntegrityError, and nothing is stored twice.
        """
        with writing():
            self.claim_version(seen)
            number = self.last_number() + 1
            stored = Round.objects.create(match=self, number=number, entry=entry, entry_key=key)
            RoundEvent.objects.create(round=stored, action=RoundEvent.CREATED, entry=entry)
        return stored.number

    def change_round(self, stored_round, seen, action, **fields):
        """Update one round and record the change in its history, if still at version seen."""
        with writing():
            self.claim_version(seen)
            Round.objects.filter(pk=stored_round.pk).update(**fields)
            stored_round.refresh_from_db()
            RoundEvent.objects.create(round=stored_round, action=action, entry=stored_round.entry)

    def set_closed(self, closing):
        """Close the match by hand (or reopen it)."""
        with writing():
            self.claim_version(None)
            Match.objects.filter(pk=self.pk).update(closed=closing)

    def rematch(self):
        """The match that follows this one (made on the first ask, the same on a second)."""
        with writing():
            following = self.rematches.first() or Match.objects.create(
                game=self.game, players=self.players, options=self.options, rematch_of=self
            )
            self.claim_version(None)  # every screen of the series now lists the new match
        return following

    def saved_entry(self, key):
        """The live or deleted round stored under entry key, or None."""
        return self.rounds.filter(entry_key=key).first() if key else None

    def document(self, entries=None):
        """The spec's match document; entries replace the stored rounds when given."""
        if entries is None:
            entries = [r.entry for r in self.live_rounds()]
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "rounds": entries,
            "closed": self.closed,
        }


class Round(models.Model):
    """One hand as the table entered it; its place in the match is its order by number."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    entry = models.JSONField()
    # The random key of the form that saved it: a retried save is recognised, not stored twice.
    entry_key = models.CharField(max_length=40, blank=True)
    deleted = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_round_per_number"),
            # A retried save is stored once, even when two copies of it race each other.
            models.UniqueConstraint(
                fields=["match", "entry_key"],
                condition=~Q(entry_key=""),
                name="one_round_per_entry_key",
            ),
        ]

    def __str__(self):
        return f"round {self.number} of {self.match_id}"


class RoundEvent(models.Model):
    """The audit of a round: created, edited, deleted or restored, with the entry at that time."""

    CREATED, EDITED, DELETED, RESTORED = "created", "edited", "deleted", "restored"
    ACTIONS = [
        (CREATED, "created"),
        (EDITED, "edited"),
        (DELETED, "deleted"),
        (RESTORED, "restored"),
    ]

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="events")
    action = models.CharField(max_length=10, choices=ACTIONS)
    entry = models.JSONField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]
