"""What every game shares: the error type, option declarations and the Game interface."""

import copy
import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

CENT = Decimal("0.01")
# The most rounds a match holds: far beyond any evening's play, small enough to draw at once.
MAX_ROUNDS = 1000


class Term(str):
    """A word or phrase that the web layer translates before showing it."""


def gettext_noop(text):
    """Mark text for translation (makemessages finds this name); the web layer translates it."""
    return Term(text)


class Phrase:
    """A sentence with %(name)s placeholders, rendered in the reader's language."""

    def __init__(self, text, **params):
        self.text, self.params = text, params

    def render(self, translate=str):
        """The sentence, each part passed through translate (gettext in the web layer)."""
        params = {k: rendered(v, translate) for k, v in self.params.items()}
        return translate(self.text) % params if params else translate(self.text)

    def __str__(self):
        return self.render()


def rendered(value, translate):
    """A phrase's parameter for people: terms translated, phrases rendered, lists joined."""
    if isinstance(value, Term):
        return translate(value)
    if isinstance(value, Phrase):
        return value.render(translate)
    if isinstance(value, list):
        return ", ".join(str(rendered(item, translate)) for item in value)
    return value


ROUND_MESSAGE = gettext_noop("round %(round)d: %(message)s")


class RulesError(ValueError):
    """A broken rule; its message is one sentence a player understands."""

    def __init__(self, text, round=None, **params):
        # What a player typed is quoted on one line, whatever white space it held.
        params = {k: " ".join(v.split()) if type(v) is str else v for k, v in params.items()}
        self.phrase, self.round = Phrase(text, **params), round
        super().__init__(self.render())

    def render(self, translate=str):
        """The message in the reader's language, naming the round when there is one."""
        message = self.phrase.render(translate)
        if self.round is None:
            return message
        return Phrase(ROUND_MESSAGE, round=self.round, message=message).render(translate)

    def in_round(self, number):
        """The same error, naming the round it happened in."""
        return RulesError(self.phrase.text, round=number, **self.phrase.params)


def is_whole(value):
    """True for a JSON integer (not a bool, not 2.0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole(value, low, high, what, **where):
    """Return value if it is a whole number in low..high, else raise naming what it is (where:
    more params for the error, e.g. the seat whose field it is)."""
    if not is_whole(value) or not low <= value <= high:
        raise RulesError(
            gettext_noop("%(what)s must be a whole number from %(low)s to %(high)s"),
            what=what,
            low=low,
            high=high,
            **where,
        )
    return value


def needs_hands(game, options):
    """Refuse a match that ends after some hands without saying how many."""
    if options["end"] == "hands" and options["hands"] is None:
        raise RulesError(
            gettext_noop("Type how many hands: the match ends after a number of hands."),
            name="hands",
        )


def seat(value, n, what, ask):
    """Return value if it is a seat number 0..n-1; nothing tapped raises ask."""
    if value is None:
        raise RulesError(ask)
    return whole(value, 0, n - 1, what)


def per_seat(values, n, what):
    """Return values if it is a list with one entry per seat."""
    if not isinstance(values, list) or len(values) != n:
        raise RulesError(gettext_noop("%(what)s must list one entry per player"), what=what)
    return values


def plain(number):
    """A number for JSON output: whole numbers as int, others as float."""
    if isinstance(number, Decimal) and number == number.to_integral_value():
        return int(number)
    if isinstance(number, float) and number.is_integer():
        return int(number)
    return float(number) if isinstance(number, Decimal) else number


@dataclass(frozen=True)
class Option:
    """One option a table may change: its name, default, one-line help and allowed values.

    kind is "choice" (one of choices), "whole" (low..high), "whole_or_null", "number" (low..high),
    "bool", "evens" (a list of even whole numbers >= 2), "pairs" (a list of [total, becomes]:
    total in low..high, none twice, becomes 0 to total - 1) or "text" (one line of at most high
    characters, trimmed; shown as typed). A callable default receives the other options (given,
    or their plain defaults), so a default may depend on another option. A variant is a house
    rule: a result lists it only when the match gives one (Game.listed). presets are (label,
    value) pairs a form may offer. when is (another option's name, its values): the option is
    used only while that option has one of them (a floor only when the match ends at it), so a
    form hides it otherwise. first: asked before the other options (what the table plays for).
    """

    name: str
    default: object
    help: str
    kind: str = "choice"
    choices: tuple = ()
    low: int = 0
    high: int = 0
    default_help: str = ""
    variant: bool = False
    presets: tuple = ()
    when: tuple = ()
    first: bool = False

    def default_for(self, options):
        """A callable default's value, given the other options."""
        return self.default(options)

    def applies(self, options):
        """True unless when names another option whose value (in options) leaves this one unused."""
        return not self.when or options.get(self.when[0]) in self.when[1]

    def read(self, value, label):
        """Return value as allowed for this option (text trimmed), else raise naming the option
        by its label (as the new-match form shows it)."""
        allowed = getattr(self, "_read_" + self.kind)(value)
        if allowed is None and not (self.kind == "whole_or_null" and value is None):
            raise RulesError(
                gettext_noop("option '%(option)s' cannot be %(value)s"),
                name=self.name,
                option=label,
                value=_show(value),
            )
        return allowed

    def _read_choice(self, value):
        return value if any(type(value) is type(c) and value == c for c in self.choices) else None

    def _read_whole(self, value):
        return value if is_whole(value) and self.low <= value <= self.high else None

    def _read_whole_or_null(self, value):
        return self._read_whole(value)

    def _read_bool(self, value):
        return value if isinstance(value, bool) else None

    def _read_number(self, value):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        # Compared before any float conversion: a 400-digit whole number is simply too big.
        return value if self.low <= value <= self.high and math.isfinite(value) else None

    def _read_text(self, value):
        if not isinstance(value, str):
            return None
        controls = any(unicodedata.category(c) in ("Cc", "Cs") for c in value)
        return None if controls or len(value.strip()) > self.high else value.strip()

    def _read_evens(self, value):
        if not isinstance(value, list):
            return None
        good = all(is_whole(v) and v >= 2 and v % 2 == 0 for v in value)
        return value if good else None

    def _read_pairs(self, value):
        if not isinstance(value, list) or not all(_is_pair(p) for p in value):
            return None
        totals = [total for total, _becomes in value]
        good = all(self.low <= t <= self.high and 0 <= b < t for t, b in value)
        return value if good and len(set(totals)) == len(totals) else None


def _is_pair(value):
    return isinstance(value, list) and len(value) == 2 and all(map(is_whole, value))


def _show(value):
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def decimal(number):
    """An exact Decimal from a JSON number (0.01 stays 0.01)."""
    return Decimal(str(number))


# Where a player who joins late starts (players.md, option late_start): a figure of the totals
# of the players still in.
LATE_STARTS = {
    "zero": lambda totals: 0,
    "lowest": min,
    "highest": max,
    "average": lambda totals: plain(math.floor(sum(map(fraction, totals)) / len(totals) + HALF)),
}
HALF = Fraction(1, 2)
LATE_START_LABELS = {
    "late_start": gettext_noop("Where a late player starts"),
    ("late_start", "zero"): gettext_noop("at 0"),
    ("late_start", "lowest"): gettext_noop("at the lowest total"),
    ("late_start", "highest"): gettext_noop("at the highest total"),
    ("late_start", "average"): gettext_noop("at the average total"),
}


def late_start_figure(kind, totals):
    """Where a late player starts by late_start kind, from the totals of the players still in
    (0 when nobody is)."""
    return LATE_STARTS[kind](totals) if totals else 0


def fraction(number):
    """A JSON number as an exact fraction (0.1 is one tenth)."""
    return Fraction(decimal(number))


def late_start_option(default):
    """The option late_start of a game whose players may come and go, with its default."""
    return Option(
        "late_start",
        default,
        gettext_noop(
            "Where a player who joins after the first round starts: at 0, or at the lowest, "
            "highest or average total of the players still in."
        ),
        choices=tuple(LATE_STARTS),
    )


def playing_only(values, table):
    """A round's per-seat list with None for the players who do not play it."""
    return [v if s in table.playing else None for s, v in enumerate(values)]


@dataclass
class Table:
    """A match being scored: players, options, the entries played, scored rounds, totals.

    Players who come and go (players.md): joined[s] is the first round seat s plays (1 for
    everyone there from the start), left[s] their last (None while they stay), start[s] the
    total they sat down with; playing holds the seats of the round being played, then of the
    latest one played. moves: whether the match gives joined, left or late_start (its result
    then says where each player started)."""

    players: list
    options: dict
    rounds: list = field(default_factory=list)
    totals: list = field(default_factory=list)
    entries: list = field(default_factory=list)
    listed: dict = None  # the options a result lists (Game.listed), set by start()
    joined: list = field(default_factory=list)
    left: list = field(default_factory=list)
    start: list = field(default_factory=list)
    playing: list = field(default_factory=list)
    moves: bool = False

    def __post_init__(self):
        self.totals = self.totals or [0] * len(self.players)
        self.joined = self.joined or [1] * len(self.players)
        self.left = self.left or [None] * len(self.players)
        self.start = self.start or [0] * len(self.players)

    @property
    def n(self):
        return len(self.players)

    def in_game(self, seat):
        """Whether seat may still play a round, as far as the game goes (Least Score: not out)."""
        return True

    def gone(self, seat):
        """Whether seat has left the table by now (after the rounds played)."""
        return self.left[seat] is not None and self.left[seat] <= len(self.rounds)

    def away(self, seat, number):
        """Whether seat is not at the table for round number: not joined yet, or left before."""
        last = self.left[seat]
        return self.joined[seat] > number or (last is not None and last < number)

    def plays(self, seat, number):
        """Whether seat plays round number (at the table and still in the game)."""
        return not self.away(seat, number) and self.in_game(seat)

    def seats_playing(self, number=None):
        """The seats that play round number (by default the next one)."""
        number = len(self.rounds) + 1 if number is None else number
        return [s for s in range(self.n) if self.plays(s, number)]

    def present(self):
        """The seats that have not left (those still to sit down included)."""
        return [s for s in range(self.n) if not self.gone(s)]

    def joining_totals(self):
        """The totals of the players still in after the rounds played (who played the last, did
        not leave after it and are not out), that a player joining now starts from."""
        number = len(self.rounds) + 1
        return [self.totals[s] for s in self.seats_playing(number) if self.joined[s] < number]

    def seat_joiners(self):
        """Give each player who joins at the next round their start (players.md's late_start)."""
        number = len(self.rounds) + 1
        joiners = [s for s in range(self.n) if self.joined[s] == number > 1]
        if joiners:
            start = late_start_figure(self.options["late_start"], self.joining_totals())
            for s in joiners:
                self.start[s] = self.totals[s] = start

    def fork(self):
        """A copy to play more rounds on, leaving this table as it is: its lists and dicts are
        new, the rounds in them shared (a round never changes once played)."""
        forked = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, (list, dict)):
                setattr(forked, name, copy.copy(value))
        return forked

    def add(self, round_result):
        """Record a scored round and add its points to the totals (None: did not play)."""
        self.rounds.append(round_result)
        self.totals = [
            t if p is None else t + p for t, p in zip(self.totals, round_result["points"])
        ]


class Game:
    """The interface every game module implements; the web layer only talks to this."""

    slug = ""
    name = ""
    min_players = 2
    max_players = 2
    # Whether a player may join after the first round or leave before the end (players.md);
    # such a game has the option late_start.
    seats_change = False
    options = ()
    # The keys a round entry may hold (any other is refused), each with what its value names:
    # "seat", "team", "number", or one of those "per_seat" / "per_team" (round history words).
    entry_fields = {}
    summary = ""  # a short rules summary shown on the entry screen
    # Option names and values as players read them, e.g. {"kid_below": _("Kid rule: totals
    # below")}; an option's value under (name, value) when the word alone means something else.
    labels = {}
    # The words of the game's breakdown a player may not know, each with one sentence saying
    # what it is: {word: sentence}, both for the web layer to translate.
    terms = {}

    # ---- options
    def label(self, word):
        """An option name or value in words: from labels, else the key with spaces."""
        return self.labels.get(word) or Term(str(word).replace("_", " "))

    def choice_label(self, name, value):
        """A value of option name in words: labels[(name, value)], else label(value) (the same
        word may be an option and another option's value: "floor", "hands")."""
        return self.labels.get((name, value)) or self.label(value)

    def read_options(self, raw, n):
        """Fill defaults into raw and check every value; unknown keys are errors."""
        if not isinstance(raw, dict):
            raise RulesError(gettext_noop("options must be a JSON object"))
        known = {o.name for o in self.options}
        for key in raw:
            if key not in known:
                raise RulesError(gettext_noop("unknown option '%(name)s'"), name=key)
        given = {
            o.name: o.read(raw[o.name], self.label(o.name)) for o in self.options if o.name in raw
        }
        fixed = {o.name: o.default for o in self.options if not callable(o.default)}
        known = {**fixed, **given}
        options = {
            o.name: known[o.name] if o.name in known else o.default_for(known) for o in self.options
        }
        self.check_options(options, n)
        return options

    def rules_summary(self, options):
        """The short rules of a match with these options, as sentences: the summary."""
        return [Phrase(self.summary)]

    def title(self, options):
        """The game's name as the table typed it (a text option "title"), else None."""
        return options.get("title") or None

    def listed(self, options, raw):
        """The options a result lists: the house-rule variants only when raw gives one of them."""
        variants = any(o.variant and o.name in raw for o in self.options)
        return {o.name: options[o.name] for o in self.options if variants or not o.variant}

    def check_options(self, options, n):
        """Checks that involve several options or the player count (override when needed)."""

    # ---- scoring
    def new_table(self, players, options):
        return Table(players, options)

    def score_round(self, table, entry):
        """Play entry as the next round: who plays it, their entries, the game's own rules;
        then whoever joins at the round after it sits down with their start."""
        number = len(table.rounds) + 1
        table.playing = table.seats_playing(number)
        check_who_plays(self, table, entry, number)
        self.play(table, entry)
        table.entries.append(entry)
        if self.seats_change:
            table.seat_joiners()

    def play(self, table, entry):
        """Validate one round entry and add its scored round to table (raise RulesError)."""
        raise NotImplementedError

    def is_over(self, table):
        """True once the game's own end condition is met."""
        return False

    def check_left(self, table):
        """Refuse a leave the game's rules do not allow, once every round is played."""

    def winners(self, table):
        """Seats of the winners if the match ended now (it has at least one round)."""
        raise NotImplementedError

    def ending(self, table):
        """Phrases saying why the game's own end condition is met (none while it is not)."""
        return []

    def leaders(self, table):
        """Seats shown as leading now: by default whoever would win if the match ended here."""
        return self.winners(table) if table.rounds else []

    def ranking(self, table):
        """Each seat's finishing place in a match with rounds (1 is first, ties share a place):
        the winners first, then the others by their totals, lowest first when a loser's total
        is above the winners' (low wins), else highest first."""
        winners = self.winners(table)
        others = [s for s in range(table.n) if s not in winners]
        totals = table.totals
        staying = [s for s in others if not table.gone(s)]
        low_first = bool(winners) and any(totals[s] > totals[winners[0]] for s in staying)

        def ahead(a, b):
            """a is placed before b: a stayed while b left, or both did and a's total is
            better."""
            if table.gone(a) != table.gone(b):
                return table.gone(b)
            return totals[a] < totals[b] if low_first else totals[a] > totals[b]

        return [
            1 if s in winners else 1 + len(winners) + sum(ahead(o, s) for o in others)
            for s in range(table.n)
        ]

    def chart_marks(self, table):
        """Reference lines for the running-totals chart: a list of (value, Phrase label)."""
        return []

    def settle(self, table):
        """The settlement of a finished match with rounds, or None for a game without one."""
        return None

    def settlement_note(self, table):
        """Why the settlement's amounts are not the totals, as phrases (none when they are)."""
        return []

    def extra(self, table, finished):
        """Game-specific top-level result fields."""
        return {}

    # ---- a seat added or taken away (players.md: a player joins at a seat of their own)
    def with_seat(self, entry, seat):
        """entry as it reads once a player sits down at seat: nothing for them in its per-seat
        lists, and the seats from seat on numbered one further."""
        return self.reseated(
            entry,
            lambda values: [*values[:seat], None, *values[seat:]],
            lambda number: number + (number >= seat),
        )

    def without_seat(self, entry, seat):
        """entry as it reads once the player at seat is taken away (their entries must be
        None): the inverse of with_seat."""
        return self.reseated(
            entry,
            lambda values: [*values[:seat], *values[seat + 1 :]],
            lambda number: number - (number > seat),
        )

    def reseated(self, entry, lists, numbers):
        """entry with its per-seat lists changed by lists and its seat numbers by numbers."""
        if not isinstance(entry, dict):
            return entry
        moved = dict(entry)
        for name, kind in self.entry_fields.items():
            value = entry.get(name)
            if kind == "per_seat" and isinstance(value, list):
                moved[name] = lists(value)
            elif kind == "seat" and is_whole(value):
                moved[name] = numbers(value)
        return moved

    # ---- entry forms (plain mappings of field name -> list of strings, no Django)
    def entry_from_form(self, form, table):
        """Turn a posted entry form into a round entry document."""
        raise NotImplementedError

    def entry_context(self, table, entry=None):
        """Extra values the game's entry template needs (the cards in play, a refilled form).

        An empty form is drawn from these, the players and the options alone: the server keeps
        one drawing per distinct value (games/partials/entry_form.html)."""
        return {}

    def invalid_seat(self, table, entry):
        """The seat a refused entry is about (the form marks its field), else None (also when
        the match is over: the refusal is then about the match, not a seat)."""
        if not isinstance(entry, dict) or self.is_over(table):
            return None
        try:
            self.score_round(table.fork(), entry)
        except RulesError as error:
            return error.phrase.params.get("seat")
        return None

    def breakdown(self, table, index):
        """Phrases explaining how round index (from 0) was scored."""
        return []

    def status(self, table):
        """Phrases for the table before the next round (who leads or deals next, who is out)."""
        return []

    def sides(self, table):
        """The seats of each side the standings list (each player alone by default)."""
        return [[seat] for seat in range(table.n)]

    def to_go(self, table, seat):
        """How far seat is from the match's end, in the game's terms (a Phrase), or None."""
        return None

    def saved_note(self, table):
        """What the phone that just saved a round is told beside "Round N is saved." (a Phrase:
        why its totals read as they do), or None."""
        return None


def check_who_plays(game, table, entry, number):
    """Refuse round number when fewer than two play it, or when it holds an entry for a
    player who is not at the table for it (not joined yet, or gone)."""
    count = len(table.playing)
    if count == 0:
        raise RulesError(gettext_noop("nobody is playing; a round needs at least 2 players"))
    if count == 1:
        raise RulesError(gettext_noop("only 1 player is playing; a round needs at least 2"))
    for name, kind in game.entry_fields.items():
        values = entry.get(name)
        if kind != "per_seat" or not isinstance(values, list) or len(values) != table.n:
            continue  # the game says what is wrong with it
        for seat, value in enumerate(values):
            if value is not None and table.away(seat, number):
                raise away_error(table, seat, number, ABSENT_ENTRY)


# A player not at the table for a round: not joined yet, or gone (players.md's wording).
ABSENT_ENTRY = {
    "later": gettext_noop("%(name)s has not joined yet and has no entry"),
    "gone": gettext_noop("%(name)s left after round %(last)s and has no entry"),
}


def away_error(table, seat, number, words):
    """The RulesError for seat, not at the table for round number, in words (ABSENT_ENTRY's
    keys: "later", "gone")."""
    name = table.players[seat]
    if table.joined[seat] > number:
        return RulesError(words["later"], name=name, seat=seat)
    return RulesError(words["gone"], name=name, last=table.left[seat], seat=seat)


def best_of(table, best):
    """The seats with the best total (best: max or min) among those who have not left."""
    present = table.present()
    if not present:
        return []
    top = best(table.totals[s] for s in present)
    return [s for s in present if table.totals[s] == top]


def rate_note(game, table, name):
    """The phrase saying the rate the totals are paid at, option name (none when it is 1, or 0:
    nothing is paid): "Money a point: 0.01"."""
    rate = table.options[name]
    if rate in (0, 1):
        return []
    return [Phrase(gettext_noop("%(option)s: %(rate)s."), option=game.label(name), rate=rate)]


def points_to_go(left, end):
    """The standings' words for a player left points away from the total end that ends the
    match (or who has reached it)."""
    if left <= 0:
        return Phrase(gettext_noop("reached %(end)s"), end=end)
    if left == end:  # nothing scored yet: "100 to go", never "100 to go to 100"
        return Phrase(gettext_noop("%(left)s to go"), left=left)
    return Phrase(gettext_noop("%(left)s to go to %(end)s"), left=left, end=end)


def reached(players, totals, end):
    """The ending's words for the players whose total reached end (none when nobody did)."""
    names = [name for name, total in zip(players, totals) if total >= end]
    return (
        [Phrase(gettext_noop("%(names)s reached %(end)s"), names=names, end=end)] if names else []
    )


def hands_played(table, hands):
    """The ending's words once hands, a fixed number of hands, are all played (else none)."""
    if hands is None or len(table.rounds) < hands:
        return []
    if hands == 1:
        return [Phrase(gettext_noop("The one hand is played"))]
    return [Phrase(gettext_noop("All %(hands)s hands are played"), hands=hands)]


# What a phone keyboard types between numbers, in ASCII: the Arabic comma, the full-width comma
# and the Arabic decimal separator.
SEPARATORS = str.maketrans({"،": ",", "，": ",", "٫": "."})


def ascii_numbers(text):
    """Typed text with its numbers in ASCII: any keyboard's digits (Persian ۵, Arabic ٥,
    full-width ５, each read as int() reads it) and SEPARATORS; the rest is kept as typed."""
    return re.sub(r"\d", lambda digit: str(int(digit[0])), text).translate(SEPARATORS)


def listed(text):
    """The items of a typed list, separated by spaces or commas (۵۰، ۱۰۰ and 50，100 too)."""
    return [item for item in re.split(r"[\s,]+", ascii_numbers(text)) if item]


def form_value(form, name):
    """The first posted value of a field, trimmed, its numbers in ASCII ('' when absent)."""
    values = form.get(name) or [""]
    return ascii_numbers(values[0].strip())


def whole_or_text(text):
    """A typed value: None when empty, an int when it is one, else the text as typed."""
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        return text
