"""The scoring engine: score(match) turns a match document into its result.

Plain Python, no Django. Every game is a module with a Game subclass, listed in GAMES.
"""

import unicodedata

from . import gongzhu, least_score, sanming, sheet, six_nimmt, smear
from .base import MAX_ROUNDS, Game, RulesError, gettext_noop

GAMES = {
    module.GAME.slug: module.GAME
    for module in (least_score, gongzhu, six_nimmt, smear, sanming, sheet)
}

__all__ = [
    "GAMES",
    "MAX_ROUNDS",
    "Game",
    "RulesError",
    "get_game",
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
    table.listed = game.listed(options, raw)
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
        game.play(table, entry)
        table.entries.append(entry)
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
        "totals": table.totals,
        "finished": finished,
        "winners": [table.players[s] for s in game.winners(table)] if decided else [],
        "settlement": game.settle(table) if decided else None,
    }
    result.update(game.extra(table, decided))
    return result


def replay(match):
    """Play a match document's rounds; return (game, table, closed)."""
    game, table, rounds, closed = start(match)
    for entry in rounds:
        play_round(game, table, entry)
    return game, table, closed


def running_totals(scored_rounds):
    """The totals after each of a result's rounds."""
    totals = None
    for scored in scored_rounds:
        points = scored["points"]
        totals = points if totals is None else [t + p for t, p in zip(totals, points)]
        yield totals


def score(match):
    """The result of a match document; raises RulesError for anything that breaks the rules."""
    return outcome(*replay(match))
