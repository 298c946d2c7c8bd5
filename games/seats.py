"""Players who come and go (the rule book's players.md), at the table: "Someone joins" and
"Someone leaves", read top to bottom in one file.

A join asks a name, a place in the seating order and where the player starts, then says the
figure before it is confirmed ("Eve starts at 37, the highest total."); a leave is one tap on
the player who goes, their total frozen. Each is one model method (Match.join, Match.leave)
under the match's write lock, carrying the version its form was drawn at and a random entry key
(the same form sent twice changes the match once); the match page then says it back in one line
with Undo (games/changes.py seat_said, partials/undo.html).
"""

from django import forms
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_http_methods

from games import memo, rules, screen
from games.drawn import new_entry_key
from games.links import get_match
from games.models import Conflict, Refused, Table, Unknown
from games.rules.base import Phrase
from games.templatetags.scorekeeper import isolate, phrase
from games.views import holds_table_of

# "Eve starts at 37, the highest total." under each late_start.
STARTS_AT = {
    "zero": gettext_noop("%(name)s starts at 0."),
    "lowest": gettext_noop("%(name)s starts at %(total)s, the lowest total."),
    "highest": gettext_noop("%(name)s starts at %(total)s, the highest total."),
    "average": gettext_noop("%(name)s starts at %(total)s, the average total."),
}


class JoinForm(forms.Form):
    """Who sits down, where in the seating order, and where they start; the version and entry
    key of the form."""

    name = forms.CharField(
        label=_("Name"),
        max_length=200,
        error_messages={"required": _("Type the name of the player who joins.")},
    )
    seat = forms.TypedChoiceField(label=_("Where they sit"), coerce=int)
    late_start = forms.ChoiceField(label=_("Where they start"), widget=forms.RadioSelect)
    version = forms.IntegerField(widget=forms.HiddenInput)
    # the start the confirmation said, to say beside the start now if another phone moved first
    shown = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)
    entry_key = forms.CharField(max_length=40, widget=forms.HiddenInput)

    def __init__(self, match, drawn, *args, **kwargs):
        super().__init__(*args, **kwargs)
        players, game = drawn["table"].players, drawn["game"]
        self.starts = {
            kind: total
            for kind, total in screen.join_starts(drawn).items()
            if allowed(game, match.options, len(players), kind)
        }
        self.fields["seat"].choices = [
            (seat, between(players[seat - 1], players[seat % len(players)]))
            for seat in range(1, len(players) + 1)
        ]
        self.fields["seat"].initial = len(players)
        self.fields["late_start"].choices = [
            (kind, start_label(game, kind, total)) for kind, total in self.starts.items()
        ]
        self.fields["late_start"].initial = next(iter(self.starts))
        self.fields["version"].initial = match.version
        self.fields["entry_key"].initial = new_entry_key()

    def confirming(self):
        """What the join does, said before it is confirmed: {"sentence": where the player
        starts, "name", "place": where they sit}."""
        data = self.cleaned_data
        name = rules.clean_name(data["name"])
        place = dict(self.fields["seat"].choices)[data["seat"]]
        words = Phrase(
            STARTS_AT[data["late_start"]], name=name, total=self.starts[data["late_start"]]
        )
        shown = self.starts[data["late_start"]]
        return {"sentence": phrase(words), "name": name, "place": place, "shown": shown}


def start_label(game, kind, total):
    """A choice of where the player starts, with its figure: "at the highest total: 37"."""
    choice = _(game.choice_label("late_start", kind))
    if kind == "zero":
        return choice
    return _("%(choice)s: %(total)s") % {"choice": choice, "total": total}


def allowed(game, options, count, kind):
    """Whether the match's options allow late_start kind (a zero-sum sheet: only zero)."""
    try:
        game.read_options({**options, "late_start": kind}, count)
    except rules.RulesError:
        return False
    return True


def between(left, right):
    """A place in the seating order, clockwise: between two players."""
    return _("between %(left)s and %(right)s") % {"left": isolate(left), "right": isolate(right)}


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
    form = JoinForm(match, drawn, request.POST or None)
    context = {"match": match, "game": match.rules, "form": form, "drawn": drawn}
    if request.method != "POST" or not form.is_valid():
        return render(request, "games/join.html", context, status=422 if form.errors else 200)
    data = form.cleaned_data
    if "change" in request.POST:  # back from the confirmation, as typed
        return render(request, "games/join.html", context)
    if "confirm" not in request.POST:
        return render(request, "games/join.html", {**context, "confirming": form.confirming()})
    try:
        change = match.join(
            data["name"], data["seat"], data["late_start"], data["entry_key"], data["version"]
        )
    except Conflict:
        return moved_on(request, match, data)
    except Refused as refused:
        form.add_error("name", screen.refusal(refused.error))
    except Unknown as unknown:
        context["unknown"] = unknown_words(request, match, unknown.names[0])
    else:
        return said_back(change)
    return render(request, "games/join.html", context, status=422)


def moved_on(request, match, data):
    """Another phone changed the match since the join form was drawn: both sides shown (the
    start this phone's confirmation said, and the start now), to confirm again."""
    match.refresh_from_db()
    drawn = memo.board(match)
    fresh = {**{k: str(v) for k, v in data.items()}, "version": match.version}
    form = JoinForm(match, drawn, fresh)
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
                    "Tap who leaves again."
                )
            except Refused as refused:
                context["error"] = screen.refusal(refused.error)
            else:
                return said_back(change)
            match.refresh_from_db()
            drawn = memo.board(match)
        else:
            context["error"] = _("Tap the player who leaves.")
    context.update(leavers=leavers(drawn), version=match.version, entry_key=new_entry_key())
    status = 200 if context["error"] is None else 422
    return render(request, "games/leave.html", context, status=status)


class LeaveForm(forms.Form):
    name = forms.CharField(max_length=200)
    version = forms.IntegerField()
    entry_key = forms.CharField(max_length=40)


def leavers(drawn):
    """(name, total) of each player who can leave now: at the table for the next round."""
    table = drawn["table"]
    number = len(table.rounds) + 1
    return [
        (name, table.totals[seat])
        for seat, name in enumerate(table.players)
        if table.joined[seat] < number and table.plays(seat, number)
    ]


def said_back(change):
    """The match page, saying the join or leave back with Undo (?said=the change)."""
    url = reverse("match", args=[change.match.public_id])
    return redirect(f"{url}?said={change.pk}")
