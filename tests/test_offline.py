"""Scoring with no network, without a browser: what the phone draws from its bundles is what
the server draws, and the offline endpoints give what the phone needs and nothing more.

The phone's code (static/offline/phone.py and the bundles games/offline.py serves) runs here in
a separate CPython process started with -I -S: no site-packages, only what is in the bundles,
as in the browser (tests/test_browser_offline.py runs the same under Pyodide in Chromium).
"""

import html
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from games import offline, rules, views
from games.models import Match
from tests.players import played_at_the_table
from tests.test_examples import MATCHES, load

LANGUAGES = ["en", "es", "fa", "zh-hans", "mn"]
CSRF, KEY = "csrf-token-for-the-comparison", "entry-key-for-the-comparison"


@pytest.fixture(scope="module")
def bundles(tmp_path_factory):
    """The two bundles as the phone unpacks them."""
    folder = tmp_path_factory.mktemp("phone")
    for bundle in offline.BUNDLES.values():
        zipfile.ZipFile(io.BytesIO(bundle.current().data)).extractall(folder)
    return folder


PHONE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import phone
phone.setup(sys.argv[1])
out = []
for call, request in json.load(sys.stdin):
    out.append(json.loads(getattr(phone, call)(json.dumps(request))))
json.dump(out, sys.stdout)
"""


def on_the_phone(bundles, calls):
    """Run [(function, request), ...] in phone.py from the bundles alone; their answers."""
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", PHONE, str(bundles)],
        input=json.dumps(calls),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def stored_match(document):
    if document.get("joined") or document.get("left"):
        match = played_at_the_table(document)
        match.refresh_from_db()
        return match
    match = Match.objects.create(
        game=document["game"], players=document["players"], options=document.get("options") or {}
    )
    for number, entry in enumerate(document["rounds"], 1):
        match.add_round(entry, f"key-{number}")
    match.refresh_from_db()
    return match


def server_body(match, language):
    """The match body as the server draws it after a save (games.views.render_match)."""
    request = RequestFactory().get(f"/m/{match.public_id}/")
    request.htmx = True
    with translation.override(language):
        context = views.match_context(request, match, True, entry_key=KEY)
        return render_to_string(
            "games/partials/match_body.html", {**context, "csrf_token": CSRF}, request
        )


def state_of(client, match):
    return client.get(reverse("offline_state", args=[match.public_id])).json()


def at_version(html, version):
    """html as drawn for another version of its match (the form's, the live check's)."""
    html = re.sub(r'name="version" value="\d+"', f'name="version" value="{version}"', html)
    html = re.sub(r"\?v=\d+", f"?v={version}", html)
    return re.sub(r'data-version="\d+"', f'data-version="{version}"', html)


STATE_BLOCK = re.compile(r'<template id="offline-state">(.*?)</template>')


def normal(html):
    """Blank lines differ where the server's fragment cache leaves them; the state block is the
    server's alone (the phone keeps its own)."""
    return re.sub(r"\n\s*\n", "\n", STATE_BLOCK.sub("", html)).strip()


@pytest.mark.django_db
def test_the_phone_draws_the_match_screen_the_server_draws(client, bundles):
    """Every worked example, in every language: the whole match body, byte for byte (but blank
    lines), from the server's views and from the bundles on the phone."""
    cases, expected = [], []
    for path in MATCHES:
        document = load(path)
        match = stored_match(document)
        state = state_of(client, match)
        for language in LANGUAGES:
            expected.append(server_body(match, language))
            cases.append(
                ("body", {"state": state, "csrf": CSRF, "entry_key": KEY, "language": language})
            )
    answers = on_the_phone(bundles, cases)
    for (_call, request), answer, drawn in zip(cases, answers, expected):
        assert normal(answer["html"]) == normal(drawn), request["state"]["document"]["game"]


@pytest.mark.django_db
def test_rounds_entered_on_the_phone_draw_as_the_server_draws_them_once_sent(client, bundles):
    """The last two rounds of each example entered on the phone (not yet sent) give the screen
    the server gives once they are stored, but for the version the form was drawn at."""
    cases, expected = [], []
    for path in MATCHES:
        document = load(path)
        if len(document["rounds"]) < 2 or document.get("joined") or document.get("left"):
            continue  # a join or leave entered on the phone: tests/test_offline_players.py
        before = stored_match({**document, "rounds": document["rounds"][:-2]})
        state = state_of(client, before)
        match = stored_match(document)
        expected.append(at_version(server_body(match, "en"), state["version"]))
        cases.append(
            (
                "body",
                {
                    "state": {**state, "public_id": match.public_id},
                    "pending": document["rounds"][-2:],
                    "csrf": CSRF,
                    "entry_key": KEY,
                    "language": "en",
                },
            )
        )
    answers = on_the_phone(bundles, cases)
    assert len(answers) >= 8
    for answer, drawn in zip(answers, expected):
        assert normal(answer["html"]) == normal(drawn)


@pytest.mark.django_db
def test_a_save_on_the_phone_checks_and_answers_as_the_server_does(client, bundles):
    match = Match.objects.create(
        game="least_score", players=["Ann", "Bo", "Chen"], options={"threshold": 25}
    )
    state = state_of(client, match)
    good = [["declarer", "0"], ["hand-0", "7"], ["hand-1", "15"], ["hand-2", "20"]]
    bad = [["declarer", "1"], ["hand-0", "9"], ["hand-1", "5"], ["hand-2", "75"]]
    base = {"state": state, "csrf": CSRF, "entry_key": KEY, "next_key": "next", "language": "en"}
    saved, refused, preview = on_the_phone(
        bundles,
        [
            ("save", {**base, "form": good}),
            ("save", {**base, "form": bad}),
            ("preview", {**base, "form": good}),
        ],
    )
    assert saved["entry"] == {"declarer": 0, "hands": [7, 15, 20]}
    assert 'name="entry_key" value="next"' in saved["html"]
    assert html.unescape(re.sub("<[^>]+>", "", refused["error"])) == (
        "Chen's hand total must be a whole number from 1 to 50"
    )
    assert 'value="75"' in refused["html"] and f'value="{KEY}"' in refused["html"]
    assert "<bdi>Ann</bdi> declared: the declaration stands" in preview["html"]

    # The server says the same of the same forms.
    page = client.get(reverse("match", args=[match.public_id]))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())[1]
    answer = client.post(
        reverse("round_create", args=[match.public_id]),
        {**dict(bad), "csrfmiddlewaretoken": token},
        HTTP_HX_REQUEST="true",
    )
    assert refused["error"] in answer.content.decode()


def items(drawn):
    """The list items of html, as text (the typed ones marked "typed: ")."""
    found = re.findall(r'<li( class="typed")?>(.*?)</li>', drawn)
    return [
        ("typed: " if typed else "") + html.unescape(re.sub("<[^>]+>", "", text))
        for typed, text in found
    ]


@pytest.mark.django_db
def test_each_side_of_a_question_says_what_was_typed_then_what_it_scores(client, bundles):
    """The server's round (round_lines) and this phone's (its save), as each side of a question
    shows them: who declared and each hand as typed, then the breakdown (the points)."""
    match = stored_match(
        {
            "game": "least_score",
            "players": ["Ann", "Bo", "Chen"],
            "rounds": [{"declarer": 2, "hands": [30, 20, 5]}],
        }
    )
    state = state_of(client, match)
    typed = [["declarer", "1"], ["hand-0", "30"], ["hand-1", "4"], ["hand-2", "20"]]
    asked = {"state": state, "csrf": CSRF, "entry_key": KEY, "next_key": "next", "language": "en"}
    theirs, mine = on_the_phone(
        bundles,
        [
            ("round_lines", {"state": state, "position": 1, "language": "en"}),
            ("save", {**asked, "form": typed}),
        ],
    )
    assert items(theirs["html"])[:4] == [
        "typed: who declared: Chen",
        "typed: Ann, hand: 30",
        "typed: Bo, hand: 20",
        "typed: Chen, hand: 5",
    ]
    assert items(mine["lines"])[:4] == [
        "typed: who declared: Bo",
        "typed: Ann, hand: 30",
        "typed: Bo, hand: 4",
        "typed: Chen, hand: 20",
    ]
    for drawn in (theirs["html"], mine["lines"]):
        scored = items(drawn)[4:]
        assert scored and not any(line.startswith("typed: ") for line in scored)
    assert "Chen declared" in items(theirs["html"])[4]
    assert "Bo declared" in items(mine["lines"])[4]


@pytest.mark.django_db
def test_after_the_last_round_is_deleted_the_phone_numbers_the_next_round_as_the_server(
    client, bundles
):
    """A deleted round keeps its number: the round after it is stored under the next one, and
    the phone's screen links it there too (its round page, once sent)."""
    match = stored_match({"game": "least_score", "players": ["Ann", "Bo", "Chen"], "rounds": []})
    match.add_round({"declarer": 0, "hands": [7, 15, 20]}, "first")
    match.add_round({"declarer": 1, "hands": [9, 5, 4]}, "second")
    match.delete_round(2)
    state = state_of(client, match)
    entry = {"declarer": 2, "hands": [9, 8, 3]}
    request = {"state": state, "pending": [entry], "csrf": CSRF, "entry_key": KEY}
    [drawn] = on_the_phone(bundles, [("body", request)])
    stored = match.add_round(entry, "third")
    assert stored.number == 3
    assert f"/m/{match.public_id}/rounds/3/" in drawn["html"]
    assert normal(drawn["html"]) == normal(at_version(server_body(match, "en"), state["version"]))


STARTS = [
    ("least_score", {"player_0": " Ann ", "player_1": "Bo", "threshold": "۲۵"}),
    ("least_score", {"player_0": "Ann", "player_1": "Ann"}),
    ("least_score", {"player_0": "Ann", "player_1": "Bo", "halve_on": "50, 75"}),
    ("least_score", {"player_0": "Ann", "player_1": "Bo", "threshold": "5000"}),
    ("least_score", {"player_0": "Ann", "public_id": "not-a-link"}),
    ("gongzhu", {"player_0": "Ann", "player_1": "Bo", "player_2": "Chen", "player_3": "Dee"}),
]


@pytest.mark.parametrize("language", ["en", "fa"])
def test_a_match_started_on_the_phone_is_checked_and_answered_as_the_server_does(bundles, language):
    """The new-match form on the phone is the server's (games.forms.NewMatchForm): the same
    match, or the form drawn again with the same messages, in the reader's language."""
    from django.utils.datastructures import MultiValueDict

    from games import rules
    from games.forms import NewMatchForm

    calls = [
        (
            "new_match",
            {"game": slug, "form": list(form.items()), "csrf": CSRF, "language": language},
        )
        for slug, form in STARTS
    ]
    for (slug, form), answer in zip(STARTS, on_the_phone(bundles, calls), strict=True):
        game = rules.GAMES[slug]
        with translation.override(language):
            server = NewMatchForm(game, MultiValueDict({k: [v] for k, v in form.items()}))
            if server.is_valid():
                assert answer == {"match": server.match}
                continue
            drawn = render_to_string(
                "games/partials/new_match_form.html",
                {"game": game, "form": server, "csrf_token": CSRF},
            )
        assert answer == {"html": drawn}


def test_the_engine_reaches_the_phone_unchanged():
    bundle = zipfile.ZipFile(io.BytesIO(offline.BUNDLES["app"].current().data))
    for path in sorted((offline.ROOT / "games" / "rules").glob("*.py")):
        assert bundle.read(f"games/rules/{path.name}") == path.read_bytes()
    assert "games/models.py" not in bundle.namelist()  # no database on the phone


@pytest.mark.django_db
def test_the_manifest_names_the_runtime_and_bundles_by_their_content(client, monkeypatch):
    answer = client.get("/offline/manifest.json")
    assert answer["Cache-Control"] == "no-cache"
    manifest = answer.json()
    for url in manifest["bundles"]:
        bundle = client.get(url)
        assert bundle.status_code == 200 and bundle["Content-Type"] == "application/zip"
        assert "immutable" in bundle["Cache-Control"]
        assert client.get(re.sub(r"-\w+\.zip$", "-0000000000000000.zip", url)).status_code == 404
    assert client.get("/offline/nothing-0000000000000000.zip").status_code == 404
    monkeypatch.setattr(offline, "runtime_ready", lambda: False)
    assert client.get("/offline/manifest.json").json()["runtime"] is None  # offline scoring off


@pytest.mark.django_db
def test_the_service_worker_keeps_every_file_the_match_screen_loads(client):
    worker = client.get("/sw.js")
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Cache-Control"] == "no-cache"
    config = json.loads(re.search(r"const CONFIG = (\{.*?\});", worker.content.decode())[1])
    for url in config["shell"]:
        assert finders.find(url.removeprefix("/static/")), url
    match = Match.objects.create(game="least_score", players=["Ann", "Bo"])
    links = [reverse("match", args=[match.public_id]), reverse("watch", args=[match.watch_id])]
    for link in [*links, config["matchShell"], *config["pages"]]:
        page = client.get(link).content.decode()
        loaded = set(re.findall(r'(?:src|href)="(/static/[^"]+\.(?:js|css))"', page))
        assert loaded and with_imports(loaded) <= set(config["shell"])


@pytest.mark.django_db
def test_the_service_worker_keeps_the_pages_that_start_and_find_a_match(client):
    """Home, History, each game's new-match form and the match page with no match in it, into
    which the phone draws a match it started with no network."""
    worker = client.get("/sw.js").content.decode()
    config = json.loads(re.search(r"const CONFIG = (\{.*?\});", worker)[1])
    assert config["pages"] == ["/", "/matches/", *(f"/new/{slug}/" for slug in rules.GAMES)]
    shell = client.get(config["matchShell"])
    assert shell.status_code == 200
    page = shell.content.decode()
    for marked in ('id="match-body"', "data-offline-note", "data-offline-conflict", "offline.js"):
        assert marked in page
    assert "data-starting" in client.get(config["pages"][2]).content.decode()
    for listing in config["pages"][:2]:  # the matches the phone keeps are listed there too
        assert "offline/listed.js" in client.get(listing).content.decode()


@pytest.mark.django_db
def test_the_service_worker_as_a_module_sends_what_waits_too(client):
    """Where the browser has Background Sync, /sw.js?module is the same service worker with
    static/offline/sw_sync.js imported, and through it the sender every page uses."""
    classic = client.get("/sw.js").content.decode()
    module = client.get("/sw.js?module")
    assert module["Content-Type"].startswith("text/javascript")
    assert module.content.decode().startswith(classic)
    [imported] = re.findall(r'^import "([^"]+)";$', module.content.decode(), re.M)
    assert imported.endswith("/offline/sw_sync.js")
    assert with_imports({imported}) >= {
        imported,
        "/static/offline/outbox.js",
        "/static/offline/kept.js",
    }
    assert not re.search(r"^import ", classic, re.M)  # a classic script: every browser runs it


def with_imports(urls):
    """These static files, the modules they import and the workers they start, all the way."""
    found, todo = set(), list(urls)
    while todo:
        url = todo.pop()
        found.add(url)
        if url.endswith(".js"):
            source = Path(finders.find(url.removeprefix("/static/"))).read_text()
            named = re.findall(r'from "\./([\w-]+\.js)"|new URL\("([\w-]+\.js)"', source)
            folder = url.rsplit("/", 1)[0]
            todo += {f"{folder}/{name}" for pair in named for name in pair if name} - found
    return found


@pytest.mark.django_db
def test_the_match_state_is_for_score_links_only(client):
    match = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    match.add_round({"declarer": 0, "hands": [7, 15, 20]}, "first")
    match.add_round({"declarer": 1, "hands": [9, 5, 4]}, "second")
    first = match.rounds.get(number=1)
    match.delete_round(first.number)
    answer = client.get(reverse("offline_state", args=[match.public_id]))
    assert "no-store" in answer["Cache-Control"] and "private" in answer["Cache-Control"]
    state = answer.json()
    match.refresh_from_db()
    assert state["version"] == match.version == 3
    assert state["document"] == match.document()
    assert (state["numbers"], state["keys"], state["deleted_keys"]) == ([2], ["second"], ["first"])
    # A deleted round as it was, for restoring it offline; the page's state block holds it too.
    assert state["deleted"] == [{"number": 1, "entry": {"declarer": 0, "hands": [7, 15, 20]}}]
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    assert json.loads(STATE_BLOCK.search(page)[1])["deleted"] == state["deleted"]
    assert client.get(reverse("offline_state", args=[match.watch_id])).status_code == 403
    assert client.get(reverse("offline_state", args=["nothing"])).status_code == 404


def test_only_the_versioned_runtime_is_kept_for_good():
    from django.conf import settings

    immutable = re.compile(settings.WHITENOISE_IMMUTABLE_FILE_TEST)
    assert immutable.search(f"/static/offline/pyodide/{offline.PYODIDE_VERSION}/pyodide.asm.wasm")
    assert not immutable.search("/static/app.js")
    assert not immutable.search("/static/offline/offline.js")
    script = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]["script-src"]
    assert set(script) == {"'self'", "'wasm-unsafe-eval'"}  # no 'unsafe-eval', nothing inline


def test_the_fetch_script_pins_the_runtime_the_app_serves():
    script = (Path(offline.ROOT) / "scripts" / "fetch-pyodide").read_text()
    assert f"VERSION={offline.PYODIDE_VERSION} " in script
    assert re.search(r"^INTEGRITY=sha512-[A-Za-z0-9+/]{86}==$", script, re.M)


@pytest.mark.django_db
def test_every_match_body_for_a_scorer_carries_the_state_it_was_drawn_from(client):
    """The base a phone's offline rounds follow is the screen it saw: the page and each save's
    answer hold the match state (the state endpoint's, without the entry keys)."""
    match = stored_match(load(MATCHES[0]))
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    state = state_of(client, match)
    del state["keys"], state["deleted_keys"]
    assert json.loads(STATE_BLOCK.search(page)[1]) == state
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    client.post(reverse("match_close", args=[match.public_id]), {"csrfmiddlewaretoken": token})
    answer = server_body(Match.objects.get(pk=match.pk), "en")
    assert json.loads(STATE_BLOCK.search(answer)[1])["document"]["closed"] is True
    watch = client.get(reverse("watch", args=[match.watch_id])).content.decode()
    assert "offline-state" not in watch


@pytest.mark.django_db
def test_a_saves_answer_holds_the_round_it_added_to_the_state_saved_from(client):
    """The phone keeps the state of the version its form was drawn from: a save's answer holds
    only the round added to it (static/offline/base.js builds the new state from both), and
    a save without a version is stored after the version it found under the write lock, which
    its answer names too."""
    match = Match.objects.create(game="least_score", players=["Ann", "Bo", "Chen"])
    url = reverse("round_create", args=[match.public_id])
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    before = json.loads(STATE_BLOCK.search(page)[1])
    form = {"declarer": "0", "hand-0": "7", "hand-1": "15", "hand-2": "20", "version": "0"}
    answer = client.post(url, form, HTTP_HX_REQUEST="true").content.decode()
    added = json.loads(STATE_BLOCK.search(answer)[1])
    assert added == {
        "public_id": match.public_id,
        "version": 1,
        "after": 0,
        "round": {"declarer": 0, "hands": [7, 15, 20]},
        "number": 1,
    }
    after = state_of(client, match)
    assert after["document"] == {**before["document"], "rounds": [added["round"]]}
    assert after["numbers"] == [*before["numbers"], added["number"]]
    unversioned = {name: value for name, value in form.items() if name != "version"}
    answer = client.post(url, {**unversioned, "declarer": "1"}, HTTP_HX_REQUEST="true")
    added = json.loads(STATE_BLOCK.search(answer.content.decode())[1])
    assert (added["after"], added["version"], added["number"]) == (1, 2, 2)


@pytest.mark.django_db
def test_the_state_block_holds_no_markup_whatever_the_names(client):
    match = Match.objects.create(game="least_score", players=["</template><b>Ann", "Bo & Co"])
    page = client.get(reverse("match", args=[match.public_id])).content.decode()
    text = STATE_BLOCK.search(page)[1]
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["document"]["players"] == ["</template><b>Ann", "Bo & Co"]


@pytest.mark.django_db
def test_the_offline_urls_refuse_what_they_do_not_serve(client):
    """Every method and odd tokens: never a server error, only GET answered."""
    match = Match.objects.create(game="least_score", players=["Ann", "Bo"])
    tokens = [match.public_id, match.watch_id, "nosuchmatch", "x" * 300, "%F0%9F%82%A1", "0"]
    paths = [
        "/sw.js",
        "/offline/manifest.json",
        "/offline/app-0.zip",
        "/offline/nothing-x.zip",
        *[f"/offline/app-{token}.zip" for token in tokens],
        *[f"/m/{token}/offline.json" for token in tokens],
    ]
    paths += [offline.manifest()["bundles"][0] + "?v=1"]
    for path in paths:
        for method in ("get", "post", "put", "delete", "head", "options"):
            status = getattr(client, method)(path).status_code
            assert status < 500, (method, path, status)
            if method not in ("get", "head"):
                assert status in (403, 404, 405), (method, path, status)


@pytest.mark.django_db
def test_a_deleted_round_is_restored_on_the_phone_as_the_server_restores_it(client, bundles):
    """Offline, the phone lists the deleted rounds as the server draws them, and restores one
    with the match checked as Match.restore_round checks it: refused in the server's words."""
    answers = {}
    for threshold in (25, 100):
        match = Match.objects.create(
            game="least_score", players=["Ann", "Bo", "Chen"], options={"threshold": threshold}
        )
        for key, (declarer, hands) in enumerate([(0, [7, 15, 20]), (1, [9, 5, 4])]):
            match.add_round({"declarer": declarer, "hands": hands}, f"key-{key}")
        match.delete_round(1)
        match.add_round({"declarer": 2, "hands": [14, 12, 3]}, "key-2")
        base = {"state": state_of(client, match), "csrf": CSRF, "entry_key": KEY}
        restore = {**base, "change": {"kind": "restore", "number": 1}}
        answers[threshold] = on_the_phone(bundles, [("body", base), ("change", restore)])
        drawn = server_body(Match.objects.get(pk=match.pk), "en")
        assert normal(answers[threshold][0]["html"]) == normal(drawn)
        assert "Deleted round, before round 1" in drawn
    refused = answers[25][1]
    why = "This round cannot be restored: round 3: Bo is out and has no hand"
    assert html.unescape(re.sub(r"<[^>]+>", "", refused["error"])) == why
    assert refused["error"] in refused["html"]
    restored = answers[100][1]
    assert restored["change"] == {"kind": "restore", "number": 1} and restored["position"] == 1
    version = match.version
    match.restore_round(1)
    drawn = server_body(Match.objects.get(pk=match.pk), "en")
    assert normal(restored["html"]) == normal(at_version(drawn, version))
    assert "Deleted round" not in drawn
