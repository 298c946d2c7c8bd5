"""The regulars' table: its page (balances first), its matches, payments, export and import.

A table has two links like a match: the score link (/t/<public_id>/) plays, adds matches and
records payments; the watch link (/tw/<watch_id>/) only reads, and links matches by their watch
links. What the page shows is computed from the matches' results (games/ledger.py) and drawn
once per table state: the table's version with the sum of its matches' versions.
"""

import csv
import json
import re
from datetime import date, datetime, timedelta
from decimal import Decimal
from types import SimpleNamespace

from django import forms
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Sum
from django.db.models.functions import Coalesce
from django.http import Http404
from django.middleware.csrf import CSRF_TOKEN_LENGTH, get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import cards, ledger, memo, records, rules, views
from games.chart import chart
from games.drawn import DrawnPage
from games.forms import NewMatchForm, NumberField
from games.links import remember
from games.models import (
    MAX_PAYMENTS,
    MAX_PEOPLE,
    MAX_TABLE_MATCHES,
    PAYMENTS_FULL,
    TABLE_FULL,
    Match,
    Payment,
    Refused,
    Table,
    Unknown,
)
from games.rules.base import CENT, ROUND_MESSAGE, Phrase, RulesError, decimal
from games.templatetags.scorekeeper import said
from scorekeeper.limits import limited

TOKENS = {"match": "public_id", "watch": "watch_id"}  # a match's link on a scoring, watching page
UNITS = {ledger.BEANS: gettext_noop("beans"), ledger.MONEY: gettext_noop("money")}
# What read_players checks a table's people against: names as the engine takes players' names.
PEOPLE_RULE = SimpleNamespace(name=gettext_noop("A table"), min_players=2, max_players=MAX_PEOPLE)
NAME_SEPARATORS = re.compile(r"[\r\n,，、،;]")
# A match's score link as pasted (the whole address, or just its id).
SCORE_LINK = re.compile(r"(?:/m/)?([A-Za-z0-9_-]{8,32})/?(?:[?#].*)?\Z")


# ---- forms


class TableForm(forms.Form):
    """A name and the people, one a line (or between commas)."""

    name = forms.CharField(label=gettext_noop("Name"), max_length=60)
    people = forms.CharField(
        label=gettext_noop("People, one a line"),
        max_length=MAX_PEOPLE * 42,
        widget=forms.Textarea(attrs={"rows": 5}),
    )

    def clean_people(self):
        names = [n for n in NAME_SEPARATORS.split(self.cleaned_data["people"]) if n.strip()]
        try:
            return rules.read_players(names, PEOPLE_RULE)
        except RulesError as error:
            raise forms.ValidationError(said(error)) from None


class PaymentForm(forms.Form):
    """Who paid whom, how much, in which unit."""

    payer = forms.ChoiceField(label=gettext_noop("Who paid"))
    payee = forms.ChoiceField(label=gettext_noop("To whom"))
    amount = NumberField(
        label=gettext_noop("How much"), min_value=0.01, max_value=1_000_000, decimal_places=2
    )
    unit = forms.ChoiceField(label=gettext_noop("In"))
    entry_key = forms.CharField(max_length=40, required=False, widget=forms.HiddenInput)

    def __init__(self, table, *args, **kwargs):
        super().__init__(*args, **kwargs)
        people = [(name, name) for name in table.people]
        self.fields["payer"].choices = self.fields["payee"].choices = people
        self.fields["payee"].initial = table.people[1]  # not the payer's own name at first
        self.fields["unit"].choices = [(unit, _(label)) for unit, label in UNITS.items()]


class TakeForm(forms.Form):
    """A match already played, by its score link."""

    link = forms.CharField(label=gettext_noop("The match's score link"), max_length=300)


# ---- finding a table


def get_table(public_id):
    """The table behind a score link; its watch link here is refused (403), anything else 404."""
    try:
        return Table.objects.get(public_id=public_id)
    except Table.DoesNotExist:
        if Table.objects.filter(watch_id=public_id).exists():
            raise PermissionDenied(_("This is a watch link: it cannot change the table.")) from None
        raise Http404(_("There is no such table.")) from None


def state_of(link, token):
    """(version, sum of its matches' versions, their count) of the table, or None: what a drawn
    page of it is kept under (every change to it or to one of its matches moves it on)."""
    return (
        Table.objects.filter(**{link: token})
        .annotate(played=Coalesce(Sum("matches__version"), 0), count=Count("matches"))
        .values_list("version", "played", "count")
        .first()
    )


# ---- pages


@require_http_methods(["GET", "POST"])
@limited("RATE_NEW_MATCHES")
def new_table(request):
    """Make a table: its name and its people."""
    form = TableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        table = Table.objects.create(
            name=form.cleaned_data["name"], people=form.cleaned_data["people"]
        )
        remember(request, table.public_id, key="tables")
        return redirect("table", public_id=table.public_id)
    return render(
        request, "games/table_new.html", {"form": form}, status=422 if form.errors else 200
    )


@require_GET
def table_page(request, public_id):
    """The table: balances and who pays whom first, then play, matches, evenings, statistics."""
    state = state_of("public_id", public_id)
    if state is None:
        get_table(public_id)  # its watch link is refused, anything else is not found
    remember(request, public_id, key="tables")
    return drawn_table(request, "public_id", public_id, state)


@require_GET
def table_watch(request, watch_id):
    """The same table, read-only: never a form, never a score link."""
    state = state_of("watch_id", watch_id)
    if state is None:
        raise Http404(_("There is no such table."))
    remember(request, watch_id, key="watching_tables")
    return drawn_table(request, "watch_id", watch_id, state)


def drawn_table(request, link, token, state):
    """The table's page, drawn once per state and language; only the CSRF token is per phone."""

    def draw():
        table = Table.objects.get(**{link: token})
        context = table_context(table, link == "public_id", entry_key=views.KEY_SLOT)
        context["csrf_token"] = views.CSRF_SLOT
        if link == "watch_id" and context["in_play"]:
            context["board"] = tv_board(request, context["in_play"][0]["match"])
        html = render_to_string("games/table.html", context, request)
        slots = {views.CSRF_SLOT: CSRF_TOKEN_LENGTH, views.KEY_SLOT: len(views.new_entry_key())}
        return DrawnPage(html, slots)

    page = memo.drawn(("table", link, token, state, get_language()), draw)
    filled = {views.CSRF_SLOT: get_token(request), views.KEY_SLOT: views.new_entry_key()}
    return page.response(request, filled)


def tv_board(request, match):
    """The watch page's board of the table's latest match in play, which a TV shows alone
    (static/app.css) and which follows the match live as the match's own watch page does."""
    context = views.scoreboard(match, can_score=False)
    return {
        "watch_id": match.watch_id,
        "html": render_to_string("games/partials/match_body.html", context, request),
    }


@require_GET
def table_share(request, public_id):
    """The table's two links as QR codes: its score link and its watch link."""
    table = get_table(public_id)
    links = [
        (
            _("Score"),
            _("Anyone with this link plays, adds matches and records payments."),
            "table",
            table.public_id,
        ),
        (
            _("Watch"),
            _("Read-only: the balances and the matches, never a form."),
            "table_watch",
            table.watch_id,
        ),
    ]
    back = (reverse("table", args=[table.public_id]), _("Back to the table"))
    return views.share_page(request, _("Share this table"), links, back)


def render_table(request, table, **shown):
    """The table's page refused a change: drawn for this phone with the question or errors."""
    context = {**table_context(table, True), **shown}
    return render(request, "games/table.html", context, status=422)


def table_context(table, can_score, pay_form=None, take_form=None, entry_key=None):
    """Everything the table's page draws, computed from its matches and payments; entry_key:
    what its payment forms' keys begin with (each form adds its own ending)."""
    played = played_matches(table)
    payments = list(table.payments.all())
    live = [payment_of(p) for p in payments if p.deleted is None]
    money = ledger.ledger(table.people, played, live)
    days = ledger.evenings(table.people, played)
    link = "match" if can_score else "watch"
    matches = [
        {**m, "url": reverse(link, args=[getattr(m["match"], TOKENS[link])])}
        for m in reversed(played)
    ]
    units = shown_units(money)
    return {
        "table": table,
        "can_score": can_score,
        "units": units,
        "card": table_card(table, units, days),
        "payments": payments,
        "matches": matches,
        "in_play": [m for m in matches if not m["result"]["finished"]],
        "evenings": [
            {**day, "games": [rules.GAMES[slug] for slug in day["games"]]} for day in reversed(days)
        ],
        "statistics": shown_statistics(table.people, played, days),
        "charts": shown_charts(table.people, played, live),
        "games": rules.GAMES.values(),
        "pay_form": pay_form or PaymentForm(table),
        "take_form": take_form or TakeForm(),
        "watch_url": reverse("table_watch", args=[table.watch_id]),
        "entry_key": entry_key or views.new_entry_key(),
    }


def played_matches(table):
    """Each of the table's matches in play order: {"match", "date" (its evening's), "result",
    "places", "game"}."""
    shown = []
    matches = list(table.matches.prefetch_related(records.WITH_ROUNDS).order_by("created", "pk"))
    for match, day in zip(matches, evenings_of([match.created for match in matches])):
        game, board, result = records.replayed(match)
        places = game.ranking(board) if board.rounds else []
        shown.append(
            {"match": match, "date": day, "result": result, "places": places, "game": game}
        )
    return shown


EVENING_GAP = timedelta(hours=8)


def evenings_of(moments):
    """The date of the evening of each of moments (in order): one within EVENING_GAP of the one
    before is of the same evening, dated by its first (a match started past midnight is the
    evening's that began the day before)."""
    dates, before = [], None
    for moment in moments:
        if before is None or moment - before > EVENING_GAP:
            day = timezone.localdate(moment)
        dates.append(day)
        before = moment
    return dates


def payment_of(payment):
    """A recorded payment as the ledger reads it, with the day it was recorded."""
    return {**payment.document(), "date": timezone.localdate(payment.created)}


def shown_units(money):
    """Per unit: its name, each person's balance (highest first) and the transfers settling it."""
    return [
        {
            "unit": unit,
            "name": UNITS[unit],
            "rows": sorted(balance.items(), key=lambda row: -row[1]),
            "transfers": money["settlement"][unit],
            "places": 2 if any(amount % 1 for amount in balance.values()) else 0,
        }
        for unit, balance in money["balances"].items()
    ]


def table_card(table, units, days):
    """The result card of the table so far (games/cards.py): each person's balance in its first
    unit, and who pays whom to settle each unit; None before any balance."""
    if not units:
        return None
    standings = cards.by_amount(units[0]["rows"], units[0]["places"])
    payments = [
        cards.paying(
            {"transfers": unit["transfers"], "amounts": [a for _n, a in unit["rows"]]}, unit["unit"]
        )
        for unit in units
    ]
    day = formats.date_format(days[-1]["date"], "DATE_FORMAT")
    note = _("Balance in %(unit_name)s") % {"unit_name": _(units[0]["name"])}
    return cards.card(
        title=table.name,
        date=day,
        file=f"{file_name(table)}.png",
        standings=standings,
        payments=payments,
        note=note,
    )


def shown_statistics(people, played, days):
    """The statistics rows with each game's module, and each person's best and worst evening."""
    rows = ledger.statistics(people, played)
    for row in rows:
        row["game"] = rules.GAMES[row["game"]]
    extremes = [
        {"unit": UNITS[unit], "places": places_of(by_name), "people": by_name}
        for unit, by_name in ledger.best_and_worst(people, days).items()
    ]
    return {"rows": rows, "evenings": extremes}


def places_of(by_name):
    """2 decimal places when an evening's amount has cents, else none."""
    amounts = [found[end]["amount"] for found in by_name.values() for end in ("best", "worst")]
    return 2 if any(amount % 1 for amount in amounts) else 0


def shown_charts(people, played, payments):
    """Per unit, the chart of each person's running balance after each evening (whole units)."""
    charts = []
    for unit, (dates, lines) in ledger.running(people, played, payments).items():
        if len(dates) < 2:
            continue
        whole = {name: [0, *map(round, line)] for name, line in lines.items()}
        steps = [
            {"points": [whole[name][k + 1] - whole[name][k] for name in lines]}
            for k in range(len(dates))
        ]
        drawing = chart({"players": list(lines), "rounds": steps})
        charts.append({"unit": UNITS[unit], "drawing": drawing, "dates": dates})
    return charts


# ---- changes


@require_http_methods(["GET", "POST"])
@limited("RATE_NEW_MATCHES")
def table_new_match(request, public_id, slug):
    """A new match of the table: the new-match form with its people in the seats."""
    table = get_table(public_id)
    game = rules.GAMES.get(slug)
    if game is None:
        raise Http404(_("There is no such game."))
    seats = {f"player_{k}": name for k, name in enumerate(table.people[: game.max_players])}
    form = NewMatchForm(game, request.POST or None, initial=seats)
    context = {"table": table, "game": game, "form": form}
    if request.method == "POST" and form.is_valid():
        players, options = form.match["players"], form.match["options"]
        try:
            match = table.start_match(game.slug, players, options, adding=asked_to_add(request))
        except Unknown as unknown:
            return render(
                request, "games/table_new_match.html", {**context, "unknown": unknown.names}
            )
        except Refused as refused:
            form.add_error(None, said(refused.error))
        else:
            remember(request, match.public_id)
            return redirect("match", public_id=match.public_id)
    status = 422 if form.errors else 200
    return render(request, "games/table_new_match.html", context, status=status)


def asked_to_add(request):
    """True when the phone answered the question "add them to the table?" with yes."""
    return request.POST.get("add_people") == "1"


@require_POST
def table_take(request, public_id):
    """Add a match already played to the table, by its score link."""
    table = get_table(public_id)
    form = TakeForm(request.POST)
    if not form.is_valid():
        return render_table(request, table, take_form=form)
    found = SCORE_LINK.search(form.cleaned_data["link"].strip())
    token = found.group(1) if found else ""
    match = Match.objects.filter(public_id=token).first()
    if match is None:
        watch = Match.objects.filter(watch_id=token).exists()
        form.add_error("link", watch_link_said() if watch else _("No match has this link."))
        return render_table(request, table, take_form=form)
    try:
        table.take_match(match, adding=asked_to_add(request))
    except Unknown as unknown:
        return render_table(request, table, take_form=form, unknown=unknown.names)
    except Refused as refused:
        form.add_error("link", said(refused.error))
        return render_table(request, table, take_form=form)
    return redirect("table", public_id=table.public_id)


def watch_link_said():
    return _("This is the match's watch link: paste its score link, which scores the match.")


@require_POST
def table_pay(request, public_id):
    """Record that one of the table's people paid another: the balances move."""
    table = get_table(public_id)
    form = PaymentForm(table, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            table.pay(data["payer"], data["payee"], data["amount"], data["unit"], data["entry_key"])
        except Refused as refused:
            form.add_error(None, said(refused.error))
        else:
            return redirect("table", public_id=table.public_id)
    return render_table(request, table, pay_form=form)


@require_POST
def payment_delete(request, public_id, pk):
    """Delete a recorded payment (it can be restored)."""
    return payment_deleted(request, public_id, pk, True)


@require_POST
def payment_restore(request, public_id, pk):
    """Put a deleted payment back."""
    return payment_deleted(request, public_id, pk, False)


def payment_deleted(request, public_id, pk, deleting):
    """Delete or restore a payment; one already so (another phone was first) is left as it is."""
    table = get_table(public_id)
    try:
        table.set_payment_deleted(pk, deleting)
    except Payment.DoesNotExist:
        if not table.payments.filter(pk=pk).exists():
            raise Http404(_("There is no such payment.")) from None
    return redirect("table", public_id=table.public_id)


# ---- export and import


def table_document(table, played):
    """The table's JSON document: its people, its matches (played) as each exports, its
    payments, and what the ledger computes of them (balances, settlement), which an import
    recomputes."""
    payments = [p.document() for p in table.payments.filter(deleted=None)]
    matches = [{**m["match"].document(), "date": m["date"].isoformat()} for m in played]
    return {
        "table": table.name,
        "people": table.people,
        "matches": matches,
        "payments": payments,
        **ledger.ledger(table.people, played, payments),
    }


@require_GET
def table_export_json(request, public_id):
    """The table as its JSON document."""
    table = get_table(public_id)
    text = json.dumps(table_document(table, played_matches(table)), ensure_ascii=False, indent=2)
    return records.download(text, f"{file_name(table)}.table.json", "application/json")


def file_name(table):
    """table-2026-12-03: the day of the export."""
    return f"table-{timezone.localdate():%Y-%m-%d}"


@require_GET
def table_export_csv(request, public_id):
    """One row per match (its date, game and each person's settlement), per payment, then each
    unit's balances (a BOM for spreadsheets)."""
    table = get_table(public_id)
    played = played_matches(table)
    document = table_document(table, played)
    people = table.people
    response = records.download("\ufeff", f"{file_name(table)}.csv", "text/csv; charset=utf-8")
    writer = csv.writer(response)
    writer.writerow([_("Date"), _("Game"), _("In"), *map(records.as_text, people)])
    for match in played:
        amounts = ledger.settled(match["result"]) or {}
        unit = ledger.unit_of(match["result"]) if amounts else ""
        by_person = {table.person(name): amount for name, amount in amounts.items()}
        cells = [by_person.get(name, "") for name in people]
        writer.writerow([match["date"], _(match["game"].name), unit and _(UNITS[unit]), *cells])
    for payment in table.payments.filter(deleted=None):
        cells = [
            payment.amount if n == payment.payer else -payment.amount if n == payment.payee else ""
            for n in people
        ]
        writer.writerow(
            [timezone.localdate(payment.created), _("Paid"), _(UNITS[payment.unit]), *cells]
        )
    for unit, balance in document["balances"].items():
        writer.writerow(["", _("Balance"), _(UNITS[unit]), *[balance.get(n, "") for n in people]])
    return response


def is_table_document(document):
    """True for a table's document (an import of a table, not of a match)."""
    return isinstance(document, dict) and "table" in document and "game" not in document


def store_table(document):
    """A new table with the document's people, matches (each checked by the engine) and
    payments, stored whole or not at all; raises RulesError saying what is wrong."""
    name, people = document.get("table"), document.get("people")
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        raise RulesError(gettext_noop("a table's name is one line of at most 60 characters"))
    people = rules.read_players(people, PEOPLE_RULE)
    matches, payments = document.get("matches", []), document.get("payments", [])
    if not isinstance(matches, list) or len(matches) > MAX_TABLE_MATCHES:
        raise RulesError(TABLE_FULL, most=MAX_TABLE_MATCHES)
    if not isinstance(payments, list) or len(payments) > MAX_PAYMENTS:
        raise RulesError(PAYMENTS_FULL, most=MAX_PAYMENTS)
    with transaction.atomic():
        table = Table.objects.create(name=name.strip(), people=people)
        for number, match in enumerate(matches, 1):
            store_match(table, match, number)
        for payment in payments:
            stored_payment(table, payment)
    return table


def store_match(table, document, number):
    """One match of a table's document, as an import stores a match, dated as the document says."""
    try:
        match = records.store(document)
    except RulesError as error:
        why = error.phrase
        if error.round is not None:
            why = Phrase(ROUND_MESSAGE, round=error.round, message=error.phrase)
        raise RulesError(
            gettext_noop("match %(number)s: %(why)s"), number=number, why=why
        ) from None
    unknown = table.unknown(match.players)
    if unknown:
        raise RulesError(NOT_PEOPLE_IN_MATCH, number=number, name=unknown[0])
    day = read_date(document.get("date"))
    if day is not None:
        when = timezone.make_aware(datetime(day.year, day.month, day.day, 20))
        Match.objects.filter(pk=match.pk).update(table=table, created=when)
    else:
        Match.objects.filter(pk=match.pk).update(table=table)


NOT_PEOPLE_IN_MATCH = gettext_noop("match %(number)s: %(name)s is not one of the table's people")


def read_date(value):
    """The date a match's "date" gives (YYYY-MM-DD), else None."""
    try:
        return date.fromisoformat(value) if isinstance(value, str) and len(value) == 10 else None
    except ValueError:
        return None


def stored_payment(table, payment):
    """One payment of a table's document, checked as "Paid" checks it."""
    if not isinstance(payment, dict):
        raise RulesError(gettext_noop("a payment must be a JSON object"))
    amount, unit = payment.get("amount"), payment.get("unit")
    if isinstance(amount, (int, float)) and not isinstance(amount, bool):
        amount = decimal(amount).quantize(CENT)  # to the cent, as "Paid" takes it
    if not isinstance(amount, Decimal) or not 0 < amount <= 1_000_000 or unit not in UNITS:
        raise RulesError(gettext_noop("a payment is an amount above 0 in beans or money"))
    try:
        table.pay(str(payment.get("from")), str(payment.get("to")), amount, unit)
    except Refused as refused:
        raise refused.error from None
