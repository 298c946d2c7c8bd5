"""Records: this phone's match history and a player's record, rematches and their series,
export (the spec's match document, CSV) and import.

Every figure is computed by the engine from the stored rounds, like the match screen's.
"""

import csv
import json
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import rules, screen, tables
from games.links import get_match, on_this_phone, remember
from games.models import Match, Round, RoundEvent
from games.rules.base import decimal
from games.rules.settle import settlement
from games.templatetags.scorekeeper import because, said
from scorekeeper.limits import limited

IMPORT_BYTES = 1_000_000  # a match document of MAX_ROUNDS rounds is well under this

# Each match's live rounds in one query, for replaying many matches.
WITH_ROUNDS = Prefetch("rounds", queryset=Round.objects.filter(deleted=None), to_attr="live")


def replayed(match):
    """(game, table, result) of a match fetched with WITH_ROUNDS (as far as the engine could
    play its rounds)."""
    game, table, closed, _refused = screen.replayed(match.document([r.entry for r in match.live]))
    return game, table, rules.outcome(game, table, closed)


@require_GET
def matches(request):
    """This phone's matches, searched by player or game, and the record of a player named."""
    query = request.GET.get("q", "").strip()
    found = [
        (match, url, *replayed(match))
        for match, url in on_this_phone(request, Match.objects.prefetch_related(WITH_ROUNDS))
    ]
    players = sorted(
        {name for _m, _u, _g, _t, result in found for name in result["players"]}, key=str.casefold
    )
    named = next((name for name in players if name.casefold() == query.casefold()), None)
    shown = [
        (match, url, result)
        for match, url, game, _t, result in found
        if matches_query(query, game, result)
    ]
    context = {
        "query": query,
        "players": players,
        "shown": shown,
        "named": named,
        "record": player_record(named, found) if named else None,
    }
    return render(request, "games/records/matches.html", context)


def matches_query(query, game, result):
    """True when query is part of a player's name or of the game's name in any language."""
    words = [*result["players"], *game_names(game)]
    return any(query.casefold() in word.casefold() for word in words)


def game_names(game):
    """The game's name in every language of the app (拱猪 is found from the English screen)."""
    names = {game.name}
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            names.add(_(game.name))
    return names


def player_record(name, found):
    """A player's finished matches on this phone: played, won, average place, biggest win.

    The biggest win is the won match with the widest margin (in points) over the next player.
    """
    places, wins, biggest, seen = [], 0, None, set()
    for match, url, game, table, result in found:
        decided = result["finished"] and table.rounds
        if match.pk in seen or name not in result["players"] or not decided:
            continue
        seen.add(match.pk)
        seat, ranking = result["players"].index(name), game.ranking(table)
        places.append(ranking[seat])
        if name in result["winners"]:
            wins += 1
            margin = min(
                (
                    abs(result["totals"][seat] - total)
                    for total, place in zip(result["totals"], ranking)
                    if place > ranking[seat]
                ),
                default=0,
            )
            if biggest is None or margin > biggest["margin"]:
                biggest = {"margin": margin, "match": match, "url": url, "game": game}
    return {
        "played": len(places),
        "wins": wins,
        "biggest": biggest,
        "average_place": sum(places) / len(places) if places else None,
    }


@require_POST
@limited("RATE_NEW_MATCHES")
def rematch(request, public_id):
    """A new match of the same game, players, seats and options (a second tap joins it); each
    tap counts as a new match towards the address's limit, the second too."""
    following = get_match(public_id).rematch()
    remember(request, following.public_id)
    return redirect("match", public_id=following.public_id)


def series(match):
    """The series a match belongs to, each match replayed, and for a paying game the combined
    settlement of its finished matches; None for a match on its own."""
    chain = match.series()
    if len(chain) == 1:
        return None
    prefetch_related_objects(chain, WITH_ROUNDS)
    played = [(m, replayed(m)[2]) for m in chain]
    settled = [result["settlement"] for _m, result in played if result["settlement"]]
    combined = None
    if settled:
        amounts = [
            sum((decimal(s["amounts"][k]) for s in settled), Decimal(0))
            for k in range(len(match.players))
        ]
        combined = {**settlement(match.players, amounts, 1), "count": len(settled)}
    return {"played": played, "combined": combined}


def download(content, filename, content_type):
    """A response that saves content as a file."""
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def file_name(match):
    """The game and the day the match started, e.g. gongzhu-2026-11-30."""
    return f"{match.game}-{match.created:%Y-%m-%d}"


@require_GET
def export_json(request, public_id):
    """The match as the spec's match document (deleted rounds left out)."""
    match = get_match(public_id)
    text = json.dumps(match.document(), ensure_ascii=False, indent=2)
    return download(text, f"{file_name(match)}.match.json", "application/json")


@require_GET
def export_csv(request, public_id):
    """One row per round, one column per player, then the totals (a BOM for spreadsheets)."""
    # UTF-8 with a byte order mark: without it spreadsheet apps misread Chinese names.
    match = get_match(public_id)
    result = replayed(Match.objects.prefetch_related(WITH_ROUNDS).get(pk=match.pk))[2]
    response = download("\ufeff", f"{file_name(match)}.csv", "text/csv; charset=utf-8")
    writer = csv.writer(response)
    writer.writerow([_("Round"), *map(as_text, result["players"])])
    for number, scored in enumerate(result["rounds"], 1):
        writer.writerow([number, *scored["points"]])
    writer.writerow([_("Total"), *result["totals"]])
    return response


def as_text(name):
    """A name a spreadsheet shows as text, never runs as a formula (=, +, -, @ lead formulas)."""
    return "'" + name if name[:1] in ("=", "+", "-", "@", "\t", "\r") else name


@require_http_methods(["GET", "POST"])
@limited("RATE_IMPORTS")
def import_match(request):
    """A match document, pasted or as a file: checked by the engine, stored whole or not at all."""
    text, error = request.POST.get("document", ""), None
    if request.method == "POST":
        try:
            text = posted_document(request, text)
            document = read_json(text)
            if tables.is_table_document(document):  # a table's document: its matches and payments
                table = tables.store_table(document)
                remember(request, table.public_id, key="tables")
                return redirect("table", public_id=table.public_id)
            match = store(document)
        except rules.RulesError as refused:
            error = because(_("This match cannot be imported: %(why)s"), said(refused))
        except TooLarge:
            text = ""
            error = _("This file is too large: a match document is at most 1 MB.")
        except UnicodeEncodeError:
            error = _("This is not a match document: it holds a broken character.")
        except (ValueError, RecursionError):  # not UTF-8, not JSON, or nested beyond reason
            error = _("This is not a match document: it is not JSON.")
        else:
            remember(request, match.public_id)
            return redirect("match", public_id=match.public_id)
    return render(
        request,
        "games/records/import.html",
        {"document": text, "error": error},
        status=422 if error else 200,
    )


class TooLarge(Exception):
    """A document over IMPORT_BYTES: refused before it is read."""


def posted_document(request, pasted):
    """The document's text, from the uploaded file or else the pasted text."""
    upload = request.FILES.get("file")
    if upload is None:
        if len(pasted) > IMPORT_BYTES:
            raise TooLarge
        return pasted
    if upload.size > IMPORT_BYTES:
        raise TooLarge
    return upload.read().decode("utf-8-sig")


def read_json(text):
    """The JSON value of text; NaN and Infinity are not JSON, so they are refused too, and a
    lone surrogate escape ("\\ud800", no character: no page could quote it) raises
    UnicodeEncodeError."""
    document = json.loads(text, parse_constant=refuse_constant)
    json.dumps(document, ensure_ascii=False).encode()  # every string, keys too, as UTF-8
    return document


def refuse_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def store(document):
    """A new match with the document's rounds, if the engine accepts the document."""
    result = rules.score(document)
    with transaction.atomic():
        match = Match.objects.create(
            game=result["game"],
            players=result["players"],
            options=document.get("options") or {},
            closed=bool(document.get("closed")),
        )
        stored = Round.objects.bulk_create(
            Round(match=match, number=number, entry=entry)
            for number, entry in enumerate(document.get("rounds", []), 1)
        )
        RoundEvent.objects.bulk_create(
            RoundEvent(round=r, action=RoundEvent.CREATED, entry=r.entry) for r in stored
        )
    return match
