"""Scoring with no network: what a phone needs to go on scoring a match it has opened, or to
start one.

The phone runs the engine itself, games/rules/ unchanged, under Pyodide (a Python runtime in
WebAssembly, fetched by `make` from the npm registry into static/offline/pyodide/VERSION/ and
served by whitenoise). This module serves the rest, each piece under a name that changes with
its content, so a phone keeps it until it changes:

- two bundles (zip files unpacked into the runtime's file system): the part of Django that draws
  templates and forms, and the app's own part (the engine, the new-match form, the template
  tags, the templates, the compiled translations and static/offline/phone.py, which builds the
  screen's context on the phone);
- manifest.json: where the runtime and the current bundles are;
- /sw.js: the service worker (static/offline/sw.js), which keeps the app shell, the home,
  History and new-match pages, and each opened match on the phone (static/offline/listed.js
  lists on home and History the matches the phone keeps that a kept copy does not); where the
  browser has Background Sync, as a module that also sends what waits once the phone is online,
  with no page of the app open (static/offline/sw_sync.js);
- /offline/match/: the match page with no match in it, for a match started on the phone with
  no network (its score link made there): the phone draws the match into it;
- /m/<score link>/offline.json: the match as the server has it, which the phone's own rounds
  build on until they are sent.

A past round changed or deleted with no network, or the match closed or reopened, is the same:
its form drawn on the phone (games/partials/offline_round.html, the close form), checked by the
engine as games/views.py checks it, kept in order with the new rounds and posted to the same
URL when the network is back (static/offline/send.js: a change already made, say after a lost
answer, is not sent again; another phone's change to the same round meanwhile is asked about).
A deleted round is restored offline the same way: the match screen drawn on the phone lists the
rounds deleted (games/partials/offline_deleted.html), and the engine checks the match with the
round back in its place, as Match.restore_round does; sent, a restore is done once the server's
round is live again.

A match started with no network (static/offline/start.js) is checked on the phone by the
server's own new-match form (games.forms.NewMatchForm), and its score link is made there, as
the server makes its own; its state until the server has it is what offline.json would give, at
version 0. When the network is back the phone posts the same form with that link
(games.views.new_match): the server starts the match under it, and answers a resend of the same
start (same link, game, players and options) with the match it made, so the phone's rounds then
go as any others, each once by its entry key. A link another match has is refused (409), with
why in words, which the phone shows the scorer; the match stays on the phone.
"""

import hashlib
import io
import json
import os
import zipfile
from pathlib import Path

import django
from django.conf import settings
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

from games import rules
from games.links import get_match
from games.models import Match
from games.runtime import PYODIDE_VERSION, ROOT, runtime_ready

IMMUTABLE = "public, max-age=31536000, immutable"
LANGUAGES = ("en", "es", "fa", "mn", "zh_Hans")  # Django's own number formats for these


def app_files():
    """(name in the bundle, file) for the app's part: what phone.py imports and draws."""
    patterns = [
        "games/__init__.py",
        "games/urls.py",
        "games/screen.py",
        "games/forms.py",
        "games/chart.py",
        "games/cards.py",
        "games/changes.py",
        "games/ledger.py",
        "games/rules/*.py",
        "games/templatetags/*.py",
        "scorekeeper/__init__.py",
        "scorekeeper/languages.py",
        "scorekeeper/formats/**/*.py",
        "templates/games/**/*.html",
        "locale/*/LC_MESSAGES/django.mo",
    ]
    found = [
        (str(path.relative_to(ROOT)), path)
        for pattern in patterns
        for path in sorted(ROOT.glob(pattern))
    ]
    return [*found, ("phone.py", ROOT / "static" / "offline" / "phone.py")]


def django_files():
    """(name in the bundle, file) for the part of Django that draws templates and forms, and the
    two packages it imports (asgiref, sqlparse: Django's template tags import its http module,
    which imports its database layer).

    Django's Python code (and its forms' templates) without the contrib apps, tests, database
    backends, migrations and management commands, and of its locale folder only the app's
    languages: their number formats, and their catalogs (the new-match form's messages, such as
    a number too high, are Django's own; Django requires the English one in any case).
    """
    import asgiref
    import sqlparse

    site = Path(django.__file__).parent.parent
    skip = (
        "django/contrib/",
        "django/test/",
        "django/conf/app_template/",
        "django/conf/project_template/",
        "django/db/backends/mysql/",
        "django/db/backends/oracle/",
        "django/db/backends/postgresql/",
        "django/db/backends/sqlite3/",
        "django/db/migrations/",
        "django/core/management/commands/",
        "django/conf/locale/",
    )
    # The widgets' templates: the new-match form (games/forms.py) is drawn on the phone too.
    forms = site / "django" / "forms" / "templates"
    files = [(path.relative_to(site).as_posix(), path) for path in sorted(forms.rglob("*.html"))]
    for top in (Path(module.__file__).parent for module in (django, asgiref, sqlparse)):
        for path in sorted(top.rglob("*.py")):
            name = path.relative_to(site).as_posix()
            if not name.startswith(skip):
                files.append((name, path))
    locale = Path(django.__file__).parent / "conf" / "locale"
    files.append(("django/conf/locale/__init__.py", locale / "__init__.py"))
    for language in LANGUAGES:
        for part in ("__init__.py", "formats.py", "LC_MESSAGES/django.mo"):
            if (locale / language / part).is_file():
                files.append((f"django/conf/locale/{language}/{part}", locale / language / part))
    return files


class Bundle:
    """A zip of files, named by a hash of its content: built once per process (with DEBUG on,
    looked at again on every request and rebuilt when a file changed)."""

    def __init__(self, name, list_files):
        self.name, self.list_files = name, list_files
        self.stamp, self.data, self.digest = None, b"", ""

    def current(self):
        # The files change only with a new release (a restart), except while developing.
        if self.digest and not settings.DEBUG:
            return self
        files = self.list_files()
        stamp = tuple(
            (name, os.stat(path).st_mtime_ns, os.stat(path).st_size) for name, path in files
        )
        if stamp != self.stamp:
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
                for name, path in files:
                    # A fixed date: the same files make the same bytes, hence the same name.
                    info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
                    info.compress_type = zipfile.ZIP_DEFLATED
                    archive.writestr(info, path.read_bytes())
            self.data = buffer.getvalue()
            self.digest = hashlib.sha256(self.data).hexdigest()[:16]
            self.stamp = stamp
        return self

    @property
    def filename(self):
        return f"{self.name}-{self.digest}.zip"


BUNDLES = {"django": Bundle("django", django_files), "app": Bundle("app", app_files)}


def manifest():
    """Where the phone finds the runtime and the bundles, and the version naming them all."""
    bundles = [BUNDLES[name].current() for name in BUNDLES]
    names = [f"/offline/{bundle.filename}" for bundle in bundles]
    runtime = static(f"offline/pyodide/{PYODIDE_VERSION}/") if runtime_ready() else None
    version = hashlib.sha256(json.dumps([runtime, names]).encode()).hexdigest()[:16]
    return {"runtime": runtime, "bundles": names, "version": version}


@require_GET
def manifest_view(request):
    response = JsonResponse(manifest())
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def bundle_view(request, name, digest):
    bundle = BUNDLES.get(name)
    if bundle is None or bundle.current().digest != digest:
        raise Http404("no such bundle")
    response = HttpResponse(bundle.data, content_type="application/zip")
    response["Cache-Control"] = IMMUTABLE
    return response


def shell():
    """The static files of the match screen: the service worker keeps them on the phone."""
    names = sorted(
        path.name
        for pattern in ("*.js", "*.css", "*.svg", "*.json")
        for path in (ROOT / "static").glob(pattern)
    )
    names += ["django_htmx/htmx-2.min.js", "offline/offline.css"]
    # offline.js and the modules it imports, and worker.js (sw.js is served as /sw.js)
    names += sorted(
        f"offline/{path.name}"
        for path in (ROOT / "static" / "offline").glob("*.js")
        if path.name != "sw.js"
    )
    return [static(name) for name in names]


@require_GET
def service_worker(request):
    """static/offline/sw.js with the version of what it keeps (a new version replaces it); with
    ?module, as a module that imports static/offline/sw_sync.js too (Background Sync: offline.js
    registers it so where the browser has it)."""
    if WORKER["script"] is None or settings.DEBUG:
        WORKER["script"] = worker_script()
    script = WORKER["script"]
    if "module" in request.GET:
        script += f'\nimport "{static("offline/sw_sync.js")}";\n'
    response = HttpResponse(script, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


WORKER = {"script": None}  # drawn once per process (with DEBUG on, for every request)


def kept_pages():
    """The pages the service worker keeps for opening with no network: home, History (which
    list this phone's matches) and each game's new-match form."""
    games = [reverse("new_match", args=[slug]) for slug in rules.GAMES]
    return [reverse("home"), reverse("matches"), *games]


def worker_script():
    source = (ROOT / "static" / "offline" / "sw.js").read_text()
    stamp = hashlib.sha256()
    for url in shell():
        path = ROOT / "static" / url.removeprefix(settings.STATIC_URL)
        if path.is_file():  # htmx comes with django-htmx: a new one comes with a new version
            stamp.update(path.read_bytes())
    current = manifest()
    config = {
        "version": f"{current['version']}-{stamp.hexdigest()[:12]}",
        "shell": shell(),
        "manifest": reverse("offline_manifest"),
        "matchShell": reverse("offline_match"),
        "pages": kept_pages(),
    }
    return source.replace("/*CONFIG*/{}", json.dumps(config))


@require_GET
def match_shell(request):
    """The match page with no match in it, for a score link this phone started with no network:
    the service worker keeps it and answers it for a score link it has no page of (sw.js), and
    the phone draws the match into it from what it keeps (static/offline/offline.js)."""
    return render(request, "games/offline_match.html", {"can_score": True})


@require_GET
def state(request, public_id):
    """The match as the server has it now: the document the engine scores, its version, the
    stored number and entry key of each round, and the deleted rounds (number and entry, for
    restoring one offline) and their keys. A phone knows
    its own rounds by their keys (which only a score link ever sees)."""
    match = get_match(public_id)
    # No transaction: on SQLite it would take the write lock and queue behind saves. A save
    # landing between the reads moves the version: then read again.
    for _attempt in range(5):
        version = Match.version_of("public_id", public_id)
        match.refresh_from_db()
        rounds = list(match.rounds.values_list("number", "entry", "entry_key", "deleted"))
        if Match.version_of("public_id", public_id) == version == match.version:
            break
    live = [(number, entry, key) for number, entry, key, deleted in rounds if deleted is None]
    return JsonResponse(
        {
            "public_id": match.public_id,
            "version": match.version,
            "day": match.day.isoformat(),  # on the result card (games/cards.py)
            "document": match.document([e for _n, e, _k in live], [n for n, _e, _k in live]),
            "numbers": [number for number, _e, _k in live],
            "last": max((number for number, _e, _k, _d in rounds), default=0),
            "keys": [key for _n, _e, key in live],
            "deleted": [
                {"number": number, "entry": entry}
                for number, entry, _k, deleted in rounds
                if deleted is not None
            ],
            "deleted_keys": [key for _n, _e, key, deleted in rounds if deleted is not None and key],
        },
        json_dumps_params={"ensure_ascii": False},
    )
