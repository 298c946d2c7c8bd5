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
    # games.urls names the views the templates link to; on the phone they are never called.
    for name in ("games.views", "games.records", "games.offline"):
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

    def __init__(self, state):
        self.public_id = state["public_id"]
        self.watch_id = None  # a scoring phone never draws the watch link
        self.version = state["version"]
        self.closed = bool(state["document"].get("closed"))
        self.rematch_of_id = None  # the series block needs the server


def board(state, pending):
    """The board of the rounds the server had, then the rounds entered on the phone, numbered
    as the server will number them."""
    from games import screen

    document = {**state["document"], "rounds": [*state["document"]["rounds"], *pending]}
    numbers = [*state["numbers"], *screen.next_numbers(state["last"], len(pending))]
    return screen.board(document, numbers, max([state["last"], *numbers]))


def context(request, entry=None, error=None):
    """The match screen's context for a scoring phone (games.screen.context)."""
    from games import screen

    drawn = board(request["state"], request.get("pending", []))
    values = screen.context(
        drawn,
        Match(request["state"]),
        True,
        bool(request.get("show_all")),
        entry=entry,
        error=error,
        entry_key=request["entry_key"],
    )
    values.update(
        series=None,  # other matches need the server
        on_phone=True,  # no offline-state block: the phone keeps its own
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
    drawn = board(request["state"], request.get("pending", []))
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
    html = render("games/partials/match_body.html", context(request), language)
    return json.dumps({"entry": entry, "html": html})


def preview(request_text):
    """games.views.round_preview: what the round being typed would score."""
    from games import screen

    request = json.loads(request_text)
    drawn, reader, language = read(request)
    lines, refusal = screen.preview_lines(drawn, reader)
    context = {"lines": lines, "error": in_words(refusal, drawn, language)}
    return json.dumps({"html": render("games/partials/preview.html", context, language)})


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
