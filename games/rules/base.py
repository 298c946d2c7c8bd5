"""What every game shares: the error type, option declarations and the Game interface."""

import copy
import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal

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


@dataclass
class Table:
    """A match being scored: players, options, the entries played, scored rounds, totals."""

    players: list
    options: dict
    rounds: list = field(default_factory=list)
    totals: list = field(default_factory=list)
    entries: list = field(default_factory=list)
    listed: dict = None  # the options a result lists (Game.listed), set by start()

    def __post_init__(self):
        self.totals = self.totals or [0] * len(self.players)

    @property
    def n(self):
        return len(self.players)

    def fork(self):
        """A copy to play more rounds on, leaving this table as it is: its lists and dicts are
        new, the rounds in them shared (a round never changes once played)."""
        forked = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, (list, dict)):
                setattr(forked, name, copy.copy(value))
        return forked

    def add(self, round_result):
        """Record a scored round and add its points to the totals."""
        self.rounds.append(round_result)
        self.totals = [t + p for t, p in zip(self.totals, round_result["points"])]


class Game:
    """The interface every game module implements; the web layer only talks to this."""

    slug = ""
    name = ""
    min_players = 2
    max_players = 2
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

    def play(self, table, entry):
        """Validate one round entry and add its scored round to table (raise RulesError)."""
        raise NotImplementedError

    def is_over(self, table):
        """True once the game's own end condition is met."""
        return False

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
        low_first = bool(winners) and any(totals[s] > totals[winners[0]] for s in others)

        def ahead(a, b):
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
            self.play(table.fork(), entry)
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
