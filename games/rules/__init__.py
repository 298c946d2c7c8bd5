"""The scoring engine: score(match) turns a match document into its result.

Plain Python, no Django. Every game is a module with a Game subclass, listed in GAMES.
"""

import unicodedata

from .base import Game, RulesError, gettext_noop
from . import gongzhu, least_score, sanming, six_nimmt, smear

GAMES = {
    module.GAME.slug: module.GAME
    for module in (least_score, gongzhu, six_nimmt, smear, sanming)
}

__all__ = ["GAMES", "Game", "RulesError", "get_game", "outcome", "replay", "running_totals",
           "score"]


def get_game(slug):
    """The game registered under slug, or a RulesError naming it."""
    if not isinstance(slug, str) or slug not in GAMES:
        raise RulesError(gettext_noop("unknown game %(game)s"), game=repr(slug))
    return GAMES[slug]


def read_players(players, game):
    """Trimmed, checked player names in seat order."""
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RulesError(gettext_noop("players must be a list of names"))
    names = [p.strip() for p in players]
    if any(not 1 <= len(name) <= 40 for name in names):
        raise RulesError(gettext_noop("a player's name must be 1 to 40 characters"))
    if any(unicodedata.category(c) == "Cc" for name in names for c in name):
        raise RulesError(gettext_noop("a player's name cannot hold line breaks or control characters"))
    for k, name in enumerate(names):
        if name in names[:k]:
            raise RulesError(gettext_noop("two players are called %(name)s"), name=name)
    if not game.min_players <= len(names) <= game.max_players:
        raise RulesError(
            gettext_noop("%(game)s is for %(low)s to %(high)s players"),
            game=game.name, low=game.min_players, high=game.max_players,
        )
    return names


def start(match):
    """Check a match document's top level; return (game, table, rounds, closed)."""
    if not isinstance(match, dict):
        raise RulesError(gettext_noop("a match must be a JSON object"))
    game = get_game(match.get("game"))
    players = read_players(match.get("players"), game)
    options = game.read_options(match.get("options") or {}, len(players))
    rounds = match.get("rounds", [])
    if not isinstance(rounds, list):
        raise RulesError(gettext_noop("rounds must be a list"))
    closed = match.get("closed", False)
    if closed is None:
        closed = False
    if not isinstance(closed, bool):
        raise RulesError(gettext_noop("closed must be true or false"))
    return game, game.new_table(players, options), rounds, closed


def play_round(game, table, entry):
    """Score one more round onto table, with errors naming its number."""
    number = len(table.rounds) + 1
    try:
        if game.is_over(table):
            raise RulesError(gettext_noop("the match is already finished"))
        if not isinstance(entry, dict):
            raise RulesError(gettext_noop("a round must be a JSON object"))
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
        "options": table.options,
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
