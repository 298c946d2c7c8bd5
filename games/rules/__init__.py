"""The scoring engine: score(match) turns a match document into its result.

Plain Python, no Django. Every game is a module with a Game subclass, listed in GAMES.
"""

import unicodedata

from . import gongzhu, least_score, sanming, sheet, six_nimmt, smear
from .base import (
    LATE_STARTS,
    MAX_ROUNDS,
    Game,
    Phrase,
    RulesError,
    gettext_noop,
    late_start_figure,
    whole,
)

GAMES = {
    module.GAME.slug: module.GAME
    for module in (least_score, gongzhu, six_nimmt, smear, sanming, sheet)
}

__all__ = [
    "GAMES",
    "LATE_STARTS",
    "MAX_ROUNDS",
    "Game",
    "RulesError",
    "get_game",
    "late_start_figure",
    "outcome",
    "replay",
    "running_totals",
    "score",
]


def get_game(slug):
    """The game registered under slug, or a RulesError naming it."""
    if not isinstance(slug, str) or slug not in GAMES:
        raise RulesError(gettext_noop("unknown game %(game)s"), game=repr(slug))
    return GAMES[slug]


# Invisible characters that would make two names look alike or reorder the text around them:
# zero-width space, marks and joiners, and the bidi embeddings, overrides and isolates.
INVISIBLE = {*range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0xFEFF}
JOINERS = {0x200C, 0x200D}
MAX_NAME = 40  # kept between two letters: Persian writes with the non-joiner


def clean_name(name):
    """name in NFC, trimmed, without invisible characters (a joiner stays between letters)."""
    name = unicodedata.normalize("NFC", name).strip()
    kept = [c for k, c in enumerate(name) if ord(c) not in INVISIBLE or joins(name, k)]
    return "".join(kept).strip()


def joins(name, k):
    """True when name[k] is a zero-width (non-)joiner standing between two letters."""
    inside = 0 < k < len(name) - 1 and ord(name[k]) in JOINERS
    return inside and name[k - 1].isalpha() and name[k + 1].isalpha()


def same_name_key(name):
    """What two names are compared by: case-folded, with no invisible character at all."""
    return "".join(c for c in name if ord(c) not in INVISIBLE).casefold()


def read_players(players, game):
    """Cleaned, checked player names in seat order."""
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RulesError(gettext_noop("players must be a list of names"))
    if len(players) > game.max_players:
        players = players[: game.max_players + 1]  # enough to say there are too many
    for k, name in enumerate(players):
        if any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
            raise RulesError(
                gettext_noop("a player's name cannot hold line breaks or control characters"),
                seat=k,
            )
    names = [clean_name(p) for p in players]
    for k, name in enumerate(names):
        if not name:
            raise RulesError(gettext_noop("a player's name is empty"), seat=k)
        if len(name) > MAX_NAME:
            raise RulesError(
                gettext_noop("%(name)s… is longer than %(most)s characters"),
                name=name[:MAX_NAME],
                most=MAX_NAME,
                seat=k,
            )
        if same_name_key(name) in map(same_name_key, names[:k]):
            raise RulesError(gettext_noop("two players are called %(name)s"), name=name, seat=k)
    if not game.min_players <= len(names) <= game.max_players:
        if game.min_players == game.max_players:
            raise RulesError(
                gettext_noop("%(game)s is for exactly %(count)s players"),
                game=game.name,
                count=game.min_players,
            )
        raise RulesError(
            gettext_noop("%(game)s is for %(low)s to %(high)s players"),
            game=game.name,
            low=game.min_players,
            high=game.max_players,
        )
    return names


# The words of joined and of left (players.md), for what is wrong with either map.
JOINED = {
    "object": gettext_noop("joined must be a JSON object: each name with the round they join at"),
    "unknown": gettext_noop("%(name)s joins, but is not one of the players"),
    "twice": gettext_noop("%(name)s joins twice"),
    "round": gettext_noop("the round %(name)s joins at"),
}
LEFT = {
    "object": gettext_noop("left must be a JSON object: each name with the last round they play"),
    "unknown": gettext_noop("%(name)s leaves, but is not one of the players"),
    "twice": gettext_noop("%(name)s leaves twice"),
    "round": gettext_noop("the round %(name)s leaves after"),
}
# A round a map names that the match does not have (yet), by how many rounds it has.
JOINS_PAST = {
    1: gettext_noop("%(name)s joins at round %(number)s, but the match has only 1 round"),
    "more": gettext_noop(
        "%(name)s joins at round %(number)s, but the match has only %(count)s rounds"
    ),
}
LEAVES_PAST = {
    0: gettext_noop("%(name)s leaves after round %(number)s, but the match has no round yet"),
    1: gettext_noop("%(name)s leaves after round %(number)s, but the match has only 1 round"),
    "more": gettext_noop(
        "%(name)s leaves after round %(number)s, but the match has only %(count)s rounds"
    ),
}


def seat_rounds(given, names, words, low, high):
    """{seat: round number} of joined or left (given, with its words), checked: an object of
    names among the players, each once, with a round number from low to high."""
    if given is None:
        return {}
    if not isinstance(given, dict):
        raise RulesError(words["object"])
    keys = [same_name_key(name) for name in names]
    rounds = {}
    for key, number in given.items():
        name = shown_name(key)
        seat = keys.index(same_name_key(name)) if same_name_key(name) in keys else None
        if seat is None:
            raise RulesError(words["unknown"], name=name)
        if seat in rounds:
            raise RulesError(words["twice"], name=names[seat])
        what = Phrase(words["round"], name=names[seat])
        rounds[seat] = whole(number, low, high, what, seat=seat)
    return rounds


def shown_name(key):
    """A key of joined or left as a message shows it: cleaned, printable, at most MAX_NAME."""
    name = clean_name(key) if isinstance(key, str) else repr(key)
    return "".join(c for c in name if unicodedata.category(c) not in ("Cc", "Cs"))[:MAX_NAME]


def read_moves(match, game, table):
    """Set on table who joins after the first round and who leaves before the end (players.md),
    as far as the document's top level says (the rounds it has are checked by replay)."""
    joined, left = match.get("joined"), match.get("left")
    if (joined is not None or left is not None) and not game.seats_change:
        raise RulesError(
            gettext_noop("%(game)s has fixed seats: nobody joins or leaves a match"),
            game=game.name,
        )
    first = seat_rounds(joined, table.players, JOINED, 2, MAX_ROUNDS + 1)
    last = seat_rounds(left, table.players, LEFT, 1, MAX_ROUNDS)
    for seat, number in sorted(last.items()):
        if number < first.get(seat, 1):
            raise RulesError(
                gettext_noop("%(name)s leaves after round %(last)s but joins at round %(first)s"),
                name=table.players[seat],
                last=number,
                first=first[seat],
                seat=seat,
            )
    table.joined = [first.get(s, 1) for s in range(table.n)]
    table.left = [last.get(s) for s in range(table.n)]
    table.moves = joined is not None or left is not None or "late_start" in match["options"]


def check_rounds_named(table, count):
    """Refuse a join or leave naming a round past the count the match has (a join at the round
    after the last is a player who has sat down for the next round)."""
    for seat, name in enumerate(table.players):
        first, last = table.joined[seat], table.left[seat]
        if first > count + 1:
            words = JOINS_PAST[1] if count == 1 else JOINS_PAST["more"]
            raise RulesError(words, name=name, number=first, count=count, seat=seat)
        if last is not None and last > count:
            words = LEAVES_PAST.get(count, LEAVES_PAST["more"])
            raise RulesError(words, name=name, number=last, count=count, seat=seat)


def check_finished(game, table, closed):
    """Refuse a join at the round after the last when the match has finished; then the game's
    own checks of who left (Least Score: not after going out)."""
    if closed or game.is_over(table):
        for seat, name in enumerate(table.players):
            if table.joined[seat] > max(len(table.rounds), 1):
                raise RulesError(
                    gettext_noop("%(name)s joins at round %(number)s, but the match is finished"),
                    name=name,
                    number=table.joined[seat],
                    seat=seat,
                )
    game.check_left(table)


def start(match):
    """Check a match document's top level; return (game, table, rounds, closed)."""
    if not isinstance(match, dict):
        raise RulesError(gettext_noop("a match must be a JSON object"))
    game = get_game(match.get("game"))
    players = read_players(match.get("players"), game)
    raw = match.get("options") or {}
    options = game.read_options(raw, len(players))
    rounds = match.get("rounds", [])
    if not isinstance(rounds, list):
        raise RulesError(gettext_noop("rounds must be a list"))
    if len(rounds) > MAX_ROUNDS:
        raise RulesError(
            gettext_noop("a match holds at most %(most)s rounds, this one has %(count)s"),
            most=MAX_ROUNDS,
            count=len(rounds),
        )
    closed = match.get("closed", False)
    if closed is None:
        closed = False
    if not isinstance(closed, bool):
        raise RulesError(gettext_noop("closed must be true or false"))
    table = game.new_table(players, options)
    read_moves({**match, "options": raw}, game, table)
    table.listed = game.listed(options, raw)
    if not table.moves:
        table.listed.pop("late_start", None)
    return game, table, rounds, closed


def play_round(game, table, entry):
    """Score one more round onto table, with errors naming its number."""
    number = len(table.rounds) + 1
    try:
        if game.is_over(table):
            raise RulesError(gettext_noop("the match is already finished"))
        if number > MAX_ROUNDS:
            raise RulesError(
                gettext_noop("a match holds at most %(most)s rounds: start a rematch"),
                most=MAX_ROUNDS,
            )
        if not isinstance(entry, dict):
            raise RulesError(gettext_noop("a round must be a JSON object"))
        unknown = sorted(key for key in entry if key not in game.entry_fields)
        if unknown:
            raise RulesError(gettext_noop("a round cannot hold '%(field)s'"), field=unknown[0][:40])
        playing = table.playing
        try:
            game.score_round(table, entry)
        except RulesError:
            table.playing = playing  # still the seats of the latest round played
            raise
    except RulesError as error:
        raise error.in_round(number) from None


def outcome(game, table, closed):
    """The result document for a table whose rounds have all been played."""
    finished = closed or game.is_over(table)
    decided = finished and bool(table.rounds)
    result = {
        "game": game.slug,
        "players": table.players,
        "options": table.listed,
        "rounds": table.rounds,
        **({"start": table.start} if table.moves else {}),
        "totals": table.totals,
        "finished": finished,
        "winners": [table.players[s] for s in game.winners(table)] if decided else [],
        **({"left": left} if (left := left_map(table)) else {}),
        "settlement": game.settle(table) if decided else None,
    }
    result.update(game.extra(table, decided))
    return result


def left_map(table):
    """{name: the last round they play} of the players who leave (players.md's result key)."""
    return {name: last for name, last in zip(table.players, table.left) if last is not None}


def replay(match):
    """Play a match document's rounds, the rounds its joins and leaves name checked against
    the rounds it has; return (game, table, closed)."""
    game, table, rounds, closed = start(match)
    check_rounds_named(table, len(rounds))
    for entry in rounds:
        play_round(game, table, entry)
    check_finished(game, table, closed)
    return game, table, closed


def running_totals(scored_rounds, start=None):
    """Each player's total after each of a result's rounds, from start (where each began,
    players.md; 0 by default); None for a player who has played no round yet."""
    totals = seated = None
    for scored in scored_rounds:
        points = scored["points"]
        if totals is None:
            totals, seated = list(start or [0] * len(points)), [False] * len(points)
        seated = [was or p is not None for was, p in zip(seated, points)]
        totals = [t if p is None else t + p for t, p in zip(totals, points)]
        yield [t if here else None for t, here in zip(totals, seated)]


def score(match):
    """The result of a match document; raises RulesError for anything that breaks the rules."""
    return outcome(*replay(match))
