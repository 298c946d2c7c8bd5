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
from django.db.models import Count, F, Q, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_noop

from games import ledger, ratings, rules
from games.forms import MAX_PEOPLE, MOST_CURRENCY
from games.memo import board, drawn, keep_board
from games.rules.base import plain
from games.screen import (
    check_join,
    check_leave,
    going_on,
    next_numbers,
    next_round,
    replayed,
    table_before,
)
from games.signing import signed_by

MAX_ROUNDS = rules.MAX_ROUNDS
# Deleted rounds are kept (they can be restored) and count towards MAX_ROUNDS: a match stores
# at most that many, so neither the database nor a board held in memory grows past them.
STORED_FULL = gettext_noop(
    "a match keeps at most %(most)s rounds, deleted ones included: start a rematch"
)


class Conflict(Exception):
    """Another phone changed the match since its form was drawn."""


class Stale(Conflict):
    """Another phone changed the setup (or the payments) since the form was drawn: args[0] is
    what it changed since (SetupChanges, or Payments), in order."""

    @property
    def since(self):
        return self.args[0]


class Moved(Exception):
    """A match was taken into a table between reading its table and taking its locks."""


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
    # Players who come and go (the rule book's players.md): {name: the number of the first round
    # they play} and {name: the number of the last one}, as rounds are stored (numbers are never
    # used twice, so deleting or restoring a round before it keeps them right); the match
    # document says them as places in play order (at_places).
    joined = models.JSONField(default=dict, blank=True)
    left = models.JSONField(default=dict, blank=True)
    # A table's people who sat this match out (a game of fixed seats, more people than seats).
    sat_out = models.JSONField(default=list, blank=True)
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

    @classmethod
    def drawn_as(cls, link, token):
        """(version, currency of its table or "") of the match whose link is token, or None:
        what its page is drawn and kept under, in one plain query as version_of."""
        if link not in ("public_id", "watch_id"):
            raise ValueError(link)
        tables = Table._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT m.version, t.currency FROM {cls._meta.db_table} m LEFT JOIN {tables} t"
                f" ON t.id = m.table_id WHERE m.{link} = %s",
                [token],
            )
            row = cursor.fetchone()
        return (row[0], row[1] or "") if row else None

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

    def document(self, entries=None, numbers=None):
        """The spec's match document; entries replace the stored rounds when given, numbers
        (the numbers they are stored under) when they are not the live rounds'."""
        if entries is None:
            stored = self.live_rounds().values_list("number", "entry")
            numbers, entries = [n for n, _e in stored], [e for _n, e in stored]
        document = {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "rounds": entries,
            "closed": self.closed,
        }
        if self.joined or self.left:
            if numbers is None:
                numbers = list(self.live_rounds().values_list("number", flat=True))
            document.update(at_places(self.joined, self.left, numbers))
        return document

    def setup(self):
        """What Names and options, a join and a leave change: the players, the options, who
        joined and who left (as stored)."""
        return {
            "players": self.players,
            "options": self.options,
            "joined": self.joined,
            "left": self.left,
        }

    # ---- changes: each takes the write lock and reads what it checks under it

    @contextmanager
    def changing(self):
        """The match as it stands, read under the write locks, in the transaction that changes
        it (its version, whether it is closed, its players and options, its table's people as
        regulars); its version, and its series', moves on."""
        with transaction.atomic():
            self.lock()
            self.played = None  # (game, table, closed) once the change has scored the match
            yield self
            self.in_series().update(version=F("version") + 1)
            if self.played is not None:
                Result.keep(self, self.version + 1, *self.played)
        self.version += 1

    def lock(self):
        """Take a change's locks in the one order every change takes them: its table's first,
        then its series' matches by id; regulars is the table, read under its lock (None for a
        match of no table). On PostgreSQL (SELECT ... FOR UPDATE) a match taken into a table
        between the two lets its locks go (a savepoint rolled back) and takes them again, its
        table first; on SQLite the IMMEDIATE transaction is one lock for everything."""
        if not connection.features.has_select_for_update:
            self.lock_series()
            self.regulars = Table.read_locked(self.table_id) if self.table_id else None
            return
        while True:
            held = Match.objects.filter(pk=self.pk).values_list("table", flat=True).get()
            try:
                with transaction.atomic():
                    self.regulars = Table.read_locked(held) if held is not None else None
                    self.lock_series()
                    if self.table_id != held:
                        raise Moved
                    return
            except Moved:
                continue

    def lock_series(self):
        """Lock the matches of the series by id and read this one's state under the lock."""
        rows = self.in_series().select_for_update().order_by("pk")
        read = ("version", "closed", "players", "options", "joined", "left", "table_id")
        for pk, *fields in rows.values_list("pk", *read):
            if pk == self.pk:
                for name, value in zip(read, fields):
                    setattr(self, name, value)

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
            entries, numbers = [r.entry for r in stored], [r.number for r in stored]
            entry = entry_for(read_entry, table_before(now.document(entries, numbers), position))
            entries[position] = entry
            now.scored_with(entries, numbers)
            stored[position].record(RoundEvent.EDITED, entry=entry)

    def delete_round(self, number, seen=None):
        """Delete live round number (it can be restored) if the rounds after it still stand."""
        with self.changing() as now:
            now.still_at(seen)
            stored = list(now.live_rounds())
            position = position_of(stored, number)
            kept = [r for k, r in enumerate(stored) if k != position]
            now.scored_with([r.entry for r in kept], [r.number for r in kept])
            stored[position].record(RoundEvent.DELETED, deleted=timezone.now())

    def restore_round(self, number, seen=None):
        """Put deleted round number back in its place, if the match still adds up with it
        (Conflict when it moved on since version seen: an Undo drawn before)."""
        with self.changing() as now:
            now.still_at(seen)
            deleted = now.rounds.get(number=number, deleted__isnull=False)
            with_it = sorted([*now.live_rounds(), deleted], key=lambda r: r.number)
            now.scored_with([r.entry for r in with_it], [r.number for r in with_it])
            deleted.record(RoundEvent.RESTORED, deleted=None)

    def scored_with(self, entries, numbers=None):
        """Play the match with these entries, stored under numbers when they are not the live
        rounds' (what it then scores is its Result); raise Refused if it breaks a rule."""
        try:
            self.played = rules.replay(self.document(entries, numbers))
        except rules.RulesError as error:
            raise Refused(error) from None

    def join(self, name, seat, late_start=None, key="", seen=None):
        """Seat name at seat (in seating order) for the next round, late_start (when given)
        saying where they start: a change kept like a fix of the setup (SetupChange), said in
        History and undone from there. The same key sent again joins once (the change it made
        is returned). Raises Conflict (seen: the version the form was drawn at), Refused (the
        engine's words, naming the round: past the player limit, a name twice, the match
        finished), Unknown for a name none of its table's people (never added from here)."""
        with self.changing() as now:
            return now.seat_change(
                key, seen, lambda drawn: now.joining(drawn, name, seat, late_start)
            )

    def leave(self, name, key="", seen=None):
        """name leaves after the last round played, their total frozen: a change kept like a fix
        of the setup, as join. Raises Conflict, Refused (the match finished, nobody left to play
        with, the player gone already or never seated)."""
        with self.changing() as now:
            change = now.seat_change(key, seen, lambda drawn: now.leaving(drawn, name))
            if now.played is not None:  # made now: a match that goes on needs two to play
                gone = set(change.after["left"]) - set(change.before["left"])
                refusal = going_on(*now.played, gone.pop())
                if refusal is not None:
                    raise Refused(refusal)
            return change

    def seat_change(self, key, seen, after):
        """Under the lock: the change the form with key made already, else the setup after()
        gives made (raising Conflict when the match moved on since version seen)."""
        done = self.setup_changes.filter(entry_key=key).first() if key else None
        if done is not None:
            return done
        self.still_at(seen)
        try:
            return self.set_up(after(board(self)), key)
        except rules.RulesError as error:
            raise Refused(error) from None

    def joining(self, drawn, name, seat, late_start):
        """The setup after name sits down at seat for the next round (at once, with the others,
        before the first round), the board drawn as the match stands permitting."""
        name = rules.clean_name(name)
        check_join(drawn, seat)
        stored, last, _deleted = self.rounds_now()
        options = dict(self.options)
        if late_start is not None and stored:  # before the first round everyone starts at 0
            options["late_start"] = late_start
        joined = {**self.joined, name: last + 1} if stored else self.joined
        players = [*self.players[:seat], name, *self.players[seat:]]
        return {"players": players, "options": options, "joined": joined, "left": self.left}

    def leaving(self, drawn, name):
        """The setup after name leaves once the last round played is over, the board drawn as
        the match stands permitting."""
        player = check_leave(drawn, name)
        stored, _last, _deleted = self.rounds_now()
        return {**self.setup(), "left": {**self.left, player: stored[-1][0]}}

    def change_setup(self, players, options, seen=None, renaming=False, adding=False):
        """Rename the players and set the options anew, if every round entered still stands
        under them (the engine plays them all again); the change is kept (SetupChange) for
        History, which says it in words and can undo it. A table's match is played by its
        people: a name none of them is a typo of its seat's person when renaming (renamed
        everywhere at the table), someone new when adding (only the table's score link adds),
        else Unknown. Raises Stale when the setup was changed since version seen, Refused naming
        the round that no longer fits; returns the change, or None when nothing changed."""
        with self.changing() as now:
            refuse_stale(now, seen)
            renamed = None
            if now.regulars is not None:
                renamed = now.take_names(players, renaming, adding)
            return now.set_up({"players": players, "options": options}) or renamed

    def take_names(self, players, renaming, adding):
        """Under the locks: the names of players that are none of the table's people renamed
        from the person in their seat (renaming: the match's change that renamed them, part
        of the table's, returned) or added to the table (adding)."""
        new = self.regulars.unknown(players)
        if not new or not (renaming or adding):
            return None
        with self.regulars.changing() as regulars:
            if adding:
                regulars.admit(players, adding=True)
                return None
            typos = {old: name for old, name in zip(self.players, players) if name in new}
            regulars.rename_people(typos)
        self.players = Match.objects.values_list("players", flat=True).get(pk=self.pk)
        return self.setup_changes.last()

    def set_up(self, after, key="", table_change=None):
        """Under the lock: the players, options, joins and leaves after (a SetupChange's; joins
        and leaves follow a rename when it does not give them), if the rounds stand and, at a
        table, every player is one of its people; None when they play the match as it is (an
        option set to its default, say). A player seated or taken away moves every stored
        round's entries (and their history) to the new seats. key: the form's entry key (a join,
        a leave); table_change: the table's rename it follows."""
        before = self.setup()
        after = {**before, **moved_with_names(before, after["players"]), **after}
        same = all(after[k] == before[k] for k in ("players", "joined", "left"))
        if same and self.plays_as(after["options"]):
            return None
        if table_change is None:
            refuse_past_most_changes(self)
        if self.regulars is not None and self.regulars.unknown(after["players"]):
            raise Unknown(self.regulars.unknown(after["players"]))
        self.reseat(before["players"], after["players"])
        self.players, self.options = after["players"], after["options"]
        self.joined, self.left = after["joined"], after["left"]
        stored, _last, _deleted = self.rounds_now()
        self.scored_with([entry for _number, entry in stored], [number for number, _e in stored])
        Match.objects.filter(pk=self.pk).update(**after)
        return SetupChange.objects.create(
            match=self,
            before=before,
            after=after,
            version=self.version,
            table_change=table_change,
            entry_key=key,
        )

    def reseat(self, players, after):
        """Under the lock: every stored round's entry, and each one in its history, moved from
        the seats of players to those of after when a player is seated or taken away (one
        that played a round cannot be: Refused naming it)."""
        seated, gone = seat_inserted(players, after), seat_inserted(after, players)
        if seated is None and gone is None:
            return
        game = self.rules
        if gone is not None:
            self.refuse_played(players[gone], gone)
        move = (
            (lambda e: game.with_seat(e, seated))
            if seated is not None
            else (lambda e: game.without_seat(e, gone))
        )
        rounds = list(self.rounds.all())
        for stored in rounds:
            stored.entry = move(stored.entry)
        Round.objects.bulk_update(rounds, ["entry"], batch_size=200)
        events = list(RoundEvent.objects.filter(round__match=self))
        for event in events:
            event.entry = move(event.entry)
        RoundEvent.objects.bulk_update(events, ["entry"], batch_size=200)

    def refuse_played(self, name, seat):
        """Refused when name (at seat) has an entry in a stored round: taking them away would
        lose it."""
        stored = self.rounds.order_by("number").values_list("number", "entry", "deleted")
        position = 0
        for _number, entry, deleted in stored:
            position += deleted is None
            if self.rules.with_seat(self.rules.without_seat(entry, seat), seat) != entry:
                raise Refused(rules.RulesError(HAS_PLAYED, name=name, number=max(position, 1)))

    def plays_as(self, options):
        """Whether options play the match as its own do (the defaults filled in on both)."""
        game, n = self.rules, len(self.players)
        try:
            return game.read_options(options, n) == game.read_options(self.options, n)
        except rules.RulesError:
            return False

    def undo_setup(self, pk, seen=None):
        """Put back the setup a change (SetupChange pk) replaced, as a change of its own (a
        rename made everywhere at the table is undone everywhere); Refused when the setup was
        changed again since, or the rounds do not stand under it; Unknown when a name it brings
        back is none of the table's people now; Conflict when the match moved on since version
        seen (an Undo drawn before)."""
        with self.changing() as now:
            now.still_at(seen)
            change = now.setup_changes.get(pk=pk)
            if any(now.setup()[key] != value for key, value in change.after.items()):
                raise Refused(rules.RulesError(CHANGED_SINCE))
            if change.table_change is None:
                return now.set_up(change.before)
            with now.regulars.changing() as regulars:
                regulars.undo(change.table_change)
            now.players = Match.objects.values_list("players", flat=True).get(pk=now.pk)
            return now.set_up(change.before) or now.setup_changes.last()

    def staying(self):
        """The players, but those who left (unless too few would then be left for the game)."""
        staying = [name for name in self.players if name not in self.left]
        return staying if len(staying) >= self.rules.min_players else self.players

    def rebuild_result(self):
        """Write the match's Result anew from its stored rounds (as far as the engine can play
        them), under its write lock: `manage.py rebuild_results`."""
        with self.changing() as now:
            stored, _last, _deleted = now.rounds_now()
            document = now.document([e for _n, e in stored], [n for n, _e in stored])
            game, table, closed, _refused = replayed(document)
            now.played = (game, table, closed)

    def set_closed(self, closing):
        """Close the match by hand (or reopen it)."""
        with self.changing() as now:
            drawn = board(now)
            Match.objects.filter(pk=now.pk).update(closed=closing)
            now.closed = closing
            now.played = (drawn["game"], drawn["table"], closing)

    def replace_link(self):
        """Give the match a new score link (new_link); return it."""
        with self.changing() as now:
            return new_link(self, match=now)

    def rematch(self):
        """The match that follows this one (made on the first ask, the same on a second), in
        its table while the table has room (counted under the table's lock)."""
        with self.changing() as now:
            room = now.regulars is not None and now.regulars.has_room()
            return now.rematches.first() or Match.objects.create(
                game=now.game,
                players=now.staying(),
                options=now.options,
                rematch_of=now,
                series_first_id=now.series_first_id or now.pk,
                table_id=now.table_id if room else None,
            )


def at_places(joined, left, numbers):
    """The match document's joined and left (players.md: places in play order, from 1) of a
    match's (round numbers as stored), its live rounds stored under numbers: a player whose
    first round has no live round before it plays from the first; one whose last has none at or
    before it is left out (their rounds, all deleted, said nothing the engine could place)."""
    places = {
        "joined": {
            name: place
            for name, first in joined.items()
            if (place := 1 + sum(n < first for n in numbers)) > 1
        },
        "left": {
            name: place
            for name, last in left.items()
            if (place := sum(n <= last for n in numbers)) > 0
        },
    }
    return {key: value for key, value in places.items() if value}


def seat_inserted(players, after):
    """The seat at which after holds one name more than players (the rest in the same order),
    else None."""
    if len(after) != len(players) + 1:
        return None
    return next((k for k in range(len(after)) if after[:k] + after[k + 1 :] == players), None)


def moved_with_names(before, players):
    """{"joined", "left"} of the setup before, each name as players renames it (a rename keeps
    the seats); nothing when players seats someone or takes someone away."""
    if len(players) != len(before["players"]):
        return {}
    renamed = dict(zip(before["players"], players))
    return {
        key: {renamed.get(name, name): number for name, number in before[key].items()}
        for key in ("joined", "left")
    }


HAS_PLAYED = gettext_noop("%(name)s has played round %(number)s: delete their rounds first")


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


def refuse_stale(changed, seen):
    """Raise Stale when the match's or table's setup (under its lock) was changed since version
    seen (None: whenever)."""
    if seen is not None:
        since = list(changed.setup_changes.filter(version__gte=seen))
        if since:
            raise Stale(since)


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
    # The version of the match or table it was made at: a form drawn at a later one saw it.
    version = models.PositiveIntegerField(default=0)
    by = models.CharField(max_length=40, blank=True, default=signed_by)  # the phone's name
    # A match's rename made everywhere at its table: the table's change it is part of (undone
    # with it).
    table_change = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    # The random key of the form that made it (a join, a leave): sent again, it changes nothing.
    entry_key = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "entry_key"],
                condition=~Q(entry_key=""),
                name="one_seat_change_per_entry_key",
            ),
        ]

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
    # When the match ended (None while it is in play): a table rates its matches in that order.
    # A change to a match that has ended and still has keeps it; reopened, it ends anew.
    ended = models.DateTimeField(null=True, blank=True)
    # {"players", "rounds", "finished", "winners", "places", "settlement"}: one document, read
    # in one piece (a table's page reads 500 of them).
    kept = models.JSONField(default=dict)

    def __str__(self):
        return f"result of {self.match_id} at version {self.version}"

    @classmethod
    def keep(cls, match, version, game, table, closed):
        """Write what the match scores at version (the engine's table after its rounds)."""
        kept = ledger.kept(game, table, closed)
        now = timezone.now() if kept["finished"] else None
        row = {"version": version, "finished": kept["finished"], "kept": kept}
        ended = Coalesce("ended", Value(now)) if now else None
        if not cls.objects.filter(match=match).update(**row, ended=ended):
            cls.objects.create(match=match, **row, ended=now)


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
    by = models.CharField(max_length=40, blank=True, default=signed_by)  # the phone's name

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
    # What its money is counted in, shown with every amount of money ($, €, ¥, ₮, تومان, EUR);
    # "" for none.
    currency = models.CharField(max_length=MOST_CURRENCY, blank=True, default="")
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
        links, when it started and ended, its options), "date" (its evening's), "result" (its
        stored Result's fields, with its game)}: one query, no round replayed."""
        fields = ("pk", "public_id", "watch_id", "created", "result__ended", "options")
        rows = self.matches.order_by("created", "pk")
        rows = list(rows.values_list(*fields, "game", "result__kept", "sat_out"))
        here = timezone.get_current_timezone()  # asked once: each ask reads a thread local
        days = ledger.evenings_of([timezone.localtime(row[3], here) for row in rows])
        named = ("pk", "public_id", "watch_id", "created", "ended", "options")
        return [
            {
                "match": dict(zip(named, row)),
                "date": day,
                "result": {"game": row[6], **row[7]},
                "sat_out": row[8],
            }
            for row, day in zip(rows, days)
        ]

    def season(self, played):
        """Its ratings (games/ratings.py Season) from played (played()): worked out once for
        what they are worked out from, for its page, its people's pages, its board, its export."""
        rated = ratings.rated_matches(ledger.People(self.people), played)
        key = ("season", self.pk, ratings.digest(self.people, rated))
        return drawn(key, lambda: ratings.Season(self.people, rated))

    def unknown(self, names):
        """The names that are none of the table's people, compared as the engine compares."""
        known = {rules.same_name_key(person) for person in self.people}
        return [name for name in names if rules.same_name_key(name) not in known]

    def person(self, name):
        """The table's person called name (as the engine compares names), else None."""
        key = rules.same_name_key(name)
        return next((p for p in self.people if rules.same_name_key(p) == key), None)

    def last_options(self, game):
        """The options (stake included) of the table's latest match of game, as it stands (a
        fix after Start included); None when it has played none."""
        latest = self.matches.filter(game=game).order_by("-created", "-pk")
        return latest.values_list("options", flat=True).first()

    # ---- changes: each takes the table's write lock and reads what it checks under it

    @contextmanager
    def changing(self):
        """The table as it stands, read under its write lock, in the transaction that changes
        it; its version moves on, and its people are written as the change leaves them."""
        with transaction.atomic():
            row = Table.objects.select_for_update().filter(pk=self.pk)
            self.name, self.people, self.version = row.values_list(
                "name", "people", "version"
            ).get()
            yield self
            row.update(version=F("version") + 1, people=self.people)
        self.version += 1

    @classmethod
    def read_locked(cls, pk):
        """The table (its name, people and version), read under its write lock: the first lock
        a change of one of its matches takes."""
        row = cls.objects.select_for_update().filter(pk=pk)
        name, people, version = row.values_list("name", "people", "version").get()
        return cls(pk=pk, name=name, people=people, version=version)

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

    def start_match(self, game, players, options, adding=False, sat_out=(), seen=None):
        """A new match of the table; players who are none of its people are added when adding,
        else Unknown is raised and nothing is stored. sat_out: the people who sit it out (those
        of them who are the table's people and do not play it are kept, by the table's names).
        Stale when the table's names were changed since version seen."""
        with self.changing() as now:
            refuse_stale(now, seen)
            now.welcome(players, adding)
            playing = {rules.same_name_key(name) for name in players}
            out = [now.person(name) for name in sat_out if now.person(name) is not None]
            out = [name for name in dict.fromkeys(out) if rules.same_name_key(name) not in playing]
            return Match.objects.create(
                game=game, players=players, options=options, table=now, sat_out=out
            )

    def start_renaming(self, game, players, options, was, sat_out=(), seen=None):
        """A new match of the table started with was (its people, one of them in the seat
        where players holds a typo of theirs), then renamed to players everywhere at the table
        (Match.change_setup renaming), in one transaction: the match, and that change (undone
        from the match, everywhere). Stale when the table's names were changed since version
        seen (the question was asked at)."""
        with transaction.atomic():
            match = self.start_match(game, was, options, sat_out=sat_out, seen=seen)
            return match, match.change_setup(players, options, renaming=True)

    def take_match(self, match, adding=False):
        """Make a match already played one of the table's (Unknown, Refused as start_match):
        its players are read under its lock, taken after the table's."""
        with self.changing() as now:
            match.lock_series()
            if match.table_id not in (None, now.pk):
                raise Refused(rules.RulesError(gettext_noop("this match is another table's")))
            now.welcome(match.players, adding)
            # The match's pages now lead to the table: they are drawn anew.
            Match.objects.filter(pk=match.pk).update(table=now, version=F("version") + 1)
            match.table = now

    def set_currency(self, currency, seen):
        """Count the table's money in currency; Stale (since: the currency now) when another
        phone set it since the form was drawn showing seen."""
        with self.changing() as now:
            current = Table.objects.values_list("currency", flat=True).get(pk=now.pk)
            if current != seen:
                raise Stale([current])
            Table.objects.filter(pk=now.pk).update(currency=currency)
        self.currency = currency

    def pay(self, payer, payee, amount, unit, key="", seen=None):
        """Record that payer paid payee amount (in unit): both must be the table's people. A
        key already stored (the same form sent again: a double tap, a retry) records nothing;
        Stale when a payment was recorded, deleted or restored since version seen."""
        with self.changing() as now:
            recorded = now.payments.filter(entry_key=key).first() if key else None
            if recorded is not None:
                return recorded
            if seen is not None:
                since = list(now.payments.filter(version__gte=seen))
                if since:
                    raise Stale(since)
            now.check_payment(payer, payee)
            if now.payments.count() >= MAX_PAYMENTS:
                raise Refused(rules.RulesError(PAYMENTS_FULL, most=MAX_PAYMENTS))
            return Payment.objects.create(
                table=now,
                payer=now.person(payer),
                payee=now.person(payee),
                amount=amount,
                unit=unit,
                entry_key=key,
                version=now.version,
            )

    def check_payment(self, payer, payee):
        """Refused unless payer and payee are two of the table's people."""
        for name in (payer, payee):
            if self.person(name) is None:
                raise Refused(rules.RulesError(NOT_PEOPLE, name=name))
        if self.person(payer) == self.person(payee):
            raise Refused(rules.RulesError(gettext_noop("a payment is between two people")))

    def change_setup(self, name, people, seen=None):
        """Rename the table and its people, remove people, add people: people holds each
        person's new name in their place (None: removed), then the people added. A person
        renamed is renamed in every match and payment of the table; one removed must never have
        played or paid at it. Kept (SetupChange) to be said and undone; None when nothing
        changed; Stale when its names were changed since version seen."""
        with self.changing() as now:
            refuse_stale(now, seen)
            width = max(len(now.people), len(people))  # a person past the list's end: removed
            before = {"name": now.name, "people": aligned(now.people, width)}
            return now.set_up(before, {"name": name, "people": aligned(list(people), width)})

    def set_up(self, before, after):
        """Under the lock: from before to after ({"name", "people"}, people aligned: None where
        nobody was, or is)."""
        if after["name"] == before["name"] and after["people"] == before["people"]:
            return None
        refuse_past_most_changes(self)
        pairs = list(zip(before["people"], after["people"]))
        self.refuse_if_seen([old for old, new in pairs if old is not None and new is None])
        people = [new for new in after["people"] if new is not None]
        if len(people) > MAX_PEOPLE:
            raise Refused(rules.RulesError(TOO_MANY_PEOPLE, most=MAX_PEOPLE))
        change = SetupChange.objects.create(
            table=self, before=before, after=after, version=self.version
        )
        self.rename(
            {old: new for old, new in pairs if None not in (old, new) and old != new}, change
        )
        self.name, self.people = after["name"], people
        Table.objects.filter(pk=self.pk).update(name=self.name)  # its people: by changing()
        return change

    def rename_people(self, renamed):
        """Under the lock: each of the table's people renamed ({old: new}, old compared as the
        engine compares names) everywhere."""
        keys = {rules.same_name_key(old): new for old, new in renamed.items()}
        people = [keys.get(rules.same_name_key(person), person) for person in self.people]
        return self.set_up(
            {"name": self.name, "people": self.people}, {"name": self.name, "people": people}
        )

    def refuse_if_seen(self, names):
        """Refused when one of names played (or sat out) a match of the table or paid or was
        paid."""
        keys = {rules.same_name_key(name) for name in names}
        matches = self.matches.values_list("players", "sat_out")
        seen = {name for players, out in matches for name in [*players, *out]}
        seen |= set(self.payments.values_list("payer", flat=True))
        seen |= set(self.payments.values_list("payee", flat=True))
        for name in seen:
            if rules.same_name_key(name) in keys:
                raise Refused(rules.RulesError(PLAYED_HERE, name=name))

    def rename(self, renamed, change):
        """Under the lock: each name renamed ({old name: new name}) in the table's matches (their
        players and results, taken in order by id; their pages are drawn anew; each match's
        History lists the rename, a change of the table's) and payments."""
        if not renamed:
            return
        keys = {rules.same_name_key(old): new for old, new in renamed.items()}

        def new(name):
            return keys.get(rules.same_name_key(name), name)

        matches = self.matches.select_for_update(of=("self",)).select_related("result")
        for match in matches.order_by("pk"):
            out = [new(name) for name in match.sat_out]
            if out != match.sat_out:
                Match.objects.filter(pk=match.pk).update(sat_out=out)
            players = [new(name) for name in match.players]
            if players != match.players:
                moved = moved_with_names(match.setup(), players)
                Match.objects.filter(pk=match.pk).update(
                    players=players, **moved, version=F("version") + 1
                )
                kept = match.result.kept
                winners = [new(name) for name in kept["winners"]]
                Result.objects.filter(pk=match.pk).update(
                    kept={**kept, "players": players, "winners": winners}
                )
                SetupChange.objects.create(
                    match=match,
                    before=match.setup(),
                    after={**match.setup(), "players": players, **moved},
                    version=match.version,
                    table_change=change,
                )
        for payment in self.payments.all():
            if (new(payment.payer), new(payment.payee)) != (payment.payer, payment.payee):
                payment.payer, payment.payee = new(payment.payer), new(payment.payee)
                payment.save(update_fields=["payer", "payee"])

    def undo_setup(self, pk, seen=None):
        """Put back the name and people a change (SetupChange pk) replaced, as a change of its
        own; Refused when they were changed again since."""
        with self.changing() as now:
            return now.undo(now.setup_changes.get(pk=pk))

    def undo(self, change):
        """Under the lock: the change (a SetupChange of the table) undone; Refused when its names
        were changed again since."""
        before, after = (dict(side) for side in (change.before, change.after))
        width = max(len(before["people"]), len(after["people"]))
        for side in (before, after):
            side["people"] = aligned(side["people"], width)
        now = [person for person in after["people"] if person is not None]
        if (self.name, self.people) != (after["name"], now):
            raise Refused(rules.RulesError(CHANGED_SINCE))
        return self.set_up(after, before)

    def replace_link(self):
        """Give the table a new score link (new_link); return it."""
        with self.changing() as now:
            return new_link(self, table=now)

    def set_payment_deleted(self, pk, deleting, seen=None):
        """Delete a payment (it can be restored), or restore a deleted one; Conflict when the
        table moved on since version seen (an Undo drawn before)."""
        with self.changing() as now:
            if seen is not None and seen != now.version:
                raise Conflict
            payment = now.payments.get(pk=pk, deleted__isnull=deleting)
            payment.deleted = timezone.now() if deleting else None
            payment.version = now.version
            payment.save(update_fields=["deleted", "version"])


def aligned(people, width):
    """A list of people as long as width, None in the places past its end (people to come, or
    people gone)."""
    return [*people, *[None] * (width - len(people))]


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
    # The table's version at the payment's last change (recorded, deleted, restored): a form
    # drawn at a later one saw it.
    version = models.PositiveIntegerField(default=0)
    by = models.CharField(max_length=40, blank=True, default=signed_by)  # the phone's name

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


def new_link(changed, **owner):
    """Under the match's or table's lock (owner: match= or table=, as it stands): a new score
    link for changed; the one it was read by then opens nothing (a ReplacedLink says when, and
    from which phone). Conflict when another phone replaced that link first."""
    rows = type(changed).objects.filter(pk=changed.pk)
    held = rows.values_list("public_id", flat=True).get()
    if held != changed.public_id:
        raise Conflict
    ReplacedLink.objects.create(token=held, **owner)
    changed.public_id = new_token()
    rows.update(public_id=changed.public_id)
    return changed.public_id


class ReplacedLink(models.Model):
    """A score link replaced from Share (posted in the wrong chat, say): it opens nothing, and
    says when it was replaced and from which phone."""

    token = models.CharField(max_length=32, unique=True)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE)
    at = models.DateTimeField(auto_now_add=True)
    by = models.CharField(max_length=40, blank=True, default=signed_by)  # the phone's name

    def __str__(self):
        return f"replaced link of {self.match_id or self.table_id}"


class Heartbeat(models.Model):
    """One row that /healthz rewrites on every call: a check that really writes."""

    at = models.DateTimeField()

    @classmethod
    def beat(cls):
        """Write the time now into the row (raises DatabaseError when nothing can be written)."""
        cls.objects.update_or_create(pk=1, defaults={"at": timezone.now()})
