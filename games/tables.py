"""The regulars' table's screens, thin as a match's: its page (balances first), new matches,
matches taken in, payments, its share page.

A table has two links like a match: the score link (/t/<public_id>/) plays, adds matches and
records payments; the watch link (/tw/<watch_id>/) only reads, and links matches by their watch
links. The page is summed from the matches' stored results (games/ledger.py summary), drawn once
per table state and language; each change is a method of games/models.py Table.
"""

from urllib.parse import urlencode

from django.http import Http404, HttpResponse
from django.middleware.csrf import CSRF_TOKEN_LENGTH, get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import cards, ledger, memo, rules
from games.changes import filled, setup_lines
from games.chart import balance_charts
from games.drawn import CSRF_SLOT, KEY_SLOT, DrawnPage, new_entry_key
from games.forms import (
    UNITS,
    CurrencyForm,
    NewMatchForm,
    PaymentForm,
    TableForm,
    TableSetupForm,
    TakeForm,
    asked_to_add,
    currencies_offered,
    setup_initial,
)
from games.links import get_table, remember, replaced, share_page
from games.live import table_tag
from games.models import Conflict, Match, Payment, Refused, SetupChange, Stale, Table, Unknown
from games.said import TABLE_NOT_UNDONE, payment_said, said_back, said_url
from games.season import Links, decimals, leaderboards
from games.signing import phone_of
from games.stale import table_as_drawn, table_sides
from games.templatetags.scorekeeper import currency_of, isolate, paid, said
from scorekeeper.limits import limited

MATCHES_SHOWN = 20  # the latest matches listed on the page; every one is in its exports
EVENINGS_SHOWN = 10  # the latest evenings listed, unless the phone asks for all (?evenings=all)
PAYMENTS_SHOWN = 20  # the latest payments listed (deleted ones too); every one is in its exports


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
    state = Table.state_of("public_id", public_id)
    if state is None:
        get_table(public_id)  # its watch link is refused, anything else is not found
    remember(request, public_id, key="tables")
    if request.GET.get("said"):  # a payment just recorded or deleted on this phone, said back
        return said_table(request, get_table(public_id), request.GET["said"])
    return drawn_table(request, "public_id", public_id, state)


def said_table(request, table, told, status=200):
    """The table's page drawn for this phone, saying a change back (told: a token
    games/said.py reads, or its said_back)."""
    line = payment_said(table, told, paid) if isinstance(told, str) else told
    return render_table(request, table, status, said=line)


@require_GET
def table_watch(request, watch_id):
    """The same table, read-only: never a form, never a score link."""
    state = Table.state_of("watch_id", watch_id)
    if state is None:
        raise Http404(_("There is no such table."))
    remember(request, watch_id, key="watching_tables")
    return drawn_table(request, "watch_id", watch_id, state)


def drawn_table(request, link, token, state):
    """The table's page, drawn once per state and language; only the CSRF token and the payment
    forms' key are per phone."""

    every_evening = request.GET.get("evenings") == "all"

    def draw():
        table = Table.objects.get(**{link: token})
        with currency_of(table.currency):
            context = table_context(
                table, link == "public_id", entry_key=KEY_SLOT, every_evening=every_evening
            )
            context["live_tag"] = table_tag(state)
            page = {**context, "csrf_token": CSRF_SLOT}
            html = render_to_string("games/table.html", page, request)
        return DrawnPage(html, {CSRF_SLOT: CSRF_TOKEN_LENGTH, KEY_SLOT: len(new_entry_key())})

    key = ("table", link, token, state, get_language(), every_evening)
    page = memo.drawn(key, draw)
    return page.response(request, {CSRF_SLOT: get_token(request), KEY_SLOT: new_entry_key()})


def table_context(
    table, can_score, pay_form=None, take_form=None, entry_key=None, every_evening=False
):
    """Everything the table's page draws: the ledger's summary of its matches' stored results
    and its live payments, and its ratings (Table.season), shaped for the page; entry_key: what
    its payment forms' keys begin with (each form adds its own ending); every_evening: list
    every evening, not the latest."""
    played = table.played()
    season = table.season(played)
    link = "public_id" if can_score else "watch_id"  # what its links lead to: its own kind
    links = Links(link, getattr(table, link), table.people)
    payments = list(table.payments.all())
    summary = ledger.summary(table.people, played, [p.as_paid() for p in payments if not p.deleted])
    units = shown_units(summary)
    matches = [
        {
            **m,
            "url": links.match(m["match"]),
            "game": rules.GAMES[m["result"]["game"]],
        }
        for m in reversed(played[-MATCHES_SHOWN:])
    ]
    return {
        "table": table,
        "can_score": can_score,
        "units": units,
        "unsettled": [{**u, "game": rules.GAMES[u["game"]]} for u in summary["unsettled"]],
        "card": cards.table_card(table, units, last_day(played, payments)),
        "payments": payments[-PAYMENTS_SHOWN:],
        "payments_count": len(payments),
        "matches": matches,
        "matches_count": len(played),
        "in_play": [m for m in matches if not m["result"]["finished"]],
        "evenings": shown_evenings(summary["evenings"][0 if every_evening else -EVENINGS_SHOWN :]),
        "evenings_count": len(summary["evenings"]),
        "statistics": shown_statistics(summary),
        "charts": balance_charts(summary["running"], UNITS),
        "people": [(name, links.person(name)) for name in table.people],
        "leaderboards": leaderboards(season, links),
        "matches_url": links.to("matches"),
        "games": rules.GAMES.values(),
        "pay_form": pay_form or PaymentForm(table, initial={"unit": open_unit(units)}),
        "take_form": take_form or TakeForm(),
        # its path: static/share.js shows the whole address (the page is drawn for any host)
        "watch_url": reverse("table_watch", args=[table.watch_id]),
        "entry_key": entry_key or new_entry_key(),
    }


def last_day(played, payments):
    """The day of the table's latest match or payment (today for a table with neither)."""
    days = [m["date"] for m in played[-1:]] + [timezone.localdate(p.created) for p in payments]
    return max(days, default=timezone.localdate())


def shown_units(summary):
    """Per unit: its name, each person's balance (highest first), the transfers settling it, and
    the decimal places its amounts are shown with."""
    units = []
    for unit, balance in summary["balances"].items():
        places = decimals(unit, balance.values())
        units.append(
            {
                "unit": unit,
                "name": UNITS[unit],
                "rows": sorted(balance.items(), key=lambda row: -row[1]),
                "transfers": summary["settlement"][unit],
                "places": places,
                "shown": places,  # how an amount of it is said (the in_unit filter)
            }
        )
    return units


def open_unit(units):
    """The unit a payment is most likely made in: the first with a transfer still open."""
    return next((unit["unit"] for unit in units if unit["transfers"]), None)


def shown_evenings(evenings):
    """The evenings, latest first, with each match's game module and each unit's net: what the
    evening's settlements gave each person, highest first."""
    return [
        {
            **day,
            "matches": [{**m, "game": rules.GAMES[m["game"]]} for m in day["matches"]],
            "nets": [
                {
                    "name": UNITS[unit],
                    "rows": sorted(by_name.items(), key=lambda row: -row[1]),
                    "places": decimals(unit, by_name.values()),
                }
                for unit, by_name in sorted(day["units"].items())
            ],
        }
        for day in reversed(evenings)
    ]


def shown_statistics(summary):
    """The statistics rows with each game's module, and each person's best and worst evening."""
    rows = [{**row, "game": rules.GAMES[row["game"]]} for row in summary["statistics"]]
    extremes = [
        {
            "unit": UNITS[unit],
            "places": decimals(unit, evening_amounts(by_name)),
            "people": by_name,
        }
        for unit, by_name in summary["extremes"].items()
    ]
    return {"rows": rows, "evenings": extremes}


def evening_amounts(by_name):
    """The amounts of each person's best and worst evening."""
    return [found[end]["amount"] for found in by_name.values() for end in ("best", "worst")]


def render_table(request, table, status=422, **shown):
    """The table's page drawn for this phone: a change refused, with the question or errors,
    or said back (status 200)."""
    with currency_of(table.currency):
        context = {**table_context(table, True), **shown}
        context["live_tag"] = table_tag(Table.state_of("public_id", table.public_id))
        return render(request, "games/table.html", context, status=status)


@require_GET
def table_playing(request, watch_id):
    """The watch link's id of the table's latest match in play, or nothing: what a TV showing
    the table asks every half minute (static/table.js), for the price of two small queries."""
    table = Table.objects.filter(watch_id=watch_id).values_list("pk", flat=True).first()
    if table is None:
        raise Http404(_("There is no such table."))
    playing = (
        Match.objects.filter(table=table, result__finished=False)
        .order_by("-created", "-pk")
        .values_list("watch_id", flat=True)
        .first()
    )
    return HttpResponse(playing or "", content_type="text/plain")


@require_GET
def table_share(request, public_id):
    """The table's two links as QR codes: its score link and its watch link."""
    table = get_table(public_id)
    links = [
        (
            _("Score link"),
            _("Anyone with this link plays, adds matches and records payments."),
            "table",
            table.public_id,
        ),
        (
            _("Watch link"),
            _("Read-only: the balances and the matches, never a form."),
            "table_watch",
            table.watch_id,
        ),
    ]
    back = (reverse("table", args=[table.public_id]), _("Back to the table"))
    replace = reverse("table_share_replace", args=[table.public_id])
    return share_page(request, _("Share this table"), links, back, replace)


@require_POST
def table_share_replace(request, public_id):
    """A new score link for the table; the old one opens nothing from now on."""
    return replaced(request, get_table(public_id), "table_share", "tables")


# ---- changes


@require_http_methods(["GET", "POST"])
def table_setup(request, public_id):
    """Fix the table's name and its people's names, remove people who never played nor paid, add
    people: a person renamed is renamed in every match and payment of the table; each change is
    listed, and can be undone. A form is read against the names it was drawn with."""
    table = get_table(public_id)
    drawn = table_as_drawn(table, drawn_version(request.POST))
    form = TableSetupForm(drawn, request.POST or None)
    stale = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            table.change_setup(data["name"], data["people"], data["version"])
        except Stale as changed:
            table.refresh_from_db()
            typed = {"name": data["name"], "people": data["people"]}
            theirs, yours, initial = table_sides(table, typed, changed.since)
            form = TableSetupForm(table, initial=initial)
            stale = {"theirs": theirs, "yours": yours}
        except Refused as refused:
            form.add_error(None, said(refused.error))
        else:
            return redirect("table", public_id=table.public_id)
    return render_setup(request, table, form, stale=stale)


@require_POST
def table_currency(request, public_id):
    """Set what the table's money is counted in: shown with every amount of money of the table
    and its matches from then on. Read against the currency the form was drawn showing."""
    table = get_table(public_id)
    form = CurrencyForm(request.POST)
    if not form.is_valid():
        return render_setup(request, table, TableSetupForm(table), currency_form=form)
    try:
        table.set_currency(form.cleaned_data["currency"], form.cleaned_data["seen"])
    except Stale as changed:
        theirs = changed.since[0]
        form = CurrencyForm({"currency": form.cleaned_data["currency"], "seen": theirs})
        form.is_valid()
        form.add_error(None, currency_moved(theirs))
        return render_setup(request, table, TableSetupForm(table), currency_form=form)
    return redirect("table", public_id=table.public_id)


def currency_moved(theirs):
    """A currency form refused: another phone set the currency since it was drawn."""
    if not theirs:
        return _("Another phone took the currency away since you opened this page: save again.")
    moved = _(
        "Another phone set the currency to %(currency)s since you opened this page: save again."
    )
    return moved % {"currency": isolate(theirs)}


def drawn_version(data):
    """The version a posted form says it was drawn at, else None."""
    version = data.get("version", "")
    return int(version) if version.isdigit() and len(version) < 13 else None


def render_setup(request, table, form, error=None, stale=None, currency_form=None):
    """The page fixing the table's names, with its changes so far (a refused undo: error), and
    its currency's form."""
    changes = [(change, setup_lines(change)) for change in table.setup_changes.all()]
    currency_form = currency_form or CurrencyForm(
        initial={"currency": table.currency, "seen": table.currency}
    )
    context = {
        "table": table,
        "form": form,
        "currency_form": currency_form,
        "currencies": currencies_offered(get_language()),
        "changes": changes,
        "error": error,
        "stale": stale,
        "phone_name": phone_of(request),
    }
    failed = form.errors or error or stale or currency_form.errors
    return render(request, "games/table_setup.html", context, status=422 if failed else 200)


@require_POST
def table_setup_undo(request, public_id, pk):
    """Put back the names a change replaced (a change of its own, listed too)."""
    table = get_table(public_id)
    try:
        table.undo_setup(pk)
    except SetupChange.DoesNotExist:
        raise Http404(_("There is no such change.")) from None
    except Refused as refused:
        table.refresh_from_db()
        return render_setup(request, table, TableSetupForm(table), said(refused.error))
    return redirect("table_setup", public_id=table.public_id)


@require_http_methods(["GET", "POST"])
@limited("RATE_NEW_MATCHES")
def table_new_match(request, public_id, slug):
    """A new match of the table: the new-match form with its people in the seats, and the
    options and stake of the table's last match of the game (as last time), if any."""
    table = get_table(public_id)
    game = rules.GAMES.get(slug)
    if game is None:
        raise Http404(_("There is no such game."))
    played = table.played() if game.min_players == game.max_players else []
    out = sits_out(table, game, request.GET.getlist("out"), played)
    playing = [name for name in table.people if name not in out]
    seats = {f"player_{k}": name for k, name in enumerate(playing[: game.max_players])}
    last = table.last_options(game.slug)
    initial = {**seats, **setup_initial(game, last or {})}
    form = NewMatchForm(game, request.POST or None, initial=initial)
    context = {
        "table": table,
        "game": game,
        "form": form,
        "sitting_out": out_said(table, out, played),
        "as_last_time": last is not None,
        # the options, or the house rules, the last match set are shown unfolded
        "open_options": set_in(last, game, len(seats), variant=False),
        "open_variants": set_in(last, game, len(seats), variant=True),
    }
    if request.method == "POST" and form.is_valid():
        try:
            match, change = start_asked(request.POST, table, game, form, seats)
        except Unknown as unknown:
            typo = typo_offered(table, form, seats, unknown.names)
            shown = {**context, "unknown": unknown.names, "typo": typo}
            return render(request, "games/table_new_match.html", shown)
        except Stale as changed:
            return typo_stale(request, table, form, seats, context, changed.since)
        except Refused as refused:
            form.add_error(None, said(refused.error))
        else:
            remember(request, match.public_id)
            url = reverse("match", args=[match.public_id])
            return redirect(said_url(url, change.pk) if change else url)
    status = 422 if form.errors else 200
    return render(request, "games/table_new_match.html", context, status=status)


def start_asked(data, table, game, form, seats):
    """The match the form starts, as the phone answered the question about a name none of the
    table's people (add them, or a typo of the person the form drew in that seat); and the
    change that renamed that person everywhere at the table, else None."""
    players, options = form.match["players"], form.match["options"]
    sat_out = data.getlist("sat_out")[: len(table.people)]
    typo = typo_offered(table, form, seats, table.unknown(players))
    if typo is not None and data.get("typo") == str(typo["seat"]):
        was = [typo["old"] if k == typo["seat"] else name for k, name in enumerate(players)]
        seen = drawn_version(data)
        return table.start_renaming(game.slug, players, options, was, sat_out, seen)
    adding = asked_to_add(data)
    return table.start_match(game.slug, players, options, adding, sat_out), None


def typo_stale(request, table, form, seats, context, since):
    """A typo answered on a question asked before another phone changed the table's names:
    their change said, nothing saved, the question asked again of the names as they are."""
    table.refresh_from_db()
    unknown = table.unknown(form.match["players"])
    stale = {"theirs": [line for change in since for line in setup_lines(change)]}
    shown = {**context, "stale": stale, "unknown": unknown}
    shown["typo"] = typo_offered(table, form, seats, unknown)
    return render(request, "games/table_new_match.html", shown, status=422)


def typo_offered(table, form, seats, unknown):
    """{"seat", "old", "new"}: the one name none of the table's people (unknown), typed in a
    seat the form drew one of them in who does not play now: offered as a typo of theirs;
    else None."""
    if len(unknown) != 1:
        return None
    players = form.match["players"]
    typed = [f.name for f in form.player_fields() if (form.cleaned_data.get(f.name) or "").strip()]
    playing = {rules.same_name_key(name) for name in players}
    for k, (field, new) in enumerate(zip(typed, players)):
        old = table.person(seats.get(field) or "")
        if new == unknown[0] and old and rules.same_name_key(old) not in playing:
            return {"seat": k, "old": old, "new": new}
    return None


def set_in(options, game, players, variant):
    """Whether options (None: no match) of game played by players set a house rule (variant),
    else a rule book's option (beyond what it plays for), to something else than its default."""
    if options is None:
        return False
    played, default = filled(game, options, players), filled(game, {}, players)
    return any(
        played[o.name] != default[o.name]
        for o in game.options
        if o.variant == variant and not o.first
    )


def sits_out(table, game, asked, played):
    """Who sits out a new match of game, whose seats are fewer than the table's people: those
    asked (the names a tap chose, as many as must sit out), else the ledger's suggestion (who
    sat out least, then longest ago); nobody for a game whose player count is a range."""
    count = len(table.people) - game.max_players
    if game.min_players != game.max_players or count <= 0:
        return []
    chosen = [name for name in table.people if name in asked]
    if len(chosen) == count:
        return chosen
    return ledger.sitting_out(table.people, played, count)


def out_said(table, out, played):
    """Each person who sits out: their name, how often they sat out so far, and the links that
    put another player out in their place (?out=...)."""
    sat = ledger.sat_out_so_far(table.people, played)
    return [
        {
            "name": name,
            "times": sat[name][0],
            "instead": [
                {
                    "name": other,
                    "query": urlencode([("out", o) for o in out if o != name] + [("out", other)]),
                }
                for other in table.people
                if other not in out
            ],
        }
        for name in out
    ]


@require_POST
def table_take(request, public_id):
    """Add a match already played to the table, by its score link."""
    table = get_table(public_id)
    form = TakeForm(request.POST)
    if not form.is_valid():
        return render_table(request, table, take_form=form)
    link = form.cleaned_data["link"]
    match = Match.objects.filter(public_id=link).first()
    if match is None:
        watch = Match.objects.filter(watch_id=link).exists()
        form.add_error("link", watch_link_said() if watch else _("No match has this link."))
        return render_table(request, table, take_form=form)
    try:
        table.take_match(match, adding=asked_to_add(request.POST))
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
        paid = (data["payer"], data["payee"], data["amount"], data["unit"], data["entry_key"])
        try:
            payment = table.pay(*paid, seen=data["version"])
        except Stale as changed:
            table.refresh_from_db()
            again = PaymentForm(table, {**request.POST.dict(), "version": table.version})
            again.is_valid()
            stale = {
                "since": changed.since,
                "yours": Payment(payer=paid[0], payee=paid[1], amount=paid[2], unit=paid[3]),
            }
            return render_table(request, table, pay_form=again, pay_stale=stale)
        except Refused as refused:
            form.add_error(None, said(refused.error))
        else:
            return said_payment(table, payment)
    return render_table(request, table, pay_form=form)


def said_payment(table, payment):
    """The table's page, saying the payment recorded or deleted back with Undo."""
    return redirect(said_url(reverse("table", args=[table.public_id]), f"p{payment.pk}"))


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
    version = request.POST.get("version", "")  # posted by an Undo: refused if anything changed
    try:
        table.set_payment_deleted(pk, deleting, int(version) if version.isdigit() else None)
    except Conflict:
        table.refresh_from_db()
        return said_table(request, table, said_back(_(TABLE_NOT_UNDONE)), status=409)
    except Payment.DoesNotExist:
        if not table.payments.filter(pk=pk).exists():
            raise Http404(_("There is no such payment.")) from None
        return redirect("table", public_id=table.public_id)
    return said_payment(table, table.payments.get(pk=pk))
