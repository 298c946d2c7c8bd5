"""Thin function views: the engine scores, the models store what was typed."""

from django.db import IntegrityError, transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import rules
from games.forms import NewMatchForm
from games.models import Match, Round

REMEMBERED_MATCHES = 30


def get_match(public_id):
    """The match behind a public link, or 404."""
    return get_object_or_404(Match, public_id=public_id)


def remember(request, match):
    """Put match first in this phone's list of matches (kept in its signed session cookie)."""
    ids = [match.public_id] + [i for i in request.session.get("matches", []) if i != match.public_id]
    request.session["matches"] = ids[:REMEMBERED_MATCHES]


def home(request):
    """Start a match, or go back to one this phone has opened."""
    ids = request.session.get("matches", [])
    by_id = {m.public_id: m for m in Match.objects.filter(public_id__in=ids)}
    matches = [by_id[i] for i in ids if i in by_id]
    return render(request, "games/home.html", {"games": rules.GAMES.values(), "matches": matches})


@require_http_methods(["GET", "POST"])
def new_match(request, slug):
    """Players in seating order and the game's options."""
    game = rules.GAMES.get(slug) or _not_found()
    form = NewMatchForm(game, request.POST or None)
    if request.method == "POST" and form.is_valid():
        match = Match.objects.create(game=game.slug, players=form.match["players"],
                                     options=form.match["options"])
        remember(request, match)
        return redirect("match", public_id=match.public_id)
    return render(request, "games/new_match.html", {"game": game, "form": form})


def _not_found():
    raise Http404(_("There is no such game."))


def match_page(request, public_id):
    """The scoreboard, the next round's entry form and the latest breakdown."""
    match = get_match(public_id)
    remember(request, match)
    return render_match(request, match)


def render_match(request, match, entry=None, error=None, status=200):
    """The match page, or just its body for an htmx request; entry and error refill the form."""
    context = scoreboard(match)
    context.update(entry=entry, error=error, form_url=_round_url(match),
                   extra=context["game"].entry_context(context["table"]))
    template = "games/partials/match_body.html" if request.htmx else "games/match.html"
    return render(request, template, context, status=200 if request.htmx else status)


def _round_url(match):
    return reverse("round_create", args=[match.public_id])


def scoreboard(match):
    """Everything the match screen draws, derived from the stored rounds by the engine."""
    stored = list(match.rounds.all())
    game, table, closed = rules.replay(match.document([r.entry for r in stored]))
    result = rules.outcome(game, table, closed)
    rows = [
        {"number": k + 1, "round": stored_round, "points": scored["points"],
         "totals": running}
        for k, (stored_round, scored, running) in enumerate(
            zip(stored, result["rounds"], running_totals(result["rounds"]))
        )
    ]
    latest = len(table.rounds) - 1
    return {
        "match": match, "game": game, "table": table, "result": result, "rows": rows,
        "leaders": set(game.leaders(table)), "status": game.status(table),
        "breakdown": game.breakdown(table, latest) if latest >= 0 else [],
        "latest": latest + 1,
        # A game may draw more of its result at the end (ranking points, the kid rule).
        "result_templates": [f"games/result/{game.slug}.html", "games/result/default.html"],
    }


def running_totals(scored_rounds):
    """The totals after each round."""
    totals = None
    for scored in scored_rounds:
        points = scored["points"]
        totals = points if totals is None else [t + p for t, p in zip(totals, points)]
        yield totals


@require_POST
def round_create(request, public_id):
    """Save the next round if the engine accepts the whole match with it."""
    match = get_match(public_id)
    stored = list(match.rounds.all())
    before = rules.replay(match.document([r.entry for r in stored]))[1]
    entry = match.rules.entry_from_form(dict(request.POST.lists()), before)
    error = check(match, [r.entry for r in stored] + [entry]) or append_round(match, stored, entry)
    if error:
        return render_match(request, match, entry=entry, error=error, status=422)
    if request.htmx:
        return render_match(request, match)
    return redirect("match", public_id=match.public_id)


def append_round(match, stored, entry):
    """Store entry after the stored rounds; a message if another phone got there first."""
    number = stored[-1].number + 1 if stored else 1
    try:
        with transaction.atomic():
            Round.objects.create(match=match, number=number, entry=entry)
    except IntegrityError:
        return _("round %(number)d was just entered from another phone") % {
            "number": len(stored) + 1}
    return None


def check(match, entries, closed=None):
    """The engine's message if the match with these entries breaks a rule, else None."""
    try:
        rules.score(match.document(entries, closed))
    except rules.RulesError as error:
        return error.render(_)
    return None


@require_http_methods(["GET", "POST"])
def round_edit(request, public_id, number):
    """Change a past round; everything after it is recomputed (or the change is refused)."""
    match = get_match(public_id)
    stored = list(match.rounds.all())
    position = _position(stored, number)
    before = rules.replay(match.document([r.entry for r in stored[:position]]))[1]
    entry, error = stored[position].entry, None
    if request.method == "POST":
        entry = match.rules.entry_from_form(dict(request.POST.lists()), before)
        entries = [r.entry for r in stored]
        entries[position] = entry
        error = check(match, entries)
        if error is None:
            Round.objects.filter(pk=stored[position].pk).update(entry=entry)
            return redirect("match", public_id=match.public_id)
    context = {"match": match, "game": match.rules, "table": before, "entry": entry,
               "error": error, "round_number": position + 1, "stored_round": stored[position],
               "extra": match.rules.entry_context(before)}
    return render(request, "games/round_edit.html", context, status=422 if error else 200)


@require_POST
def round_preview(request, public_id):
    """What the round being typed would score, before it is saved (htmx, while typing)."""
    match = get_match(public_id)
    entries = [r.entry for r in match.rounds.all()]
    game, table, _closed = rules.replay(match.document(entries))
    entry = game.entry_from_form(dict(request.POST.lists()), table)
    context = {"lines": [], "error": None}
    try:
        rules.play_round(game, table, entry)
        context["lines"] = game.breakdown(table, len(table.rounds) - 1)
    except rules.RulesError as error:
        context["error"] = error.render(_)
    return render(request, "games/partials/preview.html", context)


def _position(stored, number):
    for position, stored_round in enumerate(stored):
        if stored_round.number == number:
            return position
    raise Http404(_("There is no such round."))


@require_POST
def round_delete(request, public_id, number):
    """Delete a round unless the rounds after it would then break a rule."""
    match = get_match(public_id)
    stored = list(match.rounds.all())
    position = _position(stored, number)
    error = check(match, [r.entry for k, r in enumerate(stored) if k != position])
    if error:
        before = rules.replay(match.document([r.entry for r in stored[:position]]))[1]
        context = {"match": match, "game": match.rules, "entry": stored[position].entry,
                   "table": before, "extra": match.rules.entry_context(before),
                   "error": _("This round cannot be deleted: %(why)s") % {"why": error},
                   "round_number": position + 1, "stored_round": stored[position]}
        return render(request, "games/round_edit.html", context, status=422)
    stored[position].delete()
    return redirect("match", public_id=match.public_id)


@require_POST
def match_close(request, public_id):
    """Close the match by hand (or reopen it): winners and settlement from the totals now."""
    match = get_match(public_id)
    closing = request.POST.get("closed") != "0"
    if not closing or check(match, None, closed=True) is None:
        Match.objects.filter(pk=match.pk).update(closed=closing)
    return redirect("match", public_id=match.public_id)
