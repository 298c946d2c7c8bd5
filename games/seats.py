"""Players who come and go (the rule book's players.md), at the table: "Someone joins" and
"Someone leaves", read top to bottom in one file.

A join asks a name, a place in the seating order and where the player starts, then says the
figure before it is confirmed ("Eve starts at 37, the highest total."); a leave is one tap on
the player who goes, their total frozen. Each is one model method (Match.join, Match.leave)
under the match's write lock, carrying the version its form was drawn at and a random entry key
(the same form sent twice changes the match once); the match page then says it back in one line
with Undo (games/said.py, partials/undo.html).
"""

from django import forms
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import memo, screen
from games.drawn import new_entry_key
from games.forms import join_form
from games.links import get_match
from games.models import Conflict, Refused, Table, Unknown
from games.said import said_url
from games.views import holds_table_of, said_refused


def seats_change(match):
    """The match, if players may come and go in its game (else 404: its seats are fixed)."""
    if not match.rules.seats_change:
        raise Http404(_("In this game the players keep their seats for the whole match."))
    return match


@require_http_methods(["GET", "POST"])
def join(request, public_id):
    """Someone joins: a name, a seat and where they start; confirmed once the figure is said."""
    match = seats_change(get_match(public_id))
    drawn = memo.board(match)
    form = join_form(drawn, match.version, new_entry_key(), request.POST or None)
    step = form.step(request.POST)
    context = {"match": match, "game": match.rules, "form": form, "drawn": drawn}
    if step == "confirm":
        context["confirming"] = form.confirming()
    if step != "done":
        return render(request, "games/join.html", context, status=422 if form.errors else 200)
    data = form.cleaned_data
    try:
        change = match.join(
            data["name"], data["seat"], data["late_start"], data["entry_key"], data["version"]
        )
    except Conflict:
        return moved_on(request, match, data)
    except Refused as refused:
        why = screen.refusal(refused.error)
        form.add_error("name", why)
    except Unknown as unknown:
        context["unknown"] = unknown_words(request, match, unknown.names[0])
        why = _("%(name)s is not one of this table's people") % {"name": unknown.names[0]}
    else:
        return said_on_match(change)
    return said_refused(render(request, "games/join.html", context), why)


def moved_on(request, match, data):
    """Another phone changed the match since the join form was drawn: both sides shown (the
    start this phone's confirmation said, and the start now), to confirm again."""
    match.refresh_from_db()
    drawn = memo.board(match)
    fresh = {**{k: str(v) for k, v in data.items()}, "version": match.version}
    form = join_form(drawn, match.version, data["entry_key"], fresh)
    confirming = form.confirming() if form.is_valid() else None
    now = confirming and confirming["shown"]
    if confirming and data["shown"] and data["shown"] != str(now):
        moved = _(
            "The match was just changed from another phone: the start you saw, %(seen)s, is "
            "now %(now)s. Check it and confirm again."
        ) % {"seen": data["shown"], "now": now}
    else:
        moved = _("The match was just changed from another phone: check it and confirm again.")
    context = {
        "match": match,
        "game": match.rules,
        "form": form,
        "drawn": drawn,
        "confirming": confirming,
        "moved": moved,
    }
    return render(request, "games/join.html", context, status=409)


def unknown_words(request, match, name):
    """Why a name cannot join a table's match, and where the table's people are changed (its
    names page, when this phone holds the table's score link)."""
    table = Table.objects.only("public_id").get(pk=match.table_id)
    url = reverse("table_setup", args=[table.public_id])
    holding = holds_table_of(request, match.public_id)
    return {"name": name, "url": url if holding else None}


@require_http_methods(["GET", "POST"])
def leave(request, public_id):
    """Someone leaves: one tap on who goes, after the last round played; their total stays."""
    match = seats_change(get_match(public_id))
    drawn = memo.board(match)
    context = {"match": match, "game": match.rules, "error": None}
    if request.method == "POST":
        posted = LeaveForm(request.POST)
        if posted.is_valid():
            data = posted.cleaned_data
            try:
                change = match.leave(data["name"], data["entry_key"], data["version"])
            except Conflict:
                context["error"] = _(
                    "The match was just changed from another phone: here it is as it stands now. "
                    "You tapped %(name)s: tap who leaves again."
                ) % {"name": data["name"]}
            except Refused as refused:
                context["error"] = screen.refusal(refused.error)
            else:
                return said_on_match(change)
            match.refresh_from_db()
            drawn = memo.board(match)
        else:
            context["error"] = _("Tap the player who leaves.")
    context.update(leavers=screen.leavers(drawn), version=match.version, entry_key=new_entry_key())
    return said_refused(render(request, "games/leave.html", context), context["error"])


class LeaveForm(forms.Form):
    """Who leaves (the button tapped), the version the page was drawn at, the form's key."""

    name = forms.CharField(max_length=200)
    version = forms.IntegerField()
    entry_key = forms.CharField(max_length=40)


def said_on_match(change):
    """The match page, saying the join or leave back with Undo (games/said.py)."""
    return redirect(said_url(reverse("match", args=[change.match.public_id]), change.pk))
