"""The match screen drawn on the phone, offline, by the same engine and the same templates.

This module runs in the browser under Pyodide (static/offline/worker.js loads it with the engine,
games/rules/, unchanged, and the part of Django that draws templates). The screen's context,
the next round's number and check and the preview are games/screen.py's, which the server's
views call too; this module only gives them a match document instead of stored rounds: the
rounds the server had when the phone last saw it, plus the rounds entered on the phone since.

Every function takes and returns JSON text, so that nothing but strings crosses into JavaScript.
"""

import json
import sys
import types
from datetime import date
from pathlib import Path

ready = False


def setup(root):
    """Configure Django for drawing templates only: no database, no models, no middleware.

    root holds the bundles: games/ (the engine, the template tags, the chart), scorekeeper/
    (number formats), templates/ and locale/.
    """
    global ready
    if ready:
        return
    root = Path(root)
    # games.urls names the views the templates link to, and games/templatetags/tables.py
    # imports the models; on the phone none of them is ever called.
    stubbed = (
        "games.views",
        "games.records",
        "games.offline",
        "games.tables",
        "games.models",
        "games.seats",
        "games.season",
        "games.signing",
    )
    for name in stubbed:
        stub = types.ModuleType(name)
        stub.__getattr__ = lambda attribute: _nothing
        sys.modules[name] = stub
    from django.conf import settings

    from scorekeeper.languages import LANGUAGES

    settings.configure(
        DEBUG=False,
        USE_I18N=True,
        USE_TZ=True,
        TIME_ZONE="UTC",
        LANGUAGE_CODE="en",
        LANGUAGES=LANGUAGES,
        LOCALE_PATHS=[str(root / "locale")],
        FORMAT_MODULE_PATH=["scorekeeper.formats"],
        INSTALLED_APPS=[],
        ROOT_URLCONF="games.urls",
        STATIC_URL="/static/",
        TEMPLATES=[
            {
                "BACKEND": "django.template.backends.django.DjangoTemplates",
                "DIRS": [str(root / "templates")],
                "OPTIONS": {"libraries": template_libraries(root)},
            }
        ],
    )
    from django.apps import apps

    apps.populate([])  # django.setup() without its logging (which would import email)
    ready = True


def template_libraries(root):
    """The app's template tag libraries, found as Django finds an app's: games/templatetags/."""
    folder = Path(root) / "games" / "templatetags"
    names = sorted(path.stem for path in folder.glob("*.py") if path.stem != "__init__")
    return {name: f"games.templatetags.{name}" for name in names}


def _nothing(*args, **kwargs):
    raise RuntimeError("a server view called on the phone")


class Match:
    """What the templates read of a match: its links, version and whether it is closed."""

    def __init__(self, state, closed):
        self.public_id = state["public_id"]
        self.watch_id = None  # a scoring phone never draws the watch link
        self.version = state["version"]
        self.closed = closed
        self.rematch_of_id = None  # the series block needs the server
        # the day it started, on the result card (a state kept before it was sent has none)
        self.day = date.fromisoformat(state["day"]) if state.get("day") else None


def match_now(request):
    """(document, numbers, last, deleted) of the match as the phone has it: the rounds the
    server had with the phone's changes applied in the order they were made, among the rounds
    entered on the phone, numbered as the server will number them (a change puts its entry in
    place of round number, a delete takes it out, a restore puts a deleted round back in its
    place, a close closes or reopens the match, a join seats a player for the next round, a
    leave lets one go after the last; each change came after the first `after` rounds entered
    here); and the rounds deleted ({"number", "entry"}; a base kept before the state listed
    the deleted rounds has none)."""
    from games import screen

    state, pending = request["state"], request.get("pending", [])
    changes = request.get("changes", [])
    now = {
        "document": dict(state["document"]),
        "rounds": dict(zip(state["numbers"], state["document"]["rounds"])),
        "deleted": {gone["number"]: gone["entry"] for gone in state.get("deleted", [])},
    }
    numbers = screen.next_numbers(state["last"], len(pending))
    for k in range(len(pending) + 1):
        for change in changes:
            if change.get("after", 0) == k:
                apply(now, change)
        if k < len(pending):
            now["rounds"][numbers[k]] = pending[k]
    document = {**now["document"], "rounds": list(now["rounds"].values())}
    gone = [{"number": number, "entry": entry} for number, entry in sorted(now["deleted"].items())]
    return document, list(now["rounds"]), max([state["last"], *numbers]), gone


def apply(now, change):
    """One change made on the phone, applied to the match as it has it (match_now's now:
    {"document", "rounds": {number: entry}, "deleted": {number: entry}})."""
    from games import rules, screen

    rounds, deleted, kind = now["rounds"], now["deleted"], change["kind"]
    if kind == "close":
        now["document"]["closed"] = bool(change["closed"])
    elif kind == "delete" and change["number"] in rounds:  # (gone meanwhile: asked)
        deleted[change["number"]] = rounds.pop(change["number"])
    elif kind == "restore":
        now["rounds"] = restored(rounds, deleted, change["number"])
    elif kind in ("join", "leave"):
        document = {**now["document"], "rounds": list(rounds.values())}
        if kind == "join":
            document = screen.with_joiner(
                document, change["name"], change["seat"], change["late_start"]
            )
            game = rules.get_game(document["game"])
            now["deleted"] = {n: game.with_seat(e, change["seat"]) for n, e in deleted.items()}
        else:
            document = screen.with_leaver(document, change["name"])
        now["rounds"] = dict(zip(rounds, document.pop("rounds")))
        now["document"] = document
    elif change["number"] in rounds:
        rounds[change["number"]] = change["entry"]


def restored(rounds, deleted, number):
    """rounds ({number: entry}) with deleted round number back in its place (taken out of
    deleted), as they are if it is not deleted (a second tap on its button)."""
    if number not in deleted:
        return rounds
    return dict(sorted({**rounds, number: deleted.pop(number)}.items()))


def board(request):
    """The board of the match as the phone has it (match_now)."""
    from games import screen

    return screen.board(*match_now(request))


def context(request, entry=None, error=None, restore_error=None):
    """The match screen's context for a scoring phone (games.screen.context), with why a
    deleted round cannot be restored."""
    from games import screen

    drawn = board(request)
    values = screen.context(
        drawn,
        Match(request["state"], drawn["closed"]),
        True,
        bool(request.get("show_all")),
        entry=entry,
        error=error,
        entry_key=request["entry_key"],
    )
    values.update(
        series=None,  # other matches need the server
        on_phone=True,  # no offline-state block: the phone keeps its own
        restore_error=restore_error,
        csrf_token=request["csrf"],
        LANGUAGE_CODE=request.get("language", "en"),
    )
    return values


def render(template, values, language):
    from django.template.loader import render_to_string
    from django.utils import translation

    with translation.override(language):
        return render_to_string(template, values)


def body(request_text):
    """The match body (games/partials/match_body.html) for the rounds given."""
    request = json.loads(request_text)
    html = render("games/partials/match_body.html", context(request), request.get("language", "en"))
    return json.dumps({"html": html})


def form_lists(fields):
    """[[name, value], ...] as posted, grouped the way Django's QueryDict.lists() gives them."""
    form = {}
    for name, value in fields:
        form.setdefault(name, []).append(value)
    return form


def read(request):
    """(board, reader, language): the board the typed round follows, what reads the typed form
    into a round entry for a table, and the reader's language."""
    drawn = board(request)
    typed = form_lists(request["form"])
    return (
        drawn,
        lambda table: drawn["game"].entry_from_form(typed, table),
        request.get("language", "en"),
    )


def in_words(refusal, drawn, language):
    """games.screen.in_words in the reader's language."""
    from django.utils import translation

    from games import screen

    with translation.override(language):
        return screen.in_words(refusal, drawn)


def save(request_text):
    """Enter a round on the phone (games.screen.next_round, as a save on the server checks it):
    {"entry", "html"} once it is accepted, else {"error", "html"} with the form refilled as
    typed (the server's answer to a refused save)."""
    from games import screen

    request = json.loads(request_text)
    drawn, reader, language = read(request)
    entry, refusal, _table = screen.next_round(drawn, reader)
    if refusal:
        error = in_words(refusal, drawn, language)
        html = render("games/partials/match_body.html", context(request, entry, error), language)
        return json.dumps({"error": error, "html": html})
    request["pending"] = [*request.get("pending", []), entry]
    request["entry_key"] = request["next_key"]  # the next round's form
    values = context(request)
    values["appended"] = {"number": values["numbers"][-1]}  # its Undo (partials/undo.html)
    html = render("games/partials/match_body.html", values, language)
    players = request["state"]["document"]["players"]
    lines = said(values["game"], players, entry, values["breakdown"], language)
    return json.dumps({"entry": entry, "html": html, "lines": lines})


def preview(request_text):
    """games.views.round_preview: what the round being typed would score."""
    from games import screen

    request = json.loads(request_text)
    drawn, reader, language = read(request)
    lines, refusal = screen.preview_lines(drawn, reader)
    context = {"lines": lines, "error": in_words(refusal, drawn, language)}
    return json.dumps({"html": render("games/partials/preview.html", context, language)})


def round_form(request_text):
    """games.views.round_edit's form on the phone: round number as the phone has it."""
    request = json.loads(request_text)
    document, numbers, _last, _deleted = match_now(request)
    return json.dumps({"html": draw_round(request, document, numbers, request["number"])})


def draw_round(request, document, numbers, number, entry=None, error=None):
    """The form of round number (games/partials/offline_round.html), refilled with entry (else
    the round as it stands) and why it was refused."""
    from games import screen

    position = numbers.index(number)
    before = screen.table_before(document, position)
    game = game_of(document)
    entry = document["rounds"][position] if entry is None else entry
    values = {
        "match": Match(request["state"], bool(document["closed"])),
        "game": game,
        "table": before,
        "entry": entry,
        "error": error,
        "round_number": position + 1,
        "stored_round": {"number": number},
        "extra": game.entry_context(before, entry),
        "csrf_token": request["csrf"],
    }
    return render("games/partials/offline_round.html", values, request.get("language", "en"))


def game_of(document):
    """The game module that scores the document, with its options."""
    from games import rules

    return rules.start({**document, "rounds": []})[0]


def change(request_text):
    """A change to the match on the phone (games.views.round_edit, round_delete, round_restore,
    match_close), checked by the engine as the server checks it: {"change", "position" (its
    round's place), "lines" (what a changed round scores now), "html" (the match body)} once it
    is accepted, else {"error", "html" (the round's form refilled, or for a restore the match
    body, with why)}."""
    request = json.loads(request_text)
    language = request.get("language", "en")
    document, numbers, _last, _deleted = match_now(request)
    change = dict(request["change"])
    after, position = applied(request, document, numbers, change)
    why = refused(after, change["kind"], language)
    if why and change["kind"] == "restore":
        values = context(request, restore_error=why)
        html = render("games/partials/match_body.html", values, language)
        return json.dumps({"error": str(why), "html": html})
    if why:
        html = draw_round(request, document, numbers, change["number"], change.get("entry"), why)
        return json.dumps({"error": str(why), "html": html})
    lines = lines_of(after, position, language) if "entry" in change else ""
    request["changes"] = [*request.get("changes", []), change]
    html = render("games/partials/match_body.html", context(request), language)
    place = None if position is None else position + 1
    return json.dumps({"change": change, "position": place, "lines": lines, "html": html})


def applied(request, document, numbers, change):
    """(document, position): the document with the change applied (a changed round's entry
    read from its form, as the server reads it, into change["entry"]) and its round's place."""
    from games import screen

    if change["kind"] == "close":
        return {**document, "closed": bool(change["closed"])}, None
    if change["kind"] == "restore":
        changes = [*request.get("changes", []), change]
        restored, numbers, _last, _deleted = match_now({**request, "changes": changes})
        return restored, numbers.index(change["number"])
    position = numbers.index(change["number"])
    rounds = list(document["rounds"])
    if change["kind"] == "delete":
        del rounds[position]
    else:
        before = screen.table_before(document, position)
        game = game_of(document)
        change["entry"] = game.entry_from_form(form_lists(change.pop("form")), before)
        rounds[position] = change["entry"]
    return {**document, "rounds": rounds}, position


def refused(document, kind, language):
    """Why the engine refuses the match after a change of this kind, as the server words it
    (games.screen), else None."""
    from django.utils import translation

    from games import rules, screen

    try:
        rules.score(document)
    except rules.RulesError as error:
        words = {"delete": screen.cannot_delete, "restore": screen.cannot_restore}
        with translation.override(language):
            return words.get(kind, screen.refusal)(error)
    return None


def seats(request_text):
    """Someone joins or leaves on the phone (games.seats's join and leave, with the same form,
    checks and words): {"html": the form's next step, or refilled with why it is refused
    (games/partials/offline_seats.html)}; once it is confirmed and the engine takes the match
    with it, {"change": {"kind", "name", "seat", "late_start"}, "said": it in one line, "html":
    the match body}."""
    from django.utils import translation

    from games import rules, screen

    request = json.loads(request_text)
    request.setdefault("pending", [])
    language = request.get("language", "en")
    drawn = board(request)
    values = {
        "match": Match(request["state"], drawn["closed"]),
        "game": drawn["game"],
        "kind": request["kind"],
        "csrf_token": request["csrf"],
    }
    with translation.override(language):
        try:
            change = (joining if request["kind"] == "join" else leaving)(request, drawn, values)
        except rules.RulesError as error:
            values["error"] = screen.refusal(error)
            if "form" in values:
                values["form"].add_error("name", values.pop("error"))
            change = None
    if change is None:
        return json.dumps({"html": render("games/partials/offline_seats.html", values, language)})
    return seated(request, change, language)


def joining(request, drawn, values):
    """The join posted (the form's next step drawn into values, None), checked as the server
    checks it: {"kind", "name", "seat", "late_start"} once confirmed; else a RulesError."""
    from django.utils.datastructures import MultiValueDict

    from games import rules, screen
    from games.forms import join_form

    posted = form_lists(request.get("form") or [])
    version, data = request["state"]["version"], MultiValueDict(posted) if posted else None
    form = join_form(drawn, version, request["entry_key"], data)
    values.update(form=form, drawn=drawn)
    step = form.step(posted)
    if step != "done":
        values["confirming"] = form.confirming() if step == "confirm" else None
        return None
    data = form.cleaned_data
    name = rules.clean_name(data["name"])
    screen.check_join(drawn, data["seat"])
    document = match_now(request)[0]
    rules.replay(screen.with_joiner(document, name, data["seat"], data["late_start"]))
    return {"kind": "join", "name": name, "seat": data["seat"], "late_start": data["late_start"]}


def leaving(request, drawn, values):
    """The leave posted (the list of who can leave drawn into values, None), checked as the
    server checks it: {"kind", "name"}; else a RulesError."""
    from games import rules, screen

    values.update(leavers=screen.leavers(drawn), entry_key=request["entry_key"])
    values["version"] = request["state"]["version"]
    posted = form_lists(request.get("form") or [])
    if "name" not in posted:
        return None
    name = screen.check_leave(drawn, posted["name"][0])
    played = rules.replay(screen.with_leaver(match_now(request)[0], name))
    refusal = screen.going_on(*played, name)
    if refusal is not None:
        raise refusal
    return {"kind": "leave", "name": name}


def seated(request, change, language):
    """The answer to a join or leave taken on the phone: the change, it said in one line, and
    the match body drawn with it (its Undo needs the server: partials/undo.html)."""
    from django.utils import translation

    from games.changes import seat_words
    from games.templatetags.scorekeeper import phrase

    request["changes"] = [*request.get("changes", []), {**change, "after": len(request["pending"])}]
    request["entry_key"] = request.get("next_key") or request["entry_key"] + "-next"  # the form's
    values = context(request)
    words = seat_words(values["table"], change["kind"], change["name"])
    values["said"] = {"words": words}
    html = render("games/partials/match_body.html", values, language)
    with translation.override(language):
        said = f"<li>{phrase(words)}</li>"  # as a question shows a round's lines (screen.js)
    return json.dumps({"change": change, "said": said, "html": html}, ensure_ascii=False)


def said(game, players, entry, breakdown, language):
    """What was typed for a round (its entry), then what it scores (its breakdown), as list
    items, the typed ones marked: one side of a question (static/offline/screen.js)."""
    from django.utils import translation

    from games.changes import typed
    from games.templatetags.scorekeeper import phrase

    with translation.override(language):
        items = [f'<li class="typed">{phrase(line)}</li>' for line in typed(game, players, entry)]
        return "".join([*items, *(f"<li>{phrase(line)}</li>" for line in breakdown)])


def lines_of(document, position, language):
    """What was typed for the round at position and what it scores (said)."""
    from games import screen

    game, table = screen.replayed(document)[:2]
    entry, breakdown = document["rounds"][position], game.breakdown(table, position)
    return said(game, document["players"], entry, breakdown, language)


def round_lines(request_text):
    """What was typed for round position (from 1) of the match as the server has it
    ({"state"}) and what it scores (said): the other phone's side of a question (send.js)."""
    request = json.loads(request_text)
    document, position = request["state"]["document"], request["position"] - 1
    return json.dumps({"html": lines_of(document, position, request["language"])})


def new_match(request_text):
    """games.views.new_match on the phone, with the same form (games.forms.NewMatchForm):
    {"match": the match document} once the form is valid, else {"html": the form refilled as
    typed, with why (games/partials/new_match_form.html, as the server draws it)}."""
    from django.utils import translation
    from django.utils.datastructures import MultiValueDict

    from games import rules
    from games.forms import NewMatchForm

    request = json.loads(request_text)
    game = rules.GAMES[request["game"]]
    with translation.override(request.get("language", "en")):
        form = NewMatchForm(game, MultiValueDict(form_lists(request["form"])))
        if form.is_valid():
            return json.dumps({"match": form.match}, ensure_ascii=False)
    values = {"game": game, "form": form, "csrf_token": request["csrf"]}
    html = render("games/partials/new_match_form.html", values, request.get("language", "en"))
    return json.dumps({"html": html})


def score(document_text):
    """rules.score on a match document: the result, or {"error": the engine's message}."""
    from games import rules

    try:
        return json.dumps(rules.score(json.loads(document_text)), ensure_ascii=False)
    except rules.RulesError as error:
        return json.dumps({"error": str(error)}, ensure_ascii=False)
