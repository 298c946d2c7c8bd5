"""Thin function views: the engine scores, the models store what was typed.

A match has two links: the score link (/m/<public_id>/) for phones that enter rounds and the
watch link (/w/<watch_id>/) that only reads. Every change bumps the match's version, which the
live check compares and which makes a save conditional on what the phone last saw.
"""

import hashlib
import pickle
import re
import secrets
import threading

import cachetools
import segno
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.http import Http404, HttpResponse
from django.middleware.csrf import CSRF_TOKEN_LENGTH, get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import records, rules
from games.board import drawn_board
from games.changes import changes
from games.forms import NewMatchForm
from games.links import get_match, on_this_phone, remember
from games.models import Conflict, Match, RoundEvent
from games.templatetags.scorekeeper import because, said
from scorekeeper.middleware import DrawnPage

DRAWN_SECONDS = 600  # how long a drawn page or live update is kept (boards: see BOARDS)
ROWS_SHOWN = 30  # the scoreboard's latest rounds; "show all" draws every one
CSRF_SLOT, KEY_SLOT = "csrf-slot-7Yq2", "entry-key-slot-7Yq2"  # filled in per phone
ENTRY_KEY_LENGTH = 40
# The board of each match this worker drew last, with its version, kept as it is (the cache
# would copy it in and out): a board never changes once drawn, a save plays its round on a fork
# of the table. One per match, its latest version: phones ask for nothing else, and fewer
# objects kept make the garbage collector's passes shorter. Weighed in rounds, which a board's
# memory grows with: 10,000 are about 50 MB (Gongzhu's 5 KB a round).
BOARDS = cachetools.LRUCache(maxsize=10_000, getsizeof=lambda kept: 1 + len(kept[1]["rows"]))
BOARDS_LOCK = threading.Lock()
# Each page and live update drawn for a match version, kept as it is (the cache would unpickle
# it for every phone), weighed in bytes: 32 MB at most per worker, none past DRAWN_SECONDS.
DRAWN = cachetools.TTLCache(maxsize=32 * 2**20, ttl=DRAWN_SECONDS, getsizeof=DrawnPage.size)
DRAWN_LOCK = threading.Lock()


@require_GET
def healthz(request):
    """200 while the database answers and takes writes, else 503 (for load balancers)."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            # A write that changes nothing: it fails when the database is read-only.
            cursor.execute(f"UPDATE {Match._meta.db_table} SET version = version WHERE id = 0")
    except DatabaseError:
        return HttpResponse("database unavailable", content_type="text/plain", status=503)
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def home(request):
    """Start a match, or go back to one this phone has opened."""
    return render(
        request,
        "games/home.html",
        {"games": rules.GAMES.values(), "matches": on_this_phone(request)},
    )


@require_http_methods(["GET", "POST"])
def new_match(request, slug):
    """Players in seating order and the game's options."""
    game = rules.GAMES.get(slug)
    if game is None:
        raise Http404(_("There is no such game."))
    form = NewMatchForm(game, request.POST or None)
    if request.method == "POST" and form.is_valid():
        match = Match.objects.create(
            game=game.slug, players=form.match["players"], options=form.match["options"]
        )
        remember(request, match.public_id)
        return redirect("match", public_id=match.public_id)
    return render(request, "games/new_match.html", {"game": game, "form": form})


@require_GET
def match_page(request, public_id):
    """The scoreboard, the next round's entry form and the latest breakdown."""
    version = Match.version_of("public_id", public_id)
    if version is None:
        get_match(public_id)  # a watch link is refused, anything else is not found
    remember(request, public_id)
    return drawn_page(request, "public_id", public_id, version)


@require_GET
def watch_page(request, watch_id):
    """The same match, read-only: the scoreboard, never a form."""
    version = Match.version_of("watch_id", watch_id)
    if version is None:
        raise Http404(_("There is no such match."))
    remember(request, watch_id, key="watching")
    return drawn_page(request, "watch_id", watch_id, version)


def drawn_page(request, link, token, version):
    """The whole match page, drawn once per match version, language and rounds shown.

    Only the CSRF token and the form's entry key differ between phones: the page is drawn with
    placeholders for them, kept (compressed too), and each phone gets its own filled in. What
    the page may hold is decided by link alone: a watch token never yields a page drawn for a
    scorer.
    """
    key = drawing_key("page", link, token, version, request)
    page = kept_drawing(key)
    if page is None:
        match = Match.objects.get(**{link: token})
        context = match_context(request, match, link == "public_id", entry_key=KEY_SLOT)
        html = render_to_string("games/match.html", {**context, "csrf_token": CSRF_SLOT}, request)
        page = DrawnPage(html, {CSRF_SLOT: CSRF_TOKEN_LENGTH, KEY_SLOT: len(new_entry_key())})
        keep_drawing(key, page)
    return page.response(request, {CSRF_SLOT: get_token(request), KEY_SLOT: new_entry_key()})


def drawing_key(kind, link, token, version, request):
    """What a page or a live update (kind) drawn for a match version is kept under."""
    return (kind, link, token, version, get_language(), showing_all(request))


def kept_drawing(key):
    """The DrawnPage kept under key, or None."""
    with DRAWN_LOCK:
        return DRAWN.get(key)


def keep_drawing(key, page):
    """Keep page under key, as it is."""
    with DRAWN_LOCK:
        DRAWN[key] = page


def new_entry_key():
    """The random key of a drawn entry form: a save from it is stored once (16 characters)."""
    return secrets.token_urlsafe(12)


@require_GET
def live(request, watch_id):
    """A watching phone's live check: never anything drawn for a scorer."""
    return live_news(request, "watch_id", watch_id)


@require_GET
def score_live(request, public_id):
    """A scoring phone's live check: the scoreboard with its round links."""
    version = Match.version_of("public_id", public_id)
    if version is None:
        get_match(public_id)  # a watch link is refused, anything else is not found
    return live_news(request, "public_id", public_id, version)


# Which link each live check is asked with: with nothing new, scorekeeper.middleware.live_check
# answers it before the rest of the middleware runs.
live.live_link, score_live.live_link = "watch_id", "public_id"


def live_news(request, link, token, version=None):
    """204 while the match is at the version the phone has, else the new scoreboard.

    Every other phone at the table asks for the same new scoreboard after a change: it is
    drawn once per version, language, rounds shown and link (never a scorer's for a watch
    link), and kept compressed.
    """
    if version is None:
        version = Match.version_of(link, token)
    if version is None:
        raise Http404(_("There is no such match."))
    if request.GET.get("v", "") == str(version):
        return HttpResponse(status=204)
    page = kept_drawing(drawing_key("live", link, token, version, request))
    if page is None:
        match = Match.objects.get(**{link: token})
        context = scoreboard(match, link == "public_id", show_all=showing_all(request))
        page = DrawnPage(render_to_string("games/partials/live.html", context, request))
        drawn_for = drawing_key("live", link, token, match.version, request)  # the version drawn
        keep_drawing(drawn_for, page)
    return page.response(request, {})


def render_match(request, match, entry=None, error=None, status=200, entry_key=None, change=None):
    """The match page, or just its body for an htmx request; entry and error refill the form,
    change offers to put the entry in place of a stored round."""
    context = match_context(request, match, True, entry, error, entry_key)
    context["change"] = change
    template = "games/partials/match_body.html" if request.htmx else "games/match.html"
    return render(request, template, context, status=200 if request.htmx else status)


def match_context(request, match, can_score, entry=None, error=None, entry_key=None):
    """The match screen's context: the scoreboard, and the entry form refilled from entry."""
    context = scoreboard(match, can_score, show_all=showing_all(request))
    extra = match.rules.entry_context(context["table"], entry)
    context.update(
        entry=entry,
        error=error,
        entry_key=entry_key or new_entry_key(),
        extra=extra,
        empty_form=empty_form_key(extra),
    )
    return context


def empty_form_key(extra):
    """What an empty entry form is drawn from, as a short key: the next round's form is most
    often the last one's, and is then not drawn again."""
    return hashlib.blake2b(pickle.dumps(extra), digest_size=16).hexdigest()


def scoreboard(match, can_score=True, show_all=False):
    """Everything the match screen draws, derived from the stored rounds by the engine."""
    drawn = board(match)
    shown = drawn["rows"] if show_all else drawn["rows"][-ROWS_SHOWN:]
    return {
        "match": match,
        "can_score": can_score,
        "game": match.rules,
        **drawn,
        "shown_rows": shown,
        "hidden_rows": len(drawn["rows"]) - len(shown),
        "show_all": show_all,
        # round N is edited at rounds/N/ below this (one reverse() instead of one per row)
        "rounds_url": reverse("round_create", args=[match.public_id]),
    }


def showing_all(request):
    """Whether the phone asked for every round on the scoreboard (?rounds=all)."""
    return request.GET.get("rounds") == "all"


def board(match):
    """The engine's view of the match at its current version (kept: a version never changes)."""
    with BOARDS_LOCK:
        version, drawn = BOARDS.get(match.public_id, (None, None))
    if version != match.version:
        drawn = compute_board(match)
        keep_board(match.public_id, match.version, drawn)
    return drawn


def keep_board(public_id, version, drawn):
    """Keep drawn as the board of the match's version, unless a later version's is kept."""
    with BOARDS_LOCK:
        kept_version, _drawn = BOARDS.get(public_id, (-1, None))
        if version > kept_version:
            BOARDS[public_id] = (version, drawn)


def compute_board(match):
    """Replay the stored rounds and prepare what the screen draws of them (match is brought to
    the version they were read at)."""
    stored = match.rounds_now()
    game, table, closed = rules.replay(match.document([entry for _number, entry in stored]))
    return prepared(match, [number for number, _entry in stored], game, table, closed)


def prepared(match, numbers, game, table, closed):
    """What the screen draws of a table whose rounds are stored under numbers."""
    drawn = drawn_board(numbers, game, table, closed)
    # Only a rematch, or a finished match (which may have one), can belong to a series.
    in_series = match.rematch_of_id is not None or drawn["result"]["finished"]
    return {**drawn, "series": records.series(match) if in_series else None}


def check(match, entries):
    """The engine's message if the match with these entries breaks a rule, else None."""
    try:
        rules.score(match.document(entries))
    except rules.RulesError as error:
        if error.phrase.text == "the match is already finished":
            return _("this change would end the match before round %(number)s") % {
                "number": error.round
            }
        return said(error)
    return None


def seen_version(request):
    """The match version the posted form was drawn from (None when the form had none)."""
    posted = request.POST.get("version")
    if posted is None:
        return None
    if not re.fullmatch(r"[0-9]{1,12}", posted):
        raise Conflict
    return int(posted)


def conflict_message(request, match):
    """What the phone that lost a race is told (the form posts which round it was for)."""
    typed_round = request.POST.get("round", "")
    if re.fullmatch(r"[0-9]{1,6}", typed_round) and match.live_rounds().count() >= int(typed_round):
        return _("round %(number)s was just entered from another phone") % {"number": typed_round}
    return _("the match was just changed from another phone: check it and save again")


@require_POST
def round_create(request, public_id):
    """Save the next round if the engine accepts the whole match with it."""
    match = get_match(public_id)
    key = request.POST.get("entry_key", "")[:ENTRY_KEY_LENGTH]
    drawn = board(match)
    table = drawn["table"].fork()  # the new round is played on it, the board stays as it is
    entry = match.rules.entry_from_form(dict(request.POST.lists()), table)
    error = next_round_error(match, table, entry)
    if error is None:
        try:
            number = match.append_round(entry, key, seen_version(request))
        except (Conflict, IntegrityError):
            error = conflict_message(request, match)
        except DatabaseError:
            error = _(
                "Not saved: the server could not write it just now (its database is "
                "busy, full or read-only). What you typed is still here: try again."
            )
        else:
            played_on(request, match, drawn, table, number)
            return saved(request, match)
    # Refused: a form whose entry is stored already (its first answer was lost, or its twin
    # posted at the same time landed first) is answered as a retry, not with the refusal.
    if earlier := match.saved_entry(key):
        return retried(request, match, earlier, key)
    match.refresh_from_db()
    return render_match(request, match, entry=entry, error=error, status=422, entry_key=key)


def played_on(request, match, drawn, table, number):
    """Keep the board of the version a save made, from the table its round (stored as number)
    was played on, and bring match to that version; the answer tells the phone's offline state
    just that round.

    A save from a form that names its version is stored only while the match is still at it,
    the version the board was drawn for: the new version holds exactly the board's rounds and
    the new one, and the match is not replayed for it. (Without a version the board is drawn
    from the stored rounds, as for any other change.)
    """
    seen = seen_version(request)
    if seen is None or seen != match.version:
        match.refresh_from_db()  # the version the save made, and any change before it
        return
    numbers = [row["number"] for row in drawn["rows"]] + [number]
    made = prepared(match, numbers, match.rules, table, match.closed)
    keep_board(match.public_id, seen + 1, made)
    match.version = seen + 1
    match.appended = {"after": seen, "round": table.entries[-1], "number": number}  # for the phone


def retried(request, match, earlier, key):
    """A save from a form whose entry is already stored (its first answer was lost).

    The same entry again is simply saved. A changed one is never dropped in silence: the phone
    is told, keeps what it typed, and may put it in the stored round's place ("change").
    """
    match.refresh_from_db()  # it was read before its first copy landed, maybe
    stored = list(match.live_rounds())
    if earlier.deleted is not None:
        return saved(request, match)
    position = _position(stored, earlier.number)
    entry = match.rules.entry_from_form(
        dict(request.POST.lists()), _before(match, stored, position)
    )
    if entry == earlier.entry:
        return saved(request, match)
    if request.POST.get("change") == str(earlier.number):
        error = edit_round(request, match, stored, position, entry)
        match.refresh_from_db()  # moved on by the edit, or by the phone it lost to
        if error is None:
            return saved(request, match)
    else:
        error = _(
            "Round %(number)s was already saved from this form, with other values. What "
            "you typed now is below: tap “Change round %(number)s” to put it in its place."
        ) % {"number": position + 1}
    change = {"number": earlier.number, "position": position + 1}
    return render_match(
        request, match, entry=entry, error=error, status=422, entry_key=key, change=change
    )


def next_round_error(match, table, entry):
    """The engine's message if entry cannot be the next round of match, else None."""
    if match.closed:
        return _("The match is closed: reopen it to add a round.")
    try:
        rules.play_round(match.rules, table, entry)
    except rules.RulesError as error:
        return said(error)
    return None


def saved(request, match):
    """After a change (match as it now stands): the match body for htmx, a redirect for a plain
    form."""
    if request.htmx:
        return render_match(request, match)
    return redirect("match", public_id=match.public_id)


@require_http_methods(["GET", "POST"])
def round_edit(request, public_id, number):
    """Change a past round; everything after it is recomputed (or the change is refused)."""
    match = get_match(public_id)
    stored = list(match.live_rounds())
    position = _position(stored, number)
    entry, error = stored[position].entry, None
    before = _before(match, stored, position)
    if request.method == "POST":
        entry = match.rules.entry_from_form(dict(request.POST.lists()), before)
        error = edit_round(request, match, stored, position, entry)
        if error is None:
            return redirect("match", public_id=match.public_id)
    return render_round(request, match, stored, position, entry, error, before)


def edit_round(request, match, stored, position, entry):
    """Put entry in place of the round at position; the reason it cannot be, else None."""
    entries = [r.entry for r in stored]
    entries[position] = entry
    error = check(match, entries)
    if error is None:
        try:
            match.change_round(
                stored[position], seen_version(request), RoundEvent.EDITED, entry=entry
            )
        except Conflict:
            error = conflict_message(request, match)
    return error


def render_round(request, match, stored, position, entry, error, before=None):
    """The page of one past round: its entry form, its history, delete."""
    before = before or _before(match, stored, position)
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
    return render(request, "games/round_edit.html", context, status=422 if error else 200)


def _before(match, stored, position):
    """The table as it stood before the round at position."""
    return rules.replay(match.document([r.entry for r in stored[:position]]))[1]


def _position(stored, number):
    for position, stored_round in enumerate(stored):
        if stored_round.number == number:
            return position
    raise Http404(_("There is no such round."))


@require_POST
def round_delete(request, public_id, number):
    """Delete a round (it can be restored) unless the rounds after it would then break a rule."""
    match = get_match(public_id)
    stored = list(match.live_rounds())
    position = _position(stored, number)
    error = check(match, [r.entry for k, r in enumerate(stored) if k != position])
    if error is None:
        try:
            match.change_round(
                stored[position], seen_version(request), RoundEvent.DELETED, deleted=timezone.now()
            )
            return redirect("match", public_id=match.public_id)
        except Conflict:
            error = conflict_message(request, match)
    else:
        error = because(_("This round cannot be deleted: %(why)s"), error)
    return render_round(request, match, stored, position, stored[position].entry, error)


@require_GET
def history(request, public_id):
    """Every round with its history; deleted rounds can be restored from here."""
    return render_history(request, get_match(public_id))


def render_history(request, match, error=None):
    """The history page: every round (deleted ones too) with its events."""
    context = {
        "match": match,
        "game": match.rules,
        "error": error,
        "rounds": numbered(match, match.rounds.prefetch_related("events")),
    }
    return render(request, "games/history.html", context, status=422 if error else 200)


def numbered(match, rounds):
    """Each stored round with its number on the scoreboard (a deleted one: the round it
    followed) and its events, each with what it changed."""
    position, shown = 0, []
    for stored in rounds:
        position += stored.deleted is None
        shown.append(
            {"round": stored, "position": position, "events": described(match, stored.events.all())}
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
    deleted = match.rounds.filter(number=number, deleted__isnull=False).first()
    if deleted is None:
        raise Http404(_("There is no such round."))
    with_it = sorted([*match.live_rounds(), deleted], key=lambda r: r.number)
    error = check(match, [r.entry for r in with_it])
    if error is None:
        match.change_round(deleted, None, RoundEvent.RESTORED, deleted=None)
        return redirect("match", public_id=match.public_id)
    why = because(_("This round cannot be restored: %(why)s"), error)
    return render_history(request, match, why)


@require_POST
def round_preview(request, public_id):
    """What the round being typed would score, before it is saved (htmx, while typing)."""
    match = get_match(public_id)
    table = board(match)["table"].fork()  # the round is played on it to preview it
    entry = match.rules.entry_from_form(dict(request.POST.lists()), table)
    error = next_round_error(match, table, entry)
    lines = [] if error else match.rules.breakdown(table, len(table.rounds) - 1)
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
            _("Score"),
            _("Anyone with this link can enter and change rounds."),
            request.build_absolute_uri(reverse("match", args=[match.public_id])),
        ),
        (
            _("Watch"),
            _("Read-only: the scoreboard, never a form."),
            request.build_absolute_uri(reverse("watch", args=[match.watch_id])),
        ),
    ]
    codes = [
        (title, note, url, segno.make(url, error="m").svg_inline(scale=5, border=2))
        for title, note, url in links
    ]
    return render(
        request, "games/share.html", {"match": match, "game": match.rules, "codes": codes}
    )
