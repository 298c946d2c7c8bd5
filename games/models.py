"""What the table entered: a match, its rounds as typed, and their history; a regulars' table,
its people and payments. One thing derived is kept: each match's Result, what a table adds up.

Every change to a match (a round saved, changed, deleted or restored, closing, a rematch) is one
method here: it takes the write lock, reads the match and its rounds under it, asks the engine,
and writes, all in one transaction, its Result too. No rule is checked against anything read
outside it.
"""

import secrets
from contextlib import contextmanager

from django.db import IntegrityError, connection, models, transaction
from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_noop

from games import ledger, rules
from games.forms import MAX_PEOPLE
from games.memo import board, keep_board
from games.rules.base import plain
from games.screen import next_numbers, next_round, replayed, table_before

MAX_ROUNDS = rules.MAX_ROUNDS
# Deleted rounds are kept (they can be restored) and count towards MAX_ROUNDS: a match stores
# at most that many, so neither the database nor a board held in memory grows past them.
STORED_FULL = gettext_noop(
    "a match keeps at most %(most)s rounds, deleted ones included: start a rematch"
)


class Conflict(Exception):
    """Another phone changed the match since its form was drawn."""


class Refused(Exception):
    """The engine refuses the change: args[0] is its RulesError."""

    @property
    def error(self):
        return self.args[0]


class Taken(Exception):
    """The score link a phone made for a new match is another match's link."""


class AlreadySaved(Exception):
    """A form whose entry key is stored already (a retried save): args[0] is that round."""

    @property
    def stored(self):
        return self.args[0]


def new_token():
    """A long random capability token for a link: not guessable, not sequential."""
    return secrets.token_urlsafe(18)


def entry_for(read_entry, table):
    """The round entry: read_entry itself, or what it makes of the table before the round."""
    return read_entry(table) if callable(read_entry) else read_entry


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
    # The original of the series a rematch belongs to (None for a match that is no rematch): the
    # whole series is read, or its versions moved on, in one query however long it grows.
    series_first = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The regulars' table the match belongs to (games/tables.py), if any.
    table = models.ForeignKey(
        "Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.game}: {', '.join(self.players)}"

    def save(self, *args, **kwargs):
        """Store the match; a new one with its Result, which nothing has played yet."""
        new = self.pk is None
        with transaction.atomic():
            super().save(*args, **kwargs)
            if new:
                kept = ledger.unplayed(self.players)
                Result.objects.create(match=self, version=self.version, kept=kept)

    @classmethod
    def start(cls, game, players, options, public_id=""):
        """A new match; under public_id when a phone made its score link (it started the match
        with no network). A resend of that start (the same id, game, players and options) is
        answered with the match it made; raises Taken when another match has that link."""
        if not public_id:
            return cls.objects.create(game=game, players=players, options=options)
        if cls.objects.filter(watch_id=public_id).exists():
            raise Taken
        try:
            with transaction.atomic():
                return cls.objects.create(
                    public_id=public_id, game=game, players=players, options=options
                )
        except IntegrityError:
            made = cls.objects.filter(public_id=public_id).first()
        same = {"game": game, "players": players, "options": options, "rematch_of_id": None}
        if made is None or {key: getattr(made, key) for key in same} != same:
            raise Taken
        return made

    @classmethod
    def version_of(cls, link, token):
        """The version of the match whose link ("public_id" or "watch_id") is token, or None.

        Every phone at a table asks this every few seconds (games/live.py), so it is one plain
        query: the ORM takes ten times longer to build it than SQLite to answer it, and the
        live check twice as long in all (bench/profile live: 1.15 against 0.4 ms)."""
        if link not in ("public_id", "watch_id"):
            raise ValueError(link)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT version FROM {cls._meta.db_table} WHERE {link} = %s", [token])
            row = cursor.fetchone()
        return row[0] if row else None

    @property
    def rules(self):
        """The game module that scores this match."""
        return rules.GAMES[self.game]

    @property
    def day(self):
        """The date the match started, on the table's clock (TIME_ZONE)."""
        return timezone.localdate(self.created)

    def in_series(self):
        """The matches of this one's series (it alone when it has no rematch), not yet read."""
        first = self.series_first_id or self.pk
        return Match.objects.filter(Q(pk=first) | Q(series_first=first))

    def series(self):
        """The original match and its chain of rematches, in play order (each made after the
        one it follows)."""
        return list(self.in_series().order_by("pk"))

    def live_rounds(self):
        """The rounds in play order, without deleted ones."""
        return self.rounds.filter(deleted=None)

    def rounds_now(self):
        """((number, entry) of each live round in play order, the highest number stored, and
        {"number", "entry"} of each deleted round, which a phone can restore offline), read in
        one statement with the match's version and closed flag, which are brought to what
        the rounds were read with: a change landing meanwhile is never drawn under the version
        before it. Deleted rounds count for the highest number too (it is never used again)."""
        rows = (
            Match.objects.filter(pk=self.pk)
            .order_by("rounds__number")
            .values_list("version", "closed", "rounds__number", "rounds__entry", "rounds__deleted")
        )
        stored, last, gone = [], 0, []
        for version, closed, number, entry, deleted in rows:
            self.version, self.closed = version, closed
            if number is not None:  # a match with no rounds: one row, without a round
                last = number
                if deleted is None:
                    stored.append((number, entry))
                else:
                    gone.append({"number": number, "entry": entry})
        return stored, last, gone

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

    # ---- changes: each takes the write lock and reads what it checks under it

    @contextmanager
    def changing(self):
        """The match as it stands, read under the write lock, in the transaction that changes
        it (its version, whether it is closed, its players and options, with its rematch if one
        follows it); its version, and its series', moves on."""
        with transaction.atomic():
            rows = Match.objects.select_for_update().filter(Q(pk=self.pk) | Q(rematch_of=self.pk))
            rows = rows.order_by("pk")  # locked in one order by every change
            now = rows.values_list("pk", "version", "closed", "players", "options", "table")
            for pk, *fields in now:
                if pk == self.pk:
                    self.version, self.closed, self.players, self.options, self.table_id = fields
            self.played = None  # (game, table, closed) once the change has scored the match
            yield self
            self.in_series().update(version=F("version") + 1)
            if self.played is not None:
                Result.keep(self, self.version + 1, *self.played)
        self.version += 1

    def still_at(self, seen):
        """Raise Conflict unless the match is at version seen (None: whatever it is now)."""
        if seen is not None and seen != self.version:
            raise Conflict

    def add_round(self, read_entry, key="", seen=None):
        """Store the next round and return it. read_entry is the entry, or makes it from the table
        before the round. Raises AlreadySaved for a key already stored, Conflict, Refused.

        A key stored already is looked for only when the round is not stored: the database
        refuses a second round under it (the constraint one_round_per_entry_key), and a retried
        form, drawn at an earlier version, meets a conflict first."""
        try:
            return self.append_round(read_entry, key, seen)
        except (Conflict, Refused, IntegrityError):
            earlier = Round.objects.filter(match=self, entry_key=key).first() if key else None
            if earlier is not None:
                raise AlreadySaved(earlier) from None
            raise

    def append_round(self, read_entry, key, seen):
        """add_round, the write alone."""
        with self.changing() as now:
            now.still_at(seen)
            before = board(now)
            entry, refusal, table = next_round(before, lambda table: entry_for(read_entry, table))
            if refusal is not None:
                raise Refused(refusal)
            number = next(iter(next_numbers(before["last"], 1)))
            if number > MAX_ROUNDS:  # numbers are never used twice: the rounds stored, at most
                raise Refused(rules.RulesError(STORED_FULL, most=MAX_ROUNDS))
            stored = Round.objects.create(match=now, number=number, entry=entry, entry_key=key)
            RoundEvent.objects.create(round=stored, action=RoundEvent.CREATED, entry=entry)
            now.played = (before["game"], table, now.closed)
        keep_board(self, self.version, [*before["numbers"], number], table, before["deleted"])
        return stored

    def change_round(self, number, read_entry, seen=None):
        """Put a new entry in place of live round number (Http404-free: Round.DoesNotExist)."""
        with self.changing() as now:
            now.still_at(seen)
            stored = list(now.live_rounds())
            position = position_of(stored, number)
            entries = [r.entry for r in stored]
            entry = entry_for(read_entry, table_before(now.document(entries), position))
            entries[position] = entry
            now.scored_with(entries)
            stored[position].record(RoundEvent.EDITED, entry=entry)

    def delete_round(self, number, seen=None):
        """Delete live round number (it can be restored) if the rounds after it still stand."""
        with self.changing() as now:
            now.still_at(seen)
            stored = list(now.live_rounds())
            position = position_of(stored, number)
            now.scored_with([r.entry for k, r in enumerate(stored) if k != position])
            stored[position].record(RoundEvent.DELETED, deleted=timezone.now())

    def restore_round(self, number):
        """Put deleted round number back in its place, if the match still adds up with it."""
        with self.changing() as now:
            deleted = now.rounds.get(number=number, deleted__isnull=False)
            with_it = sorted([*now.live_rounds(), deleted], key=lambda r: r.number)
            now.scored_with([r.entry for r in with_it])
            deleted.record(RoundEvent.RESTORED, deleted=None)

    def scored_with(self, entries):
        """Play the match with these entries (what it then scores is its Result); raise Refused
        if it breaks a rule."""
        try:
            self.played = rules.replay(self.document(entries))
        except rules.RulesError as error:
            raise Refused(error) from None

    def change_setup(self, players, options, adding=False):
        """Rename the players and set the options anew, if every round entered still stands
        under them (the engine plays them all again); the change is kept (SetupChange) for
        History, which says it in words and can undo it. Raises Refused naming the round that
        no longer fits; Unknown for a name none of its table's people (unless adding them);
        returns the change, or None when nothing changed."""
        with transaction.atomic():
            if self.table_id is not None:  # a table's lock is taken before its match's
                with Table(pk=self.table_id).changing() as regulars:
                    regulars.admit(players, adding)
            with self.changing() as now:
                return now.set_up({"players": players, "options": options})

    def set_up(self, after):
        """Under the lock: the players and options after (a SetupChange's), if the rounds stand;
        None when they play the match as it is (an option set to its default, say)."""
        before = {"players": self.players, "options": self.options}
        if after["players"] == before["players"] and self.plays_as(after["options"]):
            return None
        refuse_past_most_changes(self)
        self.players, self.options = after["players"], after["options"]
        stored, _last, _deleted = self.rounds_now()
        self.scored_with([entry for _number, entry in stored])
        Match.objects.filter(pk=self.pk).update(**after)
        return SetupChange.objects.create(match=self, before=before, after=after)

    def plays_as(self, options):
        """Whether options play the match as its own do (the defaults filled in on both)."""
        game, n = self.rules, len(self.players)
        try:
            return game.read_options(options, n) == game.read_options(self.options, n)
        except rules.RulesError:
            return False

    def undo_setup(self, pk):
        """Put back the setup a change (SetupChange pk) replaced, as a change of its own; Refused
        when the setup was changed again since, or the rounds do not stand under it."""
        with self.changing() as now:
            change = now.setup_changes.get(pk=pk)
            if {"players": now.players, "options": now.options} != change.after:
                raise Refused(rules.RulesError(CHANGED_SINCE))
            return now.set_up(change.before)

    def rebuild_result(self):
        """Write the match's Result anew from its stored rounds (as far as the engine can play
        them), under its write lock: `manage.py rebuild_results`."""
        with self.changing() as now:
            stored, _last, _deleted = now.rounds_now()
            game, table, closed, _refused = replayed(now.document([e for _n, e in stored]))
            now.played = (game, table, closed)

    def set_closed(self, closing):
        """Close the match by hand (or reopen it)."""
        with self.changing() as now:
            drawn = board(now)
            Match.objects.filter(pk=now.pk).update(closed=closing)
            now.closed = closing
            now.played = (drawn["game"], drawn["table"], closing)

    def rematch(self):
        """The match that follows this one (made on the first ask, the same on a second), in
        its table while the table has room: its room is counted under the table's lock, taken
        before the match's as every change of a table takes them."""
        with transaction.atomic():
            room = self.table_id is not None and Table.locked(self.table_id).has_room()
            with self.changing() as now:
                following = now.rematches.first() or Match.objects.create(
                    game=now.game,
                    players=now.players,
                    options=now.options,
                    rematch_of=now,
                    series_first_id=now.series_first_id or now.pk,
                    table_id=now.table_id if room else None,
                )
        return following


def position_of(stored, number):
    """The place of round number among the stored rounds (Round.DoesNotExist if none)."""
    for position, stored_round in enumerate(stored):
        if stored_round.number == number:
            return position
    raise Round.DoesNotExist


CHANGED_SINCE = gettext_noop("the setup was changed again since: undo the later change first")
# Fixes of a match's or a table's setup kept (undone ones included), as its rounds are counted.
MAX_SETUP_CHANGES = 200
SETUP_FULL = gettext_noop("the names and options have been changed %(most)s times: no more")


def refuse_past_most_changes(changed):
    """Refused when the match or table (under its lock) has had MAX_SETUP_CHANGES fixes."""
    if changed.setup_changes.count() >= MAX_SETUP_CHANGES:
        raise Refused(rules.RulesError(SETUP_FULL, most=MAX_SETUP_CHANGES))


class SetupChange(models.Model):
    """A fix of a match's or a table's setup after it started: what it was and what it became
    (a match's {"players", "options"}, a table's {"name", "people"}), which History says in
    words and can undo (by a change back, kept too)."""

    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.CASCADE, related_name="setup_changes"
    )
    table = models.ForeignKey(
        "Table", null=True, blank=True, on_delete=models.CASCADE, related_name="setup_changes"
    )
    before = models.JSONField()
    after = models.JSONField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self):
        return f"setup of {self.match_id or self.table_id} at {self.at}"


class Result(models.Model):
    """What a table adds up of a match (games/ledger.py kept): the engine's result as the last
    change of the match left it, written by that change under the match's write lock. The
    rounds stay the truth: `manage.py rebuild_results` writes every row anew from them."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="result"
    )
    version = models.PositiveIntegerField(default=0)  # the match's version it was scored at
    finished = models.BooleanField(default=False)  # a table's match in play: one not finished
    # {"players", "rounds", "finished", "winners", "places", "settlement"}: one document, read
    # in one piece (a table's page reads 500 of them).
    kept = models.JSONField(default=dict)

    def __str__(self):
        return f"result of {self.match_id} at version {self.version}"

    @classmethod
    def keep(cls, match, version, game, table, closed):
        """Write what the match scores at version (the engine's table after its rounds)."""
        kept = ledger.kept(game, table, closed)
        row = {"version": version, "finished": kept["finished"], "kept": kept}
        if not cls.objects.filter(match=match).update(**row):
            cls.objects.create(match=match, **row)


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

    def record(self, action, **fields):
        """Change the round's fields and write the change in its history."""
        for name, value in fields.items():
            setattr(self, name, value)
        self.save(update_fields=[*fields, "updated"])
        RoundEvent.objects.create(round=self, action=action, entry=self.entry)


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


# A table's matches and payments (deleted ones included), as a match's rounds: its page replays
# every match, so neither it nor the database grows past them.
MAX_TABLE_MATCHES, MAX_PAYMENTS = 500, 1000
TABLE_FULL = gettext_noop("a table keeps at most %(most)s matches: make a new table")
PAYMENTS_FULL = gettext_noop("a table keeps at most %(most)s payments, deleted ones included")
TOO_MANY_PEOPLE = gettext_noop("a table has at most %(most)s people")
NOT_PEOPLE = gettext_noop("%(name)s is not one of this table's people")
PLAYED_HERE = gettext_noop("%(name)s has played or paid at this table: they stay one of its people")


class Unknown(Exception):
    """Names that are none of the table's people: args[0], to be asked about, never guessed."""

    @property
    def names(self):
        return self.args[0]


class Table(models.Model):
    """The regulars: a standing group of people whose matches add up across evenings. What it
    adds up (balances, settlements, statistics) is computed from its matches (games/ledger.py)."""

    # Two capabilities, as a match's: the score link changes the table, the watch link reads.
    public_id = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    watch_id = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    name = models.CharField(max_length=60)
    people = models.JSONField()  # names, cleaned as the engine cleans players' names
    # Bumped by every change to the table (its people, matches, payments): with its matches'
    # versions, what a drawn page of it is kept under.
    version = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.name

    @classmethod
    def with_state(cls):
        """The tables, each with what a drawn page of it is kept under (its state): its id and
        version, the sum of its matches' versions and their count (every change to it or to
        one of its matches moves it on)."""
        played = Coalesce(Sum("matches__version"), 0)
        return cls.objects.annotate(played=played, count=Count("matches")).values_list(
            "pk", "version", "played", "count"
        )

    @classmethod
    def state_of(cls, link, token):
        """The state (with_state) of the table whose link ("public_id" or "watch_id") is
        token, or None."""
        return cls.with_state().filter(**{link: token}).first()

    def played(self):
        """Each of the table's matches in play order, as the ledger reads it: {"match" (its id,
        links, when it started), "date" (its evening's), "result" (its stored Result's fields,
        with its game)}: one query, no round replayed."""
        links = ("pk", "public_id", "watch_id", "created")
        rows = self.matches.order_by("created", "pk").values_list(*links, "game", "result__kept")
        rows = list(rows)
        days = ledger.evenings_of([timezone.localtime(row[3]) for row in rows])
        return [
            {
                "match": dict(zip(links, row)),
                "date": day,
                "result": {"game": row[4], **row[5]},
            }
            for row, day in zip(rows, days)
        ]

    def unknown(self, names):
        """The names that are none of the table's people, compared as the engine compares."""
        known = {rules.same_name_key(person) for person in self.people}
        return [name for name in names if rules.same_name_key(name) not in known]

    def person(self, name):
        """The table's person called name (as the engine compares names), else None."""
        key = rules.same_name_key(name)
        return next((p for p in self.people if rules.same_name_key(p) == key), None)

    # ---- changes: each takes the table's write lock and reads what it checks under it

    @contextmanager
    def changing(self):
        """The table as it stands, read under its write lock, in the transaction that changes
        it; its version moves on, and its people are written as the change leaves them."""
        with transaction.atomic():
            row = Table.objects.select_for_update().filter(pk=self.pk)
            now = row.values_list("name", "people", "version")
            self.name, self.people, self.version = now.get()
            yield self
            row.update(version=F("version") + 1, people=self.people)
        self.version += 1

    @classmethod
    def locked(cls, pk):
        """The table, read under its write lock (in the transaction of the change)."""
        return cls.objects.select_for_update().get(pk=pk)

    def has_room(self):
        """Whether the table can take one more match (asked under its lock)."""
        return self.matches.count() < MAX_TABLE_MATCHES

    def welcome(self, names, adding):
        """Under the lock: add the names that are nobody's when adding, else raise Unknown;
        Refused when the table is full (of people, or of matches)."""
        if not self.has_room():
            raise Refused(rules.RulesError(TABLE_FULL, most=MAX_TABLE_MATCHES))
        self.admit(names, adding)

    def admit(self, names, adding):
        """Under the lock: add the names that are nobody's when adding, else raise Unknown;
        Refused when the table would then hold too many people."""
        new = self.unknown(names)
        if new and not adding:
            raise Unknown(new)
        if len(self.people) + len(new) > MAX_PEOPLE:
            raise Refused(rules.RulesError(TOO_MANY_PEOPLE, most=MAX_PEOPLE))
        self.people = [*self.people, *new]

    def add_people(self, names):
        """Add the names that are none of the table's people yet."""
        with self.changing() as now:
            now.welcome(names, adding=True)

    def start_match(self, game, players, options, adding=False):
        """A new match of the table; players who are none of its people are added when adding,
        else Unknown is raised and nothing is stored."""
        with self.changing() as now:
            now.welcome(players, adding)
            return Match.objects.create(game=game, players=players, options=options, table=now)

    def take_match(self, match, adding=False):
        """Make a match already played one of the table's (Unknown, Refused as start_match)."""
        with self.changing() as now:
            table_id = Match.objects.select_for_update().values_list("table", flat=True)
            held = table_id.get(pk=match.pk)
            if held not in (None, now.pk):
                raise Refused(rules.RulesError(gettext_noop("this match is another table's")))
            now.welcome(match.players, adding)
            # The match's pages now lead to the table: they are drawn anew.
            Match.objects.filter(pk=match.pk).update(table=now, version=F("version") + 1)
            match.table = now

    def pay(self, payer, payee, amount, unit, key=""):
        """Record that payer paid payee amount (in unit): both must be the table's people. A
        key already stored (the same form sent again: a double tap, a retry) records nothing."""
        with self.changing() as now:
            recorded = now.payments.filter(entry_key=key).first() if key else None
            if recorded is not None:
                return recorded
            for name in (payer, payee):
                if now.person(name) is None:
                    raise Refused(rules.RulesError(NOT_PEOPLE, name=name))
            if now.payments.count() >= MAX_PAYMENTS:
                raise Refused(rules.RulesError(PAYMENTS_FULL, most=MAX_PAYMENTS))
            if now.person(payer) == now.person(payee):
                raise Refused(rules.RulesError(gettext_noop("a payment is between two people")))
            return Payment.objects.create(
                table=now,
                payer=now.person(payer),
                payee=now.person(payee),
                amount=amount,
                unit=unit,
                entry_key=key,
            )

    def change_setup(self, name, people):
        """Rename the table and its people, and add people (after the ones it has): a person
        renamed is renamed in every match and payment of the table. Kept (SetupChange) to be
        said and undone; None when nothing changed."""
        with self.changing() as now:
            return now.set_up({"name": name, "people": people})

    def set_up(self, after):
        """Under the lock: the name and people after (a SetupChange's); a person left out must
        never have played or paid at the table."""
        before = {"name": self.name, "people": self.people}
        if after == before:
            return None
        refuse_past_most_changes(self)
        self.refuse_if_seen(before["people"][len(after["people"]) :])
        renamed = {
            rules.same_name_key(old): new
            for old, new in zip(before["people"], after["people"])
            if old != new
        }
        self.rename(renamed)
        self.name, self.people = after["name"], after["people"]
        Table.objects.filter(pk=self.pk).update(name=self.name)  # its people: by changing()
        return SetupChange.objects.create(table=self, before=before, after=after)

    def refuse_if_seen(self, names):
        """Refused when one of names played a match of the table or paid or was paid."""
        keys = {rules.same_name_key(name) for name in names}
        seen = {name for match in self.matches.values_list("players", flat=True) for name in match}
        seen |= set(self.payments.values_list("payer", flat=True))
        seen |= set(self.payments.values_list("payee", flat=True))
        for name in seen:
            if rules.same_name_key(name) in keys:
                raise Refused(rules.RulesError(PLAYED_HERE, name=name))

    def rename(self, renamed):
        """Under the lock: each name renamed ({key of the old name: new name}) in the table's
        matches (their players and results; their pages are drawn anew) and payments."""
        if not renamed:
            return

        def new(name):
            return renamed.get(rules.same_name_key(name), name)

        for match in self.matches.select_for_update(of=("self",)).select_related("result"):
            players = [new(name) for name in match.players]
            if players != match.players:
                Match.objects.filter(pk=match.pk).update(players=players, version=F("version") + 1)
                kept = match.result.kept
                winners = [new(name) for name in kept["winners"]]
                Result.objects.filter(pk=match.pk).update(
                    kept={**kept, "players": players, "winners": winners}
                )
        for payment in self.payments.all():
            if (new(payment.payer), new(payment.payee)) != (payment.payer, payment.payee):
                payment.payer, payment.payee = new(payment.payer), new(payment.payee)
                payment.save(update_fields=["payer", "payee"])

    def undo_setup(self, pk):
        """Put back the name and people a change (SetupChange pk) replaced, as a change of its
        own; Refused when they were changed again since."""
        with self.changing() as now:
            change = now.setup_changes.get(pk=pk)
            if {"name": now.name, "people": now.people} != change.after:
                raise Refused(rules.RulesError(CHANGED_SINCE))
            return now.set_up(change.before)

    def set_payment_deleted(self, pk, deleting):
        """Delete a payment (it can be restored), or restore a deleted one."""
        with self.changing() as now:
            payment = now.payments.get(pk=pk, deleted__isnull=deleting)
            payment.deleted = timezone.now() if deleting else None
            payment.save(update_fields=["deleted"])


class Payment(models.Model):
    """What one of a table's people paid another, as recorded with "Paid"; never guessed."""

    BEANS, MONEY = "beans", "money"
    UNITS = [(BEANS, "beans"), (MONEY, "money")]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="payments")
    payer = models.CharField(max_length=40)
    payee = models.CharField(max_length=40)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    unit = models.CharField(max_length=8, choices=UNITS)
    # The random key of the form that recorded it: the same form sent twice records it once.
    entry_key = models.CharField(max_length=40, blank=True)
    deleted = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "entry_key"],
                condition=~Q(entry_key=""),
                name="one_payment_per_entry_key",
            ),
        ]

    def __str__(self):
        return f"{self.payer} → {self.payee}: {self.amount} {self.unit}"

    def document(self):
        """The payment as the table's JSON document lists it."""
        return {
            "from": self.payer,
            "to": self.payee,
            "amount": plain(self.amount),
            "unit": self.unit,
        }

    def as_paid(self):
        """The payment as the ledger reads it: its document and the day it was recorded."""
        return {**self.document(), "date": timezone.localdate(self.created)}


class Heartbeat(models.Model):
    """One row that /healthz rewrites on every call: a check that really writes."""

    at = models.DateTimeField()

    @classmethod
    def beat(cls):
        """Write the time now into the row (raises DatabaseError when nothing can be written)."""
        cls.objects.update_or_create(pk=1, defaults={"at": timezone.now()})
