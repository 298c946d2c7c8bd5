"""What a match screen is drawn from, on the engine alone: the board of the stored rounds, the
next round read and checked, its preview, the screen's context.

Shared as it is by the server (games/views.py, games/models.py) and by the phone offline
(static/offline/phone.py runs it under Pyodide): a screen is drawn the same way in both places.
"""

from functools import partial

from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games import rules
from games.cards import match_card
from games.rules.base import Phrase, gettext_noop
from games.templatetags.scorekeeper import because, escape, listing, phrase, said

ROWS_SHOWN = 30  # the scoreboard's latest rounds; "show all" draws every one
CLOSED = gettext_noop("The match is closed: reopen it to add a round.")


def next_numbers(last, count):
    """The numbers the next count rounds are stored under, after the highest one, last
    (deleted rounds keep theirs: a number is never used twice in a match)."""
    return range(last + 1, last + 1 + count)


def replayed(document):
    """(game, table, closed, refused): the rounds played until one the engine refuses, and
    that refusal (a RulesError naming the round), else None."""
    game, table, rounds, closed = rules.start({**document, "rounds": []})
    for entry in document["rounds"]:
        try:
            rules.play_round(game, table, entry)
        except rules.RulesError as error:
            return game, table, closed, error
    return game, table, closed, None


def board(document, numbers, last, deleted=()):
    """The board of a match document whose rounds are stored under numbers (last: the highest
    number stored, deleted rounds too; deleted: {"number", "entry"} of each deleted round)."""
    game, table, closed, refused = replayed(document)
    return drawn_board(numbers, game, table, closed, refused, last, deleted)


def drawn_board(numbers, game, table, closed, refused=None, last=None, deleted=()):
    """What the match screen draws of a table whose rounds are stored under numbers (a refused
    round, if any, is numbers[len(table.rounds)] and stops the play there; last: the highest
    number stored, deleted rounds too, when it is not the last of numbers; deleted: the deleted
    rounds, which the state a scoring phone keeps holds)."""
    result = rules.outcome(game, table, closed)
    rows = [
        {"position": k + 1, "number": number, "cells": list(zip(scored["points"], running))}
        for k, (number, scored, running) in enumerate(
            zip(
                numbers,
                result["rounds"],
                rules.running_totals(result["rounds"], result.get("start")),
            )
        )
    ]
    latest = len(table.rounds) - 1
    money = money_now(game, table)
    return {
        "game": game,
        "table": table,
        "closed": closed,
        "result": result,
        "rows": rows,
        "numbers": list(numbers),
        "last": max(numbers, default=0) if last is None else last,
        "deleted": list(deleted),
        "refused": refused,
        "refused_number": numbers[len(table.rounds)] if refused else None,
        "leaders": set(game.leaders(table)),
        "standings": standings(game, table, money),
        "money_now": {"amounts": money},
        "summary": game.rules_summary(table.options),
        "status": game.status(table),
        # said beside "Round N is saved." on the phone that saved it (partials/undo.html)
        "saved_note": game.saved_note(table),
        # why the match ended, when the game's own end did it (not a close by hand)
        "ending": game.ending(table) if result["finished"] and not closed else [],
        "breakdown": game.breakdown(table, latest) if latest >= 0 else [],
        # why the settlement's amounts are not the totals (the kid rule, the money a point)
        "settlement_note": game.settlement_note(table) if result["settlement"] else [],
        "latest": latest + 1,
        # A game may draw more of its result at the end (ranking points, the kid rule).
        "result_templates": [f"games/result/{game.slug}.html", "games/result/default.html"],
    }


def money_now(game, table):
    """What each seat would win or pay were the match settled now, once a round is played with
    a stake set (the standings show it from then on, not only at the end); else []."""
    settled = game.settle(table) if table.rounds else None
    amounts = settled["amounts"] if settled else []
    return amounts if any(amounts) else []


def standings(game, table, money=()):
    """Each side (a player, or a team) in place order: its names, total, place, whether it
    leads, how far it is from the match's end in the game's terms, and its money now (money:
    money_now, a seat's each)."""
    places = game.ranking(table) if table.rounds else [1] * table.n
    leaders = set(game.leaders(table))
    lines = [
        {
            "names": [table.players[s] for s in seats],
            "total": table.totals[seats[0]],
            "place": min(places[s] for s in seats),
            "leads": any(s in leaders for s in seats),
            "to_go": game.to_go(table, seats[0]),
            "away": away_words(table, seats[0]),
            "money": money[seats[0]] if money else None,
        }
        for seats in game.sides(table)
    ]
    return sorted(lines, key=lambda line: line["place"])


def away_words(table, seat):
    """Why a player is not playing on (players.md): "left after round 5", "plays from round
    6"; None for everyone else."""
    if table.gone(seat):
        return Phrase(gettext_noop("left after round %(number)s"), number=table.left[seat])
    if table.joined[seat] > max(len(table.rounds), 1):  # a latecomer, seated for the next one
        return Phrase(gettext_noop("plays from round %(number)s"), number=table.joined[seat])
    return None


def join_starts(drawn):
    """{late_start: the total a player joining before the next round starts at} under each
    choice of the option, the match's own first (players.md)."""
    table = drawn["table"]
    totals = table.joining_totals()
    kinds = sorted(rules.LATE_STARTS, key=lambda kind: kind != table.options["late_start"])
    return {kind: rules.late_start_figure(kind, totals) for kind in kinds}


# A join or a leave refused (games/seats.py, and the phone offline, say them next to the form).
FINISHED = gettext_noop("the match is finished: nobody joins or leaves it now")
FIXED_SEATS = gettext_noop("%(game)s has fixed seats: nobody joins or leaves a match")
NO_SUCH_SEAT = gettext_noop("Tap where they sit.")
NOT_PLAYING = gettext_noop("%(name)s is not one of the players")
GONE_ALREADY = gettext_noop("%(name)s has left already")
LEAVES_BEFORE_START = gettext_noop(
    "%(name)s can leave once a round is played; before it, take them out in Names and options"
)
ONE_LEFT = gettext_noop("if %(name)s leaves, nobody is left to play with: close the match instead")


def check_seats(drawn):
    """Raise a RulesError unless someone may join or leave the match of the board now."""
    game = drawn["game"]
    if not game.seats_change:
        raise rules.RulesError(FIXED_SEATS, game=game.name)
    if drawn["result"]["finished"]:
        raise rules.RulesError(FINISHED)


def check_join(drawn, seat):
    """Raise a RulesError unless a player may sit down at seat for the next round."""
    check_seats(drawn)
    if not 0 <= seat <= drawn["table"].n:
        raise rules.RulesError(NO_SUCH_SEAT)


def check_leave(drawn, name):
    """The player called name (as the engine compares names) who may leave after the last
    round played; else a RulesError."""
    check_seats(drawn)
    table, key = drawn["table"], rules.same_name_key(name)
    seat = next((s for s, p in enumerate(table.players) if rules.same_name_key(p) == key), None)
    if seat is None:
        raise rules.RulesError(NOT_PLAYING, name=rules.clean_name(name)[:40])
    player = table.players[seat]
    if table.left[seat] is not None:
        raise rules.RulesError(GONE_ALREADY, name=player)
    if not table.rounds:
        raise rules.RulesError(LEAVES_BEFORE_START, name=player)
    return player


def going_on(game, table, closed, name):
    """After name left: a RulesError when fewer than two would play the next round of a match
    that goes on (an end the game's rules make of it, as Least Score's last one standing, is
    the game's), else None."""
    if not (closed or game.is_over(table)) and len(table.seats_playing()) < 2:
        return rules.RulesError(ONE_LEFT, name=name)
    return None


def leavers(drawn):
    """(name, total) of each player who can leave now: at the table for the next round."""
    table = drawn["table"]
    number = len(table.rounds) + 1
    return [
        (name, table.totals[seat])
        for seat, name in enumerate(table.players)
        if table.joined[seat] < number and table.plays(seat, number)
    ]


def with_joiner(document, name, seat, late_start):
    """The match document once name sits down at seat for the next round, starting by
    late_start (at once, with the others, before the first round): what the server's
    Match.join stores, in the document's places (the phone, offline)."""
    game, count = rules.get_game(document["game"]), len(document["rounds"])
    players = [*document["players"][:seat], rules.clean_name(name), *document["players"][seat:]]
    changed = {
        **document,
        "players": players,
        "rounds": [game.with_seat(entry, seat) for entry in document["rounds"]],
    }
    if count:
        changed["joined"] = {**(document.get("joined") or {}), players[seat]: count + 1}
        changed["options"] = {**(document.get("options") or {}), "late_start": late_start}
    return changed


def with_leaver(document, name):
    """The match document once name leaves after its last round (the phone, offline)."""
    return {**document, "left": {**(document.get("left") or {}), name: len(document["rounds"])}}


def next_round(drawn, read_entry):
    """(entry, refusal, table): the next round as read_entry makes it of the table, played on a
    fork of the board's table (the board stays as it is), and the engine's RulesError if it
    cannot be the next round (else None)."""
    table = drawn["table"].fork()
    entry = read_entry(table)
    refusal = drawn["refused"] or (rules.RulesError(CLOSED) if drawn["closed"] else None)
    if refusal is None:
        try:
            rules.play_round(drawn["game"], table, entry)
        except rules.RulesError as error:
            refusal = error
    return entry, refusal, table


def in_words(refusal, drawn):
    """A refusal of the round being typed in the reader's words, without its number (the form's
    heading shows it); a refusal of another round names that round. None for no refusal."""
    if refusal is None:
        return None
    if refusal.round == len(drawn["table"].rounds) + 1:
        return phrase(refusal.phrase)
    return said(refusal)


def refusal(error):
    """A change refused by the engine, in the reader's words."""
    if error.phrase.text == "the match is already finished":
        return _("this change would end the match before round %(number)s") % {
            "number": error.round
        }
    return said(error)


def setup_refusal(error, game, before, after):
    """A change of names and options the rounds do not stand, as a sentence naming what was
    changed: "Changing “Out past this total” would end the match before round 2.", or "...
    does not fit round 3: Bo's hand is missing." before, after: the setups (players, options)."""
    changed = changed_words(game, before, after)
    if not changed:
        return refusal(error)
    said_error = (
        _("Changing “%(what)s” would end the match before round %(number)s.")
        if error.phrase.text == "the match is already finished"
        else _("Changing “%(what)s” does not fit round %(number)s: %(why)s.")
    )
    return mark_safe(
        escape(said_error)
        % {"what": listing(changed), "number": error.round, "why": phrase(error.phrase)}
    )


def changed_words(game, before, after):
    """The labels of the options (defaults filled in) and players that differ from before."""
    n = len(before["players"])
    try:
        old, new = game.read_options(before["options"], n), game.read_options(after["options"], n)
    except rules.RulesError:
        old, new = before["options"], after["options"]
    changed = [_(game.label(o.name)) for o in game.options if old.get(o.name) != new.get(o.name)]
    return changed + ([_("the players")] if before["players"] != after["players"] else [])


def cannot_delete(error):
    """Why a round cannot be deleted (the engine's error), in the reader's words."""
    return because(_("This round cannot be deleted: %(why)s"), refusal(error))


def cannot_restore(error):
    """Why a deleted round cannot be restored (the engine's error), in the reader's words."""
    return because(_("This round cannot be restored: %(why)s"), refusal(error))


def preview_lines(drawn, read_entry):
    """(lines, refusal): what the round being typed would score, or why it cannot be played."""
    _entry, refusal, table = next_round(drawn, read_entry)
    lines = [] if refusal else drawn["game"].breakdown(table, len(table.rounds) - 1)
    return lines, refusal


def table_before(document, position):
    """The table as it stood before the round at position of the document's rounds (as far as
    the engine could play them)."""
    return replayed({**document, "rounds": document["rounds"][:position]})[1]


def as_restored(document, rounds):
    """{number: (lines, refusal)} of each deleted round of rounds ((number, entry, deleted) in
    number order), as Restore would bring it back: the breakdown it shows played where it
    stood, after the live rounds before it; or, when the match does not add up with it back
    (as Match.restore_round checks), why in the reader's words, and no lines."""
    game, table, _rounds, _closed = rules.start({**document, "rounds": []})
    live = [entry for _number, entry, deleted in rounds if not deleted]
    shown, played = {}, 0
    for number, entry, deleted in rounds:
        if deleted:
            shown[number] = restored_at(game, table.fork(), entry, live[played:])
            continue
        try:
            rules.play_round(game, table, entry)
        except rules.RulesError:
            break  # the scoreboard stops here too (a refused round)
        played += 1
    return shown


def restored_at(game, table, entry, after):
    """(lines, refusal): entry played on table, its breakdown, then the live rounds after it."""
    try:
        rules.play_round(game, table, entry)
        lines = game.breakdown(table, len(table.rounds) - 1)
        for later in after:
            rules.play_round(game, table, later)
    except rules.RulesError as error:
        return [], cannot_restore(error)
    return lines, None


def restorable(drawn):
    """[{"number", "position"}]: each deleted round with the place of the round it follows on
    the scoreboard (0: it comes first), as the History page names it."""
    return [
        {"number": gone["number"], "position": sum(n < gone["number"] for n in drawn["numbers"])}
        for gone in drawn["deleted"]
    ]


def context(drawn, match, can_score, show_all=False, entry=None, error=None, entry_key=""):
    """The match screen's context: the board, the rounds shown, the entry form refilled, the
    deleted rounds (restored from the match screen offline only: static/offline/)."""
    shown = drawn["rows"] if show_all else drawn["rows"][-ROWS_SHOWN:]
    return {
        **drawn,
        "match": match,
        "can_score": can_score,
        "shown_rows": shown,
        "hidden_rows": len(drawn["rows"]) - len(shown),
        "show_all": show_all,
        # round N is edited at rounds/N/ below this (one reverse() instead of one per row)
        "rounds_url": reverse("round_create", args=[match.public_id]),
        "entry": entry,
        "error": error,
        "entry_key": entry_key,
        "extra": drawn["game"].entry_context(drawn["table"], entry),
        "restorable": restorable(drawn),
        # Called by the template that draws it (a function), so in the language it is drawn in.
        "match_card": partial(match_card, match, drawn) if drawn["result"]["finished"] else None,
    }
