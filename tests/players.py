"""A worked example with players who come and go (players.md), played as a table plays it: the
match started with those there from the first round, each later player seated (Match.join)
before their first round, each one leaving (Match.leave) after their last, the rounds saved one
by one."""

from games import rules
from games.models import Match


def played_at_the_table(document, **fields):
    """The match the example document becomes at the table (fields: more Match fields)."""
    game = rules.GAMES[document["game"]]
    players, rounds = document["players"], document["rounds"]
    joined, left = document.get("joined") or {}, document.get("left") or {}
    match = Match.objects.create(
        game=game.slug,
        players=[name for name in players if name not in joined],
        options=document.get("options") or {},
        **fields,
    )
    for number in range(1, len(rounds) + 2):
        for name in players:
            if joined.get(name) == number:
                match.join(name, sum(p in match.players for p in players[: players.index(name)]))
        if number > len(rounds):
            break
        match.add_round(seated_only(game, players, match.players, rounds[number - 1]), f"k{number}")
        for name, last in left.items():
            if last == number:
                match.leave(name)
    if document.get("closed"):
        match.set_closed(True)
    return match


def seated_only(game, players, seated, entry):
    """entry without the seats of the players not seated yet."""
    for seat in reversed(range(len(players))):
        if players[seat] not in seated:
            entry = game.without_seat(entry, seat)
    return entry
