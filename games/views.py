"""Thin function views: the engine scores, the models store what was typed.

A match has two links: the score link (/m/<public_id>/) for phones that enter rounds and the
watch link (/w/<watch_id>/) that only reads. Every change bumps the match's version, which the
live check compares and which makes a save conditional on what the phone last saw. Each change
is one model method (games/models.py); a view reads the form, calls it, and draws the answer.
"""

from html import unescape
from types import SimpleNamespace

from django.db import DatabaseError
from django.http import Http404, HttpResponse
from django.middleware.csrf import CSRF_TOKEN_LENGTH, get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import strip_tags
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event

from games import cards, memo, records, rules, screen
from games.changes import changes, setup_lines, typed
from games.drawn import CSRF_SLOT, KEY_SLOT, DrawnPage, new_entry_key
from games.forms import NewMatchForm, RoundForm, SetupForm
from games.links import (
    get_match,
    get_table,
    holds_table,
    on_this_phone,
    remember,
    replaced,
    share_page,
    tables_on_this_phone,
)
from games.live import opened
from games.models import (
    NOT_PEOPLE,
    AlreadySaved,
    Conflict,
    Heartbeat,
    Match,
    Refused,
    Round,
    RoundEvent,
    SetupChange,
    Stale,
    Table,
    Taken,
    Unknown,
    position_of,
)
from games.said import (
    NOT_UNDONE,
    latest_round_token,
    match_said,
    places,
    said_back,
    said_url,
    undo_round,
)
from games.signing import phone_of
from games.stale import match_sides
from games.templatetags.scorekeeper import because, currency_of, said
from scorekeeper.limits import limited

NOT_SAVED = _(
    "Not saved: the server could not write it just now (its database is "
    "busy, full or read-only). What you typed is still here: try again."
)


@require_GET
def healthz(request):
    """200 while the database answers and takes writes, else 503 (for load balancers)."""
    try:
        Heartbeat.beat()
    except DatabaseError:
        return HttpResponse("database unavailable", content_type="text/plain", status=503)
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def home(request):
    """This phone's tables first, then start a match, or go back to one this phone opened."""
    context = {
        "games": rules.GAMES.values(),
        "tables": tables_on_this_phone(request),
        "matches": on_this_phone(request),
    }
    return render(request, "games/home.html", context)


@require_http_methods(["GET", "POST"])
@limited("RATE_NEW_MATCHES")
def new_match(request, slug):
    """Players in seating order and the game's options."""
    game = rules.GAMES.get(slug)
    if game is None:
        raise Http404(_("There is no such game."))
    form = NewMatchForm(game, request.POST or None)
    if request.method == "POST" and form.is_valid():
        players, options = form.match["players"], form.match["options"]
        try:
            match = Match.start(game.slug, players, options, form.cleaned_data["public_id"])
        except Taken:
            form.add_error("public_id", _("Another match has this score link already."))
            return new_match_refused(request, game, form, 409)
        remember(request, match.public_id)
        return redirect("match", public_id=match.public_id)
    if form.errors and form.data.get("public_id"):
        return new_match_refused(request, game, form, 422)
    return render(request, "games/new_match.html", {"game": game, "form": form})


def new_match_refused(request, game, form, status):
    """A match a phone started with no network, refused: the form with its errors, and why as
    data (the "startRefused" event of an HX-Trigger header) for the phone sending it
    (static/offline/send.js), which puts the question to the scorer."""
    response = render(request, "games/new_match.html", {"game": game, "form": form}, status=status)
    errors = [unescape(strip_tags(error)) for field in form.errors.values() for error in field]
    return trigger_client_event(response, "startRefused", {"message": " ".join(errors)})


@require_GET
def match_page(request, public_id):
    """The scoreboard, the next round's entry form and the latest breakdown."""
    drawn_as = Match.drawn_as("public_id", public_id)
    if drawn_as is None:
        get_match(public_id)  # a watch link is refused, anything else is not found
    remember(request, public_id)
    if request.GET.get("said"):  # a change just made on this phone, said back (games/said.py)
        return render_match(request, get_match(public_id), said=request.GET["said"])
    return drawn_page(request, "public_id", public_id, *drawn_as)


@require_GET
def watch_page(request, watch_id):
    """The same match, read-only: the scoreboard, never a form."""
    drawn_as = Match.drawn_as("watch_id", watch_id)
    if drawn_as is None:
        raise Http404(_("There is no such match."))
    remember(request, watch_id, key="watching")
    return drawn_page(request, "watch_id", watch_id, *drawn_as)


def drawn_page(request, link, token, version, currency):
    """The whole match page, drawn once per match version, language and rounds shown.

    Only the CSRF token and the form's entry key differ between phones: the page is drawn with
    placeholders for them, and each phone gets its own filled in. What the page may hold is
    decided by link alone: a watch token never yields a page drawn for a scorer.
    """

    holds = link == "public_id" and holds_table_of(request, token)

    def draw():
        match = Match.objects.get(**{link: token})
        with currency_of(currency):
            context = match_context(request, match, link == "public_id", entry_key=KEY_SLOT)
            context["regulars"] = regulars_of(match, holds)
            page = {**context, "csrf_token": CSRF_SLOT}
            html = render_to_string("games/match.html", page, request)
        return DrawnPage(html, {CSRF_SLOT: CSRF_TOKEN_LENGTH, KEY_SLOT: len(new_entry_key())})

    key = drawing_key("page", link, token, version, request, currency)
    page = memo.drawn((*key, holds), draw)
    return page.response(request, {CSRF_SLOT: get_token(request), KEY_SLOT: new_entry_key()})


def drawing_key(kind, link, token, version, request, currency):
    """What a page or a live update (kind) drawn for a match version is kept under (currency:
    its table's, which its money is shown in)."""
    return (kind, link, token, version, get_language(), showing_all(request), currency)


def match_currency(match):
    """The currency of the match's table ("" for none, and for a match of no table)."""
    if match.table_id is None:
        return ""
    return Table.objects.values_list("currency", flat=True).get(pk=match.table_id)


@require_GET
def live(request, watch_id):
    """A watching phone's live check: never anything drawn for a scorer."""
    return live_news(request, "watch_id", watch_id)


@require_GET
def score_live(request, public_id):
    """A scoring phone's live check: the scoreboard with its round links."""
    if Match.version_of("public_id", public_id) is None:
        get_match(public_id)  # a watch link is refused, anything else is not found
    return live_news(request, "public_id", public_id)


def live_news(request, link, token):
    """204 while the match is at the version the phone has, else the new scoreboard, drawn
    once per version, language, rounds shown and link (never a scorer's for a watch link)."""
    drawn_as = Match.drawn_as(link, token)
    if drawn_as is None:
        raise Http404(_("There is no such match."))
    version, currency = drawn_as
    if request.GET.get("v", "") == str(version):
        return HttpResponse(status=204)
    key = drawing_key("live", link, token, version, request, currency)
    page = memo.drawn(key, lambda: draw_live(request, Match.objects.get(**{link: token}), link))
    return page.response(request, {})


@require_GET
def no_stream(request, kind, link, token):
    """A live stream this server does not hold (games/stream.py holds them on the event loop,
    and hands this one on: served without it, or its limits reached): 204 tells the page to
    keep to its live check. A link the stream is not for is answered as its live check's."""
    if opened(kind, link, token) is None:
        if link == "public_id":
            (get_match if kind == "match" else get_table)(token)  # a watch link: 403
        raise Http404(
            _("There is no such match.") if kind == "match" else _("There is no such table.")
        )
    return HttpResponse(status=204)


def draw_live(request, match, link, context=None):
    """The live update of match, drawn for a scorer or a watcher (link), from the match
    screen's context when one is at hand."""
    with currency_of(match_currency(match)):
        context = context or scoreboard(match, link == "public_id", show_all=showing_all(request))
        return DrawnPage(render_to_string("games/partials/live.html", context, request))


def render_match(request, match, status=200, **shown):
    """The match page, or just its body for an htmx request. shown: the entry and error that
    refill the form, its entry_key, change (offers to put the entry in place of a stored round),
    appended (the round a save added, for the phone's offline state), said (the line saying a
    change back: a token games/said.py reads, or its said_back). Its live part is the one
    every other phone's live check gets for this version: drawn once, and kept."""
    appended, said = shown.pop("appended", None), shown.pop("said", None)
    currency = match_currency(match)
    with currency_of(currency):
        context = match_context(request, match, True, **shown)
        context["change"], context["appended"] = shown.get("change"), appended
        context["said"] = match_said(match, context, said) if isinstance(said, str) else said
        context["twin"] = shown.get("twin")
        key = drawing_key("live", "public_id", match.public_id, match.version, request, currency)
        live = memo.drawn(key, lambda: draw_live(request, match, "public_id", context))
        context["live_drawn"] = mark_safe(live.text)
        if not request.htmx:
            context["regulars"] = regulars_of(match, holds_table_of(request, match.public_id))
        template = "games/partials/match_body.html" if request.htmx else "games/match.html"
        return render(request, template, context, status=200 if request.htmx else status)


def match_context(request, match, can_score, entry=None, error=None, entry_key=None, **_shown):
    """The match screen's context: the scoreboard, and the entry form refilled from entry."""
    form = {"entry": entry, "error": error, "entry_key": entry_key or new_entry_key()}
    return scoreboard(match, can_score, showing_all(request), **form)


def holds_table_of(request, public_id):
    """Whether this phone holds the score link of the table the match (by its score link) is
    of: its way back to the table is then that link, else the table's watch link."""
    if not request.session.get("tables"):
        return False
    table = Table.objects.filter(matches__public_id=public_id).values_list("public_id", flat=True)
    return holds_table(request, table.first())


def regulars_of(match, holding):
    """The table match belongs to, named and linked: by its score link only when holding it (a
    match's link opens only what it was made for), else by its watch link; None for a match of
    no table."""
    if match.table_id is None:
        return None
    table = Table.objects.only("name", "public_id", "watch_id").get(pk=match.table_id)
    if holding:
        return {"name": table.name, "url": reverse("table", args=[table.public_id])}
    return {"name": table.name, "url": reverse("table_watch", args=[table.watch_id])}


def scoreboard(match, can_score=True, show_all=False, **form):
    """Everything the match screen draws, derived from the stored rounds by the engine, and
    the series the match belongs to; form: the entry form's entry, error and entry_key."""
    drawn = memo.board(match)
    context = screen.context(drawn, match, can_score, show_all, **form)
    # Only a rematch, or a finished match (which may have one), can belong to a series.
    in_series = match.rematch_of_id is not None or drawn["result"]["finished"]
    context["series"] = records.series(match) if in_series else None
    combined = context["series"] and context["series"]["combined"]
    if combined and drawn["result"]["finished"]:
        context["series_card"] = cards.series_card(match, drawn["game"], drawn["result"], combined)
    return context


def showing_all(request):
    """Whether the phone asked for every round on the scoreboard (?rounds=all)."""
    return request.GET.get("rounds") == "all"


def lost_race(match, form):
    """The round the form was for, when another phone entered it first; else None."""
    typed_round = form.cleaned_data.get("round") if form.is_valid() else None
    if typed_round and match.live_rounds().count() >= typed_round:
        return typed_round
    return None


def conflict_message(match, form):
    """What the phone that lost a race is told (the form posts which round it was for)."""
    number = lost_race(match, form)
    if number:
        return _("Round %(number)s was just entered from another phone.") % {"number": number}
    return _("The match was just changed from another phone: check it and save again.")


def twin_hands(match, number, entry, drawn):
    """A save that lost the race for round number: that round as the other phone entered it and
    the hand this phone typed, each in the entry form's words, and the round it would now be."""
    theirs = list(match.live_rounds())[number - 1].entry
    players = match.players
    return {
        "number": number,
        "theirs": typed(match.rules, players, theirs),
        "yours": typed(match.rules, players, entry),
        "next": len(drawn["table"].rounds) + 1,
    }


@require_POST
def round_create(request, public_id):
    """Save the next round if the engine accepts the whole match with it."""
    match = get_match(public_id)
    form = RoundForm(match.rules, request.POST)
    if not form.is_valid():
        return refused_save(request, match, form, conflict_message(match, form))
    key = form.cleaned_data["entry_key"]
    try:
        stored = match.add_round(form.entry, key, form.cleaned_data["version"])
    except AlreadySaved as twin:
        return retried(request, match, form, twin.stored)
    except Conflict:
        return refused_save(request, match, form, conflict_message(match, form))
    except Refused as refused:
        return refused_save(request, match, form, refusal=refused.error)
    except DatabaseError:
        return refused_save(request, match, form, NOT_SAVED)
    appended = {"after": match.version - 1, "round": stored.entry, "number": stored.number}
    return saved(request, match, appended)


def refused_save(request, match, form, error=None, refusal=None):
    """The match as it now stands, with the form refilled as typed and why it was not saved
    (error, or the engine's refusal). A hand another phone entered first is shown beside the
    one typed here, and Save becomes a choice: drop this one, or save it as the next round."""
    match.refresh_from_db()
    drawn = memo.board(match)
    entry = form.entry(drawn["table"].fork())
    error = error or screen.in_words(refusal, drawn)
    key = form.cleaned_data.get("entry_key") if form.is_valid() else None
    number = lost_race(match, form) if refusal is None else None
    twin = twin_hands(match, number, entry, drawn) if number else None
    return answer_not_saved(request, match, entry=entry, error=error, entry_key=key, twin=twin)


def retried(request, match, form, earlier):
    """A save from a form whose entry is already stored (its first answer was lost).

    The same entry again is simply saved. A changed one is never dropped in silence: the phone
    is told, keeps what it typed, and may put it in the stored round's place ("change").
    """
    match.refresh_from_db()  # it was read before its first copy landed, maybe
    if earlier.deleted is not None:
        return saved(request, match)
    stored = list(match.live_rounds())
    position = position_of(stored, earlier.number)
    entry = form.entry(screen.table_before(live_document(match, stored), position))
    if entry == earlier.entry:
        return saved(request, match)
    if form.cleaned_data["change"] == earlier.number:
        error = changed(match, earlier.number, form)
        if error is None:
            return saved(request, match)
        match.refresh_from_db()  # moved on by the phone it lost to
    else:
        error = _(
            "Round %(number)s was already saved from this form, with other values. What "
            "you typed now is below: tap “Change round %(number)s” to put it in its place."
        ) % {"number": position + 1}
    change = {"number": earlier.number, "position": position + 1}
    key = form.cleaned_data["entry_key"]
    return answer_not_saved(request, match, entry=entry, error=error, entry_key=key, change=change)


def answer_not_saved(request, match, error, **shown):
    """A save refused: the match page with the form refilled (render_match), and why as data,
    the text of the error shown in the "saveRefused" event of an HX-Trigger header, for a phone
    sending the rounds it kept offline (static/offline/send.js)."""
    response = render_match(request, match, 422, error=error, **shown)
    return trigger_client_event(response, "saveRefused", {"message": unescape(strip_tags(error))})


def saved(request, match, appended=None):
    """After a change (match as it now stands): the match body for htmx, a redirect for a plain
    form."""
    if request.htmx:
        return render_match(request, match, appended=appended)
    return redirect("match", public_id=match.public_id)


def changed(match, number, form):
    """Put the round the form reads in place of round number; why it cannot be, else None."""
    if not form.is_valid():
        return conflict_message(match, form)
    try:
        match.change_round(number, form.entry, form.cleaned_data["version"])
    except (Conflict, Round.DoesNotExist):
        return conflict_message(match, form)
    except Refused as refused:
        return screen.refusal(refused.error)
    return None


def live_document(match, stored):
    """The match document of the live rounds stored (Round rows in play order)."""
    return match.document([r.entry for r in stored], [r.number for r in stored])


def stored_round(match, number):
    """(live rounds, position of round number among them), or 404."""
    stored = list(match.live_rounds())
    try:
        return stored, position_of(stored, number)
    except Round.DoesNotExist:
        raise Http404(_("There is no such round.")) from None


@require_http_methods(["GET", "POST"])
def round_edit(request, public_id, number):
    """Change a past round; everything after it is recomputed (or the change is refused)."""
    match = get_match(public_id)
    stored, position = stored_round(match, number)
    entry, error = stored[position].entry, None
    before = screen.table_before(live_document(match, stored), position)
    if request.method == "POST":
        form = RoundForm(match.rules, request.POST)
        entry = form.entry(before)
        error = changed(match, number, form)
        if error is None:
            return said_page(request, match, latest_round_token(match))
    return render_round(request, match, stored, position, entry, error, before)


def render_round(request, match, stored, position, entry, error, before=None):
    """The page of one past round: its entry form, its history, delete; a refused change or
    delete says why (said_refused)."""
    if before is None:
        before = screen.table_before(live_document(match, stored), position)
    context = {
        "match": match,
        "game": match.rules,
        "table": before,
        "entry": entry,
        "error": error,
        "round_number": position + 1,
        "stored_round": stored[position],
        "events": described(match, stored[position].events.all()),
        "extra": match.rules.entry_context(before, entry),
    }
    return said_refused(render(request, "games/round_edit.html", context), error)


def said_refused(response, error):
    """The page drawn, refusing with error if any: a 422 that says why as data too (the
    "saveRefused" event, for a phone sending the changes it kept offline: static/offline/)."""
    if error:
        response.status_code = 422
        trigger_client_event(response, "saveRefused", {"message": unescape(strip_tags(error))})
    return response


@require_POST
def round_delete(request, public_id, number):
    """Delete a round (it can be restored) unless the rounds after it would then break a rule."""
    match = get_match(public_id)
    stored, position = stored_round(match, number)
    form = RoundForm(match.rules, request.POST)
    try:
        match.delete_round(number, form.cleaned_data["version"] if form.is_valid() else -1)
        return said_page(request, match, latest_round_token(match))
    except (Conflict, Round.DoesNotExist):  # another phone deleted it first
        error = conflict_message(match, form)
    except Refused as refused:
        error = screen.cannot_delete(refused.error)
    return render_round(request, match, stored, position, stored[position].entry, error)


@require_GET
def history(request, public_id):
    """Every round with its history; deleted rounds can be restored from here."""
    return render_history(request, get_match(public_id))


def render_history(request, match, error=None):
    """The history page: every fix of the setup, every round (deleted ones too) with its
    events."""
    context = {
        "match": match,
        "game": match.rules,
        "error": error,
        "phone_name": phone_of(request),
        "setups": [
            (c, setup_lines(c, match.rules, places(match))) for c in match.setup_changes.all()
        ],
        "rounds": numbered(match, match.rounds.prefetch_related("events")),
    }
    return said_refused(render(request, "games/history.html", context), error)


@require_http_methods(["GET", "POST"])
def match_setup(request, public_id):
    """Fix the setup after Start: rename the players, change the stake or any option the rounds
    entered still satisfy (the engine plays them all again, and names the round that no longer
    fits); History lists the change and can undo it. A match's score link never adds a person
    to its table: a name none of its people is asked about (a typo of the seat's person, or
    someone the table's score link adds)."""
    match = get_match(public_id)
    return set_up_match(request, match, adding=False)


@require_POST
def table_match_setup(request, public_id, table_id):
    """The same form, sent with both score links, the table's (from a phone holding it) and the
    match's: its new names are added to the table."""
    table = get_table(table_id)
    match = get_match(public_id)
    if match.table_id != table.pk:
        raise Http404(_("There is no such match."))
    return set_up_match(request, match, adding=True)


def set_up_match(request, match, adding):
    """The Names and options form, drawn or saved (adding: names none of the table's people are
    added to it)."""
    form = SetupForm(match, request.POST or None)
    shown, before = {}, {"players": match.players, "options": match.options}
    if request.method == "POST" and form.is_valid():
        setup = form.match
        try:
            change = match.change_setup(
                setup["players"],
                setup["options"],
                form.cleaned_data["version"],
                renaming=request.POST.get("typo") == "1",
                adding=adding,
            )
        except Unknown as unknown:
            shown["unknown"] = unknown_seats(match, setup["players"], unknown.names)
        except Stale as stale:
            match.refresh_from_db()
            theirs, yours, both = match_sides(match, setup, stale.since)
            form = SetupForm(SimpleNamespace(**both, rules=match.rules, version=match.version))
            shown["stale"] = {"theirs": theirs, "yours": yours}
        except Refused as refused:
            said = screen.setup_refusal(refused.error, match.rules, before, setup)
            form.add_error(None, said)
        else:
            return said_page(request, match, str(change.pk)) if change else saved(request, match)
    if shown.get("unknown"):
        shown["table_url"] = table_setup_url(request, match)
    context = {"match": match, "game": match.rules, "form": form, **shown}
    status = 422 if form.errors or shown else 200
    return render(request, "games/match_setup.html", context, status=status)


def unknown_seats(match, players, names):
    """(the name in its seat now, the name typed) of each name none of the table's people."""
    return [(old, new) for old, new in zip(match.players, players) if new in names]


def table_setup_url(request, match):
    """Where this match's form adds its new names to its table: only on a phone holding the
    table's score link (else None: the page says where to add them)."""
    table = Table.objects.filter(pk=match.table_id).values_list("public_id", flat=True).first()
    if not holds_table(request, table):
        return None
    return reverse("table_match_setup", args=[match.public_id, table])


@require_POST
def match_setup_undo(request, public_id, pk):
    """Put back the setup a fix replaced (a fix of its own, in History too)."""
    match = get_match(public_id)
    on_match = request.htmx or request.POST.get("next") == "match"  # an Undo on the match page
    try:
        undone = match.undo_setup(pk, posted_version(request) if on_match else None)
    except Conflict:
        return not_undone(request, match)
    except SetupChange.DoesNotExist:
        raise Http404(_("There is no such change.")) from None
    except Unknown as unknown:
        match.refresh_from_db()
        error = said(rules.RulesError(NOT_PEOPLE, name=unknown.names[0]))
        return render_history(request, match, because(_("This cannot be undone: %(why)s"), error))
    except Refused as refused:
        match.refresh_from_db()
        return render_history(request, match, screen.refusal(refused.error))
    if on_match:
        return said_page(request, match, str(undone.pk)) if undone else saved(request, match)
    return redirect("history", public_id=match.public_id)


def posted_version(request):
    """The version an Undo was drawn at (-1 when missing: nothing can be undone unseen)."""
    version = request.POST.get("version", "")
    return int(version) if version.isdigit() else -1


def said_page(request, match, token):
    """After a change on the match page: the match saying it back (games/said.py), its body
    for htmx, else a redirect naming it."""
    if request.htmx:
        return render_match(request, match, said=token)
    return redirect(said_url(reverse("match", args=[match.public_id]), token))


def not_undone(request, match, why=None):
    """An Undo drawn before another change: refused, the match as it stands now saying why."""
    match.refresh_from_db()
    return render_match(request, match, 409, said=said_back(why or _(NOT_UNDONE)))


@require_POST
def round_undo(request, public_id, pk):
    """Undo what was just done to a round (games/said.py undo_round), if nothing changed since
    the line offering it was drawn."""
    match = get_match(public_id)
    event = RoundEvent.objects.select_related("round").filter(pk=pk, round__match=match).first()
    if event is None:
        raise Http404(_("There is no such change."))
    try:
        undo_round(match, event, posted_version(request))
    except (Conflict, Round.DoesNotExist):
        return not_undone(request, match)
    except Refused as refused:
        return not_undone(request, match, screen.refusal(refused.error))
    return said_page(request, match, latest_round_token(match))


def numbered(match, rounds):
    """Each stored round with its number on the scoreboard (a deleted one: the round it
    followed), its events, each with what it changed, and for a deleted round what Restore
    brings back (its breakdown where it stood, or why it cannot come back)."""
    rounds = list(rounds)
    restored = screen.as_restored(
        match.document([]), [(r.number, r.entry, r.deleted is not None) for r in rounds]
    )
    position, shown = 0, []
    for stored in rounds:
        position += stored.deleted is None
        lines, refusal = restored.get(stored.number, ([], None))
        shown.append(
            {
                "round": stored,
                "position": position,
                "events": described(match, stored.events.all()),
                "restores": lines,
                "unrestorable": refusal,
            }
        )
    return shown


def described(match, events):
    """(event, lines): each change to a round with what it changed from the entry before it."""
    before, lines = None, []
    for event in events:
        changed = event.action == RoundEvent.EDITED and before is not None
        lines.append(
            (event, changes(match.rules, match.players, before, event.entry) if changed else [])
        )
        before = event.entry
    return lines


@require_POST
def round_restore(request, public_id, number):
    """Put a deleted round back in its place, if the match still adds up with it."""
    match = get_match(public_id)
    try:
        match.restore_round(number)
    except Round.DoesNotExist:
        raise Http404(_("There is no such round.")) from None
    except Refused as refused:
        return render_history(request, match, screen.cannot_restore(refused.error))
    return said_page(request, match, latest_round_token(match))


@require_POST
def round_preview(request, public_id):
    """What the round being typed would score, before it is saved (htmx, while typing)."""
    match = get_match(public_id)
    form = RoundForm(match.rules, request.POST)
    drawn = memo.board(match)
    lines, refused = screen.preview_lines(drawn, form.entry)
    error = screen.in_words(refused, drawn)
    return render(request, "games/partials/preview.html", {"lines": lines, "error": error})


@require_POST
def match_close(request, public_id):
    """Close the match by hand (or reopen it): winners and settlement from the totals now."""
    match = get_match(public_id)
    match.set_closed(request.POST.get("closed") != "0")
    return redirect("match", public_id=match.public_id)


@require_GET
def share(request, public_id):
    """Two QR codes: the score link (enter rounds) and the watch link (read-only)."""
    match = get_match(public_id)
    links = [
        (
            _("Score link"),
            _("Anyone with this link can enter and change rounds."),
            "match",
            match.public_id,
        ),
        (
            _("Watch link"),
            _("Read-only: the scoreboard, never a form."),
            "watch",
            match.watch_id,
        ),
    ]
    back = (reverse("match", args=[match.public_id]), _("Back to the match"))
    replace = reverse("share_replace", args=[match.public_id])
    return share_page(request, _("Share this match"), links, back, replace)


@require_POST
def share_replace(request, public_id):
    """A new score link for the match (the old one posted in the wrong chat, say): the old one
    opens nothing from now on; this phone goes on with the new one."""
    return replaced(request, get_match(public_id), "share", "matches")
