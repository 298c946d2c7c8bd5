"""The match screen drawn on the phone, offline, by the same engine and the same templates.

This module runs in the browser under Pyodide (static/offline/worker.js loads it with the engine,
games/rules/, unchanged, and the part of Django that draws templates). It builds the context the
server's views build (games/views.py: match_context, scoreboard, compute_board, round_create,
round_preview) from a match document: the rounds the server had when the phone last saw it,
plus the rounds entered on the phone since. tests/test_offline.py checks that what it draws is
what the server draws.

Every function takes and returns JSON text, so that nothing but strings crosses into JavaScript.
"""

import json
import sys
import types
from pathlib import Path

ROWS_SHOWN = 30  # games.views.ROWS_SHOWN (tests/test_offline.py keeps them equal)
LANGUAGES = [
    ("en", "English"),
    ("zh-hans", "简体中文"),
    ("es", "Español"),
    ("fa", "فارسی"),
    ("mn", "Монгол"),
]  # scorekeeper.settings.LANGUAGES (checked by the same test)
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
    sys.modules["games.records"].series = lambda match: None  # other matches need the server

    from django.conf import settings

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
        CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}},
        TEMPLATES=[
            {
                "BACKEND": "django.template.backends.django.DjangoTemplates",
                "DIRS": [str(root / "templates")],
                "OPTIONS": {
                    "libraries": {
                        "scorekeeper": "games.templatetags.scorekeeper",
                        "records": "games.templatetags.records",
                        "least_score": "games.templatetags.least_score",
                        "offline": "games.templatetags.offline",
                        "kept": "games.templatetags.kept",
                    }
                },
            }
        ],
    )
    from django.apps import apps

    apps.populate([])  # django.setup() without its logging (which would import email)
    ready = True


def _nothing(*args, **kwargs):
    raise RuntimeError("a server view called on the phone")


class Match:
    """What the templates read of a match: its links, version and whether it is closed."""

    def __init__(self, state):
        self.public_id = state["public_id"]
        # Only a key of the template fragment cache, which is off on the phone.
        self.watch_id = "phone"
        self.version = state["version"]
        self.closed = bool(state["document"].get("closed"))
        self.rematch_of_id = None  # the series block needs the server
        self.pk = None
        self.drawn_on_phone = True  # no offline-state block: the phone keeps its own


def document(state, pending):
    """The match document: the rounds the server had, then the rounds entered on the phone."""
    return {**state["document"], "rounds": [*state["document"]["rounds"], *pending]}


def compute_board(state, pending):
    """games.views.compute_board, on a match document instead of stored rounds."""
    from games import rules
    from games.board import drawn_board

    game, table, closed = rules.replay(document(state, pending))
    numbers = list(state["numbers"])
    after = max(numbers, default=0)
    numbers += range(after + 1, after + 1 + len(pending))  # what the server will number them
    return drawn_board(numbers, game, table, closed), game


def context(request, entry=None, error=None):
    """games.views.match_context for a scoring phone."""
    from django.urls import reverse

    state, pending = request["state"], request.get("pending", [])
    match = Match(state)
    drawn, game = compute_board(state, pending)
    show_all = bool(request.get("show_all"))
    shown = drawn["rows"] if show_all else drawn["rows"][-ROWS_SHOWN:]
    values = {
        "match": match,
        "can_score": True,
        "game": game,
        **drawn,
        "shown_rows": shown,
        "hidden_rows": len(drawn["rows"]) - len(shown),
        "show_all": show_all,
        "rounds_url": reverse("round_create", args=[match.public_id]),
    }
    values.update(
        entry=entry,
        error=error,
        entry_key=request["entry_key"],
        extra=game.entry_context(drawn["table"], entry),
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


def next_entry(request):
    """games.views.round_create and next_round_error up to the save: the typed form as a round
    entry, the engine's message if it cannot be the next round (else None), and the game and
    table with the round played when it can."""
    from django.utils import translation
    from django.utils.translation import gettext as _

    from games import rules
    from games.templatetags.scorekeeper import said

    game, table, closed = rules.replay(document(request["state"], request.get("pending", [])))
    entry = game.entry_from_form(form_lists(request["form"]), table)
    error = None
    with translation.override(request.get("language", "en")):
        if closed:
            error = _("The match is closed: reopen it to add a round.")
        else:
            try:
                rules.play_round(game, table, entry)
            except rules.RulesError as refused:
                error = said(refused)
    return entry, error, game, table


def save(request_text):
    """Enter a round on the phone: {"entry", "html"} once it is accepted, else {"error", "html"}
    with the form refilled as typed (the server's answer to a refused save)."""
    request = json.loads(request_text)
    entry, error, _game, _table = next_entry(request)
    language = request.get("language", "en")
    if error:
        html = render("games/partials/match_body.html", context(request, entry, error), language)
        return json.dumps({"error": error, "html": html})
    request["pending"] = [*request.get("pending", []), entry]
    request["entry_key"] = request["next_key"]  # the next round's form
    html = render("games/partials/match_body.html", context(request), language)
    return json.dumps({"entry": entry, "html": html})


def preview(request_text):
    """games.views.round_preview: what the round being typed would score."""
    request = json.loads(request_text)
    entry, error, game, table = next_entry(request)
    lines = [] if error else game.breakdown(table, len(table.rounds) - 1)
    html = render(
        "games/partials/preview.html",
        {"lines": lines, "error": error},
        request.get("language", "en"),
    )
    return json.dumps({"html": html})


def score(document_text):
    """rules.score on a match document: the result, or {"error": the engine's message}."""
    from games import rules

    try:
        return json.dumps(rules.score(json.loads(document_text)), ensure_ascii=False)
    except rules.RulesError as error:
        return json.dumps({"error": str(error)}, ensure_ascii=False)
