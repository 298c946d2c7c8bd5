"""Records: this phone's match history and a player's record, rematches and their series,
export and import of a match (the spec's match document, CSV) and of a regulars' table (its
people, matches and payments).

A match's figures are computed by the engine from the stored rounds, like the match screen's; a
table's are summed from its matches' stored results (games/ledger.py), never replayed.
"""

import csv
import json
import time
from datetime import date, datetime
from decimal import Decimal
from itertools import groupby
from operator import itemgetter

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch, TextField, prefetch_related_objects
from django.db.models.functions import Cast
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import ledger, memo, ratings, rules, screen
from games.drawn import Download
from games.forms import (
    MAX_PEOPLE,
    PEOPLE_RULE,
    UNITS,
    PaymentForm,
    read_currency,
    read_table_name,
)
from games.links import get_match, get_table, on_this_phone, remember
from games.models import (
    MAX_PAYMENTS,
    MAX_TABLE_MATCHES,
    NOT_PEOPLE,
    PAYMENTS_FULL,
    TABLE_FULL,
    Match,
    Payment,
    Refused,
    Result,
    Round,
    RoundEvent,
    Table,
)
from games.rules.base import ROUND_MESSAGE, Phrase, decimal
from games.rules.settle import settlement
from games.templatetags.scorekeeper import because, said
from scorekeeper.limits import limited

# A match's or a table's file: a match of MAX_ROUNDS rounds is well under it, and so is the
# export of a table of some 90,000 rounds (the request's body is at most 2 MiB).
IMPORT_BYTES = 2_000_000

# Each match's live rounds in one query, for replaying many matches.
WITH_ROUNDS = Prefetch("rounds", queryset=Round.objects.filter(deleted=None), to_attr="live")


def replayed(match):
    """(game, table, result) of a match fetched with WITH_ROUNDS (as far as the engine could
    play its rounds)."""
    live = match.live
    document = match.document([r.entry for r in live], [r.number for r in live])
    game, table, closed, _refused = screen.replayed(document)
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
    settled = [result for _m, result in played if result["settlement"]]
    combined = None
    if settled:
        combined = {**settled_by_name(match.players, settled), "count": len(settled)}
    return {"played": played, "combined": combined}


def settled_by_name(players, results):
    """The settlement of the results together, each person's amounts added up by name (a seat
    swapped, a player who sat out a match), never by seat: {"players" (players first, then
    the others as they came), "amounts", "transfers", "remainder"}."""
    people = ledger.People(players)
    sums = {}
    for result in results:
        for name, amount in zip(result["players"], result["settlement"]["amounts"]):
            person = people.of(name)
            sums[person] = sums.get(person, Decimal(0)) + decimal(amount)
    names = people.names
    amounts = [sums.get(name, Decimal(0)) for name in names]
    return {**settlement(names, amounts, 1), "players": names}


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
            if is_table_document(document):  # a table's document: its matches and payments
                return imported_table(request, document)
            match = store(document)
        except TableRefused as refused:
            error = because(_("This table cannot be imported: %(why)s"), said(refused.error))
        except rules.RulesError as refused:
            error = because(_("This match cannot be imported: %(why)s"), said(refused))
        except TooLarge:
            text = ""
            error = _("This file is too large: a file to import is at most 2 MB.")
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


def store(document, regulars=None, created=None):
    """A new match with the document's rounds, if the engine accepts the document, and its
    result; in the table regulars, started at created, when they are given."""
    game, table, closed = rules.replay(document)
    with transaction.atomic():
        match = Match.objects.create(
            table=regulars, **match_fields(document, regulars, game, table, closed)
        )
        if created is not None:  # the field is set on creation to the time now
            Match.objects.filter(pk=match.pk).update(created=created)
        stored = Round.objects.bulk_create(
            Round(match=match, number=number, entry=entry)
            for number, entry in enumerate(document.get("rounds", []), 1)
        )
        RoundEvent.objects.bulk_create(
            RoundEvent(round=r, action=RoundEvent.CREATED, entry=r.entry) for r in stored
        )
        Result.keep(match, match.version, game, table, closed)
    return match


def match_fields(document, regulars, game, table, closed):
    """What a match imported from document (played by the engine: game, table, closed) stores
    of it, in the table regulars (None: none)."""
    return {
        "game": game.slug,
        "players": table.players,
        "options": document.get("options") or {},
        "closed": closed,
        # the rounds are stored under their places: a place is the round's number
        "joined": {p: first for p, first in zip(table.players, table.joined) if first > 1},
        "left": {p: last for p, last in zip(table.players, table.left) if last is not None},
        "sat_out": sitting_out(regulars, document.get("sat_out"), table.players)
        if regulars
        else [],
    }


# ---- a regulars' table: its export and import


def table_json(table, played, season):
    """The table's JSON document: its name, people, live payments, what the ledger sums of them
    (balances, settlement) and its ratings (season), which an import works out anew, and its
    matches (played) in the order they are rated, each as a match exports, with its evening's
    date and, where it is rated, its places. Each round's entry is spliced in as the database
    keeps its text: the rounds (nearly all of the file) are neither decoded nor replayed."""
    payments = list(table.payments.filter(deleted=None))
    summed = ledger.ledger(table.people, played, [p.as_paid() for p in payments])
    head = {
        "table": table.name,
        "currency": table.currency,
        "people": table.people,
        "payments": [p.document() for p in payments],
        **summed,
        "ratings": season.document(),
    }
    dates = {m["match"]["pk"]: m["date"].isoformat() for m in played}
    rated_first = {m["match"]["pk"]: k for k, m in enumerate(ratings.in_rating_order(played))}
    stored = sorted(table.matches.filter(pk__in=dates), key=lambda m: rated_first[m.pk])
    live = Round.objects.filter(match__in=stored, deleted=None).order_by("match", "number")
    texts = live.values_list(
        "match", Cast("entry", TextField())
    )  # a cursor on PostgreSQL: 6x slower
    rounds = {
        match_id: ",".join(text for _match, text in found)
        for match_id, found in groupby(texts, key=itemgetter(0))
    }
    matches = [
        with_array(
            {**m.document([]), **sat_out_of(m), **rated(season, m.pk), "date": dates[m.pk]},
            "rounds",
            rounds.get(m.pk, ""),
        )
        for m in stored
    ]
    return with_array(head, "matches", ",".join(matches))


def sat_out_of(match):
    """{"sat_out": the table's people who sat the match out} when anyone did, else nothing."""
    return {"sat_out": match.sat_out} if match.sat_out else {}


def sitting_out(regulars, named, players):
    """The names of a table's match document's "sat_out" that are the table's people and do not
    play the match (by the table's spelling); anything else in it is left out."""
    if not isinstance(named, list):
        return []
    playing = {rules.same_name_key(name) for name in players}
    found = [regulars.person(name) for name in named[:MAX_PEOPLE] if isinstance(name, str)]
    return [p for p in dict.fromkeys(found) if p and rules.same_name_key(p) not in playing]


def rated(season, pk):
    """{"places": {name: place}} of a match the season rated, else nothing."""
    return {"places": season.rated[pk][1]} if pk in season.rated else {}


def with_array(document, key, items):
    """The JSON text of document (a dict of one key or more) with one more key, last: an array
    of items (JSON texts joined by commas)."""
    document = {name: value for name, value in document.items() if name != key}
    return f'{json.dumps(document, ensure_ascii=False)[:-1]}, "{key}": [{items}]}}'


@require_GET
def table_export_json(request, public_id):
    """The table as its JSON document, made once per table state."""
    table = get_table(public_id)
    state = Table.state_of("public_id", public_id)

    def draw():
        played = table.played()
        text = table_json(table, played, table.season(played))
        return Download(text, f"{table_file(table)}.table.json", "application/json")

    key = ("table.json", public_id, state)
    return memo.drawn(key, draw).response(request)


def unit_said(table, unit):
    """What amounts of unit are counted in, as a column says it: beans, money, the table's
    currency ($, تومان) for its money; "" for no unit."""
    if unit == ledger.MONEY and table.currency:
        return table.currency
    return _(UNITS[unit]) if unit else ""


def table_file(table):
    """table-2026-12-03: the day of the export."""
    return f"table-{timezone.localdate():%Y-%m-%d}"


@require_GET
def table_export_csv(request, public_id):
    """One row per match (its date, game and each person's settlement), per payment, then each
    unit's balances (a BOM for spreadsheets): summed from the matches' stored results."""
    table = get_table(public_id)
    played = table.played()
    people = table.people
    response = download("\ufeff", f"{table_file(table)}.csv", "text/csv; charset=utf-8")
    writer = csv.writer(response)
    writer.writerow(
        [_("Date"), pgettext("which game was played", "Game"), _("In"), *map(as_text, people)]
    )
    for match in played:
        amounts = ledger.settled(match["result"]) or {}
        unit = ledger.unit_of(match["result"]) if amounts else ""
        by_person = {table.person(name): amount for name, amount in amounts.items()}
        cells = [by_person.get(name, "") for name in people]
        game = rules.GAMES[match["result"]["game"]]
        writer.writerow([match["date"], _(game.name), unit_said(table, unit), *cells])
    payments = list(table.payments.filter(deleted=None))
    for payment in payments:
        cells = [
            payment.amount if n == payment.payer else -payment.amount if n == payment.payee else ""
            for n in people
        ]
        writer.writerow(
            [timezone.localdate(payment.created), _("Paid"), unit_said(table, payment.unit), *cells]
        )
    balances = ledger.ledger(people, played, [p.as_paid() for p in payments])["balances"]
    for unit, balance in balances.items():
        writer.writerow(
            ["", _("Balance"), unit_said(table, unit), *[balance.get(n, "") for n in people]]
        )
    return response


def is_table_document(document):
    """True for a table's document (an import of a table, not of a match)."""
    return isinstance(document, dict) and "table" in document and "game" not in document


class TableRefused(Exception):
    """A table's document the import refuses: args[0] is the RulesError saying why."""

    @property
    def error(self):
        return self.args[0]


def imported_table(request, document):
    """Store a table's document and open it (TableRefused says why it cannot be)."""
    try:
        table = store_table(document)
    except rules.RulesError as error:
        raise TableRefused(error) from None
    remember(request, table.public_id, key="tables")
    return redirect("table", public_id=table.public_id)


# Rounds an import writes in one transaction (some 40 ms on a quiet machine), each followed by
# a pause as long as it took: a save on another match waits for one such transaction at most,
# never for the whole import, and gets its turn in the pause (on SQLite it would otherwise find
# the write lock taken again at once). bench/imports measures it.
ROUNDS_A_WRITE = 250


def store_table(document):
    """A new table with the document's people, matches (each checked by the engine) and
    payments (each checked as "Paid" checks one), stored whole or not at all; raises RulesError
    saying what is wrong. Everything is read, checked and scored before anything is written,
    outside any transaction; then it is written a few thousand rounds a transaction (what was
    written is removed when a write fails), the table's link given to nobody until the end."""
    name = read_table_name(document.get("table"))
    people = rules.read_players(document.get("people"), PEOPLE_RULE)
    currency = read_currency(document.get("currency", ""))
    matches, payments = document.get("matches", []), document.get("payments", [])
    if not isinstance(matches, list):
        raise rules.RulesError(gettext_noop("a table's matches must be a list"))
    if len(matches) > MAX_TABLE_MATCHES:
        raise rules.RulesError(TABLE_FULL, most=MAX_TABLE_MATCHES)
    if not isinstance(payments, list):
        raise rules.RulesError(gettext_noop("a table's payments must be a list"))
    if len(payments) > MAX_PAYMENTS:
        raise rules.RulesError(PAYMENTS_FULL, most=MAX_PAYMENTS)
    regulars = Table(name=name, people=people)
    scored = [scored_match(regulars, match, number) for number, match in enumerate(matches, 1)]
    paid = [
        checked_payment(regulars, payment, number) for number, payment in enumerate(payments, 1)
    ]
    table = Table.objects.create(name=name, people=people, currency=currency)
    try:
        for chunk in by_rounds(scored, ROUNDS_A_WRITE):
            started = time.monotonic()
            with transaction.atomic():
                write_matches(table, chunk)
            time.sleep(time.monotonic() - started)
        Payment.objects.bulk_create(Payment(table=table, **payment) for payment in paid)
    except BaseException:
        Match.objects.filter(table=table).delete()
        table.delete()
        raise
    return table


def scored_match(regulars, document, number):
    """One match of a table's document, checked and scored by the engine: what is written of
    it (its fields, rounds, stored result and date); RulesError naming the match otherwise."""
    try:
        unknown = regulars.unknown(rules.start(document)[1].players)
        if unknown:
            raise rules.RulesError(NOT_PEOPLE, name=unknown[0])
        game, table, closed = rules.replay(document)
    except rules.RulesError as error:
        why = error.phrase
        if error.round is not None:
            why = Phrase(ROUND_MESSAGE, round=error.round, message=error.phrase)
        raise rules.RulesError(
            gettext_noop("match %(number)s: %(why)s"), number=number, why=why
        ) from None
    return {
        "match": match_fields(document, regulars, game, table, closed),
        "rounds": document.get("rounds", []),
        "kept": ledger.kept(game, table, closed),
        "created": played_on(document.get("date")),
    }


def by_rounds(scored, most):
    """The scored matches in runs of about most rounds (a match is never split)."""
    run, rounds = [], 0
    for match in scored:
        if run and rounds + len(match["rounds"]) > most:
            yield run
            run, rounds = [], 0
        run.append(match)
        rounds += len(match["rounds"])
    if run:
        yield run


def write_matches(table, scored):
    """Write scored matches of table: the matches, their rounds with their history, their
    stored results, each dated as its document says."""
    made = Match.objects.bulk_create(Match(table=table, **match["match"]) for match in scored)
    rounds = Round.objects.bulk_create(
        Round(match=match, number=number, entry=entry)
        for match, played in zip(made, scored)
        for number, entry in enumerate(played["rounds"], 1)
    )
    RoundEvent.objects.bulk_create(
        RoundEvent(round=r, action=RoundEvent.CREATED, entry=r.entry) for r in rounds
    )
    now = timezone.now()  # they end in the order they are written (a table rates them so)
    Result.objects.bulk_create(
        Result(
            match=match,
            finished=played["kept"]["finished"],
            kept=played["kept"],
            ended=now if played["kept"]["finished"] else None,
        )
        for match, played in zip(made, scored)
    )
    dates = {}
    for match, played in zip(made, scored):
        if played["created"] is not None:
            dates.setdefault(played["created"], []).append(match.pk)
    for created, pks in dates.items():
        Match.objects.filter(pk__in=pks).update(created=created)


def played_on(value):
    """8 pm of the date a match's "date" gives (YYYY-MM-DD), else None."""
    try:
        day = date.fromisoformat(value) if isinstance(value, str) and len(value) == 10 else None
    except ValueError:
        return None
    return day and timezone.make_aware(datetime(day.year, day.month, day.day, 20))


def checked_payment(table, payment, number):
    """One payment of a table's document, checked by the form and the rules "Paid" checks one
    by: the fields of the Payment it is."""
    if not isinstance(payment, dict):
        raise rules.RulesError(PAYMENT_WRONG, number=number, why=_("it is not a JSON object"))
    names = [payment.get("from"), payment.get("to")]
    for name in names:
        if not isinstance(name, str) or table.person(name) is None:
            why = _(NOT_PEOPLE) % {"name": str(name)[:40]}
            raise rules.RulesError(PAYMENT_WRONG, number=number, why=why)
    amount, unit = payment.get("amount"), payment.get("unit")
    form = PaymentForm(
        table,
        {
            "payer": table.person(names[0]),
            "payee": table.person(names[1]),
            "amount": "" if isinstance(amount, bool) else str(amount),
            "unit": str(unit)[:40],
        },
    )
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        why = f"{_(form.fields[field].label)}: {' '.join(errors)}"
        raise rules.RulesError(PAYMENT_WRONG, number=number, why=why)
    data = form.cleaned_data
    try:
        table.check_payment(data["payer"], data["payee"])
    except Refused as refused:
        raise refused.error from None
    return {
        "payer": data["payer"],
        "payee": data["payee"],
        "amount": data["amount"],
        "unit": data["unit"],
    }


PAYMENT_WRONG = gettext_noop("payment %(number)s: %(why)s")
